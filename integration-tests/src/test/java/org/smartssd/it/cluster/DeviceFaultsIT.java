package org.smartssd.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.devicemapper.DeviceCounters;
import org.smartssd.devicemapper.DeviceMapperConfigKeys;
import org.smartssd.examples.loganalysis.AnalysisResult;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.wc98.Wc98Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Device-mode jobs on a real YARN cluster of two nodes, each with its device, while things go wrong:
 * a device killed with SIGKILL in the middle of its execution (it comes back and the retry runs in
 * it; it stays down and the job fails naming it; it comes back without the Hadoop runtime for
 * tasklets and the split's map runs on the host, or the job fails, by {@code smartssd.mapper.fallback}),
 * a device that stops answering for longer than the request timeout, and a NodeManager lost. In
 * every case that succeeds the answer is the direct count's, and nothing the devices had
 * acknowledged is lost.
 *
 * <p>The devices are paced with one slow core, so that an execution lasts seconds and a fault lands
 * in its middle; a fault is injected once the device has answered the map task's commands (DEVICE_INFO,
 * CREATE_OBJECT, EXECUTE_OBJECT, READ_OBJECT).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeviceFaultsIT {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceFaultsIT.class);
  private static final int NODES = 2;
  private static final int RECORDS = 30_000; // 300 KB a device: about 2.4 s of modelled compute each

  @TempDir static Path dir;
  private YarnCluster yarn;
  private final List<DeviceNode> devices = new ArrayList<>();
  private List<Wc98Record> records;
  private List<org.apache.hadoop.fs.Path> inputs;
  private AnalysisResult expected;
  private int outputs;

  @BeforeAll
  void start() throws Exception {
    yarn = YarnCluster.start(NODES, dir.resolve("yarn"));
    for (int i = 0; i < NODES; i++) {
      devices.add(DeviceNode.start(yarn.nodeHost(i), dir.resolve("device-" + i), ClusterDevices.slow()));
    }
    records = ClusterJobs.generate(RECORDS);
    inputs = ClusterJobs.spread(records, devices, "/wc98/part", yarn.jobConf());
    expected = AnalysisResult.compute(Scenario.REGIONS, records);
  }

  /** Every test leaves both devices running as they started, whatever it did to them. */
  @AfterEach
  void restoreDevices() throws Exception {
    for (DeviceNode d : devices) {
      if (!d.isRunning()) {
        d.restart(Map.of());
      } else {
        d.thaw();
      }
    }
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

  @Test
  void aKilledDeviceThatComesBackRunsTheRetry() throws Exception {
    DeviceNode victim = devices.get(0);
    Job job = submit(yarn.jobConf());
    awaitExecution(victim);
    victim.kill();
    TimeUnit.SECONDS.sleep(2);
    victim.restart(Map.of());

    assertTrue(job.waitForCompletion(false), "the job failed: " + job.getStatus().getFailureInfo());
    assertEquals(expected, result(job));
    assertTrue(job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue() >= 1, "a map attempt failed");
    assertEquals(0, job.getCounters().findCounter(DeviceCounters.FALLBACK_SPLITS).getValue(),
        "the retry ran in the device that came back");
    assertEquals(NODES, job.getCounters().findCounter(DeviceCounters.DEVICE_EXECUTIONS).getValue());
  }

  @Test
  void aKilledDeviceThatStaysDownFailsTheJobNamingIt() throws Exception {
    DeviceNode victim = devices.get(1);
    Configuration conf = yarn.jobConf();
    conf.setInt("mapreduce.map.maxattempts", 2);
    Job job = submit(conf);
    awaitExecution(victim);
    victim.kill();

    assertFalse(job.waitForCompletion(false), "the job succeeded without the data of " + victim);
    assertNamed(victim, job);
  }

  @Test
  void aDeviceBackWithoutTheTaskletRuntimeLeavesTheSplitToTheHostOrFailsTheJob() throws Exception {
    DeviceNode victim = devices.get(0);
    Job job = submit(yarn.jobConf());
    awaitExecution(victim);
    victim.kill();
    victim.restart(Map.of("smartssd.device.isp.shared-packages", ClusterDevices.TASKLET_API_ONLY));

    assertTrue(job.waitForCompletion(false), "the job failed: " + job.getStatus().getFailureInfo());
    assertEquals(expected, result(job));
    assertEquals(1, job.getCounters().findCounter(DeviceCounters.FALLBACK_SPLITS).getValue());
    assertEquals(NODES - 1, job.getCounters().findCounter(DeviceCounters.DEVICE_EXECUTIONS).getValue());

    Configuration never = yarn.jobConf();
    never.set(DeviceMapperConfigKeys.FALLBACK, "never");
    never.setInt("mapreduce.map.maxattempts", 1);
    Job strict = submit(never);
    assertFalse(strict.waitForCompletion(false), "the job succeeded with fallback never");
    assertNamed(victim, strict);
    victim.kill(); // restarted as it was after the test
  }

  @Test
  void aDeviceThatStopsAnsweringFailsTheAttemptAndTheRetryFinishes() throws Exception {
    DeviceNode victim = devices.get(1);
    Configuration conf = yarn.jobConf();
    conf.set("fs.objfs.request-timeout", "2s");
    Job job = submit(conf);
    awaitExecution(victim);
    victim.freeze();
    TimeUnit.SECONDS.sleep(6); // three request timeouts
    victim.thaw();

    assertTrue(job.waitForCompletion(false), "the job failed: " + job.getStatus().getFailureInfo());
    assertEquals(expected, result(job));
    assertTrue(job.getCounters().findCounter(JobCounter.NUM_FAILED_MAPS).getValue() >= 1, "a map attempt timed out");
  }

  /** Last: the cluster has one node less after it. */
  @Test
  @Order(Integer.MAX_VALUE)
  void aLostNodeManagerCostsARerunNotTheAnswer() throws Exception {
    Job job = submit(yarn.jobConf());
    int master = awaitApplicationMaster(job);
    int victim = master == 0 ? 1 : 0; // losing the master's node would restart the whole job, not its maps
    awaitExecution(devices.get(victim));
    yarn.loseNodeManager(victim);

    assertTrue(job.waitForCompletion(false), "the job failed: " + job.getStatus().getFailureInfo());
    assertEquals(expected, result(job));
    assertEquals(NODES, job.getCounters().findCounter(DeviceCounters.DEVICE_EXECUTIONS).getValue(),
        "the lost node's map ran again in its device, from the other node");
  }

  private int awaitApplicationMaster(Job job) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      int node = yarn.applicationMasterNode(job.getJobID());
      if (node >= 0) {
        return node;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("no application master within 60 s for " + job.getJobID());
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
  }

  // ---- helpers ----

  private org.apache.hadoop.fs.Path output() {
    return new org.apache.hadoop.fs.Path(dir.resolve("out-" + outputs++).toUri());
  }

  private Job submit(Configuration conf) throws Exception {
    Job job = LogAnalysis.createJob(conf, Scenario.REGIONS, Mode.DEVICE, inputs, output());
    job.submit();
    return job;
  }

  /** A failed job's task diagnostics name the device (its address), so that an operator knows which. */
  private static void assertNamed(DeviceNode device, Job job) throws Exception {
    List<String> diagnostics = ClusterJobs.diagnostics(job);
    LOG.info("{} failed as it should; its failed attempts said: {}", job.getJobID(), diagnostics);
    assertFalse(diagnostics.isEmpty(), "no task diagnostics: " + job.getStatus().getFailureInfo());
    assertTrue(diagnostics.stream().allMatch(d -> d.contains(device.address().toString())),
        "every failed attempt names " + device + ": " + diagnostics);
  }

  private AnalysisResult result(Job job) throws IOException {
    return ClusterJobs.result(Scenario.REGIONS, job);
  }

  /**
   * Waits until the device has answered a map task's first commands (the job was submitted, so the
   * client's own commands are done): its execution then runs for seconds.
   */
  private static void awaitExecution(DeviceNode device) throws Exception {
    try (SocketDeviceClient watch = device.connect()) {
      long before = watch.statistics().commands();
      long polls = 1;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      // Besides these polls: the task's DEVICE_INFO, CREATE_OBJECT(s), EXECUTE_OBJECT and a READ_OBJECT.
      while (watch.statistics().commands() - before - polls++ < 4) {
        if (System.nanoTime() - deadline > 0) {
          throw new AssertionError(device + " ran no execution within 90 s");
        }
        TimeUnit.MILLISECONDS.sleep(100);
      }
    }
    TimeUnit.MILLISECONDS.sleep(300);
  }
}
