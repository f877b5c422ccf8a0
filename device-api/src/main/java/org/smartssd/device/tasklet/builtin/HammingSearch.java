package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;

/**
 * The top T items nearest each of several query codes by Hamming distance, over item records: the
 * kernel of {@link HammingTopT}, which each lane of a device runs over its records, and which a host
 * runs over the same records for its own brute force, so that both sides do the same work.
 *
 * <p>An item record is {@code 8 x (1 + words)} bytes, big-endian: the item's id (u64), then its code
 * in {@code words = ceil(bits / 64)} u64 words. Bit i of a code (bit 0 first) is bit {@code 63 - i %
 * 64} of word {@code i / 64}, so a code's first bits are the high bits of its first word, and bits
 * from {@code bits} on are zero. A code's text form is its words in hexadecimal, most significant
 * digit first, cut to {@code ceil(bits / 4)} digits.
 *
 * <p>Work a record: its words are compared with each query's by {@code Long.bitCount} of their
 * exclusive or, one 64-bit word at a time, stopping once the distance passes the query's worst kept
 * (it can no longer be kept). The chunk's bytes are first copied into a {@code long[]}, as a device's
 * DMA puts a page in its memory, so that each word is one array load.
 */
public final class HammingSearch {
  /** The longest code: 64 words. A choice, four times the 1,024 bits of the longest codes we know of. */
  public static final int MAX_BITS = 4096;
  /**
   * The most neighbours kept in all, queries x T: 12 MB of lists a lane (a choice: inside the device's
   * 64 MiB default memory budget of an event, and the 16 MiB a result may take).
   */
  public static final int MAX_KEPT = 1_000_000;

  private final int bits;
  private final int words;
  /** The queries' codes, {@link #words} a query. */
  private final long[] queryWords;
  private final TopLists lists;
  private final int[] everyQuery;
  /** The current chunk's records as words. */
  private long[] buffer = new long[0];

  /**
   * @param codes the queries' codes, each {@code ceil(bits / 64)} words with no bit set from {@code bits} on
   * @throws IllegalArgumentException naming what is out of range
   */
  public HammingSearch(int bits, int top, long[][] codes) {
    if (bits < 1 || bits > MAX_BITS) {
      throw new IllegalArgumentException("codes of " + bits + " bits: bits must be between 1 and " + MAX_BITS);
    }
    if (codes.length < 1) {
      throw new IllegalArgumentException("a search needs a query");
    }
    if (top < 1 || (long) top * codes.length > MAX_KEPT) {
      throw new IllegalArgumentException("top " + top + " for " + codes.length + " queries: T must be 1 or more, "
          + "and queries x T at most " + MAX_KEPT);
    }
    this.bits = bits;
    this.words = words(bits);
    this.queryWords = new long[codes.length * words];
    for (int q = 0; q < codes.length; q++) {
      checkCode(codes[q], bits, "query " + q);
      System.arraycopy(codes[q], 0, queryWords, q * words, words);
    }
    this.lists = new TopLists(codes.length, top);
    this.everyQuery = new int[codes.length];
    for (int q = 0; q < everyQuery.length; q++) {
      everyQuery[q] = q;
    }
  }

  /** The u64 words of a code of {@code bits} bits. */
  public static int words(int bits) {
    return (bits + 63) >>> 6;
  }

  /** The bytes of an item record with a code of {@code bits} bits. */
  public static int recordBytes(int bits) {
    return 8 * (1 + words(bits));
  }

  public int bits() {
    return bits;
  }

  public int queries() {
    return lists.queries();
  }

  /** What the search keeps: every query's best T so far. */
  public TopLists lists() {
    return lists;
  }

  /** Compares whole records with every query. */
  public void scan(ByteBuffer records) {
    scan(records, everyQuery);
  }

  /**
   * Compares whole records (from the buffer's position to its limit, in any byte order) with the
   * queries named, keeping each query's best T.
   *
   * @param which indices of the queries to compare them with
   * @throws IllegalArgumentException if the bytes are not whole records
   */
  public void scan(ByteBuffer records, int[] which) {
    compare(0, load(records), which);
  }

