package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;

/**
 * Sums by long key, open-addressed in primitive arrays: adding to a key that is already there
 * allocates nothing and boxes nothing, as a lane's inner loop needs. Not thread-safe.
 */
final class LongSums {
  private long[] keys;
  private long[] sums;
  private boolean[] used;
  private int size;
  private int mask;

  LongSums() {
    allocate(16);
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  void add(long key, long value) {
    int i = slot(key);
    while (used[i]) {
      if (keys[i] == key) {
        sums[i] += value;
        return;
      }
      i = (i + 1) & mask;
    }
    used[i] = true;
    keys[i] = key;
    sums[i] = value;
    if (++size * 4 > keys.length * 3) {
      grow();
    }
  }

  /** The (u64 key, u64 sum) pairs, big-endian, in no particular order. */
  ByteBuffer encode() {
    ByteBuffer out = ByteBuffer.allocate(size * 16);
    for (int i = 0; i < keys.length; i++) {
      if (used[i]) {
        out.putLong(keys[i]).putLong(sums[i]);
      }
    }
    return out.flip();
  }

  void clear() {
    if (size > 0) {
      java.util.Arrays.fill(used, false);
      size = 0;
    }
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldSums = sums;
    boolean[] oldUsed = used;
    allocate(oldKeys.length * 2);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldUsed[i]) {
        int j = slot(oldKeys[i]);
        while (used[j]) {
          j = (j + 1) & mask;
        }
        used[j] = true;
        keys[j] = oldKeys[i];
        sums[j] = oldSums[i];
      }
    }
  }

  private void allocate(int capacity) {
    keys = new long[capacity];
    sums = new long[capacity];
    used = new boolean[capacity];
    mask = capacity - 1;
  }

  private int slot(long key) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
  }
}
