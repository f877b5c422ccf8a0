package org.smartssd.device.runtime.isp;

import java.util.Map;
import java.util.TreeMap;

/**
 * The segments of a read range accepted so far, kept as coalesced intervals (so a scan read in
 * order costs one entry). Refuses a segment outside the range or overlapping one already accepted.
 * Not thread-safe: the assembler calls it under its lock.
 */
final class Coverage {

  private final String path;
  private final long start;
  private final long end;
  private final TreeMap<Long, Long> intervals = new TreeMap<>();
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
    Map.Entry<Long, Long> below = intervals.floorEntry(from);
    Map.Entry<Long, Long> above = intervals.ceilingEntry(from);
    if (below != null && below.getValue() > from) {
      throw overlap(from, to, below);
    }
    if (above != null && above.getKey() < to) {
      throw overlap(from, to, above);
    }
    long mergedFrom = from;
    long mergedTo = to;
    if (below != null && below.getValue() == from) {
      mergedFrom = below.getKey();
      intervals.remove(below.getKey());
    }
    if (above != null && above.getKey() == to) {
      mergedTo = above.getValue();
      intervals.remove(above.getKey());
    }
    intervals.put(mergedFrom, mergedTo);
    covered += to - from;
  }

  boolean complete() {
    return covered == end - start;
  }

  /** The first byte range not yet accepted, for error messages; assumes {@code !complete()}. */
  String firstGap() {
    long at = start;
    for (Map.Entry<Long, Long> e : intervals.entrySet()) {
      if (e.getKey() > at) {
        return "[" + at + ", " + e.getKey() + ")";
      }
      at = e.getValue();
    }
    return "[" + at + ", " + end + ")";
  }

  private IllegalArgumentException overlap(long from, long to, Map.Entry<Long, Long> accepted) {
    return new IllegalArgumentException(String.format(
        "%s: segment [%d, %d) overlaps bytes already accepted [%d, %d)",
        path, from, to, accepted.getKey(), accepted.getValue()));
  }
}
