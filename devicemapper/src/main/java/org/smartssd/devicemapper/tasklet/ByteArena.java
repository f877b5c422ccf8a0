package org.smartssd.devicemapper.tasklet;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Bytes appended one after another into a growing array: the lane buffer's keys and values. */
final class ByteArena {
  byte[] data;
  int length;

  ByteArena(int capacity) {
    data = new byte[Math.max(16, capacity)];
  }

  /** Room for {@code n} more bytes. */
  void ensure(int n) {
    if (data.length - length < n) {
      data = Arrays.copyOf(data, Math.max(length + n, data.length * 2));
    }
  }

  void append(byte[] b, int offset, int n) {
    ensure(n);
    System.arraycopy(b, offset, data, length, n);
    length += n;
  }

  /**
   * A non-negative int as Hadoop's {@code WritableUtils.writeVInt} writes it: one byte up to 127, else a
   * byte saying how many follow (-113 for one, down to -116 for four), then the value's bytes, big-endian.
   */
  void vint(int v) {
    ensure(5);
    if (v <= 127) {
      data[length++] = (byte) v;
      return;
    }
    int bytes = v > 0xFFFFFF ? 4 : v > 0xFFFF ? 3 : v > 0xFF ? 2 : 1;
    data[length++] = (byte) (-112 - bytes);
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
      data[length++] = (byte) (v >>> shift);
    }
  }

  /** The bytes of a vint whose first byte is {@code first} ({@code WritableUtils.decodeVIntSize}). */
  static int vintSize(byte first) {
    if (first >= -112) {
      return 1;
    }
    return first < -120 ? -119 - first : -111 - first;
  }

  void reset() {
    length = 0;
  }

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long M = 0x9E3779B97F4A7C15L;

  /**
   * A hash of {@code b[offset, offset + length)} that depends on every byte and on nothing else (not on
   * the array or the offset): its bytes eight at a time, the last eight overlapping the ones before when
   * the length is not a multiple of eight, then a finalizer (MurmurHash3's), so that the low bits a table
   * uses depend on every byte.
   */
  static int hash(byte[] b, int offset, int length) {
    long h = M ^ length;
    int end = offset + length;
    if (length >= 8) {
      int i = offset;
      for (; i + 8 < end; i += 8) {
        h = (h ^ (long) LONGS.get(b, i)) * M;
      }
      h = (h ^ (long) LONGS.get(b, end - 8)) * M;
    } else if (length > 0) {
      long w;
      if (b.length - offset >= 8) {
        w = (long) LONGS.get(b, offset) & (-1L >>> (64 - 8 * length));
      } else if (end >= 8) {
        w = (long) LONGS.get(b, end - 8) >>> (64 - 8 * length);
      } else {
        w = 0;
        for (int i = 0; i < length; i++) {
          w |= (b[offset + i] & 0xFFL) << (8 * i);
        }
      }
      h = (h ^ w) * M;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return (int) h;
  }
}
