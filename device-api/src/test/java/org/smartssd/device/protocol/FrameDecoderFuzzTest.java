package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The device's frame decoder, fuzzed: at least a million mutated frames ({@link FrameFuzzer}) go
 * through {@link FrameReader} and the request decoder exactly as a device reads them
 * ({@link DeviceDecoding}), one connection's stream at a time. It checks, frame by frame:
 *
 * <ul>
 *   <li>nothing is thrown but the protocol's own exceptions ({@link ProtocolException} and its
 *       framing subclasses, which the device turns into an error status or a closed connection);
 *   <li>no hang: a case (one connection's few frames) that takes longer than {@link #HANG_SECONDS}
 *       fails the run with its bytes;
 *   <li>memory follows the bytes that arrived, never the lengths and counts a frame announces: the
 *       buffer the reader reads a payload into (seen by the stream it reads from) is never larger
 *       than the frame limit nor than twice the payload bytes that arrived (past a first step), and
 *       what the decoding thread allocated for the frame, measured by the JVM
 *       ({@code ThreadMXBean.getCurrentThreadAllocatedBytes}), stays within
 *       {@link #allocationBound};
 *   <li>what decodes is consistent: the request encodes back to a payload of the same length, which
 *       decodes to the same request.
 * </ul>
 *
 * <p>Every case is replayable: the seed is printed, and a failure names the case and the options
 * that replay it alone. {@code -Dsmartssd.fuzz.seed=S} sets the seed (default: a new one each run),
 * {@code -Dsmartssd.fuzz.frames=N} the frames read (default 1,000,000; the cases hold more, since a
 * frame that closes its connection leaves the rest of its case unread), {@code -Dsmartssd.fuzz.case=I}
 * runs case I alone.
 */
class FrameDecoderFuzzTest {
  /** Frames read and decoded by default: the "at least a million". */
  private static final long DEFAULT_FRAMES = 1_000_000;

  /**
   * A case is at most {@link FrameFuzzer#MAX_FRAMES_PER_CASE} frames of at most about 140 KB (the
   * largest seed, spliced and grown), which the decoder reads in well under a millisecond; one that
   * takes this long is stuck, not slow.
   */
  private static final long HANG_SECONDS = 10;

  /**
   * Bytes the reader may allocate per payload byte that arrived: its buffer doubles as bytes
   * arrive, so the buffers of one frame add up to less than twice its final size, itself at most
   * twice the bytes that arrived.
   */
  private static final long READ_BYTES_PER_BYTE = 4;

  /**
   * Bytes decoding may allocate per payload byte. The costliest structure per byte is a map of
   * distinct one to three byte keys with empty values: a 4 MB CREATE_OBJECT of them allocates 92 to
   * 96 bytes per payload byte (a TreeMap entry, two Strings and their decoding buffers for every
   * 6 or 7 bytes, and the request's sorted copy of the map), measured with the same counter.
   */
  private static final long DECODE_BYTES_PER_BYTE = 128;

  /**
   * Allocation that does not grow with the payload: the header record, the frame's buffers, the
   * charset decoder, and for a bad frame the exception with its stack trace and message.
   */
  private static final long FIXED_BYTES = 64 << 10;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** The bound on what reading and decoding one frame may allocate, given the payload bytes that arrived. */
  static long allocationBound(long payloadBytesArrived) {
    return FrameReader.FIRST_STEP_BYTES + (READ_BYTES_PER_BYTE + DECODE_BYTES_PER_BYTE) * payloadBytesArrived
        + FIXED_BYTES;
  }

  /** An in-memory connection: counts the bytes it delivers and the largest buffer it is asked to fill. */
  private static final class Wire extends InputStream {
    private final byte[] bytes;
    private int position;
    private int largestBuffer;

    Wire(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int read() {
      return position < bytes.length ? bytes[position++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      largestBuffer = Math.max(largestBuffer, b.length);
      if (len == 0) {
        return 0;
      }
      if (position >= bytes.length) {
        return -1;
      }
      int n = Math.min(len, bytes.length - position);
      System.arraycopy(bytes, position, b, off, n);
      position += n;
      return n;
    }
  }

  /** Counts of what the run did. */
  private static final class Tally {
    long cases;
    long framesFed;
    long framesRead;
    long payloadBytes;
    long largestAllocation;
    long largestAllocationPayload;
    /** Frames over the bound the first time only (a code path run for the first time). */
    long relinked;
    long largestBuffer;
    final Map<DeviceDecoding.Outcome, Long> outcomes = new EnumMap<>(DeviceDecoding.Outcome.class);
    final Map<String, Long> decodedByOpcode = new TreeMap<>();
  }

  @Test
  void aMillionMutatedFramesGetTheProtocolsOwnAnswersWithinBoundedMemory() throws Exception {
    assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM cannot count a thread's allocations");
    THREADS.setThreadAllocatedMemoryEnabled(true);
    long seed = Long.getLong("smartssd.fuzz.seed", System.nanoTime() ^ Runtime.getRuntime().freeMemory());
    long frames = Long.getLong("smartssd.fuzz.frames", DEFAULT_FRAMES);
    Long onlyCase = Long.getLong("smartssd.fuzz.case");
    System.out.println("frame decoder fuzz: seed " + seed + " (replay with -Dsmartssd.fuzz.seed=" + seed + ")");
    FrameFuzzer fuzzer = new FrameFuzzer();
    warmUp();

    Tally tally = new Tally();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicReference<FrameFuzzer.Case> current = new AtomicReference<>();
    long[] caseStarted = {System.nanoTime()};
    Thread worker = new Thread(() -> {
      try {
        for (long i = onlyCase != null ? onlyCase : 0;
            onlyCase != null ? i == onlyCase : tally.framesRead < frames; i++) {
          FrameFuzzer.Case c = fuzzer.generate(seed, i);
          current.set(c);
          synchronized (caseStarted) {
            caseStarted[0] = System.nanoTime();
          }
          runCase(c, tally);
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "frame-decoder-fuzz");
    worker.setDaemon(true); // a decoder stuck in a loop must not keep the test JVM alive
    long start = System.nanoTime();
    worker.start();
    while (worker.isAlive()) {
      worker.join(100);
      long started;
      synchronized (caseStarted) {
        started = caseStarted[0];
      }
      if (worker.isAlive() && System.nanoTime() - started > TimeUnit.SECONDS.toNanos(HANG_SECONDS)) {
        StringBuilder stack = new StringBuilder();
        for (StackTraceElement e : worker.getStackTrace()) {
          stack.append("\n  at ").append(e);
        }
        fail("hang: case " + describe(current.get()) + " has been decoding for over " + HANG_SECONDS + " s" + stack);
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (failure.get() != null) {
      throw new AssertionError("seed " + seed + ": " + failure.get().getMessage(), failure.get());
    }
    System.out.printf("frame decoder fuzz: seed %d, %,d cases, %,d frames fed, %,d read by the decoder,"
            + " %,d payload bytes, %.1f s, %,.0f frames read/s%n", seed, tally.cases, tally.framesFed, tally.framesRead, tally.payloadBytes,
        seconds, tally.framesRead / seconds);
    System.out.println("frame decoder fuzz: outcomes " + tally.outcomes + "; decoded by opcode "
        + tally.decodedByOpcode + "; largest allocation for one frame " + tally.largestAllocation
        + " bytes (for " + tally.largestAllocationPayload + " payload bytes), largest payload buffer "
        + tally.largestBuffer + " bytes; " + tally.relinked + " frames over the bound only the first time");
    if (onlyCase != null) {
      return;
    }
    assertTrue(tally.framesRead >= frames, tally.framesRead + " frames read");
    // The generator reaches every path it is meant to: every outcome, and every opcode's decoder.
    for (DeviceDecoding.Outcome o : DeviceDecoding.Outcome.values()) {
      assertTrue(tally.outcomes.getOrDefault(o, 0L) > 0, "no frame had outcome " + o + ": " + tally.outcomes);
    }
    for (Opcode op : Opcode.values()) {
      assertTrue(tally.decodedByOpcode.getOrDefault(op.name(), 0L) > 0,
          "no mutated " + op + " request decoded: " + tally.decodedByOpcode);
    }
  }

  /** One connection's frames, read and decoded as the device does, each checked. */
  private static void runCase(FrameFuzzer.Case c, Tally tally) {
    Wire wire = new Wire(c.bytes());
    FrameReader reader = new FrameReader(wire);
    tally.cases++;
    tally.framesFed += c.frames();
    while (true) {
      int before = wire.position;
      wire.largestBuffer = 0;
      long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
      DeviceDecoding.Step step;
      try {
        step = DeviceDecoding.next(reader, c.frameLimit());
      } catch (Throwable t) {
        throw new AssertionError("case " + describe(c) + ": frame at byte " + before + " threw " + t
            + ", not one of the protocol's exceptions", t);
      }
      long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
      if (step == null) {
        return;
      }
      long payloadArrived = Math.max(0, wire.position - before - ProtocolConstants.HEADER_BYTES);
      tally.framesRead++;
      tally.payloadBytes += payloadArrived;
      tally.outcomes.merge(step.outcome(), 1L, Long::sum);
      tally.largestBuffer = Math.max(tally.largestBuffer, wire.largestBuffer);
      if (wire.largestBuffer > c.frameLimit()
          || wire.largestBuffer > Math.max(FrameReader.FIRST_STEP_BYTES, 2 * payloadArrived)) {
        throw new AssertionError("case " + describe(c) + ": frame at byte " + before + " was read into a buffer of "
            + wire.largestBuffer + " bytes; the limit is " + c.frameLimit() + " and " + payloadArrived
            + " payload bytes arrived");
      }
      if (allocated > allocationBound(payloadArrived)) {
        // The first run of a code path also links its call sites (string concatenation, lambdas): the
        // same frame read again allocates only what reading and decoding it costs.
        long again = allocatedReadingAgain(c, before, wire.position);
        if (again > allocationBound(payloadArrived)) {
          throw new AssertionError("case " + describe(c) + ": reading and decoding the frame at byte " + before
              + " allocated " + allocated + " bytes, and " + again + " when read again, for " + payloadArrived
              + " payload bytes that arrived (bound " + allocationBound(payloadArrived) + ")");
        }
        tally.relinked++;
        allocated = again;
      }
      if (allocated > tally.largestAllocation) {
        tally.largestAllocation = allocated;
        tally.largestAllocationPayload = payloadArrived;
      }
      if (step.outcome() == DeviceDecoding.Outcome.DECODED) {
        checkConsistent(c, before, step);
        tally.decodedByOpcode.merge(step.request().opcode().name(), 1L, Long::sum);
      }
      if (step.outcome().closes()) {
        return;
      }
    }
  }

  /** What reading and decoding the frame at {@code from} allocates when read again from a fresh stream. */
  private static long allocatedReadingAgain(FrameFuzzer.Case c, int from, int to) {
    FrameReader reader = new FrameReader(new Wire(java.util.Arrays.copyOfRange(c.bytes(), from, to)));
    long before = THREADS.getCurrentThreadAllocatedBytes();
    try {
      DeviceDecoding.next(reader, c.frameLimit());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return THREADS.getCurrentThreadAllocatedBytes() - before;
  }

  /** A decoded request encodes to a payload of the frame's length, which decodes to the same request. */
  private static void checkConsistent(FrameFuzzer.Case c, int at, DeviceDecoding.Step step) {
    Request request = step.request();
    int version = step.header().version();
    PayloadWriter w = new PayloadWriter();
    Messages.encodeRequest(version, request, w);
    try {
      assertEquals(step.header().payloadLength(), w.size(), "re-encoded length of " + request);
      assertEquals(request, Messages.decodeRequest(version, request.opcode(), Messages.concat(w.segments())));
    } catch (ProtocolException | AssertionError e) {
      throw new AssertionError("case " + describe(c) + ": the request decoded at byte " + at
          + " does not survive a round trip: " + e.getMessage(), e);
    }
  }

  /** Each seed read and decoded once before measuring, so that loading classes is not counted as the frames'. */
  private static void warmUp() {
    java.util.List<byte[]> seeds = FrameFuzzer.seeds();
    for (int i = 0; i < seeds.size(); i++) {
      byte[] seed = seeds.get(i);
      byte[] flagged = seed.clone();
      flagged[9] ^= ProtocolConstants.FLAG_RESPONSE; // a response's payload as a request, and the other way round
      for (byte[] input : new byte[][] {seed, java.util.Arrays.copyOf(seed, seed.length - 1),
          java.util.Arrays.copyOf(seed, 20), flagged}) {
        try {
          DeviceDecoding.next(new FrameReader(new Wire(input)), 64 << 20);
        } catch (Throwable t) {
          throw new AssertionError("seed frame " + i + " (" + HexFormat.of().formatHex(input) + ") threw " + t, t);
        }
      }
    }
  }

  private static String describe(FrameFuzzer.Case c) {
    if (c == null) {
      return "(none yet)";
    }
    String hex = HexFormat.of().formatHex(c.bytes(), 0, Math.min(c.bytes().length, 2048));
    return c.index() + " (replay with " + c.replay() + "; frame limit " + c.frameLimit() + ", " + c.frames()
        + " frames, " + c.bytes().length + " bytes" + (c.bytes().length > 2048 ? ", the first 2048" : "") + ": "
        + hex + ")";
  }
}
