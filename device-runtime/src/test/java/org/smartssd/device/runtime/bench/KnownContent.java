package org.smartssd.device.runtime.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.smartssd.device.client.DeviceClient;

/**
 * The content of a benchmark's file, a function of its seed and the offset: any part of it can be
 * made again to check what the device returns, without keeping the files in memory.
 */
final class KnownContent {
  /** Bytes read from the device at a time when checking a file. */
  static final int READ_BYTES = 1 << 20;

  private KnownContent() {}

  /** The file's bytes from {@code offset}, into {@code dst[off, off + len)}. */
  static void fill(long seed, long offset, byte[] dst, int off, int len) {
    for (int i = 0; i < len; ) {
      long at = offset + i;
      long word = mix(seed, at >>> 3);
      int skip = (int) (at & 7);
      for (int b = skip; b < 8 && i < len; b++, i++) {
        dst[off + i] = (byte) (word >>> (8 * b));
      }
    }
  }

  /**
   * Reads {@code length} bytes of the object from the device and compares them with the content.
   *
   * @return how many bytes from the start are right (the offset of the first wrong or missing byte)
   */
  static long rightPrefix(DeviceClient c, long objectId, long seed, long length) throws IOException {
    ByteBuffer got = ByteBuffer.allocate(READ_BYTES);
    byte[] want = new byte[READ_BYTES];
    long offset = 0;
    while (offset < length) {
      got.clear().limit((int) Math.min(READ_BYTES, length - offset));
      int n = c.read(objectId, offset, got);
      if (n <= 0) {
        return offset;
      }
      fill(seed, offset, want, 0, n);
      byte[] g = got.array();
      for (int i = 0; i < n; i++) {
        if (g[i] != want[i]) {
          return offset + i;
        }
      }
      offset += n;
    }
    return offset;
  }

  /** SplitMix64 of the seed and the word's index: fast, and no two files alike. */
  private static long mix(long seed, long index) {
    long z = seed * 0x9E37_79B9_7F4A_7C15L + index * 0xD1B5_4A32_D192_ED03L;
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }
}
