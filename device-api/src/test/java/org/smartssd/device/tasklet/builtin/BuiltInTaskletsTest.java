package org.smartssd.device.tasklet.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;

/** The built-in tasklets, driven directly through their events. */
class BuiltInTaskletsTest {
  private final List<TaskletResult> results = new ArrayList<>();
  private final ResultSink sink = r -> results.add(new TaskletResult(0, copy(r)));

  private static ByteBuffer copy(ByteBuffer b) {
    ByteBuffer c = ByteBuffer.allocate(b.remaining());
    c.put(b.duplicate()).flip();
    return c;
  }

  private static TaskletContext context(Map<String, String> parameters) {
    return new TaskletContext() {
      @Override
      public Map<String, String> parameters() {
        return parameters;
      }

      @Override
      public String taskletName() {
        return "test";
      }

      @Override
      public int lane() {
        return 0;
      }

      @Override
      public int lanes() {
        return 1;
      }

      @Override
      public int maxRecordBytes() {
        return 1 << 20;
      }
    };
  }

  private static <T extends Tasklet> T start(T tasklet, Map<String, String> parameters) throws Exception {
    tasklet.onCreate(context(parameters));
    tasklet.onExecute(new ExecutionInfo(1, List.of(), Map.of(), 0, 1));
    return tasklet;
  }

  /** World Cup-like 20-byte records: server byte at 19 holds the region in its top three bits. */
  private static ByteBuffer worldCup(int... regions) {
    ByteBuffer b = ByteBuffer.allocate(regions.length * 20);
    for (int i = 0; i < regions.length; i++) {
      b.position(i * 20 + 18).put((byte) (i % 13)).put((byte) ((regions[i] << 5) | 3));
    }
    return b.position(0);
  }

  @Test
  void theCounterCountsFixedLengthAndDelimitedRecordsAndMerges() throws Exception {
    RecordCounter fixed = start(new RecordCounter(), Map.of("record-length", "20"));
    assertEquals(RecordFormat.fixedLength(20), fixed.recordFormat());
    fixed.onDataAvailable(new DataChunk("/x", 0, worldCup(0, 1, 2)), sink);
    fixed.onRead(sink, false);
    fixed.onDataAvailable(new DataChunk("/x", 60, worldCup(3)), sink);
    fixed.onRead(sink, true);
    assertEquals(4, RecordCounter.total(results));
    assertEquals(2, results.size(), "a partial count, then the rest");

    results.clear();
    RecordCounter lines = start(new RecordCounter(), Map.of("delimiter", "10"));
    lines.onDataAvailable(new DataChunk("/t", 0, ByteBuffer.wrap("a\nbb\n\nlast".getBytes(StandardCharsets.UTF_8))), sink);
    lines.onRead(sink, true);
    assertEquals(4, RecordCounter.total(results), "three ended lines and a last one without delimiter");

    List<TaskletResult> merged = new ArrayList<>();
    new RecordCounter().onMerge(List.of(new TaskletResult(0, ByteBuffer.allocate(8).putLong(0, 5)),
        new TaskletResult(1, ByteBuffer.allocate(8).putLong(0, 7))), r -> merged.add(new TaskletResult(-1, copy(r))));
    assertEquals(12, RecordCounter.total(merged));
  }

