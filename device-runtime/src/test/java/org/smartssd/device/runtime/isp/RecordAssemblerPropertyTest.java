package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.smartssd.device.runtime.isp.AssemblyHarness.PATH;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.smartssd.device.runtime.isp.AssemblyHarness.Outcome;
import org.smartssd.device.tasklet.RecordFormat;

/**
 * Exactly-once, against a plain sequential parse, over many seeded random objects, segmentations,
 * arrival orders and lanes; and exhaustively over every small object and cut.
 */
class RecordAssemblerPropertyTest {

  private static final Pattern TOO_LONG = Pattern.compile(Pattern.quote(PATH)
      + ": a record starting at offset (\\d+) runs past (\\d+) bytes \\(smartssd\\.device\\.isp\\.max-record-bytes\\)");

  private interface SeedCase {
    void run(long seed) throws Exception;
  }

  @Test
  void fixedLengthRecordsOnceInAnyOrder() throws Exception {
    forSeeds(400, seed -> fixedLengthCase(seed, 1, 64 * 1024));
  }

  @Test
  void fixedLengthRecordsOnceFromConcurrentLanes() throws Exception {
    forSeeds(60, seed -> fixedLengthCase(seed, 4, 256 * 1024));
  }

  /** The engine's assemblers know the page size and keep straddling records by page: any cuts still work. */
  @Test
  void fixedLengthRecordsOnceWhenThePageSizeIsKnown() throws Exception {
    forSeeds(200, seed -> fixedLengthCase(seed, 1, 64 * 1024, true));
    forSeeds(60, seed -> fixedLengthCase(seed, 4, 256 * 1024, true));
  }

  @Test
  void delimitedRecordsOnceInAnyOrder() throws Exception {
    forSeeds(400, seed -> delimitedCase(seed, 1));
  }

  @Test
  void delimitedRecordsOnceFromConcurrentLanes() throws Exception {
    forSeeds(60, seed -> delimitedCase(seed, 4));
  }

  @Test
  void tinySegmentsFromManyLanes() throws Exception {
    forSeeds(20, seed -> {
      Random random = new Random(seed);
      boolean fixed = seed % 2 == 0;
      byte[] object = fixed ? randomBytes(random, 13 * 3_000) : lines(random, (byte) '\n', 64);
      RecordFormat format = fixed ? RecordFormat.fixedLength(13) : RecordFormat.lines();
      RecordAssembler assembler = new RecordAssembler(format, PATH, object.length, 0, object.length, 1 << 20);
      List<long[]> order = AssemblyHarness.randomCuts(assembler.readStart(), assembler.readEnd(), random, 16);
      Collections.shuffle(order, random);
      Outcome outcome = AssemblyHarness.deliver(assembler, object, order, 8, random);
      TreeMap<Long, Long> records = AssemblyHarness.parse(object, format);
      TreeMap<Long, Long> owned = wholeRecords(records, format);
      expectExactly(owned, outcome, object, records, format, assembler);
    });
  }

  @Test
  void adjacentRangesDeliverEveryRecordOnce() throws Exception {
    forSeeds(300, seed -> {
      Random random = new Random(seed);
      boolean fixed = random.nextBoolean();
      int n = pick(random, 1, 7, 13, 20, 20, 5000);
      byte[] object = fixed ? randomBytes(random, random.nextInt(Math.min(30_000, 2_000 * n))) : lines(random, (byte) '\n', 512);
      RecordFormat format = fixed ? RecordFormat.fixedLength(n) : RecordFormat.lines();
      TreeMap<Long, Long> records = AssemblyHarness.parse(object, format);
      long a = random.nextInt(object.length + 1);
      long b = a + random.nextInt(object.length + 1 - (int) a);
      long[][] ranges = {{0, a}, {a, b}, {b, object.length}};
      Map<Long, Integer> all = new HashMap<>();
      int errors = 0;
      for (long[] range : ranges) {
        RecordAssembler assembler = new RecordAssembler(format, PATH, object.length, range[0], range[1], 1 << 20);
        List<long[]> segments = AssemblyHarness.randomCuts(assembler.readStart(), assembler.readEnd(), random, 700);
        Outcome outcome = AssemblyHarness.deliver(assembler, object,
            AssemblyHarness.arrival(segments, random), 1 + random.nextInt(3), random);
        errors += outcome.error == null ? 0 : 1;
        AssemblyHarness.check(outcome.chunks, object, records,
            AssemblyHarness.owned(records, range[0], range[1]).keySet(), format)
            .forEach((start, times) -> all.merge(start, times, Integer::sum));
      }
      assertEquals(wholeRecords(records, format).keySet(), all.keySet(), "records delivered over the three ranges");
      all.forEach((start, times) -> assertEquals(1, times, "record at " + start));
      boolean partialAtEnd = fixed && object.length % n != 0;
      assertEquals(partialAtEnd ? 1 : 0, errors, "ranges that failed");
    });
  }

