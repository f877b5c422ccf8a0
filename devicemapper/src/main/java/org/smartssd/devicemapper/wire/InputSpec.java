package org.smartssd.devicemapper.wire;

import java.nio.charset.StandardCharsets;

/**
 * How the device presents a job's input records, decided once by the host from the job's input
 * format and its configuration, and sent as the tasklet's {@code input} parameter: the device reads
 * no input-format key of its own.
 *
 * <ul>
 *   <li>{@code fixed-length:N}: as {@code FixedLengthInputFormat} with records of N bytes;
 *   <li>{@code lines}: as {@code TextInputFormat} without a record delimiter (a line ends at '\n',
 *       "\r\n" or a lone '\r');
 *   <li>{@code delimited:B}: as {@code TextInputFormat} with the one-byte delimiter B (0 to 255);
 *   <li>{@code key-value:S}: as {@code KeyValueTextInputFormat}: lines, each cut at its first byte S
 *       (0 to 255) into a key and a value.
 *   <li>{@code sequence}: as {@code SequenceFileInputFormat}: the Writable keys and values of an
 *       uncompressed SequenceFile, from the first sync mark in the split (the file's header and sync
 *       mark are the split's own parameters).
 * </ul>
 *
 * <p>Any but {@code sequence} may be prefixed {@code gzip+} or {@code deflate+}: the split is a whole
 * gzip file (one or more members, as Hadoop's {@code GzipCodec} reads it) or zlib file (one or more
 * streams, as its {@code DefaultCodec} reads it), which the device decompresses before it presents
 * the records, with their offsets in the decompressed stream as Hadoop's readers give them.
 *
 * <p>Any but {@code sequence} may be prefixed {@code bzip2+}: a bzip2 file (Hadoop's {@code
 * BZip2Codec}, one or more streams). Text records ({@code lines}, {@code delimited}, {@code
 * key-value}) are read from a split of it, from its first block at or after the split's start, as
 * {@code LineRecordReader} reads a split of a bzip2 file (block by block), with its keys: the split's
 * start plus the decompressed bytes before the record. Fixed-length records are read from the whole
 * file, which is one split ({@code FixedLengthInputFormat} does not split compressed files), with
 * their offsets in the decompressed stream. The split's file length, the level in the file's header
 * and the job's {@code io.file.buffer.size} go to the device as parameters of their own.
 *
 * @param compression how the split's bytes are compressed
 * @param recordLength the record length (fixed-length only, else 0)
 * @param delimiter the record delimiter (delimited) or the key/value separator (key-value), else 0
 */
public record InputSpec(Kind kind, int recordLength, byte delimiter, Compression compression) {

  public enum Kind {
    FIXED_LENGTH,
    LINES,
    DELIMITED,
    KEY_VALUE,
    SEQUENCE
  }

  public enum Compression {
    NONE(""),
    /** Hadoop's {@code GzipCodec} ({@code .gz}): gzip members. */
    GZIP("gzip+"),
    /** Hadoop's {@code DefaultCodec} ({@code .deflate}): zlib streams. */
    DEFLATE("deflate+"),
    /** Hadoop's {@code BZip2Codec} ({@code .bz2}): bzip2 streams, split by their blocks. */
    BZIP2("bzip2+");

    private final String prefix;

    Compression(String prefix) {
      this.prefix = prefix;
    }
  }

  public InputSpec {
    if (kind == null) {
      throw new IllegalArgumentException("input kind is missing");
    }
    if (compression == null) {
      throw new IllegalArgumentException("input compression is missing");
    }
    if (kind == Kind.SEQUENCE && compression != Compression.NONE) {
      throw new IllegalArgumentException("a SequenceFile is read as it is stored, not through a codec");
    }
    if (kind == Kind.FIXED_LENGTH && recordLength <= 0) {
      throw new IllegalArgumentException("fixed record length " + recordLength + " is invalid. It should be set to a"
          + " value greater than zero");
    }
  }

