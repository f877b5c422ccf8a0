package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.RecordFormat;

/** Drives a {@link RecordAssembler} with segments and checks what it delivers against a plain parse. */
final class AssemblyHarness {

  static final String PATH = "/wc98/day1";

  /** A delivered chunk, copied at once (as a lane would be done with it before its segment goes). */
  record Chunk(String path, long offset, byte[] bytes, boolean readOnly) {}

  /** What an assembler delivered over all its segments and finish(), and its first record error. */
  static final class Outcome {
    final List<Chunk> chunks = Collections.synchronizedList(new ArrayList<>());
    volatile RecordException error;
  }

  private AssemblyHarness() {}

  /** The records of an object, parsed in one sequential pass: start to end. */
  static TreeMap<Long, Long> parse(byte[] object, RecordFormat format) {
    TreeMap<Long, Long> records = new TreeMap<>();
    switch (format.kind()) {
      case FIXED_LENGTH -> {
        int n = format.recordLength();
        for (long p = 0; p < object.length; p += n) {
          records.put(p, Math.min(p + n, object.length)); // a short last record included
        }
      }
      case DELIMITED -> {
        long start = 0;
        for (int i = 0; i < object.length; i++) {
          if (object[i] == format.delimiter()) {
            records.put(start, i + 1L);
            start = i + 1L;
          }
        }
        if (start < object.length) {
          records.put(start, (long) object.length);
        }
      }
      default -> throw new IllegalArgumentException("no records in " + format);
    }
    return records;
  }

  /** The records a range owns: those starting in [rangeStart, rangeEnd). */
  static TreeMap<Long, Long> owned(TreeMap<Long, Long> records, long rangeStart, long rangeEnd) {
    return new TreeMap<>(records.subMap(rangeStart, true, Math.max(rangeStart, rangeEnd), false));
  }

  /** Segments covering [from, to), cut where the object's pages of {@code page} bytes end. */
  static List<long[]> pages(long from, long to, int page) {
    List<long[]> segments = new ArrayList<>();
    for (long s = from; s < to; s = Math.min(to, (s / page + 1) * page)) {
      segments.add(new long[] {s, Math.min(to, (s / page + 1) * page)});
    }
    return segments;
  }

  /** Segments covering [from, to) of random sizes up to maxSegment, with a few empty ones. */
  static List<long[]> randomCuts(long from, long to, Random random, int maxSegment) {
    List<long[]> segments = new ArrayList<>();
    long s = from;
    while (s < to) {
      long size = random.nextInt(12) == 0 ? 0 : 1 + random.nextInt(maxSegment);
      long e = Math.min(to, s + size);
      segments.add(new long[] {s, e});
      s = e;
    }
    if (random.nextBoolean()) {
      segments.add(new long[] {to, to});
    }
    return segments;
  }

  /** The segments in a random arrival order: shuffled, reversed or in order. */
  static List<long[]> arrival(List<long[]> segments, Random random) {
    List<long[]> order = new ArrayList<>(segments);
    switch (random.nextInt(4)) {
      case 0 -> Collections.reverse(order);
      case 1 -> { } // in order
      default -> Collections.shuffle(order, random);
    }
    return order;
  }

  /**
   * Offers the segments in the given order, from {@code threads} threads taking them in turn, then
   * calls finish() unless a record error came first. Each segment's buffer is of a random kind
   * (array-backed at a non-zero position, read-only, direct) to exercise every access path.
   */
  static Outcome deliver(RecordAssembler assembler, byte[] object, List<long[]> order, int threads, Random random)
      throws InterruptedException {
    List<ByteBuffer> buffers = new ArrayList<>();
    for (long[] segment : order) {
      buffers.add(buffer(object, (int) segment[0], (int) (segment[1] - segment[0]), random.nextInt(4)));
    }
    Outcome outcome = new Outcome();
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> unexpected = new AtomicReference<>();
    Runnable lane = () -> {
      for (int i = next.getAndIncrement(); i < order.size() && outcome.error == null; i = next.getAndIncrement()) {
        try {
          long[] segment = order.get(i);
          List<DataChunk> chunks = assembler.accept(segment[0], buffers.get(i));
          checkShape(chunks, segment, assembler);
          keep(outcome, chunks, assembler.format());
        } catch (RecordException e) {
          outcome.error = e;
        } catch (Throwable t) {
          unexpected.compareAndSet(null, t);
          return;
        }
      }
    };
    if (threads == 1) {
      lane.run();
    } else {
      CountDownLatch done = new CountDownLatch(threads);
      for (int t = 0; t < threads; t++) {
        Thread thread = new Thread(() -> {
          try {
            lane.run();
          } finally {
            done.countDown();
          }
        }, "lane-" + t);
        thread.start();
      }
      done.await();
    }
    if (unexpected.get() != null) {
      throw new AssertionError("a lane failed", unexpected.get());
    }
    if (outcome.error == null) {
      try {
        keep(outcome, assembler.finish(), assembler.format());
      } catch (RecordException e) {
        outcome.error = e;
      }
    }
    return outcome;
  }

