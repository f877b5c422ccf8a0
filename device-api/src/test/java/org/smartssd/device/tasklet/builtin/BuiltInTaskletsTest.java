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

  private static long bigEndian(byte[] bytes, int at, int length) {
    long v = 0;
    for (int i = 0; i < length; i++) {
      v = (v << 8) | (bytes[at + i] & 0xFF);
    }
    return v;
  }
}