  /** Every object of up to 6 bytes over {a, \n}, every range, every cut of its read range, three orders. */
  @Test
  void everySmallDelimitedObjectCutAndOrder() throws Exception {
    RecordFormat format = RecordFormat.lines();
    int runs = 0;
    for (int length = 0; length <= 6; length++) {
      for (int mask = 0; mask < 1 << length; mask++) {
        byte[] object = new byte[length];
        for (int i = 0; i < length; i++) {
          object[i] = (byte) ((mask >> i & 1) == 1 ? '\n' : 'a');
        }
        TreeMap<Long, Long> records = AssemblyHarness.parse(object, format);
        for (int max : new int[] {1, 7}) {
          for (long a = 0; a <= length; a++) {
            for (long b = a; b <= length; b++) {
              runs += everyCut(object, format, records, a, b, max);
            }
          }
        }
      }
    }
    assertTrue(runs > 100_000, "runs: " + runs);
  }

  /** Every length up to 7 bytes, record lengths 1 to 4, every range, every cut, three orders. */
  @Test
  void everySmallFixedLengthObjectCutAndOrder() throws Exception {
    int runs = 0;
    for (int n = 1; n <= 4; n++) {
      RecordFormat format = RecordFormat.fixedLength(n);
      for (int length = 0; length <= 7; length++) {
        byte[] object = new byte[length];
        for (int i = 0; i < length; i++) {
          object[i] = (byte) i;
        }
        TreeMap<Long, Long> records = AssemblyHarness.parse(object, format);
        for (long a = 0; a <= length + 1; a++) {
          for (long b = a; b <= length + 1; b++) {
            runs += everyCut(object, format, records, a, b, 1);
          }
        }
      }
    }
    assertTrue(runs > 8_000, "runs: " + runs);
  }

  private static int everyCut(byte[] object, RecordFormat format, TreeMap<Long, Long> records, long a, long b,
      int max) throws Exception {
    RecordAssembler probe = new RecordAssembler(format, PATH, object.length, a, b, max);
    long from = probe.readStart();
    int span = (int) (probe.readEnd() - from);
    int runs = 0;
    for (int cuts = 0; cuts < 1 << Math.max(0, span - 1); cuts++) {
      List<long[]> segments = new ArrayList<>();
      long start = from;
      for (int i = 1; i < span; i++) {
        if ((cuts >> (i - 1) & 1) == 1) {
          segments.add(new long[] {start, from + i});
          start = from + i;
        }
      }
      segments.add(new long[] {start, from + span});
      for (int order = 0; order < 3; order++) {
        List<long[]> arrival = new ArrayList<>(segments);
        if (order == 1) {
          Collections.reverse(arrival);
        } else if (order == 2) {
          Collections.shuffle(arrival, new Random(cuts));
        }
        RecordAssembler assembler = new RecordAssembler(format, PATH, object.length, a, b, max);
        Outcome outcome = AssemblyHarness.deliver(assembler, object, arrival, 1, new Random(cuts));
        try {
          expect(AssemblyHarness.owned(records, a, b), outcome, object, records, format, assembler, max);
        } catch (AssertionError e) {
          throw new AssertionError(String.format("object %s, range [%d, %d), max %d, segments %s: %s",
              printable(object), a, b, max, describe(arrival), e.getMessage()), e);
        }
        runs++;
      }
    }
    return runs;
  }

  private static void fixedLengthCase(long seed, int threads, int maxLength) throws Exception {
    fixedLengthCase(seed, threads, maxLength, false);
  }