  private static ByteBuffer buffer(byte[] object, int from, int length, int kind) {
    return switch (kind) {
      case 0 -> ByteBuffer.wrap(object, from, length); // position = from
      case 1 -> ByteBuffer.wrap(Arrays.copyOfRange(object, from, from + length)).asReadOnlyBuffer();
      case 2 -> ByteBuffer.allocateDirect(length).put(object, from, length).flip();
      default -> {
        byte[] padded = new byte[length + 7];
        System.arraycopy(object, from, padded, 3, length);
        yield ByteBuffer.wrap(padded, 3, length).slice(); // array offset 3
      }
    };
  }

  /**
   * What one accept call returns: at most three chunks (a record completed before the segment's
   * records, those records, one completed after), in offset order; for fixed-length records, the
   * records wholly inside the segment in one chunk.
   */
  private static void checkShape(List<DataChunk> chunks, long[] segment, RecordAssembler assembler) {
    String call = "accept [" + segment[0] + ", " + segment[1] + ")";
    assertTrue(chunks.size() <= 3, call + " returned " + chunks.size() + " chunks");
    long at = -1;
    int inside = 0;
    for (DataChunk chunk : chunks) {
      assertTrue(chunk.offset() >= at, call + " returned chunks out of order");
      at = chunk.offset() + chunk.data().remaining();
      if (chunk.offset() >= segment[0] && at <= segment[1]) {
        inside++;
      }
    }
    if (assembler.format().kind() == RecordFormat.Kind.FIXED_LENGTH) {
      assertTrue(inside <= 1, call + ": the records inside the segment came in " + inside + " chunks");
    }
  }

  /**
   * A chunk of records carries their ends, and they are where a plain parse of its bytes puts them:
   * every record length for fixed-length records, after each delimiter (and at the chunk's end) for
   * delimited ones.
   */
  private static void checkBoundaries(DataChunk chunk, byte[] bytes, RecordFormat format) {
    if (format.kind() == RecordFormat.Kind.RAW) {
      return;
    }
    List<Integer> expected = new ArrayList<>();
    if (format.kind() == RecordFormat.Kind.FIXED_LENGTH) {
      for (int end = format.recordLength(); end <= bytes.length; end += format.recordLength()) {
        expected.add(end);
      }
    } else {
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] == format.delimiter() || i == bytes.length - 1) {
          expected.add(i + 1);
        }
      }
    }
    org.junit.jupiter.api.Assertions.assertNotNull(chunk.boundaries(), "records at " + chunk.offset() + " without ends");
    List<Integer> actual = new ArrayList<>();
    for (int i = 0; i < chunk.boundaries().count(); i++) {
      actual.add(chunk.boundaries().end(i));
    }
    assertEquals(expected, actual, "record ends of the chunk at " + chunk.offset());
  }

  private static void keep(Outcome outcome, List<DataChunk> chunks, RecordFormat format) {
    for (DataChunk chunk : chunks) {
      ByteBuffer data = chunk.data().duplicate();
      byte[] bytes = new byte[data.remaining()];
      data.get(bytes);
      checkBoundaries(chunk, bytes, format);
      outcome.chunks.add(new Chunk(chunk.path(), chunk.offset(), bytes, chunk.data().isReadOnly()));
    }
  }

  /**
   * Checks every chunk: the object's bytes at its offset, read-only, made of whole records of the
   * plain parse, each owned by the range (and whole, for fixed-length records). Returns how often
   * each record start was delivered.
   */
  static Map<Long, Integer> check(List<Chunk> chunks, byte[] object, TreeMap<Long, Long> records,
      Set<Long> ownedStarts, RecordFormat format) {
    Map<Long, Integer> delivered = new HashMap<>();
    for (Chunk chunk : chunks) {
      assertEquals(PATH, chunk.path());
      assertTrue(chunk.readOnly(), "chunk at " + chunk.offset() + " is writable");
      assertTrue(chunk.bytes().length > 0, "empty chunk at " + chunk.offset());
      long end = chunk.offset() + chunk.bytes().length;
      assertTrue(chunk.offset() >= 0 && end <= object.length, "chunk outside the object");
      assertArrayEquals(Arrays.copyOfRange(object, (int) chunk.offset(), (int) end), chunk.bytes(),
          "bytes of the chunk at " + chunk.offset());
      long p = chunk.offset();
      while (p < end) {
        Long recordEnd = records.get(p);
        assertNotNull(recordEnd, "chunk at " + chunk.offset() + " has no record boundary at " + p);
        assertTrue(ownedStarts.contains(p), "record at " + p + " is not owned by the range");
        if (format.kind() == RecordFormat.Kind.FIXED_LENGTH) {
          assertEquals(format.recordLength(), recordEnd - p, "partial record delivered at " + p);
        }
        delivered.merge(p, 1, Integer::sum);
        p = recordEnd;
      }
      assertEquals(end, p, "chunk at " + chunk.offset() + " ends inside a record");
    }
    delivered.forEach((start, times) -> {
      if (times != 1) {
        fail("record at " + start + " delivered " + times + " times");
      }
    });
    return delivered;
  }
}
