package org.smartssd.device.tasklet;

/**
 * How the engine presents the input to a tasklet.
 *
 * @param recordLength the records' length (FIXED_LENGTH), else 0
 * @param delimiter where records end (DELIMITED), else 0
 * @param readPastEnd how many bytes after the range's end a STREAM also reads (for a reader whose
 *     last record, or the mark that ends its part, may lie past it), else 0
 */
public record RecordFormat(Kind kind, int recordLength, byte delimiter, int readPastEnd) {

  public enum Kind {
    /** Bytes as read, each byte once, with its offset. */
    RAW,
    /** Records of {@code recordLength} bytes, counted from the start of the object. */
    FIXED_LENGTH,
    /**
     * Records ended by {@code delimiter}, as Hadoop's {@code TextInputFormat} cuts lines: a record
     * starts at the object's start or after a delimiter, and includes its delimiter (the object's
     * last record may have none).
     */
    DELIMITED,
    /**
     * The range's bytes in order of offset, each once, all to one lane: the lane of the channel
     * holding the range's first byte. For input that only one reader can take apart from its start,
     * such as a compressed stream; the other lanes read their channels' pages and pass them on.
     */
    STREAM
  }

  public RecordFormat {
    if (kind == null) {
      throw new IllegalArgumentException("record format kind is missing");
    }
    if (kind == Kind.FIXED_LENGTH && recordLength <= 0) {
      throw new IllegalArgumentException("fixed-length records need a positive length, not " + recordLength);
    }
    if (readPastEnd < 0 || (readPastEnd > 0 && kind != Kind.STREAM)) {
      throw new IllegalArgumentException("only a stream reads past its range's end, and not " + readPastEnd + " bytes");
    }
  }

  public static RecordFormat raw() {
    return new RecordFormat(Kind.RAW, 0, (byte) 0, 0);
  }

  public static RecordFormat fixedLength(int recordLength) {
    return new RecordFormat(Kind.FIXED_LENGTH, recordLength, (byte) 0, 0);
  }

  public static RecordFormat delimited(byte delimiter) {
    return new RecordFormat(Kind.DELIMITED, 0, delimiter, 0);
  }

  public static RecordFormat stream() {
    return stream(0);
  }

  /** A stream of the range and {@code readPastEnd} bytes after it (cut at the object's end). */
  public static RecordFormat stream(int readPastEnd) {
    return new RecordFormat(Kind.STREAM, 0, (byte) 0, readPastEnd);
  }

  /** Lines ended by '\n'. */
  public static RecordFormat lines() {
    return delimited((byte) '\n');
  }
}
