package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.WorkProfile;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.isp.testtasklets.EventRecorder;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.builtin.GroupedSum;

/** An execution's counted work by call path (option profile), from a real device over its socket. */
class ExecutionProfileTest {
  private static final ByteBuffer BUILT_IN = ByteBuffer.allocate(0);
  private static final String GROUPED_SUM = GroupedSum.class.getName();

  @TempDir Path dir;

  private SimulatedDevice device(String name, Map<String, String> extra) throws IOException {
    Map<String, String> o = TestDevices.small(dir.resolve(name));
    o.put("smartssd.device.isp.cores", "3");
    o.put("smartssd.device.flash.channels", "4");
    o.putAll(extra);
    return TestDevices.start(o);
  }

  private static void write(SocketDeviceClient c, String path, byte[] data) throws IOException {
    long h = c.create(path, true, true).handle();
    c.write(h, data, 0, data.length);
    c.closeHandle(h);
  }

  /**
   * The profile adds up to exactly the execution's counted work, on the lanes and with the merge on the
   * controller core; asking for it changes no count; the work is where the tasklet's code did it.
   */
  @Test
  void theProfileAddsUpToTheCountedWorkAndChangesNone() throws Exception {
    int n = 20_000;
    try (SimulatedDevice device = device("profile", Map.of()); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", IspEngineTest.records(n));
      long t = c.createObject(BUILT_IN, GROUPED_SUM, IspEngineTest.groupedSum());
      List<InputRange> in = List.of(InputRange.whole("/in"));
      for (String merge : List.of("host", "device")) {
        IspEngineTest.Run plain = IspEngineTest.run(c, t, in, Map.of("merge", merge),
            ExecutionPoller.PollingPolicy.defaults());
        IspEngineTest.Run profiled = IspEngineTest.run(c, t, in, Map.of("merge", merge, "profile", "true"),
            ExecutionPoller.PollingPolicy.defaults());
        assertEquals(ExecutionState.DONE, profiled.last().state(), profiled.last().message());
        assertEquals(IspEngineTest.expectedSums(n), GroupedSum.sums(profiled.results()));
        assertNull(plain.last().profile(), "no profile unless asked for");
        ExecutionStatistics s = profiled.stats();
        if (merge.equals("device")) {
          // Merged on the host, each poll also has the lanes hand over what they hold (onRead): how many
          // there are follows the host's polling, not the work.
          assertEquals(counted(plain.stats()), counted(s), "profiling changed the counts");
        }
        WorkProfile p = profiled.last().profile();
        assertNotNull(p);
        assertEquals(counted(s), p.total(), "merge " + merge + ": the profile's total");
        Map<String, WorkProfile.Work> methods = p.byMethod(WorkProfile.Work::ops);
        assertTrue(methods.containsKey(GROUPED_SUM + ".onDataAvailable"), methods.keySet().toString());
        assertTrue(methods.keySet().iterator().next().startsWith("org.smartssd.device.tasklet.builtin."),
            "the most ops are the built-in's: " + methods.keySet());
        assertEquals(merge.equals("device"), methods.containsKey(GROUPED_SUM + ".onMerge"), methods.keySet().toString());
        for (int i = 0; i < p.nodes().size(); i++) {
          assertTrue(p.path(i).get(0).startsWith(GROUPED_SUM + "."), "every path starts at an event: " + p.path(i));
        }
      }
    }
  }

  /** A tasklet of a jar: its own classes' methods, by path from the event that called them. */
  @Test
  void aJarsOwnClassesAreInItsProfile() throws Exception {
    try (SimulatedDevice device = device("jar", Map.of()); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", IspEngineTest.records(3_000));
      long t = c.installTasklet(TestJars.of(EventRecorder.class), EventRecorder.class.getName(), Map.of("tag", "x"))
          .taskletId();
      IspEngineTest.Run run = IspEngineTest.run(c, t, List.of(InputRange.whole("/in")), Map.of("profile", "true"),
          ExecutionPoller.PollingPolicy.defaults());
      assertEquals(ExecutionState.DONE, run.last().state(), run.last().message());
      WorkProfile p = run.last().profile();
      assertEquals(counted(run.stats()), p.total());
      String recorder = EventRecorder.class.getName();
      assertTrue(p.byMethod(WorkProfile.Work::ops).containsKey(recorder + ".onDataAvailable"));
      assertTrue(p.folded(WorkProfile.Work::ops).contains(recorder + ".onDataAvailable;" + recorder + ".emit "),
          p.folded(WorkProfile.Work::ops));
    }
  }

  @Test
  void aProfileNobodyCanHaveIsRefusedWithWhy() throws Exception {
    try (SimulatedDevice device = device("refused", Map.of()); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", IspEngineTest.records(100));
      long t = c.createObject(BUILT_IN, GROUPED_SUM, IspEngineTest.groupedSum());
      List<InputRange> in = List.of(InputRange.whole("/in"));
      DeviceException bad = assertThrows(DeviceException.class, () -> c.executeObject(t, in, Map.of("profile", "yes")));
      assertTrue(bad.getMessage().contains("option profile='yes' must be true or false"), bad.getMessage());
    }
    try (SimulatedDevice device = device("cycles", Map.of("smartssd.device.isp.compute-model", "cycles"));
        SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", IspEngineTest.records(100));
      long t = c.createObject(BUILT_IN, GROUPED_SUM, IspEngineTest.groupedSum());
      DeviceException bad = assertThrows(DeviceException.class,
          () -> c.executeObject(t, List.of(InputRange.whole("/in")), Map.of("profile", "true")));
      assertTrue(bad.getMessage().contains("needs the counted compute model"), bad.getMessage());
    }
  }

  private static WorkProfile.Work counted(ExecutionStatistics s) {
    return new WorkProfile.Work(s.countedOps(), s.countedMemoryAccesses(), s.countedLibraryCalls(),
        s.countedBulkBytes(), s.countedLibraryReads());
  }
}
