package org.smartssd.device.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.config.EnergyParameters;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.GroupedSum;

/**
 * The energy account a real device reports in STATISTICS covers all its work, the host's reads and writes
 * and its executions, and is the closed form of {@link EnergyParameters} over the work it counted.
 */
class DeviceEnergyAccountTest {
  private static final int RECORD = 20;

  @TempDir Path dir;

  @Test
  void theAccountOfHostIoAndAnExecutionIsTheClosedFormOfTheirWork() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient c = TestDevices.connect(device)) {
      EnergyParameters p = device.config().energy();
      DeviceStatistics start = c.statistics();

      // The host writes a file and reads it back: flash and link, no core computes.
      byte[] data = records(30_000);
      long h = c.create("/in", false, false).handle();
      c.write(h, data, 0, data.length);
      c.closeHandle(h);
      assertArrayEquals(data, TestDevices.readAll(c, "/in"));
      DeviceStatistics afterIo = c.statistics();
      DeviceEnergy io = afterIo.energy().minus(start.energy());
      assertEquals(0, io.coreBusyNanos());
      assertEquals(0, io.coreNanojoules());
      assertTrue(afterIo.totalPagesProgrammed() - start.totalPagesProgrammed() >= data.length / 4096,
          afterIo.toString());
      assertClosedForm(p, start, afterIo, io);

      // An execution merged on the device: its lanes' and the controller core's compute, its internal reads,
      // its results on the link.
      long tasklet = c.createObject(ByteBuffer.allocate(0), GroupedSum.class.getName(), Map.of("record-length",
          "" + RECORD, "key-offset", "4", "key-length", "1", "value-offset", "5", "value-length", "4"));
      long execution = c.executeObject(tasklet, List.of(InputRange.whole("/in")), Map.of("merge", "device"));
      List<TaskletResult> results = new ArrayList<>();
      Response.ExecutionProgress last = ExecutionPoller.drain(c, execution, results::add,
          ExecutionPoller.PollingPolicy.defaults());
      assertEquals(ExecutionState.DONE, last.state(), last.message());
      ExecutionStatistics run = last.statistics();
      DeviceStatistics afterRun = c.statistics();
      DeviceEnergy exec = afterRun.energy().minus(afterIo.energy());
      assertTrue(run.modelledMergeNanos() > 0 && run.modelledComputeNanos() > 0, run.toString());
      assertEquals(run.modelledComputeNanos() + run.modelledMergeNanos(), exec.coreBusyNanos());
      assertEquals(p.deviceCoreJoules(exec.coreBusyNanos()) * 1e9, exec.coreNanojoules(), 1);
      assertTrue(afterRun.totalPagesRead() - afterIo.totalPagesRead() >= run.pagesRead(), afterRun.toString());
      assertClosedForm(p, afterIo, afterRun, exec);

      // Since the device started: each component is its whole work's price, from the same snapshot.
      DeviceEnergy all = afterRun.energy();
      assertEquals(Math.round(p.deviceCoreJoules(all.coreBusyNanos()) * 1e9), all.coreNanojoules());
      assertEquals(Math.round(p.flashJoules(afterRun.totalPagesRead(), 0, 0) * 1e9), all.flashReadNanojoules());
      assertEquals(Math.round(p.flashJoules(0, afterRun.totalPagesProgrammed(), 0) * 1e9),
          all.flashProgramNanojoules());
      assertEquals(Math.round(p.flashJoules(0, 0, afterRun.totalBlocksErased()) * 1e9), all.flashEraseNanojoules());
      assertEquals(Math.round(p.linkJoules(afterRun.hostBytesIn() + afterRun.hostBytesOut()) * 1e9),
          all.linkNanojoules());
    }
  }

  /** The energy between two answers is the closed form of the counters' differences (to a nanojoule's rounding). */
  private static void assertClosedForm(EnergyParameters p, DeviceStatistics before, DeviceStatistics after,
      DeviceEnergy e) {
    long read = after.totalPagesRead() - before.totalPagesRead();
    long programmed = after.totalPagesProgrammed() - before.totalPagesProgrammed();
    long erased = after.totalBlocksErased() - before.totalBlocksErased();
    long bytes = after.hostBytesIn() + after.hostBytesOut() - before.hostBytesIn() - before.hostBytesOut();
    assertTrue(read > 0 && bytes > 0, after.toString());
    assertEquals(p.flashJoules(read, 0, 0) * 1e9, e.flashReadNanojoules(), 1);
    assertEquals(p.flashJoules(0, programmed, 0) * 1e9, e.flashProgramNanojoules(), 1);
    assertEquals(p.flashJoules(0, 0, erased) * 1e9, e.flashEraseNanojoules(), 1);
    assertEquals(p.linkJoules(bytes) * 1e9, e.linkNanojoules(), 1);
  }

  /** Record i: u32 id, u8 key (i mod 5), u32 value (i mod 1000), padding. */
  private static byte[] records(int n) {
    ByteBuffer b = ByteBuffer.allocate(n * RECORD);
    for (int i = 0; i < n; i++) {
      b.putInt(i).put((byte) (i % 5)).putInt(i % 1000).put(new byte[RECORD - 9]);
    }
    return b.array();
  }
}
