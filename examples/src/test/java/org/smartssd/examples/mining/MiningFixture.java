package org.smartssd.examples.mining;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;

/**
 * A real device in this JVM (small, 4 KiB pages, so records straddle pages, channels and lanes), and
 * the check every mining test makes: each mode's iterations find what the direct computation finds.
 */
final class MiningFixture implements AutoCloseable {
  final SimulatedDevice device;
  final Configuration conf;

  MiningFixture(Path dir) throws IOException {
    device = TestDevices.start(TestDevices.small(dir.resolve("device")));
    conf = LogAnalysis.configuration(Map.of());
  }

  /** Where a data set goes on the device. */
  List<org.apache.hadoop.fs.Path> inputs(String name, int parts) {
    List<org.apache.hadoop.fs.Path> paths = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      paths.add(new org.apache.hadoop.fs.Path("objfs://" + device.address() + "/mine/" + name + "/part-" + i));
    }
    return paths;
  }

  /**
   * Loads the data set, runs every iteration host-normal and in the device, and checks both against the
   * direct computation, iteration by iteration; returns the device's iterations.
   */
  <S> List<MiningRun.Iteration> runBothModes(IterativeMining<S> mining, String name, int parts) throws Exception {
    List<org.apache.hadoop.fs.Path> inputs = inputs(name, parts);
    mining.load(conf, inputs);
    List<S> expected = mining.direct();
    assertTrue(!expected.isEmpty());
    MiningRun.ModeRun hostRun = MiningRun.run(conf, mining, Mode.HOST_NORMAL, inputs, Integer.MAX_VALUE, expected,
        s -> {});
    MiningRun.ModeRun deviceRun = MiningRun.run(conf, mining, Mode.DEVICE, inputs, Integer.MAX_VALUE, expected, s -> {});
    assertEquals(List.of(), hostRun.disagreements());
    assertEquals(List.of(), deviceRun.disagreements());
    List<MiningRun.Iteration> host = hostRun.iterations();
    List<MiningRun.Iteration> device = deviceRun.iterations();
    assertEquals(expected.size(), host.size());
    assertEquals(expected.size(), device.size());
    for (MiningRun.Iteration it : device) {
      assertTrue(it.statistics().deviceExecutions() >= 1, it.statistics().toString());
      assertEquals(0, it.statistics().fallbackSplits(), "no split fell back to the host: " + it.statistics());
    }
    for (MiningRun.Iteration it : host) {
      assertTrue(it.statistics().hostBytesOut() >= mining.bytes(), "host-normal reads the data across the host link");
    }
    return device;
  }

  @Override
  public void close() throws IOException {
    device.close();
  }
}