  private static void fixedLengthCase(long seed, int threads, int maxLength, boolean pageKnown) throws Exception {
    Random random = new Random(seed);
    int n = pick(random, 1, 7, 13, 20, 20, 20, 4096, 5000, 9000, 1 + random.nextInt(300));
    int page = threads > 1 ? pick(random, 64, 256, 512) : pick(random, 512, 4096, 8192);
    int length = random.nextInt((int) Math.min(maxLength, 3_000L * n));
    if (random.nextBoolean()) {
      length = length / n * n;
    }
    byte[] object = randomBytes(random, length);
    RecordFormat format = RecordFormat.fixedLength(n);
    long[] range = range(random, length);
    RecordAssembler assembler = new RecordAssembler(format, PATH, length, range[0], range[1], 1 << 20,
        pageKnown ? page : 0);

    TreeMap<Long, Long> records = AssemblyHarness.parse(object, format);
    TreeMap<Long, Long> owned = AssemblyHarness.owned(records, range[0], range[1]);
    if (owned.isEmpty()) {
      assertEquals(assembler.readStart(), assembler.readEnd(), "read range of a range owning nothing");
    } else {
      assertEquals(owned.firstKey(), assembler.readStart(), "readStart");
      assertEquals(owned.lastEntry().getValue(), assembler.readEnd(), "readEnd");
    }
    List<long[]> segments = random.nextBoolean()
        ? AssemblyHarness.pages(assembler.readStart(), assembler.readEnd(), page)
        : AssemblyHarness.randomCuts(assembler.readStart(), assembler.readEnd(), random, 2 * page);
    Outcome outcome = AssemblyHarness.deliver(assembler, object, AssemblyHarness.arrival(segments, random), threads,
        random);
    expect(owned, outcome, object, records, format, assembler, 1 << 20);
  }

  private static void delimitedCase(long seed, int threads) throws Exception {
    Random random = new Random(seed);
    byte delimiter = (byte) pick(random, '\n', '\n', 0, 0xFF, '|');
    int page = threads > 1 ? pick(random, 64, 256, 512) : pick(random, 512, 4096);
    byte[] object = lines(random, delimiter, page);
    RecordFormat format = RecordFormat.delimited(delimiter);
    TreeMap<Long, Long> records = AssemblyHarness.parse(object, format);
    long longest = records.entrySet().stream().mapToLong(e -> e.getValue() - e.getKey()).max().orElse(0);
    int choice = random.nextInt(10);
    int max = (int) (choice < 7 ? longest + 1 + random.nextInt(50)
        : choice < 8 ? Math.max(1, longest) : 1 + random.nextInt((int) Math.max(1, longest)));
    long[] range = range(random, object.length);
    RecordAssembler assembler = new RecordAssembler(format, PATH, object.length, range[0], range[1], max);

    long start = Math.min(range[0], object.length);
    long end = Math.min(range[1], object.length);
    assertEquals(start == end || start == 0 ? start : start - 1, assembler.readStart(), "readStart");
    assertEquals(start == end ? start : Math.min(object.length, end + max), assembler.readEnd(), "readEnd");

    List<long[]> segments = random.nextBoolean()
        ? AssemblyHarness.pages(assembler.readStart(), assembler.readEnd(), page)
        : AssemblyHarness.randomCuts(assembler.readStart(), assembler.readEnd(), random, 2 * page);
    Outcome outcome = AssemblyHarness.deliver(assembler, object, AssemblyHarness.arrival(segments, random), threads,
        random);
    expect(AssemblyHarness.owned(records, range[0], range[1]), outcome, object, records, format, assembler, max);
  }

  /**
   * What a range must deliver: every owned record once; or, if an owned record is invalid (a short
   * fixed-length record, a delimited one longer than max), that error, and no wrong record before it.
   */
  private static void expect(TreeMap<Long, Long> owned, Outcome outcome, byte[] object, TreeMap<Long, Long> records,
      RecordFormat format, RecordAssembler assembler, int max) {
    Map<Long, Integer> delivered = AssemblyHarness.check(outcome.chunks, object, records, owned.keySet(), format);
    if (format.kind() == RecordFormat.Kind.FIXED_LENGTH) {
      int n = format.recordLength();
      Map.Entry<Long, Long> last = owned.lastEntry();
      if (last != null && last.getValue() - last.getKey() < n) {
        assertNotNull(outcome.error, "no error for the partial record at " + last.getKey());
        assertEquals(String.format("%s: partial record of %d bytes at offset %d (records are %d bytes)",
            PATH, last.getValue() - last.getKey(), last.getKey(), n), outcome.error.getMessage());
        assertEquals(owned.headMap(last.getKey()).keySet(), delivered.keySet(), "whole records before the error");
        return;
      }
    } else {
      List<Long> tooLong = new ArrayList<>();
      owned.forEach((start, end) -> {
        if (end - start > max) {
          tooLong.add(start);
        }
      });
      if (!tooLong.isEmpty()) {
        assertNotNull(outcome.error, "no error for the records longer than " + max + " at " + tooLong);
        Matcher m = TOO_LONG.matcher(outcome.error.getMessage());
        assertTrue(m.matches(), outcome.error.getMessage());
        assertTrue(tooLong.contains(Long.parseLong(m.group(1))), outcome.error.getMessage() + "; too long: " + tooLong);
        assertEquals(max, Integer.parseInt(m.group(2)));
        return;
      }
    }
    expectExactly(owned, outcome, object, records, format, assembler);
  }

