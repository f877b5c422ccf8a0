package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceStatisticsTest {

  @Test
  void countsHandMadeRecords() {
    TraceStatistics s = new TraceStatistics();
    List<Wc98Record> records = Wc98Fixtures.sample(52); // 13 types x 4 regions, one of each pair
    records.forEach(s::accept);
    assertEquals(52, s.records());
    for (Region r : Region.values()) {
      assertEquals(13, s.count(r));
      for (FileType t : FileType.values()) {
        assertEquals(1, s.count(r, t), r + " " + t);
      }
    }
    for (FileType t : FileType.values()) {
      assertEquals(4, s.count(t));
    }
    assertEquals(11, s.notModified()); // every fifth, from 0
    assertEquals(11.0 / 52, s.notModifiedShare(), 1e-12);
    assertEquals(11, s.distinctObjects());
    assertEquals(7, s.distinctClients());
    long bytes = records.stream().filter(Wc98Record::hasSize).mapToLong(Wc98Record::size).sum();
    assertEquals(bytes, s.bytes());
    assertEquals(Instant.ofEpochSecond(Wc98Fixtures.EXAMPLE_TIME), s.firstTime());
    assertEquals(Instant.ofEpochSecond(Wc98Fixtures.EXAMPLE_TIME + 51), s.lastTime());
    assertTrue(s.inTimeOrder());
    long[] hours = new long[24];
    hours[23] = 52; // 21:30 GMT is 23:30 in Paris
    assertArrayEquals(hours, s.requestsByLocalHour());
  }

  @Test
  void topObjectShare() {
    TraceStatistics s = new TraceStatistics();
    // Object 0 takes 91 requests, objects 1..9 one each: 100 requests over 10 objects.
    for (int i = 0; i < 100; i++) {
      s.accept(Wc98Record.of(i, 0, i < 91 ? 0 : i - 90, 1, Method.GET, HttpVersion.HTTP_1_0, 200, FileType.IMAGE,
          Region.PLANO, 0));
    }
    assertEquals(0.91, s.topObjectShare(0.01), 1e-12); // at least one object
    assertEquals(0.91, s.topObjectShare(0.1), 1e-12);
    assertEquals(0.92, s.topObjectShare(0.2), 1e-12);
    assertEquals(1.0, s.topObjectShare(1.0), 1e-12);
  }

  @Test
  void noticesRecordsOutOfTimeOrder() {
    TraceStatistics s = new TraceStatistics();
    s.accept(Wc98Record.of(10, 0, 0, 1, Method.GET, HttpVersion.HTTP_1_0, 200, FileType.HTML, Region.PARIS, 0));
    s.accept(Wc98Record.of(9, 0, 0, 1, Method.GET, HttpVersion.HTTP_1_0, 200, FileType.HTML, Region.PARIS, 0));
    assertFalse(s.inTimeOrder());
  }

  @Test
  void emptyTrace() {
    TraceStatistics s = new TraceStatistics();
    assertEquals(0, s.records());
    assertNull(s.firstTime());
    assertEquals(0, s.share(FileType.IMAGE));
    assertEquals(0, s.notModifiedShare());
  }

  @Test
  void countsManyDistinctIds() {
    IdCounts counts = new IdCounts();
    for (long id = 0; id < 100_000; id++) {
      counts.add(id * 40_503L & Wc98Record.UINT32_MAX);
      if (id % 10 == 0) {
        counts.add(id * 40_503L & Wc98Record.UINT32_MAX);
      }
    }
    counts.add(Wc98Record.UINT32_MAX);
    assertEquals(100_001, counts.size());
    long[] desc = counts.countsDescending();
    assertEquals(2, desc[0]);
    assertEquals(2, desc[9_999]);
    assertEquals(1, desc[10_000]);
  }
}
