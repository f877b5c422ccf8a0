package org.smartssd.device.runtime.objects;

import java.util.Arrays;

/** A growable list of logical page numbers (ints), cheaper than a List of Integer for big files. */
final class LbnList {
  private int[] values = new int[4];
  private int size;

  int size() {
    return size;
  }

  int get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("page " + index + " of " + size);
    }
    return values[index];
  }

  void add(int lbn) {
    if (size == values.length) {
      values = Arrays.copyOf(values, values.length * 2);
    }
    values[size++] = lbn;
  }
}