  public static InputSpec fixedLength(int recordLength) {
    return new InputSpec(Kind.FIXED_LENGTH, recordLength, (byte) 0, Compression.NONE);
  }

  public static InputSpec lines() {
    return new InputSpec(Kind.LINES, 0, (byte) 0, Compression.NONE);
  }

  public static InputSpec delimited(byte delimiter) {
    return new InputSpec(Kind.DELIMITED, 0, delimiter, Compression.NONE);
  }

  public static InputSpec sequence() {
    return new InputSpec(Kind.SEQUENCE, 0, (byte) 0, Compression.NONE);
  }

  public static InputSpec keyValue(byte separator) {
    return new InputSpec(Kind.KEY_VALUE, 0, separator, Compression.NONE);
  }

  /**
   * The key/value lines of {@code mapreduce.input.keyvaluelinerecordreader.key.value.separator}'s
   * value (null when unset: a tab), taken as Hadoop's {@code KeyValueLineRecordReader} takes it: its
   * first character, cast to a byte.
   *
   * @throws IllegalArgumentException when it is empty
   */
  public static InputSpec keyValue(String separator) {
    String s = separator == null ? "\t" : separator;
    if (s.isEmpty()) {
      throw new IllegalArgumentException("the key/value separator is empty");
    }
    return keyValue((byte) s.charAt(0));
  }

  /**
   * The text records of {@code textinputformat.record.delimiter}'s value (null when unset).
   *
   * @throws IllegalArgumentException when it is not one byte in UTF-8: the device cuts records at one byte
   */
  public static InputSpec text(String recordDelimiter) {
    if (recordDelimiter == null) {
      return lines();
    }
    byte[] bytes = recordDelimiter.getBytes(StandardCharsets.UTF_8);
    if (bytes.length != 1) {
      throw new IllegalArgumentException("the device cuts records at one byte; textinputformat.record.delimiter has "
          + bytes.length);
    }
    return delimited(bytes[0]);
  }

  /** This spec over input compressed as {@code compression}. */
  public InputSpec compressed(Compression compression) {
    return new InputSpec(kind, recordLength, delimiter, compression);
  }

  public String encode() {
    return compression.prefix + switch (kind) {
      case FIXED_LENGTH -> "fixed-length:" + recordLength;
      case LINES -> "lines";
      case DELIMITED -> "delimited:" + (delimiter & 0xFF);
      case KEY_VALUE -> "key-value:" + (delimiter & 0xFF);
      case SEQUENCE -> "sequence";
    };
  }

  /** The spec {@link #encode()} wrote; an error names what was wrong. */
  public static InputSpec parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("the input spec is missing");
    }
    for (Compression c : Compression.values()) {
      if (c != Compression.NONE && text.startsWith(c.prefix)) {
        InputSpec records = parse(text.substring(c.prefix.length()));
        if (records.compression != Compression.NONE) {
          throw new IllegalArgumentException("bad input spec '" + text + "': compressed twice");
        }
        return records.compressed(c);
      }
    }
    if (text.equals("lines")) {
      return lines();
    }
    if (text.equals("sequence")) {
      return sequence();
    }
    int colon = text.indexOf(':');
    String kind = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + 1);
    try {
      if (kind.equals("fixed-length")) {
        return fixedLength(Integer.parseInt(value));
      }
      if (kind.equals("delimited") || kind.equals("key-value")) {
        int b = Integer.parseInt(value);
        if (b < 0 || b > 255) {
          throw new IllegalArgumentException((kind.equals("delimited") ? "delimiter " : "separator ") + b
              + " is not a byte (0 to 255)");
        }
        return kind.equals("delimited") ? delimited((byte) b) : keyValue((byte) b);
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad input spec '" + text + "': '" + value + "' is not a number");
    }
    throw new IllegalArgumentException("unknown input spec '" + text
        + "' (fixed-length:N, lines, delimited:B, key-value:S or sequence, the first four perhaps after gzip+, deflate+ or bzip2+)");
  }
}
