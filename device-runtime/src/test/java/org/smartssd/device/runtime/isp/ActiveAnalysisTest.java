package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.isp.testtasklets.Misbehaving;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.ExtremaScan;
import org.smartssd.device.tasklet.builtin.FileResults;
import org.smartssd.device.tasklet.builtin.LocalExtrema;

/**
 * Active Flash's analysis attached to data as it is written, on a real device over its protocol: on the
 * fly, deferred to idle time (read back from flash), overflowing a small buffer either way; the writer's
 * data untouched whatever the analysis does; garbage collection in idle time.
 */
class ActiveAnalysisTest {
  private static final int PAGE = 4096;
  @TempDir Path dir;

  private SimulatedDevice device(String name, Map<String, String> extra) throws IOException {
    Map<String, String> o = TestDevices.small(dir.resolve(name));
    o.putAll(extra);
    return TestDevices.start(o);
  }

  /** A noisy series as text, one sample a line, with a time column before it. */
  static byte[] series(int samples, long seed) {
    Random r = new Random(seed);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < samples; i++) {
      double v = 100 * Math.sin(i / 40.0) + 30 * Math.sin(i / 7.0) + r.nextGaussian() * 5;
      sb.append(i).append(',').append(String.format(Locale.ROOT, "%.3f", v)).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The extrema of each file, found on the host by the same scan. */
  private static byte[] expected(byte[] data, String path) {
    ExtremaScan scan = new ExtremaScan(LocalExtrema.DEFAULT_WINDOW, -1, 1 << 20, path);
    scan.accept(ByteBuffer.wrap(data));
    scan.finish();
    return scan.take();
  }

  /** Writes {@code data} to {@code path} in writes of {@code piece} bytes (not page aligned). */
  private static void write(SocketDeviceClient c, String path, byte[] data, int piece) throws IOException {
    long h = c.create(path, true, true).handle();
    for (int off = 0; off < data.length; off += piece) {
      c.write(h, data, off, Math.min(piece, data.length - off));
    }
    c.closeHandle(h);
  }

  private record Outcome(Response.ExecutionProgress last, Map<String, byte[]> extrema, Map<String, Long> samples) {}

  /** Detaches, then reads the attachment's results until it is done. */
  private static Outcome finish(SocketDeviceClient c, long exec) throws Exception {
    c.cancel(exec);
    Map<String, java.io.ByteArrayOutputStream> found = new TreeMap<>();
    Map<String, Long> samples = new TreeMap<>();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      Response.ExecutionProgress p = c.readObject(exec, 1 << 20);
      for (TaskletResult r : p.results()) {
        FileResults.Part part = FileResults.decode(r.data());
        byte[] payload = new byte[part.payload().remaining()];
        part.payload().get(payload);
        found.computeIfAbsent(part.path(), k -> new java.io.ByteArrayOutputStream()).write(payload);
        if (part.last()) {
          samples.put(part.path(), part.analysed());
        }
      }
      if (p.finished()) {
        Map<String, byte[]> out = new TreeMap<>();
        found.forEach((k, v) -> out.put(k, v.toByteArray()));
        return new Outcome(p, out, samples);
      }
      assertTrue(System.nanoTime() < deadline, "the attachment never ended: " + p.state() + " " + p.statistics());
      Thread.sleep(20);
    }
  }

  private static long attach(SocketDeviceClient c, String path, Map<String, String> options) throws IOException {
    long tasklet = c.createObject(ByteBuffer.allocate(0), LocalExtrema.class.getName(), Map.of());
    Map<String, String> o = new TreeMap<>(options);
    o.put("attach", "write");
    return c.executeObject(tasklet, List.of(InputRange.whole(path)), o);
  }

