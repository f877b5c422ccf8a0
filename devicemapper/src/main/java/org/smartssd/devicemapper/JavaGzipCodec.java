package org.smartssd.devicemapper;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.GzipCodec;
import org.smartssd.devicemapper.tasklet.GzipInflater;

/**
 * Hadoop's {@code GzipCodec}, whose decompression is done in Java by the inflater the device runs
 * ({@link GzipInflater}) instead of by zlib. Its work is then code a counting host counts, as the
 * device counts it, so that host and device modes are modelled from the same count of the same
 * work: zlib's work, native, is not seen by the counting agent (a call into it counts as moving its
 * bytes). Compression is {@code GzipCodec}'s own. Registered for {@code .gz} by naming it in {@code
 * io.compression.codecs} (a codec named there takes an extension from the built-in one); the log
 * analysis does so unless told otherwise.
 */
public class JavaGzipCodec extends GzipCodec {

  /** How much compressed input is decompressed at a time: bounds what one step can expand to. */
  private static final int INPUT_STEP = 8192;

  @Override
  public CompressionInputStream createInputStream(InputStream in) throws IOException {
    return new Stream(in);
  }

  @Override
  public CompressionInputStream createInputStream(InputStream in, Decompressor decompressor) throws IOException {
    return new Stream(in);
  }

  /** None: the stream decompresses by itself ({@code CodecPool} takes a null decompressor). */
  @Override
  public Decompressor createDecompressor() {
    return null;
  }

  @Override
  public Class<? extends Decompressor> getDecompressorType() {
    return null;
  }

  private static final class Stream extends CompressionInputStream {
    private final byte[] input = new byte[INPUT_STEP];
    private byte[] output = new byte[64 * 1024];
    private int outputStart;
    private int outputEnd;
    private GzipInflater inflater = new GzipInflater(this::decompressed);
    private boolean ended;

    Stream(InputStream in) throws IOException {
      super(in);
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
          if (inflater.compressedBytes() == 0) { // as GzipCodec's own stream
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

    /** Starts on a new gzip stream from the underlying stream's position. */
    @Override
    public void resetState() {
      inflater = new GzipInflater(this::decompressed);
      outputStart = 0;
      outputEnd = 0;
      ended = false;
    }
  }
}
