package org.smartssd.device.runtime.timing;

/**
 * The internal reads booked on one resource (a channel's bus or a way), oldest first, as intervals
 * of the modelled clock: enough to tell which one is in progress when a host operation arrives. Keeps
 * the latest {@value #CAPACITY}; older ones have ended long before any host operation that could
 * still arrive.
 * Guarded by the {@link TimingModel}'s lock.
 */
final class Occupancy {
  static final int CAPACITY = 64;

  private final long[] start = new long[CAPACITY];
  private final long[] end = new long[CAPACITY];
  private int head; // index of the oldest
  private int size;
  private long busyUntil;

  /** The end of the last internal read booked here. */
  long busyUntil() {
    return busyUntil;
  }

  /** Books an internal read on [from, to). */
  void book(long from, long to) {
    int at = (head + size) % CAPACITY;
    if (size == CAPACITY) {
      head = (head + 1) % CAPACITY;
    } else {
      size++;
    }
    start[at] = from;
    end[at] = to;
    busyUntil = Math.max(busyUntil, to);
  }

  /**
   * When the internal read in progress at {@code t} ends, or {@code t} if none is: a host operation
   * arriving at {@code t} waits for it (a transfer in progress is not interrupted), and no longer.
   */
  long inProgressEnd(long t) {
    for (int k = size - 1; k >= 0; k--) {
      int i = (head + k) % CAPACITY;
      if (start[i] <= t && t < end[i]) {
        return end[i];
      }
      if (end[i] <= t) {
        break;
      }
    }
    return t;
  }
}
