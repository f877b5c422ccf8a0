package org.smartssd.device.runtime.isp;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The segments of a read range accepted so far. Refuses a segment outside the range or overlapping
 * one already accepted. Not thread-safe: the assembler calls it under its lock.
 *
 * <p>Two kinds of segment are kept apart. Given a page size, a segment that is exactly one page's
 * part of the range (what the engine reads: one segment a page) sets that page's bit, whatever the
 * order the pages come in. Every other segment is kept as coalesced intervals in two sorted arrays
 * (a scan read in order costs one entry). Pages alone would not do as intervals: lanes reading
 * interleaved channels at different speeds leave thousands of gaps, and each insert or join in the
 * arrays moves the entries after it.
 */
final class Coverage {

  private final String path;
  private final long start;
  private final long end;
  /** The page size for whole-page segments, or 0 for none. */
  private final int pageSize;
  private final long firstPage;
  /** Pages whose whole part of the range was accepted as one segment, by page less {@link #firstPage}. */
  private final BitSet pages;
  /** Other segments: intervals [starts[i], ends[i]) for i < count, sorted, disjoint and not touching. */
  private long[] starts = new long[16];
  private long[] ends = new long[16];
  private int count;
  private long covered;

  Coverage(String path, long start, long end) {
    this(path, start, end, 0);
  }

  /** As above, with whole pages of {@code pageSize} bytes kept as bits (0: no pages). */
  Coverage(String path, long start, long end, int pageSize) {
    this.path = path;
    this.start = start;
    this.end = end;
    this.pageSize = pageSize;
    this.firstPage = pageSize > 0 ? start / pageSize : 0;
    long pageCount = pageSize > 0 && end > start ? (end - 1) / pageSize - firstPage + 1 : 0;
    this.pages = pageCount > 0 && pageCount <= Integer.MAX_VALUE ? new BitSet((int) pageCount) : null;
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
    int page = wholePage(from, to);
    if (page >= 0) {
      if (pages.get(page)) {
        throw overlap(from, to, pageStart(page), pageEnd(page));
      }
      int i = firstEndAfter(from);
      if (i < count && starts[i] < to) {
        throw overlap(from, to, starts[i], ends[i]);
      }
      pages.set(page);
    } else {
      checkPages(from, to);
      addInterval(from, to);
    }
    covered += to - from;
  }

  boolean complete() {
    return covered == end - start;
  }

  /** The first byte range not yet accepted, for error messages; assumes {@code !complete()}. */
  String firstGap() {
    long at = start;
    for (long[] interval : merged()) {
      if (interval[0] > at) {
        return "[" + at + ", " + interval[0] + ")";
      }
      at = interval[1];
    }
    return "[" + at + ", " + end + ")";
  }

  /** Maximal runs of accepted bytes right now (for tests: a range wholly accepted is one). */
  int intervals() {
    return merged().size();
  }

  /** The page index of a segment that is exactly one page's part of the range, or -1. */
  private int wholePage(long from, long to) {
    if (pages == null) {
      return -1;
    }
    long page = from / pageSize;
    if ((to - 1) / pageSize != page || from != Math.max(start, page * pageSize)
        || to != Math.min(end, (page + 1) * pageSize)) {
      return -1;
    }
    return (int) (page - firstPage);
  }

  private long pageStart(int page) {
    return Math.max(start, (firstPage + page) * pageSize);
  }

  private long pageEnd(int page) {
    return Math.min(end, (firstPage + page + 1) * pageSize);
  }

  /** Refuses [from, to) if a whole page accepted meets it. */
  private void checkPages(long from, long to) {
    if (pages == null) {
      return;
    }
    int first = (int) (from / pageSize - firstPage);
    int set = pages.nextSetBit(first);
    if (set >= 0 && pageStart(set) < to) {
      throw overlap(from, to, pageStart(set), pageEnd(set));
    }
  }

  private void addInterval(long from, long to) {
    int above = firstStartAtOrAfter(from); // intervals [0, above) start before from
    int below = above - 1;
    if (below >= 0 && ends[below] > from) {
      throw overlap(from, to, starts[below], ends[below]);
    }
    if (above < count && starts[above] < to) {
      throw overlap(from, to, starts[above], ends[above]);
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
  }

  /** Every accepted byte as sorted maximal runs {start, end}: the pages' and the intervals' together. */
  private List<long[]> merged() {
    List<long[]> runs = new ArrayList<>();
    int i = 0;
    int page = pages == null ? -1 : pages.nextSetBit(0);
    while (i < count || page >= 0) {
      long[] next;
      if (page >= 0 && (i >= count || pageStart(page) < starts[i])) {
        next = new long[] {pageStart(page), pageEnd(page)};
        page = pages.nextSetBit(page + 1);
      } else {
        next = new long[] {starts[i], ends[i]};
        i++;
      }
      long[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
      if (last != null && last[1] == next[0]) {
        last[1] = next[1];
      } else {
        runs.add(next);
      }
    }
    return runs;
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

  /** The first interval that ends after {@code at}: the only one that can overlap a segment from there. */
  private int firstEndAfter(long at) {
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ends[mid] <= at) {
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

  private IllegalArgumentException overlap(long from, long to, long acceptedFrom, long acceptedTo) {
    return new IllegalArgumentException(String.format(
        "%s: segment [%d, %d) overlaps bytes already accepted [%d, %d)", path, from, to, acceptedFrom, acceptedTo));
  }
}
