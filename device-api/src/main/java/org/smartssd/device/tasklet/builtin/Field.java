package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;

/**
 * An unsigned big-endian field of 1 to 8 bytes inside a fixed-length record, optionally shifted
 * right and masked (the World Cup trace keeps its region in the top three bits of a byte).
 */
record Field(int offset, int length, int shift, long mask) {

  static Field read(Parameters p, String prefix, int recordLength) {
    int offset = (int) p.number(prefix + "-offset", 0, recordLength - 1);
    int length = (int) p.number(prefix + "-length", 1, 8, 4);
    if (offset + length > recordLength) {
      throw new IllegalArgumentException("field " + prefix + " (" + offset + "+" + length + " bytes) does not fit in a "
          + recordLength + "-byte record");
    }
    int shift = (int) p.number(prefix + "-shift", 0, 63, 0);
    long mask = p.has(prefix + "-mask") ? p.number(prefix + "-mask", 0, Long.MAX_VALUE) : -1L;
    return new Field(offset, length, shift, mask);
  }

  /** The field's value in the record starting at {@code base} of {@code data} (whatever its byte order). */
  long get(ByteBuffer data, int base) {
    int at = base + offset;
    long v;
    // Big-endian, as the multi-byte getters read it only in that order.
    switch (data.order() == java.nio.ByteOrder.BIG_ENDIAN ? length : 0) {
      case 1 -> v = data.get(at) & 0xFFL;
      case 2 -> v = data.getShort(at) & 0xFFFFL;
      case 4 -> v = data.getInt(at) & 0xFFFF_FFFFL;
      case 8 -> v = data.getLong(at);
      default -> {
        v = 0;
        for (int i = 0; i < length; i++) {
          v = (v << 8) | (data.get(at + i) & 0xFF);
        }
      }
    }
    return (v >>> shift) & mask;
  }
}
