package org.smartssd.examples.mining;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.devicemapper.DeviceMapperConfigKeys;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;

/**
 * Real devices in this JVM (small, 4 KiB pages, so records straddle pages, channels and lanes), and the
 * check every mining test makes: each mode's iterations find what the direct computation finds; in device
 * mode every split runs in a device ({@code smartssd.mapper.fallback=never}: a side file the device could
 * not read would fail the job); a state that stays in the devices is on every device, the same bytes; the
 * job after the last iteration wrote on each device what the direct computation says.
 */
final class MiningFixture implements AutoCloseable {
  final List<SimulatedDevice> devices = new ArrayList<>();
  final Configuration conf;

  MiningFixture(Path dir) throws IOException {
    this(dir, 1);
  }

  MiningFixture(Path dir, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      devices.add(TestDevices.start(TestDevices.small(dir.resolve("device-" + i))));
    }
    conf = LogAnalysis.configuration(Map.of());
    conf.set(DeviceMapperConfigKeys.FALLBACK, "never");
  }

  SimulatedDevice device() {
    return devices.get(0);
  }

  /** Where a data set goes: {@code parts} files, spread over the devices in order (the first ones on the first). */
  List<org.apache.hadoop.fs.Path> inputs(String name, int parts) {
    List<org.apache.hadoop.fs.Path> paths = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      SimulatedDevice d = devices.get(i * devices.size() / parts);
      paths.add(new org.apache.hadoop.fs.Path("objfs://" + d.address() + "/mine/" + name + "/part-" + i));
    }
    return paths;
  }

  /** Both modes' runs. */
  record Runs(MiningRun.ModeRun host, MiningRun.ModeRun device) {}

  /**
   * Loads the data set, runs every iteration host-normal and in the devices, and checks both against the
   * direct computation, iteration by iteration; returns the device's iterations.
   */
  <S> List<MiningRun.Iteration> runBothModes(IterativeMining<S> mining, String name, int parts) throws Exception {
    return runs(mining, name, parts).device().iterations();
  }

  <S> Runs runs(IterativeMining<S> mining, String name, int parts) throws Exception {
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
      assertTrue(it.taskletInstallBytes() > 0, "the tasklets' frames are counted");
    }
    for (MiningRun.Iteration it : host) {
      assertTrue(it.statistics().hostBytesOut() >= mining.bytes(), "host-normal reads the data across the host link");
      assertEquals(0, it.taskletInstallBytes());
    }
    if (mining.stateInDevices()) {
      for (Mode mode : List.of(Mode.HOST_NORMAL, Mode.DEVICE)) {
        checkStateOnEveryDevice(inputs, mode, mode == Mode.DEVICE ? device : host);
      }
    }
    if (mining.finalJobName() != null) {
      S last = expected.get(expected.size() - 1);
      checkFinalJobs(mining, inputs, hostRun, last);
      checkFinalJobs(mining, inputs, deviceRun, last);
    }
    return new Runs(hostRun, deviceRun);
  }

  /** Every iteration's state file is on every device that holds input, the same bytes, as long as the job said. */
  private void checkStateOnEveryDevice(List<org.apache.hadoop.fs.Path> inputs, Mode mode,
      List<MiningRun.Iteration> iterations) throws IOException {
    MiningRun.Places places = MiningRun.Places.of(conf, inputs, mode);
    for (MiningRun.Iteration it : iterations) {
      String dir = MiningRun.iterationDirectory(it.iteration());
      FileStatus part = places.onlyPart(places.first(dir));
      assertEquals(it.stateBytes(), part.getLen(), "iteration " + it.iteration() + " " + mode.optionName());
      byte[] first = read(part.getPath());
      assertTrue(first.length > 0);
      for (org.apache.hadoop.fs.Path copy : places.copies(dir + "/" + part.getPath().getName())) {
        assertArrayEquals(first, read(copy), copy.toString());
      }
    }
  }

  private <S> void checkFinalJobs(IterativeMining<S> mining, List<org.apache.hadoop.fs.Path> inputs,
      MiningRun.ModeRun run, S last) throws IOException {
    MiningRun.Places places = MiningRun.Places.of(conf, inputs, run.iterations().get(0).mode());
    assertEquals(places.devices(), run.after().size(), "a job after the iterations on each device");
    for (int device = 0; device < places.devices(); device++) {
      MiningRun.FinalJob f = run.after().get(device);
      Mode mode = f.mode();
      // Read here, from the device, independently of MiningRun's check.
      List<String> want = new ArrayList<>();
      for (int i = 0; i < inputs.size(); i++) {
        if (places.deviceOf(inputs.get(i)) == device) {
          want.addAll(mining.finalLines(last, i, inputs.size()));
        }
      }
      FileSystem fs = f.output().getFileSystem(conf);
      assertEquals(places.at(device, mining.finalJobName()), f.output());
      List<String> got = new ArrayList<>(LogAnalysis.readOutput(fs, f.output()));
      assertFalse(got.isEmpty(), f.output().toString());
      got.sort(null);
      want.sort(null);
      assertEquals(want, got, f.name() + " " + mode.optionName());
      assertTrue(fs.exists(new org.apache.hadoop.fs.Path(f.output(), "_SUCCESS")), "committed: " + f.output());
      assertTrue(f.outputBytes() > 0);
      if (mode == Mode.DEVICE) {
        assertEquals(0, f.statistics().fallbackSplits());
        assertTrue(f.statistics().deviceExecutions() >= 1);
        // The device wrote the whole file itself: no line of it crossed the host link.
        assertEquals(f.outputBytes(), f.deviceOutputBytes(), f.name());
        assertTrue(f.statistics().hostBytesOut() < f.outputBytes() / 4, f.statistics().toString());
      } else {
        assertEquals(0, f.deviceOutputBytes());
        assertTrue(f.statistics().hostBytesIn() >= f.outputBytes(), "host-normal writes the lines across the link");
      }
    }
  }

  byte[] read(org.apache.hadoop.fs.Path file) throws IOException {
    try (InputStream in = file.getFileSystem(conf).open(file)) {
      return in.readAllBytes();
    }
  }

  @Override
  public void close() throws IOException {
    for (SimulatedDevice d : devices) {
      d.close();
    }
  }
}