  private void analysesEveryFile(Map<String, String> device, Map<String, String> options, boolean deferredPages)
      throws Exception {
    try (SimulatedDevice d = device("dev", device); SocketDeviceClient c = TestDevices.connect(d)) {
      c.mkdirs("/af");
      long exec = attach(c, "/af", options);
      Map<String, byte[]> written = new TreeMap<>();
      for (int f = 0; f < 3; f++) {
        byte[] data = series(3000 + 500 * f, f);
        String path = "/af/run" + f + ".txt";
        write(c, path, data, 1000 + 777 * f);
        written.put(path, data);
      }
      byte[] elsewhere = series(2000, 9);
      write(c, "/other.txt", elsewhere, 4096);
      Outcome o = finish(c, exec);
      assertEquals(ExecutionState.DONE, o.last().state(), o.last().message());
      long bytes = 0;
      for (Map.Entry<String, byte[]> e : written.entrySet()) {
        assertArrayEquals(expected(e.getValue(), e.getKey()), o.extrema().get(e.getKey()), e.getKey());
        assertTrue(o.extrema().get(e.getKey()).length > 0, "a noisy series has extrema");
        bytes += e.getValue().length;
        // The data are the writer's, whatever the analysis did.
        assertArrayEquals(e.getValue(), TestDevices.readAll(c, e.getKey()));
      }
      assertEquals(written.keySet(), o.extrema().keySet(), "only the files under the attached directory");
      assertEquals(3000L, o.samples().get("/af/run0.txt"));
      ExecutionStatistics s = o.last().statistics();
      assertEquals(bytes, s.bytesScanned(), "every byte written under it, once");
      if (deferredPages) {
        assertTrue(s.pagesRead() > 0, "deferred pages are read back from flash: " + s);
      } else {
        assertEquals(0, s.pagesRead(), "on the fly, nothing is read back: " + s);
      }
      assertTrue(s.modelledComputeNanos() > 0 && s.countedOps() > 0, s.toString());
      assertTrue(s.modelledDeviceMicrojoules() > 0, s.toString());
      org.smartssd.device.WorkProfile profile = o.last().profile();
      if ("true".equals(options.get("profile"))) {
        // The profile adds up to exactly the attachment's counted work, and the work is the tasklet's.
        assertEquals(new org.smartssd.device.WorkProfile.Work(s.countedOps(), s.countedMemoryAccesses(),
            s.countedLibraryCalls(), s.countedBulkBytes(), s.countedLibraryReads()), profile.total());
        java.util.Set<String> methods = profile.byMethod(org.smartssd.device.WorkProfile.Work::ops).keySet();
        assertTrue(methods.contains("org.smartssd.device.tasklet.builtin.FileScanTasklet.onDataAvailable")
            && methods.contains(ExtremaScan.class.getName() + ".accept"), methods.toString());
      } else {
        assertEquals(null, profile, "no profile unless asked for");
      }
    }
  }

  @Test
  void aProfiledAttachmentAddsUpToItsCountedWorkOnTheFly() throws Exception {
    analysesEveryFile(Map.of(), Map.of("profile", "true"), false);
  }

  @Test
  void aProfiledAttachmentAddsUpToItsCountedWorkInIdleTime() throws Exception {
    analysesEveryFile(Map.of(), Map.of("profile", "true", "schedule", "idle"), true);
  }

  @Test
  void onTheFlyAnalysisFindsWhatTheHostFindsAndReadsNothingBack() throws Exception {
    analysesEveryFile(Map.of(), Map.of(), false);
  }

  @Test
  void idleTimeAnalysisReadsEveryPageBackFromFlash() throws Exception {
    analysesEveryFile(Map.of(), Map.of("schedule", "idle"), true);
  }

  @Test
  void aFullBufferLeavesPagesForIdleTimeWhenTheOverflowDefers() throws Exception {
    // One page of buffer and a core at 1 MHz: the analysis cannot keep up with a write of many pages.
    analysesEveryFile(Map.of("smartssd.device.active.buffer-bytes", "" + PAGE, "smartssd.device.isp.core-mhz", "1"),
        Map.of("overflow", "defer"), true);
  }

  @Test
  void aFullBufferHoldsTheWriterOnTheModelledClockWhenTheOverflowWaits() throws Exception {
    byte[] data = series(20_000, 3); // about 250 KB: some 60 pages in one write
    long[] delay = new long[2];
    long[] compute = new long[2];
    String[] buffers = {"" + PAGE, "" + (64 << 20)};
    for (int i = 0; i < 2; i++) {
      try (SimulatedDevice d = device("wait" + i, Map.of("smartssd.device.active.buffer-bytes", buffers[i],
          "smartssd.device.isp.core-mhz", "1")); SocketDeviceClient c = TestDevices.connect(d)) {
        c.mkdirs("/af");
        long exec = attach(c, "/af", Map.of());
        long h = c.create("/af/one.txt", true, true).handle();
        long before = c.statistics().uptimeNanos();
        c.write(h, ByteBuffer.wrap(data));
        DeviceStatistics after = c.statistics();
        delay[i] = after.modelledHorizonNanos() - before;
        c.closeHandle(h);
        Outcome o = finish(c, exec);
        assertArrayEquals(expected(data, "/af/one.txt"), o.extrema().get("/af/one.txt"));
        assertEquals(0, o.last().statistics().pagesRead(), "waiting, nothing is deferred");
        compute[i] = o.last().statistics().modelledComputeNanos();
      }
    }
    // A page of buffer: the write's last page goes in when the one before it is analysed.
    int pieces = (data.length + PAGE - 1) / PAGE;
    assertTrue(delay[0] >= compute[0] * (pieces - 2) / pieces, delay[0] + " ns < most of " + compute[0] + " ns");
    // A buffer that holds it all: the write does not wait for the analysis.
    assertTrue(delay[1] < compute[1] / 2, delay[1] + " ns, analysis " + compute[1] + " ns");
  }

