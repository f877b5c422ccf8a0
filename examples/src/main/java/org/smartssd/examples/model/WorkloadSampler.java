package org.smartssd.examples.model;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.devicemapper.DeviceMapperConfigKeys;
import org.smartssd.examples.loganalysis.HostCounting;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.wc98.Wc98Record;
import org.smartssd.model.Counts;
import org.smartssd.model.Work;
import org.smartssd.model.Workload;

/**
 * Measures a scenario's work on a sample, as the analytic model takes it: the scenario runs in every
 * mode on two sample sizes on a simulated device of this JVM, counted on both sides, and a straight
 * line through the two gives each function's work per record and its fixed part; a third run merges
 * on the device, and what it counts beyond the second is the controller's merge.
 */
public final class WorkloadSampler {
  /** The samples' sizes: large enough that per-record work dominates, small enough to take seconds. */
  public static final long SMALL = 40_000;
  public static final long LARGE = 120_000;
  private static final long SEED = 1998;

  private WorkloadSampler() {}

  /**
   * Samples the scenario on a device with these keys ({@code smartssd.device.*}).
   *
   * @throws IllegalStateException if this JVM does not count the host's work (no agent)
   */
  public static Workload sample(Scenario scenario, Map<String, String> deviceKeys, PrintWriter log)
      throws IOException, InterruptedException {
    if (!HostCounting.start()) {
      throw new IllegalStateException("the analytic model's workload is counted: start the JVM with the counting "
          + "agent (-javaagent:smartssd-opcount.jar; bin/smartssd does)");
    }
    if (!DeviceConfig.load(deviceKeys).isp().computeModel().equals(
        org.smartssd.device.runtime.config.IspParameters.ComputeModel.COUNTED)) {
      throw new IllegalArgumentException("the analytic model prices counted work: "
          + "smartssd.device.isp.compute-model must be counted");
    }
    List<Mode> modes = List.of(Mode.values());
    Map<Mode, RunStatistics> small;
    Map<Mode, RunStatistics> large;
    RunStatistics merged;
    say(log, "sampling %s: %,d and %,d records in every mode, counted", scenario.optionName(), SMALL, LARGE);
    try (ScenarioRunner runner = new ScenarioRunner(deviceKeys, 1, Map.of())) {
      runner.run(scenario, SMALL, SEED + 1, modes); // warm: classes load and initialize once, uncounted after
      small = runner.run(scenario, SMALL, SEED, modes);
      large = runner.run(scenario, LARGE, SEED, modes);
    }
    try (ScenarioRunner runner = new ScenarioRunner(deviceKeys, 1, Map.of(DeviceMapperConfigKeys.MERGE, "device"))) {
      runner.run(scenario, SMALL, SEED + 1, List.of(Mode.DEVICE));
      merged = runner.run(scenario, SMALL, SEED, List.of(Mode.DEVICE)).get(Mode.DEVICE);
    }
    Map<org.smartssd.model.Mode, Work> host = new EnumMap<>(org.smartssd.model.Mode.class);
    for (Mode m : modes) {
      host.put(modelMode(m), Work.fit(SMALL, Counts.of(small.get(m).hostCounted()), LARGE,
          Counts.of(large.get(m).hostCounted())));
    }
    RunStatistics.DeviceWork ds = small.get(Mode.DEVICE).device();
    RunStatistics.DeviceWork dl = large.get(Mode.DEVICE).device();
    Work execution = Work.fit(SMALL, Counts.of(ds.counted()), LARGE, Counts.of(dl.counted()));
    long lanes = ds.lanes(); // one execution on one device
    Work lane = new Work(execution.perRecord(), execution.fixed().times(1.0 / lanes));
    Counts merge = Counts.of(merged.device().counted()).minus(Counts.of(ds.counted())).times(1.0 / lanes)
        .atLeastZero();
    double resultBytesPerLane = (double) ds.resultBytes() / lanes;
    Workload w = new Workload(scenario.optionName(), Wc98Record.BYTES, lane, merge, resultBytesPerLane, host,
        0);
    say(log, "work a record: device lane %.0f ops (%.0f heap, %.1f calls); host %s",
        lane.perRecord().ops(), lane.perRecord().memory(), lane.perRecord().calls(),
        String.join(", ", host.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %.0f ops",
            e.getKey().optionName(), e.getValue().perRecord().ops())).toList()));
    return w;
  }

  /** The analytic model's name for a mode of the log analysis. */
  public static org.smartssd.model.Mode modelMode(Mode m) {
    return org.smartssd.model.Mode.parse(m.optionName());
  }

  private static void say(PrintWriter log, String format, Object... args) {
    log.printf(Locale.ROOT, "model: " + format + "%n", args);
    log.flush();
  }
}
