package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A scan of one file's bytes in order that finds records of interest as it goes ({@link FileScanTasklet}):
 * it keeps what it found until taken.
 */
public abstract class SeriesScan {
  private byte[] out = new byte[512];
  private int outLength;
  /** Samples (or whatever units the scan counts) read so far. */
  protected long samples;

  /** Takes the next bytes. */
  public abstract void accept(ByteBuffer data);

  /** The file ended. */
  public abstract void finish();

  /** Samples (or whatever units the scan counts) read so far. */
  public final long samples() {
    return samples;
  }

  /** Bytes of records found and not yet taken. */
  public final int pendingBytes() {
    return outLength;
  }

  /** The records found since the last call, and forgets them. */
  public final byte[] take() {
    byte[] taken = java.util.Arrays.copyOf(out, outLength);
    outLength = 0;
    return taken;
  }

  /** Room for one record found, of {@code bytes}, to be filled little-endian. */
  protected final ByteBuffer record(int bytes) {
    if (outLength + bytes > out.length) {
      out = java.util.Arrays.copyOf(out, Math.max(out.length * 2, outLength + bytes));
    }
    ByteBuffer b = ByteBuffer.wrap(out, outLength, bytes).order(ByteOrder.LITTLE_ENDIAN);
    outLength += bytes;
    return b;
  }
}