  /**
   * A tasklet that misbehaves as {@code how} says on its first data fails the attachment, saying {@code why},
   * while every write goes on, before and after.
   */
  private void misbehaving(String how, Map<String, String> device, String why) throws Exception {
    try (SimulatedDevice d = device(how, device); SocketDeviceClient c = TestDevices.connect(d)) {
      c.mkdirs("/af");
      long tasklet = c.createObject(TestJars.of(Misbehaving.class), Misbehaving.class.getName(), Map.of("how", how));
      long exec = c.executeObject(tasklet, List.of(InputRange.whole("/af")), Map.of("attach", "write"));
      byte[] data = TestDevices.bytes(10 * PAGE + 5, 4);
      write(c, "/af/x", data, 3 * PAGE);
      assertArrayEquals(data, TestDevices.readAll(c, "/af/x"));
      Response.ExecutionProgress p = c.readObject(exec, 1 << 20);
      assertEquals(ExecutionState.FAILED, p.state());
      assertTrue(p.message().contains(why), p.message());
      write(c, "/af/y", data, PAGE); // later writes go on
      assertArrayEquals(data, TestDevices.readAll(c, "/af/y"));
    }
  }

  @Test
  void aTaskletThatFailsFailsTheAnalysisNotTheWrites() throws Exception {
    misbehaving("throw", Map.of(), "boom at offset 0");
  }

  @Test
  void aTaskletThatLoopsIsStoppedAtTheTimeLimitAndTheWriterGoesOn() throws Exception {
    misbehaving("loop", Map.of("smartssd.device.isp.time-limit-ms", "500"), "time limit");
  }

  @Test
  void aTaskletThatAllocatesPastItsBudgetIsStoppedAndTheWriterGoesOn() throws Exception {
    misbehaving("hog", Map.of("smartssd.device.isp.memory-budget-bytes", "" + (16 << 20)), "memory budget");
  }

  @Test
  void attachingIsRefusedWithAReasonForBadRequests() throws Exception {
    try (SimulatedDevice d = device("bad", Map.of()); SocketDeviceClient c = TestDevices.connect(d)) {
      long counter = c.createObject(ByteBuffer.allocate(0),
          org.smartssd.device.tasklet.builtin.RecordCounter.class.getName(), Map.of("delimiter", "10"));
      DeviceException.BadRequest lines = assertThrows(DeviceException.BadRequest.class, () -> c.executeObject(counter,
          List.of(InputRange.whole("/af")), Map.of("attach", "write")));
      assertTrue(lines.getMessage().contains("stream()"), lines.getMessage());
      long extrema = c.createObject(ByteBuffer.allocate(0), LocalExtrema.class.getName(), Map.of());
      DeviceException.BadRequest schedule = assertThrows(DeviceException.BadRequest.class, () -> c.executeObject(extrema,
          List.of(InputRange.whole("/af")), Map.of("attach", "write", "schedule", "sometimes")));
      assertTrue(schedule.getMessage().contains("schedule"), schedule.getMessage());
      DeviceException.BadRequest attach = assertThrows(DeviceException.BadRequest.class, () -> c.executeObject(extrema,
          List.of(InputRange.whole("/af")), Map.of("attach", "read")));
      assertTrue(attach.getMessage().contains("attach"), attach.getMessage());
      DeviceException.BadRequest range = assertThrows(DeviceException.BadRequest.class, () -> c.executeObject(extrema,
          List.of(new InputRange("/af", 10, 5)), Map.of("attach", "write")));
      assertTrue(range.getMessage().contains("every byte written"), range.getMessage());
    }
  }

  @Test
  void garbageIsCollectedInIdleTimeOnlyWhenAskedAndOnlyUnderTheThreshold() throws Exception {
    for (boolean idleGc : new boolean[] {false, true}) {
      try (SimulatedDevice d = device("gc" + idleGc, Map.of("smartssd.device.active.idle-gc", "" + idleGc));
          SocketDeviceClient c = TestDevices.connect(d)) {
        // Rewrite a few files until the flash holds far more dead pages than the reserve.
        long capacity = c.info().capacityBytes();
        byte[] data = TestDevices.bytes((int) (capacity / 8), 6);
        for (int round = 0; round < 6; round++) {
          for (int f = 0; f < 4; f++) {
            write(c, "/f" + f, data, 1 << 20);
          }
        }
        long erasedBefore = erased(c.statistics());
        Thread.sleep(1500); // idle: no command for far longer than active.idle-after-ms
        long erasedAfter = erased(c.statistics());
        if (idleGc) {
          assertTrue(erasedAfter > erasedBefore, "idle time erased blocks: " + erasedBefore + " -> " + erasedAfter);
        } else {
          assertEquals(erasedBefore, erasedAfter, "nothing is collected in idle time unless asked");
        }
        for (int f = 0; f < 4; f++) {
          assertArrayEquals(data, TestDevices.readAll(c, "/f" + f), "the data survive the moves");
        }
      }
    }
  }

  private static long erased(DeviceStatistics s) {
    return s.channels().stream().mapToLong(ch -> ch.blocksErased()).sum();
  }
}
