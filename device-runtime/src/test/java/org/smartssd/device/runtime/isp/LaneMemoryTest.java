package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.isp.testtasklets.Holder;

/**
 * The iSSD's channel memory (its Eq. 9), on a real device over its protocol: a lane whose function
 * holds more than the lane's memory reads its data again from flash, once for each further pass.
 */
class LaneMemoryTest {
  private static final int PAGE = 4096;
  private static final int PAGES = 48;
  @TempDir Path dir;

  private SimulatedDevice device(String name, String laneMemory) throws IOException {
    Map<String, String> o = TestDevices.small(dir.resolve(name));
    o.put("smartssd.device.isp.lane-memory-bytes", laneMemory);
    return TestDevices.start(o);
  }

  private static Response.ExecutionProgress hold(SocketDeviceClient c, long bytes) throws IOException {
    long tasklet = c.createObject(TestJars.of(Holder.class), Holder.class.getName(), Map.of("holding", "" + bytes));
    long exec = c.executeObject(tasklet, List.of(InputRange.whole("/in")), Map.of());
    return ExecutionPoller.drain(c, exec, r -> { }, ExecutionPoller.PollingPolicy.defaults());
  }

  private static void load(SocketDeviceClient c) throws IOException {
    byte[] data = TestDevices.bytes(PAGES * PAGE, 11);
    long h = c.create("/in", true, true).handle();
    c.write(h, data, 0, data.length);
    c.closeHandle(h);
  }

  @Test
  void aLaneThatHoldsMoreThanItsMemoryReadsItsDataOnceAPass() throws Exception {
    try (SimulatedDevice device = device("bounded", "8192"); SocketDeviceClient c = TestDevices.connect(device)) {
      load(c);
      ExecutionStatistics fits = hold(c, 8192).statistics();
      assertEquals(PAGES, fits.pagesRead(), "a function that fits reads its data once");
      ExecutionStatistics twice = hold(c, 8193).statistics();
      assertEquals(2 * PAGES, twice.pagesRead(), "one byte more: two passes");
      ExecutionStatistics fourTimes = hold(c, 3 * 8192 + 1).statistics();
      assertEquals(4 * PAGES, fourTimes.pagesRead(), "ceil(24577 / 8192) = 4 passes");
      assertEquals(8192, fits.laneStateBytes());
      assertEquals(0, fits.swapPagesRead());
      assertEquals(3 * 8192 + 1, fourTimes.laneStateBytes());
      assertEquals(3 * PAGES, fourTimes.swapPagesRead(), "the passes beyond the first");
      assertTrue(twice.modelledReadNanos() > fits.modelledReadNanos(), "the passes take the channels' time");
      assertTrue(fourTimes.modelledNanos() > twice.modelledNanos() && twice.modelledNanos() > fits.modelledNanos(),
          fits.modelledNanos() + ", " + twice.modelledNanos() + ", " + fourTimes.modelledNanos());
    }
  }

  @Test
  void anUnboundedLaneNeverSwapsAndANegativeHoldingFailsTheExecution() throws Exception {
    try (SimulatedDevice device = device("unbounded", "0"); SocketDeviceClient c = TestDevices.connect(device)) {
      load(c);
      ExecutionStatistics huge = hold(c, 1L << 40).statistics();
      assertEquals(PAGES, huge.pagesRead());
      assertEquals(1L << 40, huge.laneStateBytes(), "what the lanes held is reported even when nothing swaps");
      assertEquals(0, huge.swapPagesRead());
      Response.ExecutionProgress negative = hold(c, -1);
      assertEquals(ExecutionState.FAILED, negative.state());
      assertTrue(negative.message().contains("negative"), negative.message());
    }
  }
}