  private static void expectExactly(TreeMap<Long, Long> owned, Outcome outcome, byte[] object,
      TreeMap<Long, Long> records, RecordFormat format, RecordAssembler assembler) {
    assertNull(outcome.error, () -> "unexpected " + outcome.error);
    Map<Long, Integer> delivered = AssemblyHarness.check(outcome.chunks, object, records, owned.keySet(), format);
    assertEquals(owned.keySet(), delivered.keySet(), "records delivered");
    assertEquals(owned.size(), assembler.recordsDelivered(), "recordsDelivered()");
    assertEquals(0, assembler.bufferedBytes(), "bytes still buffered");
  }

  private static TreeMap<Long, Long> wholeRecords(TreeMap<Long, Long> records, RecordFormat format) {
    TreeMap<Long, Long> whole = new TreeMap<>(records);
    if (format.kind() == RecordFormat.Kind.FIXED_LENGTH) {
      whole.entrySet().removeIf(e -> e.getValue() - e.getKey() < format.recordLength());
    }
    return whole;
  }

  /** A random object of lines: empty ones, short, medium and longer than a segment; or degenerate. */
  static byte[] lines(Random random, byte delimiter, int page) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int mode = random.nextInt(10);
    if (mode == 0) {
      text(out, random, delimiter, random.nextInt(3 * page)); // no delimiter at all
    } else if (mode == 1) {
      for (int i = random.nextInt(50); i > 0; i--) {
        out.write(delimiter); // only delimiters
      }
    } else {
      if (random.nextInt(4) == 0) {
        out.write(delimiter); // the first byte is a delimiter
      }
      int target = random.nextInt(48 * 1024);
      while (out.size() < target) {
        int kind = random.nextInt(100);
        int length = kind < 10 ? 0 : kind < 75 ? 1 + random.nextInt(29) : kind < 93 ? 30 + random.nextInt(570)
            : page + random.nextInt(2 * page);
        text(out, random, delimiter, length);
        out.write(delimiter);
      }
    }
    byte[] bytes = out.toByteArray();
    if (mode > 1 && bytes.length > 0 && random.nextBoolean()) {
      return java.util.Arrays.copyOf(bytes, bytes.length - 1); // the last record has no delimiter
    }
    return bytes;
  }

  private static void text(ByteArrayOutputStream out, Random random, byte delimiter, int length) {
    for (int i = 0; i < length; i++) {
      byte b = (byte) random.nextInt(256);
      out.write(b == delimiter ? b + 1 : b);
    }
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** The whole object, or a random range, sometimes empty or reaching past the object's end. */
  private static long[] range(Random random, int length) {
    if (random.nextInt(5) < 2) {
      return new long[] {0, length};
    }
    long a = random.nextInt(length + 10);
    long b = a + random.nextInt(length + 10);
    return new long[] {a, b};
  }

  private static int pick(Random random, int... values) {
    return values[random.nextInt(values.length)];
  }

  private static void forSeeds(int count, SeedCase test) throws Exception {
    for (long seed = 1; seed <= count; seed++) {
      try {
        test.run(seed);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
    }
  }

  private static String printable(byte[] object) {
    return "\"" + new String(object, java.nio.charset.StandardCharsets.ISO_8859_1).replace("\n", "\\n") + "\"";
  }

  private static String describe(List<long[]> segments) {
    StringBuilder s = new StringBuilder();
    for (long[] segment : segments) {
      s.append('[').append(segment[0]).append(',').append(segment[1]).append(')');
    }
    return s.toString();
  }
}
