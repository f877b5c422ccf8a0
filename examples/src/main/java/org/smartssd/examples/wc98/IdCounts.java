package org.smartssd.examples.wc98;

import java.util.Arrays;

/** Counts occurrences of uint32 IDs: an open-addressing hash table, without boxing. */
final class IdCounts {
  private static final long EMPTY = -1L; // not a uint32

  private long[] keys = newKeys(1 << 12);
  private long[] counts = new long[keys.length];
  private int size;

  void add(long id) {
    int mask = keys.length - 1;
    int i = mix(id) & mask;
    while (keys[i] != EMPTY && keys[i] != id) {
      i = (i + 1) & mask;
    }
    if (keys[i] == EMPTY) {
      keys[i] = id;
      if (++size * 2 > keys.length) {
        counts[i]++;
        grow();
        return;
      }
    }
    counts[i]++;
  }

  /** Distinct IDs. */
  int size() {
    return size;
  }

  /** The counts of the distinct IDs, largest first. */
  long[] countsDescending() {
    long[] out = new long[size];
    int n = 0;
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != EMPTY) {
        out[n++] = counts[i];
      }
    }
    Arrays.sort(out);
    for (int i = 0, j = out.length - 1; i < j; i++, j--) {
      long swap = out[i];
      out[i] = out[j];
      out[j] = swap;
    }
    return out;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldCounts = counts;
    keys = newKeys(oldKeys.length * 2);
    counts = new long[keys.length];
    int mask = keys.length - 1;
    for (int j = 0; j < oldKeys.length; j++) {
      if (oldKeys[j] != EMPTY) {
        int i = mix(oldKeys[j]) & mask;
        while (keys[i] != EMPTY) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[j];
        counts[i] = oldCounts[j];
      }
    }
  }

  private static long[] newKeys(int capacity) {
    long[] k = new long[capacity];
    Arrays.fill(k, EMPTY);
    return k;
  }

  private static int mix(long id) {
    long h = id * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
