package org.smartssd.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.smartssd.devicemapper.DeviceCounters;
import org.smartssd.examples.loganalysis.AnalysisResult;
import org.smartssd.examples.loganalysis.AnalysisRun;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * Three device processes, each attached to (named as) one NodeManager of a real YARN cluster,
 * holding a World Cup trace spread over them; both scenarios in all three modes. Every result equals
 * the direct count and the single-device run's; every map task of a device-mode job ran on the node
 * its device is attached to (YARN's data-local counter, and the node of each attempt).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiDeviceYarnIT {
  private static final int NODES = 3;
  private static final int RECORDS = 45_000;

  @TempDir static Path dir;
  private YarnCluster yarn;
  private final List<DeviceNode> devices = new ArrayList<>();
  private List<Wc98Record> records;
  private List<org.apache.hadoop.fs.Path> inputs;
  private final Map<Scenario, AnalysisResult> singleDevice = new EnumMap<>(Scenario.class);
  private int outputs;

  @BeforeAll
  void start() throws Exception {
    records = ClusterJobs.generate(RECORDS);
    // The single-device run: one device with the whole trace, the local runner, device mode.
    try (DeviceNode single = DeviceNode.start("single", dir.resolve("single"), ClusterDevices.properties())) {
      Configuration local = ClusterDevices.withSecret(LogAnalysis.configuration(Map.of()));
      List<org.apache.hadoop.fs.Path> whole = ClusterJobs.spread(records, List.of(single), "/wc98/trace", local);
      for (Scenario s : Scenario.values()) {
        AnalysisRun run = LogAnalysis.run(local, s, Mode.DEVICE, whole, null);
        assertEquals(0, run.statistics().fallbackSplits(), run.statistics().toString());
        singleDevice.put(s, run.result());
      }
    }
    yarn = YarnCluster.start(NODES, dir.resolve("yarn"));
    for (int i = 0; i < NODES; i++) {
      devices.add(DeviceNode.start(yarn.nodeHost(i), dir.resolve("device-" + i), ClusterDevices.properties()));
    }
    inputs = ClusterJobs.spread(records, devices, "/wc98/part", yarn.jobConf());
  }

  @AfterAll
  void stop() throws Exception {
    for (DeviceNode d : devices) {
      d.close();
    }
    if (yarn != null) {
      yarn.close();
    }
  }

  static Stream<Arguments> runs() {
    List<Arguments> all = new ArrayList<>();
    for (Scenario s : Scenario.values()) {
      for (Mode m : Mode.JOBS) { // the jobs YARN runs (device-builtin runs none)
        all.add(Arguments.of(s, m));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("runs")
  void theClusterAgreesWithTheDirectCountAndTheSingleDevice(Scenario scenario, Mode mode) throws Exception {
    // Each device's object names that device's node: the splits' locations.
    Configuration conf = yarn.jobConf();
    for (int i = 0; i < NODES; i++) {
      FileSystem fs = inputs.get(i).getFileSystem(conf);
      FileStatus status = fs.getFileStatus(inputs.get(i));
      for (BlockLocation b : fs.getFileBlockLocations(status, 0, status.getLen())) {
        assertEquals(List.of(yarn.nodeHost(i)), List.of(b.getHosts()), "block locations of " + inputs.get(i));
      }
    }

    ClusterJobs.Finished job = ClusterJobs.run(conf, scenario, mode, inputs,
        new org.apache.hadoop.fs.Path(dir.resolve("out-" + outputs++).toUri()));

    assertEquals(AnalysisResult.compute(scenario, records), job.result());
    assertEquals(singleDevice.get(scenario), job.result());
    long maps = job.counters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
    assertTrue(maps >= NODES, "maps launched: " + maps);
    assertEquals(maps, job.counters().findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(),
        "every map task ran on the node of its device: " + job.counters());
    List<String> mapNodes = new ArrayList<>();
    for (TaskCompletionEvent e : job.events()) {
      if (e.getTaskAttemptId().getTaskType() == TaskType.MAP) {
        mapNodes.add(e.getTaskTrackerHttp());
      }
    }
    for (int i = 0; i < NODES; i++) {
      String host = yarn.nodeHost(i);
      assertTrue(mapNodes.stream().anyMatch(http -> http.contains("//" + host + ":")),
          "a map ran on " + host + ": " + mapNodes);
    }
    if (mode == Mode.DEVICE) {
      assertEquals(NODES, job.counters().findCounter(DeviceCounters.DEVICE_EXECUTIONS).getValue());
      assertEquals(0, job.counters().findCounter(DeviceCounters.FALLBACK_SPLITS).getValue());
    }
  }
}
