package org.smartssd.it.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.examples.loganalysis.AnalysisResult;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.wc98.Wc98Record;
import org.smartssd.it.cluster.ClusterJobs;
import org.smartssd.it.cluster.DeviceNode;
import org.smartssd.it.cluster.YarnCluster;

/**
 * Job wall time of the same device-mode job (accesses per region) over the same devices, on a real
 * YARN cluster ({@link YarnCluster}: task JVMs launched by NodeManagers) and on Hadoop's local runner
 * (tasks in the client's JVM), in the same run: rounds alternate the two. Each result is checked
 * against the direct count. Prints a Markdown table.
 *
 * <p>Arguments: {@code [records] [devices] [rounds]} (defaults 1,000,000, 3 and 3).
 */
public final class YarnVersusLocalBenchmark {
  private YarnVersusLocalBenchmark() {}

  public static void main(String[] args) throws Exception {
    int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path work = Files.createTempDirectory("smartssd-yarn-bench-");
    List<Wc98Record> trace = ClusterJobs.generate(records);
    AnalysisResult expected = AnalysisResult.compute(Scenario.REGIONS, trace);
    Map<String, List<Double>> seconds = new LinkedHashMap<>();
    List<DeviceNode> devices = new ArrayList<>();
    try (YarnCluster yarn = YarnCluster.start(nodes, work.resolve("yarn"))) {
      Map<String, String> device = new LinkedHashMap<>();
      device.put("smartssd.device.isp.shared-packages", org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_SHARED_PACKAGES_DEFAULT);
      for (int i = 0; i < nodes; i++) {
        devices.add(DeviceNode.start(yarn.nodeHost(i), work.resolve("device-" + i), device));
      }
      List<org.apache.hadoop.fs.Path> inputs = ClusterJobs.spread(trace, devices, "/wc98/part", yarn.jobConf());
      Map<String, Configuration> runners = new LinkedHashMap<>();
      runners.put("local runner", LogAnalysis.configuration(Map.of()));
      runners.put("YARN (" + nodes + " NodeManagers)", yarn.jobConf());
      int out = 0;
      for (int round = 0; round <= rounds; round++) { // round 0 warms up (devices' code caches, the JIT)
        for (Map.Entry<String, Configuration> r : runners.entrySet()) {
          org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(work.resolve("out-" + out++).toUri());
          long t0 = System.nanoTime();
          ClusterJobs.Finished job = ClusterJobs.run(r.getValue(), Scenario.REGIONS, Mode.DEVICE, inputs, output);
          double s = (System.nanoTime() - t0) / 1e9;
          if (!job.result().equals(expected)) {
            throw new AssertionError(r.getKey() + " disagrees with the direct count: " + job.result());
          }
          if (round > 0) {
            seconds.computeIfAbsent(r.getKey(), k -> new ArrayList<>()).add(s);
          }
        }
      }
    } finally {
      for (DeviceNode d : devices) {
        d.close();
      }
    }
    System.out.printf(Locale.ROOT, "%d records over %d devices, device mode, accesses per region; %d rounds%n%n",
        records, nodes, rounds);
    System.out.println("| runner | job wall s, median (measured) | min | max | vs local runner |");
    System.out.println("| --- | ---: | ---: | ---: | ---: |");
    double base = median(seconds.values().iterator().next());
    for (Map.Entry<String, List<Double>> e : seconds.entrySet()) {
      List<Double> v = e.getValue();
      System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f |%n", e.getKey(), median(v),
          Collections.min(v), Collections.max(v), median(v) / base);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
