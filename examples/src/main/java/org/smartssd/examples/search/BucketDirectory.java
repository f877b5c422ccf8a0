package org.smartssd.examples.search;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where the buckets of the clustered layout lie: a bucket holds the items whose codes begin with the
 * same {@code prefixBits} bits (its prefix), and the buckets that hold any lie one after the other in
 * the items object, in the order of their prefixes. Bucket i (of those that hold items, 0 first) has
 * prefix {@code prefix(i)} and records {@code start(i)} to {@code end(i)} (exclusive). Kept on the
 * device beside the items as a small object: {@code u32 prefixBits}, {@code u32 n}, n x ({@code u32}
 * prefix, {@code u32} first record), {@code u32} items (big-endian), which the search reads first.
 */
public final class BucketDirectory {
  /** The longest prefix: a bucket's prefix is a u32. */
  public static final int MAX_PREFIX_BITS = 32;

  private final int prefixBits;
  /** The prefixes of the buckets that hold items, ascending (as unsigned numbers). */
  private final int[] prefixes;
  /** Their first records, and the items after the last. */
  private final int[] starts;

  BucketDirectory(int prefixBits, int[] prefixes, int[] starts) {
    if (prefixBits < 1 || prefixBits > MAX_PREFIX_BITS || starts.length != prefixes.length + 1) {
      throw new IllegalArgumentException("a directory of " + prefixBits + " prefix bits and " + prefixes.length
          + " buckets with " + starts.length + " starts");
    }
    for (int i = 0; i < prefixes.length; i++) {
      if (starts[i] < 0 || starts[i] >= starts[i + 1]
          || (i > 0 && Integer.compareUnsigned(prefixes[i - 1], prefixes[i]) >= 0)
          || (prefixBits < 32 && prefixes[i] >>> prefixBits != 0)) {
        throw new IllegalArgumentException("bucket " + i + " (prefix " + Integer.toUnsignedString(prefixes[i])
            + ", records " + starts[i] + " to " + starts[i + 1] + ") is out of order, empty or out of range");
      }
    }
    this.prefixBits = prefixBits;
    this.prefixes = prefixes;
    this.starts = starts;
  }

  /** The directory of records laid out by code: the prefixes of their first words, in order. */
  static BucketDirectory of(int prefixBits, long[] firstWords) {
    int[] prefixes = new int[firstWords.length];
    int[] starts = new int[firstWords.length + 1];
    int n = 0;
    for (int r = 0; r < firstWords.length; r++) {
      int prefix = prefix(firstWords[r], prefixBits);
      if (n == 0 || prefixes[n - 1] != prefix) {
        prefixes[n] = prefix;
        starts[n++] = r;
      }
    }
    starts[n] = firstWords.length;
    return new BucketDirectory(prefixBits, Arrays.copyOf(prefixes, n), Arrays.copyOf(starts, n + 1));
  }

  /** The prefix of a code, by its first word. */
  static int prefix(long firstWord, int prefixBits) {
    return (int) (firstWord >>> (64 - prefixBits));
  }

  public int prefixBits() {
    return prefixBits;
  }

  /** The buckets that hold items. */
  public int buckets() {
    return prefixes.length;
  }

  /** The prefix of a code, by its first word. */
  public int prefixOf(long firstWord) {
    return prefix(firstWord, prefixBits);
  }

  /** Bucket {@code i}'s prefix. */
  public int prefix(int i) {
    return prefixes[i];
  }

  /** The first record of bucket {@code i}. */
  public int start(int i) {
    return starts[i];
  }

  /** The record after bucket {@code i}'s last. */
  public int end(int i) {
    return starts[i + 1];
  }

  public byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(12 + 8 * prefixes.length).putInt(prefixBits).putInt(prefixes.length);
    for (int i = 0; i < prefixes.length; i++) {
      b.putInt(prefixes[i]).putInt(starts[i]);
    }
    return b.putInt(starts[prefixes.length]).array();
  }

  /**
   * A directory from its encoding.
   *
   * @throws IllegalArgumentException if the bytes are not one
   */
  public static BucketDirectory decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    int bits = bytes.length >= 8 ? b.getInt() : -1;
    int n = bytes.length >= 8 ? b.getInt() : -1;
    if (n < 0 || bytes.length != 12 + 8L * n) {
      throw new IllegalArgumentException("not a bucket directory: " + bytes.length + " bytes for " + n + " buckets");
    }
    int[] prefixes = new int[n];
    int[] starts = new int[n + 1];
    for (int i = 0; i < n; i++) {
      prefixes[i] = b.getInt();
      starts[i] = b.getInt();
    }
    starts[n] = b.getInt();
    return new BucketDirectory(bits, prefixes, starts);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BucketDirectory d && d.prefixBits == prefixBits && Arrays.equals(d.prefixes, prefixes)
        && Arrays.equals(d.starts, starts);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * prefixBits + Arrays.hashCode(prefixes)) + Arrays.hashCode(starts);
  }
}
