package org.smartssd.device.runtime.isp;


/**
 * The segments of a read range accepted so far, kept as coalesced intervals in two sorted arrays
 * (so a scan read in order costs one entry, and accepting a segment allocates nothing while the
 * intervals fit). Refuses a segment outside the range or overlapping one already accepted. Not
 * thread-safe: the assembler calls it under its lock.
 */
final class Coverage {

  private final String path;
  private final long start;
  private final long end;
  /** Intervals [starts[i], ends[i]) for i < count, sorted, disjoint and not touching. */
  private long[] starts = new long[16];
  private long[] ends = new long[16];
  private int count;
  private long covered;

  Coverage(String path, long start, long end) {
    this.path = path;
    this.start = start;
    this.end = end;
  }

  /** Records [from, to); an empty segment inside the range is accepted and changes nothing. */
  void add(long from, long to) {
    if (from < start || to > end || from > to) {
      throw new IllegalArgumentException(String.format(
          "%s: segment [%d, %d) is outside the read range [%d, %d)", path, from, to, start, end));
    }
    if (from == to) {
      return;
    }
    int above = firstStartAtOrAfter(from); // intervals [0, above) start before from
    int below = above - 1;
    if (below >= 0 && ends[below] > from) {
      throw overlap(from, to, below);
    }
    if (above < count && starts[above] < to) {
      throw overlap(from, to, above);
    }
    boolean joinBelow = below >= 0 && ends[below] == from;
    boolean joinAbove = above < count && starts[above] == to;
    if (joinBelow && joinAbove) {
      ends[below] = ends[above];
      remove(above);
    } else if (joinBelow) {
      ends[below] = to;
    } else if (joinAbove) {
      starts[above] = from;
    } else {
      insert(above, from, to);
    }
    covered += to - from;
  }

  boolean complete() {
    return covered == end - start;
  }

  /** The first byte range not yet accepted, for error messages; assumes {@code !complete()}. */
  String firstGap() {
    long at = start;
    for (int i = 0; i < count; i++) {
      if (starts[i] > at) {
        return "[" + at + ", " + starts[i] + ")";
      }
      at = ends[i];
    }
    return "[" + at + ", " + end + ")";
  }

  /** Intervals kept right now (for tests: a scan in order keeps one). */
  int intervals() {
    return count;
  }

  private int firstStartAtOrAfter(long at) {
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (starts[mid] < at) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private void insert(int at, long from, long to) {
    if (count == starts.length) {
      starts = java.util.Arrays.copyOf(starts, count * 2);
      ends = java.util.Arrays.copyOf(ends, count * 2);
    }
    System.arraycopy(starts, at, starts, at + 1, count - at);
    System.arraycopy(ends, at, ends, at + 1, count - at);
    starts[at] = from;
    ends[at] = to;
    count++;
  }

  private void remove(int at) {
    System.arraycopy(starts, at + 1, starts, at, count - at - 1);
    System.arraycopy(ends, at + 1, ends, at, count - at - 1);
    count--;
  }

  private IllegalArgumentException overlap(long from, long to, int accepted) {
    return new IllegalArgumentException(String.format(
        "%s: segment [%d, %d) overlaps bytes already accepted [%d, %d)",
        path, from, to, starts[accepted], ends[accepted]));
  }
}
