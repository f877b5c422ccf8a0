package org.smartssd.device.runtime.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.DeviceDecoding;
import org.smartssd.device.protocol.Frame;
import org.smartssd.device.protocol.FrameFuzzer;
import org.smartssd.device.protocol.FrameReader;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;

/**
 * Fuzzed frames ({@link FrameFuzzer}) sent over real sockets to a real device, each case on a
 * connection of its own, while files written before wait on the device. Each connection gets
 * exactly the answers the device's decoder calls for ({@link DeviceDecoding}, run over the same
 * bytes): one per frame up to the one that closes the connection, with the decoder's status where it
 * decides one, and never {@code INTERNAL}; then the device closes it. Afterwards a fresh client gets
 * DEVICE_INFO, and the files read back intact.
 *
 * <p>Cases that would legitimately change the files kept (a decoded SHUTDOWN, or a CREATE, APPEND,
 * RENAME or DELETE naming the root or {@code /keep}) are left out. {@code -Dsmartssd.fuzz.seed=S}
 * sets the seed (default: a new one each run, printed), {@code -Dsmartssd.fuzz.socket-frames=N} the
 * frames the device reads (default 20,000), {@code -Dsmartssd.fuzz.case=I} sends case I alone.
 */
class FuzzedFramesTest {
  /** The device's frame limit: the tests' small devices' 64 KiB, so that the limit is reached by real frames. */
  private static final int FRAME_LIMIT = 64 << 10;
  /** Frames read by the device by default: enough to reach every opcode's handler many times in seconds. */
  private static final long DEFAULT_FRAMES = 20_000;
  /**
   * How long a connection may wait for the device's next answer or for it to close: a device that
   * has answered a few small frames and not closed after this long is stuck, not slow.
   */
  private static final int HANG_MILLIS = 30_000;

  /** Bytes of one WRITE of the files kept: room under the frame limit for the WRITE's own fields. */
  private static final int WRITE_BYTES = 32 << 10;

  @TempDir Path dir;

