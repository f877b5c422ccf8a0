package org.smartssd.examples.mining;

import java.io.ByteArrayOutputStream;

/**
 * Unsigned LEB128 varints (7 bits a byte, low first, the high bit set on every byte but a value's last):
 * how the mining jobs pack their vectors and candidates into the job's configuration.
 */
public final class Varints {
  private Varints() {}

  /** The values, each 0 or more, as varints. */
  public static byte[] encode(long[] values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(values.length * 3);
    for (long v : values) {
      if (v < 0) {
        throw new IllegalArgumentException("a negative value: " + v);
      }
      while ((v & ~0x7fL) != 0) {
        out.write((int) (v & 0x7f) | 0x80);
        v >>>= 7;
      }
      out.write((int) v);
    }
    return out.toByteArray();
  }

  /**
   * The values of varints.
   *
   * @param what what they are, for the error
   * @throws IllegalArgumentException naming {@code what} when a value is longer than a long or cut short
   */
  public static long[] decode(byte[] b, String what) {
    int count = 0;
    for (byte x : b) {
      if (x >= 0) {
        count++;
      }
    }
    if (b.length > 0 && b[b.length - 1] < 0) {
      throw new IllegalArgumentException(what + " ends inside a value");
    }
    long[] values = new long[count];
    for (int i = 0, n = 0; n < count; n++) {
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        if (shift > 63) {
          throw new IllegalArgumentException(what + ": value " + n + " is longer than a long");
        }
        byte x = b[i++];
        v |= (long) (x & 0x7f) << shift;
        if (x >= 0) {
          break;
        }
      }
      values[n] = v;
    }
    return values;
  }
}