  @Test
  void theCounterNeedsAFormat() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RecordCounter().onCreate(context(Map.of())));
    assertTrue(e.getMessage().contains("record-length"), e.getMessage());
  }

  @Test
  void theFilterKeepsMatchingRecordsWhole() throws Exception {
    FieldFilter filter = start(new FieldFilter(), Map.of("record-length", "20", "field-offset", "19",
        "field-length", "1", "field-shift", "5", "op", "eq", "value", "2"));
    ByteBuffer data = worldCup(2, 0, 2, 3);
    filter.onDataAvailable(new DataChunk("/x", 0, data), sink);
    List<ByteBuffer> kept = FieldFilter.records(results, 20);
    assertEquals(2, kept.size());
    assertEquals(data.duplicate().position(0).limit(20).slice(), kept.get(0));
    assertEquals(data.duplicate().position(40).limit(60).slice(), kept.get(1));
  }

  @Test
  void theFilterComparesUnsignedAndChecksItsParameters() throws Exception {
    FieldFilter filter = start(new FieldFilter(), Map.of("record-length", "4", "field-offset", "0",
        "field-length", "4", "op", "gt", "value", "1000"));
    ByteBuffer data = ByteBuffer.allocate(12).putInt(5).putInt(0xFFFFFFF0).putInt(1001).flip();
    filter.onDataAvailable(new DataChunk("/x", 0, data), sink);
    assertEquals(2, FieldFilter.records(results, 4).size());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> new FieldFilter().onCreate(context(Map.of("record-length", "4", "field-offset", "2", "field-length", "4",
            "value", "1"))));
    assertTrue(bad.getMessage().contains("does not fit"), bad.getMessage());
    IllegalArgumentException op = assertThrows(IllegalArgumentException.class,
        () -> new FieldFilter().onCreate(context(Map.of("record-length", "4", "field-offset", "0", "op", "like",
            "value", "1"))));
    assertTrue(op.getMessage().contains("op='like'"), op.getMessage());
  }

  @Test
  void theGroupedSumCountsAndSumsPerKeyAndMerges() throws Exception {
    GroupedSum perRegion = start(new GroupedSum(), Map.of("record-length", "20", "key-offset", "19",
        "key-length", "1", "key-shift", "5"));
    perRegion.onDataAvailable(new DataChunk("/x", 0, worldCup(0, 1, 1, 3, 3, 3)), sink);
    perRegion.onRead(sink, false);
    perRegion.onDataAvailable(new DataChunk("/x", 120, worldCup(1)), sink);
    perRegion.onRead(sink, true);
    assertEquals(Map.of(0L, 1L, 1L, 3L, 3L, 3L), GroupedSum.sums(results));

    results.clear();
    GroupedSum sumOfType = start(new GroupedSum(), Map.of("record-length", "20", "key-offset", "19",
        "key-length", "1", "key-shift", "5", "value-offset", "18", "value-length", "1"));
    sumOfType.onDataAvailable(new DataChunk("/x", 0, worldCup(0, 0, 2)), sink); // type bytes 0, 1, 2
    sumOfType.onRead(sink, true);
    assertEquals(Map.of(0L, 1L, 2L, 2L), GroupedSum.sums(results));

    List<TaskletResult> merged = new ArrayList<>();
    new GroupedSum().onMerge(results, r -> merged.add(new TaskletResult(-1, copy(r))));
    assertEquals(1, merged.size());
    assertEquals(Map.of(0L, 1L, 2L, 2L), GroupedSum.sums(merged));
  }

  /**
   * Every field length (1 to 8 bytes), shift and mask, with many distinct keys (the table grows), on
   * big- and little-endian buffers: the sums equal a direct computation byte by byte.
   */
  @Test
  void theGroupedSumAgreesWithADirectComputationForEveryFieldShape() throws Exception {
    java.util.Random random = new java.util.Random(7);
    for (int keyLength = 1; keyLength <= 8; keyLength++) {
      for (int valueLength = 0; valueLength <= 8; valueLength += 3) {
        int record = 24;
        int shift = random.nextInt(4);
        long mask = keyLength == 8 ? -1L : (1L << (keyLength * 8 - shift)) - 1 >>> random.nextInt(3);
        Map<String, String> p = new java.util.HashMap<>(Map.of("record-length", "" + record, "key-offset", "3",
            "key-length", "" + keyLength, "key-shift", "" + shift, "key-mask", "" + (mask & Long.MAX_VALUE)));
        if (valueLength > 0) {
          p.put("value-offset", "12");
          p.put("value-length", "" + valueLength);
        }
        byte[] bytes = new byte[record * 5000];
        for (int i = 0; i < bytes.length; i++) {
          bytes[i] = (byte) (i % record == 3 + keyLength - 1 ? random.nextInt(256) : random.nextInt(3));
        }
        Map<Long, Long> expected = new java.util.TreeMap<>();
        for (int base = 0; base < bytes.length; base += record) {
          long key = (bigEndian(bytes, base + 3, keyLength) >>> shift) & (mask & Long.MAX_VALUE);
          long value = valueLength == 0 ? 1 : bigEndian(bytes, base + 12, valueLength) & -1L;
          expected.merge(key, value, Long::sum);
        }
        for (java.nio.ByteOrder order : List.of(java.nio.ByteOrder.BIG_ENDIAN, java.nio.ByteOrder.LITTLE_ENDIAN)) {
          results.clear();
          GroupedSum sum = start(new GroupedSum(), p);
          sum.onDataAvailable(new DataChunk("/x", 0, ByteBuffer.wrap(bytes).order(order).asReadOnlyBuffer()), sink);
          sum.onRead(sink, true);
          assertEquals(expected, GroupedSum.sums(results), "key " + keyLength + " bytes, value " + valueLength
              + " bytes, " + order);
        }
      }
    }
  }

  /** Item records of {@link HammingSearch}: a u64 id, then the code's words. */
  private static ByteBuffer items(long[] ids, long[][] codes) {
    int words = codes[0].length;
    ByteBuffer b = ByteBuffer.allocate(ids.length * 8 * (1 + words));
    for (int i = 0; i < ids.length; i++) {
      b.putLong(ids[i]);
      for (long w : codes[i]) {
        b.putLong(w);
      }
    }
    return b.flip();
  }

  /** A random code of {@code bits} bits, none set from {@code bits} on. */
  private static long[] randomCode(java.util.Random random, int bits) {
    long[] code = new long[HammingSearch.words(bits)];
    for (int k = 0; k < code.length; k++) {
      code[k] = random.nextLong();
    }
    int used = bits - 64 * (code.length - 1);
    if (used < 64) {
      code[code.length - 1] &= -1L << (64 - used);
    }
    return code;
  }

  /** The brute force: every item's distance, sorted by (distance, id unsigned), the first {@code top}. */
  private static List<Neighbour> bruteForce(long[] ids, long[][] codes, long[] query, int top) {
    List<Neighbour> all = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      all.add(new Neighbour(ids[i], HammingSearch.distance(codes[i], query)));
    }
    all.sort(java.util.Comparator.comparingInt(Neighbour::distance)
        .thenComparing(Neighbour::id, Long::compareUnsigned));
    return all.subList(0, Math.min(top, all.size()));
  }

  /**
   * Codes of several lengths (one word, a partial last word, several words), random ids (their order
   * unsigned), several queries, the records cut into chunks over two lanes, merged on the controller
   * and on the host: each query's top T equals the brute force, in order.
   */
  @Test
  void theHammingSearchFindsEachQuerysTopTAsTheBruteForceDoes() throws Exception {
    java.util.Random random = new java.util.Random(48);
    for (int bits : new int[] {48, 64, 100, 128, 200}) {
      int n = 3_000;
      long[] ids = new long[n];
      long[][] codes = new long[n][];
      for (int i = 0; i < n; i++) {
        ids[i] = random.nextLong();
        // Codes near a few centres, so that distances are small and repeat (ties by id matter).
        codes[i] = randomCode(random, bits);
        if (i % 3 != 0) {
          codes[i] = codes[i % 7].clone();
          codes[i][0] ^= 1L << (63 - random.nextInt(Math.min(bits, 64)));
        }
      }
      List<long[]> queries = List.of(codes[1].clone(), codes[2].clone(), randomCode(random, bits), codes[5].clone());
      int top = 25;
      Map<String, String> p = HammingTopT.parameters(bits, top, queries);
      ByteBuffer data = items(ids, codes);
      int record = HammingSearch.recordBytes(bits);
      List<TaskletResult> lanes = new ArrayList<>();
      for (int lane = 0; lane < 2; lane++) {
        results.clear();
        HammingTopT t = start(new HammingTopT(), p);
        assertEquals(RecordFormat.fixedLength(record), t.recordFormat());
        for (int first = lane * 250; first < n; first += 500) { // chunks of 250 records, every other to this lane
          int end = Math.min(n, first + 250);
          ByteBuffer chunk = data.duplicate().position(first * record).limit(end * record).slice().asReadOnlyBuffer();
          t.onDataAvailable(new DataChunk("/items", (long) first * record, chunk), sink);
        }
        t.onRead(sink, false);
        assertTrue(results.isEmpty(), "nothing before the lane's data ends");
        t.onRead(sink, true);
        assertEquals(1, results.size());
        lanes.add(new TaskletResult(lane, results.get(0).data()));
      }
      List<TaskletResult> merged = new ArrayList<>();
      start(new HammingTopT(), p).onMerge(lanes, r -> merged.add(new TaskletResult(-1, copy(r))));
      for (List<TaskletResult> found : List.of(lanes, merged)) {
        List<List<Neighbour>> neighbours = HammingTopT.neighbours(found);
        assertEquals(queries.size(), neighbours.size());
        for (int q = 0; q < queries.size(); q++) {
          assertEquals(bruteForce(ids, codes, queries.get(q), top), neighbours.get(q), bits + " bits, query " + q);
        }
      }
    }
  }

  /** Many items at the same distance: the T kept are those with the smallest ids, whatever their order. */
  @Test
  void theHammingSearchBreaksTiesByIdWhateverTheOrder() throws Exception {
    int n = 1_000;
    long[] ids = new long[n];
    long[][] codes = new long[n][];
    for (int i = 0; i < n; i++) {
      ids[i] = (i * 7919L) % n; // a permutation of 0 .. n - 1
      codes[i] = new long[] {ids[i] % 2 == 0 ? 0b1L : 0b11L}; // distance 1 or 2 from the query 0
    }
    HammingTopT t = start(new HammingTopT(), HammingTopT.parameters(64, 10, List.of(new long[] {0})));
    t.onDataAvailable(new DataChunk("/items", 0, items(ids, codes)), sink);
    t.onRead(sink, true);
    List<Neighbour> found = HammingTopT.neighbours(results).get(0);
    assertEquals(List.of(0L, 2L, 4L, 6L, 8L, 10L, 12L, 14L, 16L, 18L), found.stream().map(Neighbour::id).toList());
    assertTrue(found.stream().allMatch(x -> x.distance() == 1), found.toString());
    assertEquals("0000000000000001", HammingSearch.formatCode(codes[0], 64));
  }

  /** With {@code range-queries}, a range's records meet only its queries. */
  @Test
  void theHammingSearchComparesARangeOnlyWithItsQueries() throws Exception {
    long[] ids = {1, 2, 3, 4};
    long[][] codes = {{0L}, {0L}, {-1L}, {-1L}};
    ByteBuffer data = items(ids, codes);
    HammingTopT t = new HammingTopT();
    t.onCreate(context(HammingTopT.parameters(64, 4, List.of(new long[] {0L}, new long[] {-1L}))));
    List<org.smartssd.device.tasklet.InputRange> ranges = List.of(new org.smartssd.device.tasklet.InputRange("/i", 0,
        32), new org.smartssd.device.tasklet.InputRange("/i", 32, 32));
    t.onExecute(new ExecutionInfo(1, ranges, Map.of(HammingTopT.RANGE_QUERIES,
        HammingTopT.rangeQueries(List.of(new int[] {0}, new int[] {0, 1}))), 0, 1));
    t.onDataAvailable(new DataChunk("/i", 0, data.duplicate().limit(32).slice()), sink);
    t.onDataAvailable(new DataChunk("/i", 32, data.duplicate().position(32).slice()), sink);
    t.onRead(sink, true);
    List<List<Neighbour>> found = HammingTopT.neighbours(results);
    assertEquals(List.of(new Neighbour(1, 0), new Neighbour(2, 0), new Neighbour(3, 64), new Neighbour(4, 64)),
        found.get(0));
    assertEquals(List.of(new Neighbour(3, 0), new Neighbour(4, 0)), found.get(1), "query 1 never met the first range");

    // One range in segments: record 1 meets query 1, records 2 and 3 nobody, record 4 both; the chunk
    // holds the whole range.
    results.clear();
    t.onExecute(new ExecutionInfo(2, List.of(new org.smartssd.device.tasklet.InputRange("/i", 0, 64)),
        Map.of(HammingTopT.RANGE_QUERIES, HammingTopT.segments(new int[] {1, 2, 0, 1},
            List.of(new int[] {1}, new int[0], new int[] {0}, new int[] {0, 1}))), 0, 1));
    t.onDataAvailable(new DataChunk("/i", 0, data.duplicate()), sink);
    t.onRead(sink, true);
    found = HammingTopT.neighbours(results);
    assertEquals(List.of(new Neighbour(4, 64)), found.get(0));
    assertEquals(List.of(new Neighbour(4, 0), new Neighbour(1, 64)), found.get(1));
  }

  @Test
  void theHammingSearchRefusesBadParametersNamingThem() {
    Map<String, String> good = HammingTopT.parameters(48, 10, List.of(new long[] {0xABCDEF0123450000L}));
    assertEquals("abcdef012345", good.get(HammingTopT.QUERIES));
    Map<Map<String, String>, String> bad = new java.util.LinkedHashMap<>();
    bad.put(with(good, "bits", "0"), "bits=0");
    bad.put(with(good, "bits", "4097"), "bits=4097");
    bad.put(with(good, "top", "0"), "top=0");
    bad.put(with(good, "queries", ""), "needs parameter queries");
    bad.put(with(good, "queries", "abcdef01234"), "12 hexadecimal digits");
    bad.put(with(good, "queries", "abcdef01234g"), "not hexadecimal");
    bad.put(with(with(good, "bits", "45"), "queries", "abcdef012345"), "sets bits past its 45 bits");
    bad.put(with(good, "queries", "abcdef012345,12"), "query 1");
    bad.put(with(good, "top", "1000001"), "top=1000001");
    bad.put(with(with(good, "top", "500000"), "queries", "abcdef012345,abcdef012345,abcdef012345"), "at most 1000000");
    for (Map.Entry<Map<String, String>, String> e : bad.entrySet()) {
      IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
          () -> new HammingTopT().onCreate(context(e.getKey())), e.getKey().toString());
      assertTrue(x.getMessage().contains(e.getValue()), x.getMessage());
    }
    org.smartssd.device.tasklet.InputRange first = new org.smartssd.device.tasklet.InputRange("/i", 0, 16);
    org.smartssd.device.tasklet.InputRange second = new org.smartssd.device.tasklet.InputRange("/i", 64, 16);
    Map<String, String> options = new java.util.LinkedHashMap<>();
    options.put("0", "lists 1 ranges' queries for 2");
    options.put("0;3", "'3' is not a query");
    options.put("0;x", "'x' is not a query");
    options.put("0;2:0", "segments hold 2 records of 16 bytes, the range 16 bytes");
    options.put("0;x:0", "segment 'x:0' is not RECORDS:QUERIES");
    options.put("0;0", "ascending order"); // the ranges given the other way round
    for (Map.Entry<String, String> e : options.entrySet()) {
      List<org.smartssd.device.tasklet.InputRange> ranges = e.getKey().equals("0;0") ? List.of(second, first)
          : List.of(first, second);
      IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> start(new HammingTopT(), good)
          .onExecute(new ExecutionInfo(1, ranges, Map.of(HammingTopT.RANGE_QUERIES, e.getKey()), 0, 1)), e.getKey());
      assertTrue(x.getMessage().contains(e.getValue()), x.getMessage());
    }
  }

  private static Map<String, String> with(Map<String, String> p, String key, String value) {
    Map<String, String> m = new java.util.LinkedHashMap<>(p);
    m.put(key, value);
    return m;
  }

  private static long bigEndian(byte[] bytes, int at, int length) {
    long v = 0;
    for (int i = 0; i < length; i++) {
      v = (v << 8) | (bytes[at + i] & 0xFF);
    }
    return v;
  }
}
