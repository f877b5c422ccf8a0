package org.smartssd.device.client;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A socket's streams that count the bytes which really went through them (below any buffering),
 * for {@link DeviceClient#transferCounts()}. A count is added once the socket's call returns.
 */
final class CountingStreams {
  private CountingStreams() {}

  static InputStream counting(InputStream in, AtomicLong count) {
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
          count.incrementAndGet();
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
          count.addAndGet(n);
        }
        return n;
      }

      @Override
      public long skip(long n) throws IOException {
        long skipped = in.skip(n);
        if (skipped > 0) {
          count.addAndGet(skipped);
        }
        return skipped;
      }
    };
  }

  static OutputStream counting(OutputStream out, AtomicLong count) {
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        out.write(b);
        count.incrementAndGet();
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len); // FilterOutputStream's own would write byte by byte
        count.addAndGet(len);
      }
    };
  }
}
