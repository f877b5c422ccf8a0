package org.smartssd.examples.model;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.examples.loganalysis.AnalysisResult;
import org.smartssd.examples.loganalysis.AnalysisRun;
import org.smartssd.examples.loganalysis.DeviceMode;
import org.smartssd.examples.loganalysis.DirectCount;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.loganalysis.TraceLoader;
import org.smartssd.examples.wc98.GeneratorParameters;
import org.smartssd.examples.wc98.TraceFormat;
import org.smartssd.examples.wc98.TraceWriter;
import org.smartssd.examples.wc98.Wc98Generator;

/**
 * Runs a scenario of the log analysis in the simulator: devices of its own in this JVM (unpaced: only
 * the model's times matter here), a generated trace spread over them, the three modes, each checked
 * against a direct count. The sampler and the sweep measure the simulator with it.
 */
public final class ScenarioRunner implements Closeable {
  private final Path work;
  private final List<SimulatedDevice> devices = new ArrayList<>();
  private final Configuration conf;

  /**
   * Starts {@code count} devices with the given keys ({@code smartssd.device.*}).
   *
   * @param hadoopKeys keys for the jobs (such as {@code smartssd.mapper.merge})
   */
  public ScenarioRunner(Map<String, String> deviceKeys, int count, Map<String, String> hadoopKeys) throws IOException {
    this.work = Files.createTempDirectory("smartssd-model-");
    this.conf = LogAnalysis.configuration(hadoopKeys);
    try {
      for (int i = 0; i < count; i++) {
        Map<String, String> keys = new HashMap<>(deviceKeys);
        keys.put(DeviceConfigKeys.DATA_DIR, work.resolve("device-" + i).toString());
        keys.put(DeviceConfigKeys.HOST_PORT, "0");
        keys.put(DeviceConfigKeys.PACE, "false");
        keys.putIfAbsent(DeviceConfigKeys.DEVICE_NAME, "model-" + i);
        keys.put(DeviceConfigKeys.ISP_SHARED_PACKAGES, DeviceMode.SHARED_PACKAGES);
        devices.add(SimulatedDevice.start(DeviceConfig.load(keys)));
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Runs the modes on a generated trace of {@code records} records (seeded), spread over the devices. */
  public Map<Mode, RunStatistics> run(Scenario scenario, long records, long seed, List<Mode> modes)
      throws IOException, InterruptedException {
    Path trace = work.resolve("trace-" + records + "-" + seed + ".bin");
    try (TraceWriter writer = TraceWriter.create(trace, TraceFormat.BINARY, false)) {
      new Wc98Generator(GeneratorParameters.defaults().withSeed(seed)).generate(records, writer);
    }
    AnalysisResult expected = DirectCount.of(trace).result(scenario);
    List<String> targets = new ArrayList<>();
    for (SimulatedDevice d : devices) {
      targets.add("objfs://" + d.address() + "/model/trace-" + records + "-" + seed + ".bin");
    }
    TraceLoader.spread(conf, List.of(trace), targets, true, LogAnalysis.recordBytes(conf));
    Files.delete(trace);
    awaitIdle();
    List<org.apache.hadoop.fs.Path> inputs = targets.stream().map(org.apache.hadoop.fs.Path::new).toList();
    Map<Mode, RunStatistics> runs = new EnumMap<>(Mode.class);
    for (Mode m : modes) {
      AnalysisRun run = LogAnalysis.run(conf, scenario, m, inputs, null);
      if (!run.result().equals(expected)) {
        throw new IOException(scenario.optionName() + " " + m.optionName() + " found " + run.result().lines()
            + ", a direct count " + expected.lines());
      }
      if (run.statistics().fallbackSplits() > 0) {
        // The model measures the device: a split that ran on the host instead would be priced as the device's.
        throw new IOException(scenario.optionName() + " " + m.optionName() + ": " + run.statistics().fallbackSplits()
            + " split(s) of device mode ran on the host, not in the device (fallback; the log says why): the "
            + "simulator's device time would not be the device's");
      }
      runs.put(m, run.statistics());
    }
    return runs;
  }

  /**
   * Waits until every device has done, on its modelled clock, what it was given: the programs of the
   * trace just loaded would otherwise meet the jobs' reads (as they would on a real drive, but a sweep
   * compares jobs on a quiet device). Unpaced, the modelled clock is the wall clock since the device
   * started.
   */
  private void awaitIdle() throws InterruptedException {
    for (SimulatedDevice d : devices) {
      DeviceStatistics s = d.statistics();
      long wait = s.modelledHorizonNanos() - s.uptimeNanos();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000 + 1);
      }
    }
  }

  @Override
  public void close() throws IOException {
    IOException failed = null;
    for (SimulatedDevice d : devices) {
      try {
        // The file system cache keeps a client for each device; this device is going away.
        org.apache.hadoop.fs.FileSystem.get(java.net.URI.create("objfs://" + d.address() + "/"), conf).close();
        d.close();
      } catch (IOException e) {
        failed = e;
      }
    }
    devices.clear();
    try (Stream<Path> paths = Files.walk(work)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
    if (failed != null) {
      throw failed;
    }
  }
}