  @Test
  void fuzzedConnectionsGetTheirAnswersAndLeaveTheDeviceServingAndItsDataIntact() throws Exception {
    Map<String, String> config = TestDevices.small(dir);
    config.put("smartssd.device.host.max-frame-bytes", Integer.toString(FRAME_LIMIT));
    long seed = Long.getLong("smartssd.fuzz.seed", System.nanoTime());
    long frames = Long.getLong("smartssd.fuzz.socket-frames", DEFAULT_FRAMES);
    System.out.println("fuzzed frames over a socket: seed " + seed + " (replay with -Dsmartssd.fuzz.seed=" + seed + ")");
    Map<String, byte[]> kept = new HashMap<>();
    kept.put("/keep/a", TestDevices.bytes(300_000, 1));
    kept.put("/keep/d/b", TestDevices.bytes(70_001, 2));
    kept.put("/keep/empty", new byte[0]);

    try (SimulatedDevice device = TestDevices.start(config)) {
      try (SocketDeviceClient c = TestDevices.connect(device)) {
        for (Map.Entry<String, byte[]> e : kept.entrySet()) {
          long h = c.create(e.getKey(), false, true).handle();
          for (int off = 0; off < e.getValue().length; off += WRITE_BYTES) {
            c.write(h, e.getValue(), off, Math.min(WRITE_BYTES, e.getValue().length - off));
          }
          assertEquals(e.getValue().length, c.closeHandle(h));
        }
      }

      FrameFuzzer fuzzer = new FrameFuzzer();
      long framesRead = 0;
      long cases = 0;
      long skipped = 0;
      long answers = 0;
      Map<String, Long> statuses = new HashMap<>();
      long start = System.nanoTime();
      Long onlyCase = Long.getLong("smartssd.fuzz.case");
      for (long i = onlyCase != null ? onlyCase : 0; onlyCase != null ? i == onlyCase : framesRead < frames; i++) {
        FrameFuzzer.Case fuzzed = fuzzer.generate(seed, i, FRAME_LIMIT);
        Expected expected = expect(fuzzed.bytes());
        if (expected.unsafe) {
          skipped++;
          continue;
        }
        List<Frame> got = exchange(device.port(), Arrays.copyOf(fuzzed.bytes(), expected.consumed), fuzzed);
        check(fuzzed, expected, got);
        cases++;
        framesRead += expected.steps.size();
        answers += got.size();
        for (Frame f : got) {
          statuses.merge(status(f).name(), 1L, Long::sum);
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("fuzzed frames over a socket: seed %d, %,d connections (%,d cases left out), %,d frames read"
          + " by the device, %,d answers, %.1f s, %,.0f frames/s; statuses %s%n", seed, cases, skipped, framesRead,
          answers, seconds, framesRead / seconds, statuses);

      try (SocketDeviceClient c = TestDevices.connect(device)) {
        DeviceInfo info = c.info();
        assertEquals("test-device", info.deviceName());
        for (Map.Entry<String, byte[]> e : kept.entrySet()) {
          assertArrayEquals(e.getValue(), TestDevices.readAll(c, e.getKey()), e.getKey() + " after the fuzzing");
        }
      }
    }
  }

  /** What the device will make of a case's bytes. */
  private static final class Expected {
    final List<DeviceDecoding.Step> steps = new ArrayList<>();
    /** Bytes the device reads before it closes or meets the end: what is sent. */
    int consumed;
    boolean unsafe;
  }

  private static Expected expect(byte[] bytes) throws IOException {
    Expected e = new Expected();
    ByteArrayInputStream in = new ByteArrayInputStream(bytes);
    FrameReader reader = new FrameReader(in);
    DeviceDecoding.Step step;
    while ((step = DeviceDecoding.next(reader, FRAME_LIMIT)) != null) {
      e.steps.add(step);
      e.unsafe |= step.request() != null && unsafe(step.request());
      if (step.outcome().closes()) {
        break;
      }
    }
    // Bytes after the frame that closes the connection are not sent: unread by the device, they would
    // make its close a reset, which may discard answers on their way.
    e.consumed = bytes.length - in.available();
    return e;
  }

  /** Requests that may rightly stop the device or change the files this test keeps. */
  private static boolean unsafe(Request r) {
    if (r instanceof Request.Shutdown) {
      return true;
    }
    Stream<String> paths = r instanceof Request.Create c ? Stream.of(c.path())
        : r instanceof Request.Append a ? Stream.of(a.path())
        : r instanceof Request.Rename m ? Stream.of(m.source(), m.destination())
        : r instanceof Request.Delete d ? Stream.of(d.path())
        : Stream.empty();
    return paths.anyMatch(p -> p.equals("/") || p.equals("/keep") || p.startsWith("/keep/"));
  }

  /** Sends the bytes on a new connection, ends it, and reads every answer until the device closes. */
  private static List<Frame> exchange(int port, byte[] bytes, FrameFuzzer.Case fuzzed) throws IOException {
    List<Frame> answers = new ArrayList<>();
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(HANG_MILLIS);
      OutputStream out = s.getOutputStream();
      out.write(bytes);
      out.flush();
      s.shutdownOutput();
      FrameReader in = new FrameReader(new java.io.BufferedInputStream(s.getInputStream()));
      Frame f;
      while ((f = in.read(Integer.MAX_VALUE)) != null) {
        answers.add(f);
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("hang: case " + describe(fuzzed) + ": no answer and no close for " + HANG_MILLIS
          + " ms after " + answers.size() + " answers", e);
    }
    return answers;
  }

  /**
   * One answer per frame the device answers, with the same request id and opcode; the decoder's own
   * statuses where it decided; and never INTERNAL.
   */
  private static void check(FrameFuzzer.Case fuzzed, Expected expected, List<Frame> got) {
    Map<String, List<DeviceDecoding.Outcome>> wanted = new HashMap<>();
    for (DeviceDecoding.Step s : expected.steps) {
      if (s.outcome().answered()) {
        wanted.computeIfAbsent(key(s.header().requestId(), s.header().opcode()), k -> new ArrayList<>()).add(s.outcome());
      }
    }
    Map<String, List<Status>> answered = new HashMap<>();
    for (Frame f : got) {
      assertTrue(f.header().isResponse(), () -> "case " + describe(fuzzed) + ": the device sent a frame without the response flag");
      Status status = status(f);
      assertTrue(status != Status.INTERNAL, () -> "case " + describe(fuzzed) + ": answered INTERNAL: " + message(f));
      answered.computeIfAbsent(key(f.header().requestId(), f.header().opcode()), k -> new ArrayList<>()).add(status);
    }
    assertEquals(keysWithCounts(wanted), keysWithCounts(answered),
        () -> "case " + describe(fuzzed) + ": answers (request id/opcode × count) differ from the decoder's frames "
            + expected.steps.stream().map(s -> s.outcome().name()).toList());
    wanted.forEach((key, outcomes) -> {
      List<Status> left = new ArrayList<>(answered.get(key));
      for (DeviceDecoding.Outcome o : outcomes) {
        Status decided = switch (o) {
          case BAD_REQUEST -> Status.BAD_REQUEST;
          case UNKNOWN_OPCODE -> Status.UNKNOWN_OPCODE;
          case UNSUPPORTED_VERSION -> Status.UNSUPPORTED_VERSION;
          case TOO_LARGE -> Status.FRAME_TOO_LARGE;
          default -> null; // decoded: the handler decides
        };
        if (decided != null) {
          assertTrue(left.remove(decided), () -> "case " + describe(fuzzed) + ": " + key + " was to be answered "
              + decided + ", got " + answered.get(key));
        }
      }
    });
  }

  private static Map<String, Integer> keysWithCounts(Map<String, ? extends List<?>> m) {
    Map<String, Integer> counts = new java.util.TreeMap<>();
    m.forEach((k, v) -> counts.put(k, v.size()));
    return counts;
  }

  private static String key(long requestId, int opcode) {
    return Long.toUnsignedString(requestId) + "/0x" + Integer.toHexString(opcode);
  }

  private static Status status(Frame f) {
    try {
      return Status.fromCode(f.header().status());
    } catch (org.smartssd.device.protocol.ProtocolException e) {
      throw new AssertionError("the device answered with an unknown status: " + e.getMessage(), e);
    }
  }

  private static String message(Frame f) {
    byte[] b = new byte[f.payload().remaining()];
    f.payload().duplicate().get(b);
    return new String(b, java.nio.charset.StandardCharsets.UTF_8);
  }

  private static String describe(FrameFuzzer.Case c) {
    return c.index() + " (replay with " + c.replay() + "; " + c.bytes().length + " bytes: "
        + HexFormat.of().formatHex(c.bytes(), 0, Math.min(c.bytes().length, 2048)) + ")";
  }
}
