package org.smartssd.devicemapper;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.smartssd.devicemapper.tasklet.GzipInflater;

/**
 * A compressed file read with the device's Java inflater ({@link GzipInflater}): gzip members or zlib
 * streams, one after another, as Hadoop's {@code DecompressorStream} reads them. An empty file is the
 * error Hadoop's gives.
 */
final class JavaInflaterStream extends CompressionInputStream {
  /** How much compressed input is decompressed at a time: bounds what one step can expand to. */
  private static final int INPUT_STEP = 8192;

  private final byte[] input = new byte[INPUT_STEP];
  private byte[] output = new byte[64 * 1024];
  private int outputStart;
  private int outputEnd;
  private final boolean zlib;
  private GzipInflater inflater;
  private boolean ended;

  JavaInflaterStream(InputStream in, boolean zlib) throws IOException {
    super(in);
    this.zlib = zlib;
    this.inflater = newInflater();
  }

  private GzipInflater newInflater() {
    return zlib ? GzipInflater.zlib(this::decompressed) : new GzipInflater(this::decompressed);
  }

  private void decompressed(byte[] bytes, int offset, int length) {
    if (output.length - outputEnd < length) {
      int kept = outputEnd - outputStart;
      byte[] target = kept + length <= output.length ? output : new byte[Math.max(kept + length, 2 * output.length)];
      System.arraycopy(output, outputStart, target, 0, kept);
      output = target;
      outputStart = 0;
      outputEnd = kept;
    }
    System.arraycopy(bytes, offset, output, outputEnd, length);
    outputEnd += length;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (outputStart == outputEnd) {
      if (ended) {
        return -1;
      }
      outputStart = 0;
      outputEnd = 0;
      int n = in.read(input, 0, input.length);
      if (n < 0) {
        if (inflater.compressedBytes() == 0) { // as Hadoop's DecompressorStream
          throw new java.io.EOFException("Unexpected end of input stream");
        }
        inflater.finish();
        ended = true;
      } else {
        inflater.feed(input, 0, n);
      }
    }
    int n = Math.min(len, outputEnd - outputStart);
    System.arraycopy(output, outputStart, b, off, n);
    outputStart += n;
    return n;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  /** Starts on a new stream from the underlying stream's position. */
  @Override
  public void resetState() {
    inflater.reset();
    outputStart = 0;
    outputEnd = 0;
    ended = false;
  }
}
