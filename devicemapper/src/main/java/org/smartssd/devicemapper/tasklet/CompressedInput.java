package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.RecordBoundaries;
import org.smartssd.devicemapper.wire.InputSpec;

/**
 * A compressed split, taken apart in the device: the lane that owns it gets its bytes in order (the
 * engine's {@code STREAM} format), decompresses them (gzip members or zlib streams: {@link
 * GzipInflater}; bzip2 streams, for fixed-length records, which Hadoop reads from the whole file:
 * {@link Bzip2Decoder}; work the device counts as it counts the job's), and cuts what comes out into chunks of whole records at their
 * offsets in the decompressed stream, which it hands on to be presented as the job's input format
 * presents them ({@link InputRecords}). Those offsets are the keys Hadoop's readers give records of
 * a compressed file: {@code LineRecordReader} and {@code FixedLengthRecordReader} count positions in
 * the decompressed stream, from 0.
 *
 * <ul>
 *   <li>Text (lines, delimited, key/value lines): a chunk ends after the last delimiter seen ('\n'
 *       for lines, which keeps "\r\n" whole); what follows the last one goes out at the end, as the
 *       last record. A record longer than the device allows ({@code maxRecordBytes}) fails the
 *       execution, as the engine fails one it cuts itself.
 *   <li>Fixed-length records of n bytes: chunks of whole records; bytes left over at the end are the
 *       error {@code FixedLengthRecordReader} gives.
 * </ul>
 */
final class CompressedInput {

  /** Receives chunks of whole records, valid only during the call. */
  interface Records {
    void accept(DataChunk chunk) throws Exception;
  }

  private final String path;
  private final int recordLength;
  private final byte delimiter;
  private final int maxRecordBytes;
  private final Records records;
  private final Decompressor inflater;
  /** Decompressed bytes not yet handed on: a partial record, then what was just decompressed. */
  private byte[] pending = new byte[64 * 1024];
  private int pendingLength;
  /** The decompressed offset of {@code pending[0]}. */
  private long pendingOffset;
  private byte[] input = new byte[0];
  /** The ends of the text records found in what was just decompressed. */
  private int[] ends = new int[1024];
  /** Where the next compressed chunk starts, or -1 before the first. */
  private long nextOffset = -1;

  /** What decompresses: {@link GzipInflater} or {@link Bzip2Decoder}. */
  private interface Decompressor {
    void feed(byte[] input, int offset, int length) throws IOException;

    void finish() throws IOException;

    long compressedBytes();

    long decompressedBytes();
  }

  /** The job's own exception, carried out through the inflater. */
  private static final class JobFailure extends IOException {
    JobFailure(Exception cause) {
      super(cause);
    }
  }

  /**
   * @param recordLength fixed-length records of this many bytes, or 0 for text
   * @param delimiter where text records end (unused for fixed-length records)
   */
  CompressedInput(String path, int recordLength, byte delimiter, int maxRecordBytes, Records records) {
    this(path, false, recordLength, delimiter, maxRecordBytes, records);
  }

  /** @param zlib whether the file is zlib streams (Hadoop's {@code DefaultCodec}) rather than gzip members */
  CompressedInput(String path, boolean zlib, int recordLength, byte delimiter, int maxRecordBytes, Records records) {
    this(path, zlib ? InputSpec.Compression.DEFLATE : InputSpec.Compression.GZIP, 0, recordLength, delimiter,
        maxRecordBytes, records);
  }

  /**
   * @param compression gzip, zlib, or bzip2 read from the file's start as whole streams
   * @param level bzip2 only: the block size level in the file's header (1 to 9), the largest the
   *     decoder takes
   */
  CompressedInput(String path, InputSpec.Compression compression, int level, int recordLength, byte delimiter,
      int maxRecordBytes, Records records) {
    this.path = path;
    this.recordLength = recordLength;
    this.delimiter = delimiter;
    this.maxRecordBytes = maxRecordBytes;
    this.records = records;
    this.inflater = switch (compression) {
      case GZIP -> inflater(new GzipInflater(this::decompressed));
      case DEFLATE -> inflater(GzipInflater.zlib(this::decompressed));
      case BZIP2 -> decoder(new Bzip2Decoder(this::decompressed, level));
      case NONE -> throw new IllegalArgumentException(path + ": not compressed");
    };
  }

  private static Decompressor inflater(GzipInflater inflater) {
    return new Decompressor() {
      @Override
      public void feed(byte[] input, int offset, int length) throws IOException {
        inflater.feed(input, offset, length);
      }

      @Override
      public void finish() throws IOException {
        inflater.finish();
      }

      @Override
      public long compressedBytes() {
        return inflater.compressedBytes();
      }

      @Override
      public long decompressedBytes() {
        return inflater.decompressedBytes();
      }
    };
  }