  /**
   * Loads whole records (from the buffer's position to its limit, in any byte order) to be compared
   * ({@link #compare}), in place of those loaded before.
   *
   * @return how many
   * @throws IllegalArgumentException if the bytes are not whole records
   */
  public int load(ByteBuffer records) {
    int stride = words + 1;
    if (records.remaining() % (stride * 8) != 0) {
      throw new IllegalArgumentException(records.remaining() + " bytes are not whole records of " + stride * 8
          + " bytes");
    }
    int n = records.remaining() >>> 3;
    if (buffer.length < n) {
      buffer = new long[Math.max(n, 2 * buffer.length)];
    }
    records.duplicate().order(ByteOrder.BIG_ENDIAN).asLongBuffer().get(buffer, 0, n);
    return n / stride;
  }

  /**
   * Compares loaded records {@code from} to {@code to} (exclusive) with the queries named, keeping
   * each query's best T.
   */
  public void compare(int from, int to, int[] which) {
    TopLists top = lists;
    long[] w = buffer;
    long[] queries = queryWords;
    int words = this.words;
    int stride = words + 1;
    int end = to * stride;
    for (int i = 0; i < which.length; i++) {
      int q = which[i];
      int worst = top.worst(q);
      if (words == 1) {
        long code = queries[q];
        for (int at = from * 2 + 1; at < end; at += 2) {
          int d = Long.bitCount(w[at] ^ code);
          if (d <= worst) {
            worst = top.offer(q, d, w[at - 1]);
          }
        }
      } else {
        int base = q * words;
        for (int at = from * stride; at < end; at += stride) {
          int d = 0;
          for (int k = 0; k < words && d <= worst; k++) {
            d += Long.bitCount(w[at + 1 + k] ^ queries[base + k]);
          }
          if (d <= worst) {
            worst = top.offer(q, d, w[at]);
          }
        }
      }
    }
  }

  /** Forgets what was kept. */
  public void clear() {
    lists.clear();
  }

  /** The Hamming distance of two codes of as many words. */
  public static int distance(long[] a, long[] b) {
    int d = 0;
    for (int k = 0; k < a.length; k++) {
      d += Long.bitCount(a[k] ^ b[k]);
    }
    return d;
  }

  /**
   * A code from its text form.
   *
   * @throws IllegalArgumentException if it is not {@code ceil(bits / 4)} hexadecimal digits, or sets a bit
   *     from {@code bits} on
   */
  public static long[] parseCode(String text, int bits) {
    int digits = (bits + 3) >>> 2;
    if (text.length() != digits) {
      throw new IllegalArgumentException("code '" + abbreviated(text) + "' has " + text.length() + " digits; a code of "
          + bits + " bits has " + digits + " hexadecimal digits");
    }
    long[] code = new long[words(bits)];
    for (int i = 0; i < digits; i++) {
      int v = Character.digit(text.charAt(i), 16);
      if (v < 0) {
        throw new IllegalArgumentException("code '" + abbreviated(text) + "' is not hexadecimal: '" + text.charAt(i)
            + "' at " + i);
      }
      code[i >>> 4] |= (long) v << (60 - 4 * (i & 15));
    }
    checkCode(code, bits, "code '" + abbreviated(text) + "'");
    return code;
  }

  /** A code's text form (see the class comment). */
  public static String formatCode(long[] code, int bits) {
    StringBuilder sb = new StringBuilder();
    for (long word : code) {
      sb.append(String.format(Locale.ROOT, "%016x", word));
    }
    return sb.substring(0, (bits + 3) >>> 2);
  }

  /** Checks a code's length and that no bit from {@code bits} on is set. */
  static void checkCode(long[] code, int bits, String what) {
    int words = words(bits);
    if (code.length != words) {
      throw new IllegalArgumentException(what + " has " + code.length + " words; a code of " + bits + " bits has "
          + words);
    }
    int used = bits - 64 * (words - 1);
    if (used < 64 && (code[words - 1] << used) != 0) {
      throw new IllegalArgumentException(what + " sets bits past its " + bits + " bits: "
          + Arrays.toString(code));
    }
  }

  private static String abbreviated(String text) {
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }
}
