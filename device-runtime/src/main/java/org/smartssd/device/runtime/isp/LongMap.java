package org.smartssd.device.runtime.isp;

import java.util.Arrays;

/**
 * A map from long keys to objects, open-addressed, for the record cutters' bookkeeping by byte
 * offset. Offsets at segment boundaries are multiples of the page size, whose low bits are all
 * zero: {@code HashMap<Long, V>} puts them into a handful of buckets (and then into trees), so the
 * keys are mixed here before they pick a slot. No boxing; get and remove allocate nothing. Not
 * thread-safe.
 */
final class LongMap<V> {
  private static final long EMPTY = Long.MIN_VALUE;

  private long[] keys;
  private Object[] values;
  private int size;
  private int mask;

  LongMap() {
    this(16);
  }

  LongMap(int expected) {
    int capacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1; // twice the expected, a power of two
    allocate(capacity);
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  @SuppressWarnings("unchecked")
  V get(long key) {
    check(key);
    for (int i = slot(key); ; i = (i + 1) & mask) {
      long k = keys[i];
      if (k == key) {
        return (V) values[i];
      }
      if (k == EMPTY) {
        return null;
      }
    }
  }

  /** Maps {@code key} to {@code value} (not null); returns the value it replaced, or null. */
  @SuppressWarnings("unchecked")
  V put(long key, V value) {
    check(key);
    if (value == null) {
      throw new IllegalArgumentException("null value for key " + key);
    }
    for (int i = slot(key); ; i = (i + 1) & mask) {
      long k = keys[i];
      if (k == key) {
        V old = (V) values[i];
        values[i] = value;
        return old;
      }
      if (k == EMPTY) {
        keys[i] = key;
        values[i] = value;
        if (++size * 2 > keys.length) { // at most half full: short probe runs
          grow();
        }
        return null;
      }
    }
  }

  /** Removes {@code key}; returns its value, or null if it had none. */
  @SuppressWarnings("unchecked")
  V remove(long key) {
    check(key);
    for (int i = slot(key); ; i = (i + 1) & mask) {
      long k = keys[i];
      if (k == EMPTY) {
        return null;
      }
      if (k == key) {
        V old = (V) values[i];
        closeGap(i);
        size--;
        return old;
      }
    }
  }

  /** The keys, in no particular order (for messages). */
  long[] keys() {
    long[] out = new long[size];
    int n = 0;
    for (long k : keys) {
      if (k != EMPTY) {
        out[n++] = k;
      }
    }
    return out;
  }

  /** Linear probing's deletion: moves later entries of the probe run back into the freed slot. */
  private void closeGap(int gap) {
    for (int i = (gap + 1) & mask; keys[i] != EMPTY; i = (i + 1) & mask) {
      int home = slot(keys[i]);
      // Move entry i into the gap if its home is not cyclically in (gap, i].
      if (((i - home) & mask) >= ((i - gap) & mask)) {
        keys[gap] = keys[i];
        values[gap] = values[i];
        gap = i;
      }
    }
    keys[gap] = EMPTY;
    values[gap] = null;
  }

  private void grow() {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    allocate(oldKeys.length * 2);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        int j = slot(oldKeys[i]);
        while (keys[j] != EMPTY) {
          j = (j + 1) & mask;
        }
        keys[j] = oldKeys[i];
        values[j] = oldValues[i];
      }
    }
  }

  private void allocate(int capacity) {
    keys = new long[capacity];
    Arrays.fill(keys, EMPTY);
    values = new Object[capacity];
    mask = capacity - 1;
  }

  private int slot(long key) {
    long h = key * 0x9E3779B97F4A7C15L; // Fibonacci hashing: the high bits depend on every key bit
    return (int) (h >>> 40) & mask;
  }

  private static void check(long key) {
    if (key == EMPTY) {
      throw new IllegalArgumentException("key " + key + " is reserved");
    }
  }
}