  private Decompressor decoder(Bzip2Decoder decoder) {
    return new Decompressor() {
      @Override
      public void feed(byte[] input, int offset, int length) throws IOException {
        try {
          decoder.feed(input, offset, length);
        } catch (java.util.zip.ZipException e) {
          throw new java.util.zip.ZipException(path + ": " + e.getMessage());
        }
      }

      @Override
      public void finish() throws IOException {
        try {
          decoder.finish();
        } catch (java.util.zip.ZipException e) {
          throw new java.util.zip.ZipException(path + ": " + e.getMessage());
        }
      }

      @Override
      public long compressedBytes() {
        return decoder.compressedBytes();
      }

      @Override
      public long decompressedBytes() {
        return decoder.decompressedBytes();
      }
    };
  }

  /** The next chunk of the compressed split, in order. */
  void feed(DataChunk chunk) throws Exception {
    if (nextOffset >= 0 && chunk.offset() != nextOffset) {
      throw new IOException(path + ": compressed bytes at " + chunk.offset() + " came where " + nextOffset
          + " was next; the device must hand a compressed split over in order");
    }
    ByteBuffer data = chunk.data();
    nextOffset = chunk.offset() + data.remaining();
    int n = data.remaining();
    if (input.length < n) {
      input = new byte[Math.max(n, 2 * input.length)];
    }
    data.duplicate().get(input, 0, n);
    try {
      inflater.feed(input, 0, n);
    } catch (JobFailure e) {
      throw (Exception) e.getCause();
    }
  }

  /** The split's end: hands on the last record, or fails on what cannot be one. */
  void finish() throws Exception {
    try {
      inflater.finish();
    } catch (JobFailure e) {
      throw (Exception) e.getCause();
    }
    if (pendingLength == 0) {
      return;
    }
    if (recordLength > 0) {
      throw new IOException(path + ": Partial record(length = " + pendingLength + ") found at the end of split.");
    }
    try {
      handOn(pendingLength, RecordBoundaries.single(pendingLength)); // the last record, without its delimiter
    } catch (JobFailure e) {
      throw (Exception) e.getCause();
    }
  }

  long compressedBytes() {
    return inflater.compressedBytes();
  }

  long decompressedBytes() {
    return inflater.decompressedBytes();
  }

  /**
   * The inflater's output: appended, and the whole records in it handed on, with their ends found
   * here (text records scanned for once, as the engine scans the records it cuts).
   */
  private void decompressed(byte[] bytes, int offset, int length) throws IOException {
    if (pending.length - pendingLength < length) {
      byte[] larger = new byte[Math.max(pendingLength + length, 2 * pending.length)];
      System.arraycopy(pending, 0, larger, 0, pendingLength);
      pending = larger;
    }
    System.arraycopy(bytes, offset, pending, pendingLength, length);
    int from = pendingLength;
    pendingLength += length;
    if (recordLength > 0) {
      int records = pendingLength / recordLength;
      if (records > 0) {
        handOn(records * recordLength, RecordBoundaries.fixed(recordLength, records));
      }
      return;
    }
    int count = 0;
    int recordStart = 0;
    for (int i = from; i < pendingLength; i++) {
      if (pending[i] == delimiter) {
        if (i + 1 - recordStart > maxRecordBytes) {
          throw tooLong(recordStart);
        }
        if (count == ends.length) {
          ends = java.util.Arrays.copyOf(ends, 2 * ends.length);
        }
        ends[count++] = i + 1;
        recordStart = i + 1;
      }
    }
    if (pendingLength - recordStart > maxRecordBytes) {
      throw tooLong(recordStart);
    }
    if (count > 0) {
      handOn(recordStart, RecordBoundaries.of(ends, 0, count, 0));
    }
  }

  private IOException tooLong(int recordStart) {
    return new IOException(path + ": the record at byte " + (pendingOffset + recordStart) + " of the decompressed "
        + "stream is longer than " + maxRecordBytes + " bytes, the most the device allows "
        + "(smartssd.device.isp.max-record-bytes)");
  }

  /** Hands on the first {@code length} pending bytes, whole records ending as {@code ends} says. */
  private void handOn(int length, RecordBoundaries ends) throws IOException {
    try {
      records.accept(new DataChunk(path, pendingOffset, ByteBuffer.wrap(pending, 0, length).asReadOnlyBuffer(), ends));
    } catch (Exception e) {
      throw new JobFailure(e);
    }
    System.arraycopy(pending, length, pending, 0, pendingLength - length);
    pendingLength -= length;
    pendingOffset += length;
  }
}
