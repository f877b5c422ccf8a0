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
      Random random = new Random(seed);
      int length = 1 + random.nextInt(400);
      List<long[]> segments = new ArrayList<>();
      for (int at = 0; at < length; ) {
        int n = Math.min(length - at, 1 + random.nextInt(40));
        segments.add(new long[] {100 + at, 100 + at + n});
        at += n;
      }
      Collections.shuffle(segments, random);
      Coverage coverage = new Coverage("/f", 100, 100 + length);
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
