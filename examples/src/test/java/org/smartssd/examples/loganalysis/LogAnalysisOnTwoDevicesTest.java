package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.config.EnergyParameters;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * The analyses over a trace spread over two real (in-process) devices, against the same trace whole on
 * one device: the same results, equal to a direct count, in every mode; statistics device by device,
 * bytes summed, and the modelled time of the two devices working in parallel (the slower one's, not
 * the sum). Modelled compute is a fixed cycles-per-byte, so modelled times do not depend on this
 * machine's speed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LogAnalysisOnTwoDevicesTest {
  static final int RECORDS = 30_001;
  @TempDir static Path dir;
  SimulatedDevice one;
  SimulatedDevice a;
  SimulatedDevice b;
  Configuration conf;
  List<Wc98Record> records;
  org.apache.hadoop.fs.Path whole;
  List<org.apache.hadoop.fs.Path> halves;

  @BeforeAll
  void start() throws IOException {
    one = TestDevices.start(device("one"));
    a = TestDevices.start(device("a"));
    b = TestDevices.start(device("b"));
    conf = LogAnalysis.configuration(Map.of());
    records = Traces.generated(RECORDS);
    Path file = Files.write(dir.resolve("trace.bin"), Traces.bytes(records));
    whole = TraceLoader.load(conf, List.of(file), "objfs://" + one.address() + "/wc98/trace", false).get(0)
        .destination();
    halves = TraceLoader.spread(conf, List.of(file), List.of("objfs://" + a.address() + "/wc98/trace",
        "objfs://" + b.address() + "/wc98/trace"), false).stream().map(TraceLoader.Part::destination).toList();
  }

  private static Map<String, String> device(String name) {
    Map<String, String> o = TestDevices.small(dir.resolve(name));
    o.put("smartssd.device.isp.shared-packages", DeviceMode.SHARED_PACKAGES);
    o.put("smartssd.device.isp.compute-model", "cycles");
    o.put("smartssd.device.isp.cycles-per-byte", "200");
    return o;
  }

  @AfterAll
  void stop() throws IOException {
    one.close();
    a.close();
    b.close();
  }

  @Test
  void twoDevicesFindWhatOneDeviceAndADirectCountFindInEveryMode() throws Exception {
    for (Scenario s : Scenario.values()) {
      AnalysisResult expected = AnalysisResult.compute(s, records);
      for (Mode m : Mode.values()) {
        AnalysisRun single = LogAnalysis.run(conf, s, m, List.of(whole), null);
        AnalysisRun spread = LogAnalysis.run(conf, s, m, halves, null);
        assertEquals(expected, single.result(), s + " " + m + " on one device");
        assertEquals(expected, spread.result(), s + " " + m + " on two devices");
        RunStatistics st = spread.statistics();
        assertEquals(RECORDS, st.records());
        assertEquals(List.of(a.address(), b.address()),
            st.devices().stream().map(RunStatistics.DeviceShare::address).toList());
        assertEquals(1, single.statistics().devices().size());
        long sumOut = st.devices().stream().mapToLong(RunStatistics.DeviceShare::hostBytesOut).sum();
        assertEquals(sumOut, st.hostBytesOut(), "bytes summed over the devices");
        if (m.inDevice()) {
          assertEquals(0, st.fallbackSplits(), st.toString());
          assertEquals(2, st.deviceExecutions(), st.toString());
          for (RunStatistics.DeviceShare d : st.devices()) {
            assertTrue(d.executionNanos() > 0, "each device ran its half: " + st);
            assertTrue(d.hostBytesOut() < st.inputBytes() / 20, "partial results only: " + st);
          }
        } else {
          // Each device's raw records crossed its own host interface.
          for (int i = 0; i < 2; i++) {
            long half = (RECORDS / 2 + (i == 0 ? 1 : 0)) * (long) Wc98Record.BYTES;
            assertTrue(st.devices().get(i).hostBytesOut() >= half, st.toString());
          }
        }
      }
    }
  }

  @Test
  void theModelledTimeOfTwoDevicesIsTheSlowerOnesNotTheSum() throws Exception {
    AnalysisRun single = LogAnalysis.run(conf, Scenario.REGIONS, Mode.DEVICE, List.of(whole), null);
    AnalysisRun spread = LogAnalysis.run(conf, Scenario.REGIONS, Mode.DEVICE, halves, null);
    RunStatistics st = spread.statistics();
    RunStatistics.DeviceShare first = st.devices().get(0);
    RunStatistics.DeviceShare second = st.devices().get(1);
    assertEquals(Math.max(first.modelledNanos(), second.modelledNanos()), st.deviceBusyNanos());
    assertEquals(st.slowestDevice().modelledNanos(), st.deviceBusyNanos());
    assertEquals(st.deviceBusyNanos() + st.hostComputeNanos(), st.modelledNanos());
    assertEquals(first.executionNanos() + second.executionNanos(), st.deviceExecutionNanos());
    assertTrue(st.deviceBusyNanos() < first.modelledNanos() + second.modelledNanos(), st.toString());
    // Each device scans half the data at a fixed cost a byte: two halve the modelled time of one, give or take
    // the host link and the page reads.
    long oneDevice = single.statistics().deviceBusyNanos();
    assertTrue(st.deviceBusyNanos() < 0.7 * oneDevice && st.deviceBusyNanos() > 0.3 * oneDevice,
        "one device " + oneDevice + " ns, two " + st.deviceBusyNanos() + " ns (modelled)");
    // Energy counts both devices' idle power over the run's modelled time, and their cores' work once (each
    // device's account rounds to a nanojoule).
    RunStatistics.Energy energy = st.energy();
    double idleW = st.parameters().energy().deviceIdleWatts();
    assertEquals(2 * idleW * st.modelledNanos() / 1e9, energy.deviceIdle(), 1e-9);
    assertEquals(st.parameters().energy().deviceCoreJoules(st.device().computeNanos()), energy.deviceCores(), 1e-8);
    assertTrue(st.device().computeNanos() > 0, st.toString());
    assertEquals(energy.hostIdle() + energy.hostCompute() + energy.deviceIdle() + energy.deviceCores()
        + energy.flash() + energy.link(), st.energyJoules(), 1e-9);
    // The printed form names both devices.
    java.io.StringWriter text = new java.io.StringWriter();
    st.print(new java.io.PrintWriter(text));
    assertTrue(text.toString().contains("the slowest of 2 devices") && text.toString().contains(a.address())
        && text.toString().contains(b.address()), text.toString());
  }

  /**
   * The energy of the devices' work in a run is what the devices report, summed: the test reads their
   * accounts around the run, as the run reads them around the job. It is also the closed form of the work
   * they counted, as the host used to model it a second time.
   */
  @Test
  void theDevicesEnergyInARunIsWhatTheyReport() throws Exception {
    try (SocketDeviceClient ca = TestDevices.connect(a); SocketDeviceClient cb = TestDevices.connect(b)) {
      for (Mode m : Mode.values()) {
        DeviceEnergy before = ca.statistics().energy().plus(cb.statistics().energy());
        RunStatistics st = LogAnalysis.run(conf, Scenario.TOP_TYPES, m, halves, null).statistics();
        DeviceEnergy around = ca.statistics().energy().plus(cb.statistics().energy()).minus(before);
        DeviceEnergy run = st.deviceEnergy();
        RunStatistics.Energy energy = st.energy();
        assertEquals(DeviceEnergy.joules(run.coreNanojoules()), energy.deviceCores(), 0, m.toString());
        assertEquals(DeviceEnergy.joules(run.flashNanojoules()), energy.flash(), 0, m.toString());
        assertEquals(DeviceEnergy.joules(run.linkNanojoules()), energy.link(), 0, m.toString());
        // Only the run computed and used the flash between the test's readings; the link also carried the
        // meter's connection and these readings.
        assertEquals(around.coreBusyNanos(), run.coreBusyNanos(), m.toString());
        assertEquals(around.coreNanojoules(), run.coreNanojoules(), m.toString());
        assertEquals(around.flashNanojoules(), run.flashNanojoules(), m.toString());
        assertTrue(around.linkNanojoules() >= run.linkNanojoules(), m + ": " + around + " around " + run);

        EnergyParameters p = st.parameters().energy();
        double flash = 0;
        for (RunStatistics.DeviceShare d : st.devices()) {
          flash += p.flashJoules(d.flash().pagesRead(), d.flash().pagesProgrammed(), d.flash().blocksErased());
        }
        assertEquals(st.device().computeNanos(), run.coreBusyNanos(), m.toString());
        assertEquals(p.deviceCoreJoules(st.device().computeNanos()), energy.deviceCores(), 1e-8, m.toString());
        assertEquals(flash, energy.flash(), 1e-8, m.toString());
        assertEquals(p.linkJoules(st.hostInterfaceBytes()), energy.link(), 1e-8, m.toString());
        assertTrue(energy.flash() > 0 && energy.link() > 0, st.toString());
        assertEquals(m.inDevice(), energy.deviceCores() > 0, st.toString());
      }
    }
  }

  @Test
  void deviceModeRunsAMapTaskPerDeviceAtOnceUnlessTold() throws Exception {
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir.resolve("unused").toUri());
    Job job = LogAnalysis.createJob(conf, Scenario.REGIONS, Mode.DEVICE, halves, out);
    assertEquals(2, job.getConfiguration().getInt(DeviceMode.LOCAL_MAP_TASKS, -1));
    assertEquals(MeteredDeviceMapper.class, job.getMapperClass());
    Job host = LogAnalysis.createJob(conf, Scenario.REGIONS, Mode.HOST_NORMAL, halves, out);
    assertEquals(null, host.getConfiguration().get(DeviceMode.LOCAL_MAP_TASKS), "host modes keep one map slot");
    Configuration told = LogAnalysis.configuration(Map.of(DeviceMode.LOCAL_MAP_TASKS, "1"));
    assertEquals(1, LogAnalysis.createJob(told, Scenario.REGIONS, Mode.DEVICE, halves, out).getConfiguration()
        .getInt(DeviceMode.LOCAL_MAP_TASKS, -1));
    // Both devices' splits ran one task each, in parallel or not, and filed their modelled time apart.
    AnalysisRun run = LogAnalysis.run(told, Scenario.TOP_TYPES, Mode.DEVICE, halves, null);
    assertEquals(AnalysisResult.compute(Scenario.TOP_TYPES, records), run.result());
    assertTrue(run.statistics().devices().stream().allMatch(d -> d.executionNanos() > 0), run.statistics().toString());
  }
}
