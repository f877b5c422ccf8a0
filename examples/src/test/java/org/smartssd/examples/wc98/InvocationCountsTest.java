package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InvocationCountsTest {

  @Test
  void theClassPathCopyIsTheWholeTrace() {
    InvocationCounts counts = InvocationCounts.standard();
    assertEquals(1_352_804_107L, counts.total());
    assertEquals(InvocationCounts.TRACE_REQUESTS, counts.total(InvocationCounts.TRACE_START, InvocationCounts.TRACE_END));
    assertEquals(InvocationCounts.TRACE_START.getEpochSecond(), counts.minuteStart(0));
    assertEquals(InvocationCounts.TRACE_END.getEpochSecond() - 60, counts.minuteStart(counts.minutes() - 1));
    assertEquals(2, counts.count(0)); // 1998-04-30 21:30:00,2
    int peak = 0;
    for (int i = 1; i < counts.minutes(); i++) {
      assertTrue(counts.minuteStart(i) > counts.minuteStart(i - 1));
      if (counts.count(i) > counts.count(peak)) {
        peak = i;
      }
    }
    // docs/WC98.md: peak minute 229,426 on 1998-07-07 21:41 GMT.
    assertEquals(229_426, counts.count(peak));
    assertEquals(Instant.parse("1998-07-07T21:41:00Z").getEpochSecond(), counts.minuteStart(peak));
  }

  @Test
  void publishedLocalHourSharesFollowFromTheCounts() {
    InvocationCounts counts = InvocationCounts.standard();
    double[] hours = new double[24];
    for (int i = 0; i < counts.minutes(); i++) {
      hours[(int) ((counts.minuteStart(i) + 7200) / 3600 % 24)] += counts.count(i);
    }
    for (int h = 0; h < 24; h++) {
      assertEquals(Wc98GeneratorTest.PUBLISHED_LOCAL_HOUR_PERCENT[h], 100 * hours[h] / counts.total(), 0.006, "hour " + h);
    }
  }

  @Test
  void findsMinutes() {
    InvocationCounts counts = InvocationCounts.standard();
    assertEquals(0, counts.firstMinuteAtOrAfter(0));
    assertEquals(1, counts.firstMinuteAtOrAfter(counts.minuteStart(0) + 1));
    assertEquals(counts.minutes(), counts.firstMinuteAtOrAfter(InvocationCounts.TRACE_END.getEpochSecond()));
  }

  @Test
  void rejectsABadFile() {
    assertThrows(IOException.class, () -> parse("when,count\n"));
    assertThrows(IOException.class, () -> parse("period,count\n1998-04-30 21:30:00;2\n"));
    assertThrows(IOException.class, () -> parse("period,count\n1998-04-30 21:31:00,2\n1998-04-30 21:30:00,2\n"));
    assertThrows(IOException.class, () -> parse("period,count\n1998-04-30 21:30:00,x\n"));
  }

  private static InvocationCounts parse(String text) throws IOException {
    return InvocationCounts.parse(new BufferedReader(new StringReader(text)));
  }
}
