package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Coverage against a byte-by-byte oracle. */
class CoverageTest {

  @Test
  void acceptsDisjointSegmentsInAnyOrderAndRefusesOverlaps() {
    for (long seed = 0; seed < 200; seed++) {
      check(seed, 0);
    }
  }

  /** Whole pages (the engine's segments) mixed with segments of any length, pages kept as bits. */
  @Test
  void keepsWholePagesApartFromOtherSegments() {
    int[] pageSizes = {1, 7, 16, 64};
    for (long seed = 0; seed < 400; seed++) {
      check(seed, pageSizes[(int) (seed % pageSizes.length)]);
    }
  }

  @Test
  void aWholePageAndASegmentInsideItOverlapWhicheverComesFirst() {
    Coverage pageFirst = new Coverage("/f", 10, 50, 16);
    pageFirst.add(16, 32);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pageFirst.add(20, 21));
    assertEquals("/f: segment [20, 21) overlaps bytes already accepted [16, 32)", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> pageFirst.add(31, 40));
    pageFirst.add(10, 16); // the first page's part of the range: a whole page
    pageFirst.add(32, 40);
    assertEquals("[40, 50)", pageFirst.firstGap());
    assertEquals(1, pageFirst.intervals());

    Coverage pieceFirst = new Coverage("/f", 10, 50, 16);
    pieceFirst.add(40, 41);
    e = assertThrows(IllegalArgumentException.class, () -> pieceFirst.add(32, 48));
    assertEquals("/f: segment [32, 48) overlaps bytes already accepted [40, 41)", e.getMessage());
    pieceFirst.add(48, 50); // the last page's part: a whole page
    assertEquals(2, pieceFirst.intervals());
    assertEquals("[10, 40)", pieceFirst.firstGap());
  }

  private static void check(long seed, int pageSize) {
    Random random = new Random(seed);
    int length = 1 + random.nextInt(400);
    List<long[]> segments = new ArrayList<>();
    for (int at = 0; at < length; ) {
      int n = Math.min(length - at, 1 + random.nextInt(40));
      long pageEnd = pageSize == 0 ? 0 : ((100 + at) / pageSize + 1) * pageSize;
      if (pageSize > 0 && ((100 + at) % pageSize == 0 || at == 0) && random.nextBoolean()) {
        n = (int) (Math.min(pageEnd, 100 + length) - (100 + at)); // the page's part of the range
      }
      segments.add(new long[] {100 + at, 100 + at + n});
      at += n;
    }
    Collections.shuffle(segments, random);
    Coverage coverage = new Coverage("/f", 100, 100 + length, pageSize);
    boolean[] seen = new boolean[length];
    for (long[] s : segments) {
      assertFalse(coverage.complete());
      // A segment overlapping one already accepted is refused and changes nothing.
      long probeFrom = 100 + random.nextInt(length);
      long probeTo = Math.min(100 + length, probeFrom + 1 + random.nextInt(30));
      boolean overlaps = false;
      for (long b = probeFrom; b < probeTo; b++) {
        overlaps |= seen[(int) (b - 100)];
      }
      if (overlaps) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> coverage.add(probeFrom, probeTo));
        assertTrue(e.getMessage().contains("overlaps bytes already accepted"), e.getMessage());
      }
      coverage.add(s[0], s[1]);
      for (long b = s[0]; b < s[1]; b++) {
        seen[(int) (b - 100)] = true;
      }
      String gap = coverage.complete() ? null : coverage.firstGap();
      int first = 0;
      while (first < length && seen[first]) {
        first++;
      }
      if (first < length) {
        assertTrue(gap.startsWith("[" + (100 + first) + ", "), gap + " for first missing byte " + (100 + first));
      }
    }
    assertTrue(coverage.complete());
    assertEquals(1, coverage.intervals(), "every segment accepted coalesces into one interval");
  }

  @Test
  void refusesSegmentsOutsideTheRange() {
    Coverage coverage = new Coverage("/f", 10, 20);
    assertThrows(IllegalArgumentException.class, () -> coverage.add(5, 12));
    assertThrows(IllegalArgumentException.class, () -> coverage.add(15, 21));
    assertThrows(IllegalArgumentException.class, () -> coverage.add(15, 14));
    coverage.add(12, 12);
    assertFalse(coverage.complete());
  }
}
