package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * A device-mode job on a real YARN mini cluster (a ResourceManager, a NodeManager launching task JVMs,
 * the MapReduce application master): the proxy map tasks run in their own JVMs and reach the device
 * over TCP; the result is the direct count's. About half a minute (HADOOP.md: mini YARN starts in
 * 5-6 s, a job takes 23-28 s).
 */
class DeviceModeOnMiniYarnTest {
  @TempDir Path dir;

  @Test
  void theTopTypesRunInTheDeviceUnderYarn() throws Exception {
    Map<String, String> o = TestDevices.small(dir.resolve("device"));
    o.put("smartssd.device.isp.shared-packages", DeviceMode.SHARED_PACKAGES);
    List<Wc98Record> records = Traces.generated(30_000);
    try (SimulatedDevice device = TestDevices.start(o)) {
      org.apache.hadoop.fs.Path input;
      try (FileSystem fs = Traces.objfs(device.address(), new Configuration())) {
        input = Traces.write(fs, "/wc98/trace", Traces.bytes(records));
      }
      MiniMRYarnCluster cluster = new MiniMRYarnCluster("smartssd-examples", 1);
      try {
        Configuration clusterConf = new Configuration();
        clusterConf.set("yarn.nodemanager.vmem-check-enabled", "false");
        // Stop quickly: do not wait seconds for the application master's container to exit.
        clusterConf.set("yarn.nodemanager.sleep-delay-before-sigkill.ms", "100");
        clusterConf.set("yarn.nodemanager.process-kill-wait.ms", "500");
        // Container logs are deleted at once, so the log handler's 10 s wait for pending deletions is not spent.
        clusterConf.set("yarn.nodemanager.log.retain-seconds", "0");
        cluster.init(clusterConf);
        cluster.start();
        Configuration conf = new Configuration(cluster.getConfig());
        conf.set(LogAnalysis.POLL_INTERVAL, LogAnalysis.POLL_INTERVAL_MS);
        assertEquals("yarn", conf.get("mapreduce.framework.name"));
        org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(dir.resolve("output").toUri());
        AnalysisRun run = LogAnalysis.run(conf, Scenario.TOP_TYPES, Mode.DEVICE, List.of(input), output);
        assertEquals(AnalysisResult.compute(Scenario.TOP_TYPES, records), run.result());
        assertTrue(run.statistics().deviceExecutions() >= 1, run.statistics().toString());
        assertEquals(0, run.statistics().fallbackSplits(), run.statistics().toString());
        assertTrue(run.statistics().hostBytesOut() < run.statistics().inputBytes() / 10, run.statistics().toString());
      } finally {
        cluster.stop();
      }
    }
  }
}
