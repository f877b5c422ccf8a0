package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Compression of a file's bytes (Active Flash's LZO compression of scientific data), in independent blocks
 * of {@value #BLOCK_BYTES} bytes, each by LZ77 in the manner of LZO and LZ4: a hash table of the last
 * position of each 4-byte sequence finds a match up to 65,535 bytes back; a match of 4 bytes or more is
 * sent as (offset, length), the bytes between matches as literals.
 *
 * <p>A block's record, little-endian: its uncompressed length (u32), its compressed length (u32), then the
 * compressed bytes: sequences of a token (u8: literal count in the high nibble, match length - 4 in the
 * low, 15 meaning more in the bytes after, 255 each until one is less), the literals, and the match's
 * offset (u16); the block's last sequence has literals only. {@link #decompress} undoes it. The samples
 * counted are the bytes read. The same class runs in the device's lanes and on the host.
 */
public final class LzScan extends SeriesScan {
  public static final int BLOCK_BYTES = 64 * 1024;
  private static final int MIN_MATCH = 4;
  private static final int HASH_BITS = 14;

  private final byte[] block = new byte[BLOCK_BYTES];
  private int filled;
  private final int[] table = new int[1 << HASH_BITS];
  private final byte[] packed = new byte[BLOCK_BYTES + BLOCK_BYTES / 255 + 16];

  @Override
  public void accept(ByteBuffer data) {
    for (int i = data.position(), end = data.limit(); i < end; ) {
      int n = Math.min(end - i, BLOCK_BYTES - filled);
      data.get(i, block, filled, n);
      filled += n;
      i += n;
      samples += n;
      if (filled == BLOCK_BYTES) {
        compressBlock();
      }
    }
  }

  @Override
  public void finish() {
    if (filled > 0) {
      compressBlock();
    }
  }

  private void compressBlock() {
    int length = compress(block, filled, table, packed);
    record(8 + length).putInt(filled).putInt(length).put(packed, 0, length);
    filled = 0;
  }

  /** Compresses {@code in[0, n)} into {@code out}; returns the compressed length. */
  static int compress(byte[] in, int n, int[] table, byte[] out) {
    java.util.Arrays.fill(table, -1);
    int o = 0;
    int anchor = 0;
    int i = 0;
    while (i + MIN_MATCH <= n) {
      int h = hash(in, i);
      int candidate = table[h];
      table[h] = i;
      if (candidate >= 0 && i - candidate <= 0xFFFF && same4(in, candidate, i)) {
        int match = MIN_MATCH;
        while (i + match < n && in[candidate + match] == in[i + match]) {
          match++;
        }
        o = sequence(in, anchor, i - anchor, i - candidate, match, out, o);
        i += match;
        anchor = i;
      } else {
        i++;
      }
    }
    return sequence(in, anchor, n - anchor, 0, 0, out, o);
  }

  private static int hash(byte[] b, int i) {
    int v = (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
    return (v * -1640531535) >>> (32 - HASH_BITS);
  }

  private static boolean same4(byte[] b, int x, int y) {
    return b[x] == b[y] && b[x + 1] == b[y + 1] && b[x + 2] == b[y + 2] && b[x + 3] == b[y + 3];
  }

  /** Writes literals {@code in[from, from + literals)} then a match (none when {@code match} is 0). */
  private static int sequence(byte[] in, int from, int literals, int offset, int match, byte[] out, int o) {
    int token = o++;
    int extra = match == 0 ? 0 : match - MIN_MATCH;
    out[token] = (byte) ((Math.min(literals, 15) << 4) | Math.min(extra, 15));
    o = length(literals, out, o);
    System.arraycopy(in, from, out, o, literals);
    o += literals;
    if (match != 0) {
      out[o++] = (byte) offset;
      out[o++] = (byte) (offset >>> 8);
      o = length(extra, out, o);
    }
    return o;
  }

  private static int length(int n, byte[] out, int o) {
    if (n >= 15) {
      int rest = n - 15;
      while (rest >= 255) {
        out[o++] = (byte) 255;
        rest -= 255;
      }
      out[o++] = (byte) rest;
    }
    return o;
  }

  /**
   * Undoes the compression: the blocks' records, concatenated, back to the bytes.
   *
   * @throws IllegalArgumentException when the records are not such blocks
   */
  public static byte[] decompress(ByteBuffer records) {
    ByteBuffer b = records.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] block = new byte[BLOCK_BYTES];
    try {
      while (b.hasRemaining()) {
        int n = b.getInt();
        int length = b.getInt();
        if (n < 0 || n > BLOCK_BYTES || length < 0 || length > b.remaining()) {
          throw new IllegalArgumentException("a block says " + n + " bytes in " + length + " compressed");
        }
        int end = b.position() + length;
        int o = 0;
        while (b.position() < end) {
          int token = b.get() & 0xFF;
          int literals = readLength(token >>> 4, b);
          b.get(block, o, literals);
          o += literals;
          if (b.position() == end) {
            break;
          }
          int offset = (b.get() & 0xFF) | (b.get() & 0xFF) << 8;
          int match = readLength(token & 15, b) + MIN_MATCH;
          if (offset == 0 || offset > o || o + match > n) {
            throw new IllegalArgumentException("a match of " + match + " bytes " + offset + " back at " + o);
          }
          for (int k = 0; k < match; k++) {
            block[o + k] = block[o - offset + k];
          }
          o += match;
        }
        if (o != n) {
          throw new IllegalArgumentException("a block of " + n + " bytes decompressed to " + o);
        }
        out.write(block, 0, n);
      }
    } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException e) {
      throw new IllegalArgumentException("compressed blocks cut short or damaged", e);
    }
    return out.toByteArray();
  }

  private static int readLength(int nibble, ByteBuffer b) {
    int n = nibble;
    if (nibble == 15) {
      int more;
      do {
        more = b.get() & 0xFF;
        n += more;
      } while (more == 255);
    }
    return n;
  }
}
