package org.smartssd.examples.model;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.devicemapper.DeviceMapperConfigKeys;
import org.smartssd.examples.loganalysis.HostCounting;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;
import org.smartssd.model.AnalyticModel;
import org.smartssd.model.Counts;
import org.smartssd.model.Job;
import org.smartssd.model.ResultCurve;
import org.smartssd.model.Work;
import org.smartssd.model.Workload;

/**
 * Measures a job's work on a sample, as the analytic model takes it ({@link SampledJob}: a scenario of the
 * log analysis, or a data-mining workload's job): the job runs in each of its modes (the log analysis has
 * three, the data-mining workloads host-normal and device only: a mode a job lacks is absent from the
 * workload, not estimated) on two sample sizes on a simulated device of this JVM, counted on both sides, and a straight
 * line through the two gives each function's work per record and its fixed part; both again merged
 * on the device, and what they count beyond the first two is the controller's merge, a fixed part
 * and a part a byte of the lanes' results (a line through the two). Two more device runs, small
 * enough that no lane's buffer fills, give what a lane computes after its last read (its buffer's
 * combine) for each record it still holds. The first sample again over two devices gives what the
 * host does for each split (a map task's own work), and on a device of many lanes, merged on the host
 * and on the device, what the host does for each byte of partial results. The lanes' result bytes of
 * every device run, against the records a lane read, give the result curve ({@link ResultCurve}: with
 * a combiner, the keys a lane sees as its records grow); what the busiest lane's function said it held,
 * against the same, gives the lane state (the iSSD's M(f), for the swap). Every runner
 * runs its jobs once before it measures: classes load and initialise once a JVM, and a measured run
 * that did so would count it.
 */
public final class WorkloadSampler {
  /** The samples' sizes: large enough that per-record work dominates, small enough to take seconds. */
  public static final long SMALL = 40_000;
  public static final long LARGE = 120_000;
  private static final long SEED = 1998;
  /** The most records a tail sample takes. */
  private static final long TAIL_CAP = 400_000;
  /** Lanes of the device on which the host's work per partial-result byte is measured. */
  static final int RESULT_LANES = 64;

  private WorkloadSampler() {}

  /**
   * Samples a job on a device with these keys ({@code smartssd.device.*}), in the modes the job has. A
   * record is one as the runs' statistics count it ({@link RunStatistics#records}), and so are the fits'
   * sizes.
   *
   * @param hadoopKeys the jobs' keys (a scenario's stored record size); the sampler sets where the lanes'
   *     results are merged
   * @throws IllegalStateException if this JVM does not count the host's work (no agent)
   */
  public static Workload sample(SampledJob job, Map<String, String> deviceKeys, Map<String, String> hadoopKeys,
      PrintWriter log) throws IOException, InterruptedException {
    if (!HostCounting.start()) {
      throw new IllegalStateException("the analytic model's workload is counted: start the JVM with the counting "
          + "agent (-javaagent:smartssd-opcount.jar; bin/smartssd does)");
    }
    if (!DeviceConfig.load(deviceKeys).isp().computeModel().equals(
        org.smartssd.device.runtime.config.IspParameters.ComputeModel.COUNTED)) {
      throw new IllegalArgumentException("the analytic model prices counted work: "
          + "smartssd.device.isp.compute-model must be counted");
    }
    List<Mode> modes = job.modes();
    Map<Mode, RunStatistics> small;
    Map<Mode, RunStatistics> large;
    RunStatistics merged;
    RunStatistics mergedLarge;
    DeviceConfig config = DeviceConfig.load(deviceKeys);
    int lanes = Math.min(config.isp().cores(), config.geometry().channels());
    // A fifth and seven tenths of a buffer a lane, on average: the tail's sort is not linear, so the two
    // samples span most of a buffer rather than extrapolate to it, and the lanes' shares (whole pages of
    // their channels) stay under a buffer (capped for devices of very many lanes).
    long tail1 = Math.max(1_000, Math.min(TAIL_CAP / 4, lanes * Job.BUFFER_RECORDS / 5));
    long tail2 = Math.max(2 * tail1, Math.min(TAIL_CAP, lanes * Job.BUFFER_RECORDS * 7 / 10));
    RunStatistics tailSmall;
    RunStatistics tailLarge;
    say(log, "sampling %s: %,d and %,d records in %s, counted", job.name(), SMALL, LARGE,
        modes.size() == Mode.JOBS.size() ? "every mode"
            : String.join(" and ", modes.stream().map(Mode::optionName).toList()) + " mode");
    // Merged on the host, whatever the device's default (smartssd.device.isp.merge): the merge is measured
    // as what the merged runs count beyond these.
    Map<String, String> hadoop = merge(hadoopKeys, "host");
    Map<String, String> hadoopMerged = merge(hadoopKeys, "device");
    try (Runner runner = job.open(deviceKeys, 1, hadoop)) {
      runner.run(SMALL, SEED + 1, modes); // warm: classes load and initialize once, uncounted after
      small = runner.run(SMALL, SEED, modes);
      large = runner.run(LARGE, SEED, modes);
      tailSmall = runner.run(tail1, SEED, List.of(Mode.DEVICE)).get(Mode.DEVICE);
      tailLarge = runner.run(tail2, SEED, List.of(Mode.DEVICE)).get(Mode.DEVICE);
    }
    try (Runner runner = job.open(deviceKeys, 1, hadoopMerged)) {
      runner.run(SMALL, SEED + 1, List.of(Mode.DEVICE));
      merged = runner.run(SMALL, SEED, List.of(Mode.DEVICE)).get(Mode.DEVICE);
      mergedLarge = runner.run(LARGE, SEED, List.of(Mode.DEVICE)).get(Mode.DEVICE);
    }
    // The same records over two devices, two splits: what the host counts beyond one split is a split's own.
    Map<Mode, RunStatistics> twoSplits;
    try (Runner runner = job.open(deviceKeys, 2, hadoop)) {
      runner.run(SMALL, SEED + 1, modes);
      twoSplits = runner.run(SMALL, SEED, modes);
    }
    // Device mode: merged on the device, the host receives one lane's partial results instead of every
    // lane's; what it then does less is its work for those bytes. A few lanes' partial results are a
    // few hundred bytes, too few to tell their work from the host's run-to-run noise: the pair runs on
    // a device of many lanes.
    Map<String, String> wide = new HashMap<>(deviceKeys);
    wide.put(DeviceConfigKeys.FLASH_CHANNELS, Integer.toString(RESULT_LANES));
    wide.put(DeviceConfigKeys.ISP_CORES, Integer.toString(RESULT_LANES));
    RunStatistics manyLanes;
    RunStatistics manyLanesMerged;
    try (Runner runner = job.open(wide, 1, hadoop)) {
      runner.run(SMALL, SEED + 1, List.of(Mode.DEVICE));
      manyLanes = runner.run(SMALL, SEED, List.of(Mode.DEVICE)).get(Mode.DEVICE);
    }
    try (Runner runner = job.open(wide, 1, hadoopMerged)) {
      runner.run(SMALL, SEED + 1, List.of(Mode.DEVICE));
      manyLanesMerged = runner.run(SMALL, SEED, List.of(Mode.DEVICE)).get(Mode.DEVICE);
    }
    long lessResultBytes = manyLanes.hostBytesOut() - manyLanesMerged.hostBytesOut();
    Counts hostPerResultByte = lessResultBytes <= 0 ? Counts.ZERO
        : Counts.of(manyLanes.hostCounted()).minus(Counts.of(manyLanesMerged.hostCounted()))
            .times(1.0 / lessResultBytes).atLeastZero();
    Map<org.smartssd.model.Mode, Work> host = new EnumMap<>(org.smartssd.model.Mode.class);
    Map<org.smartssd.model.Mode, Counts> hostPerSplit = new EnumMap<>(org.smartssd.model.Mode.class);
    for (Mode m : modes) {
      Counts smallHost = Counts.of(small.get(m).hostCounted());
      Counts largeHost = Counts.of(large.get(m).hostCounted());
      if (m == Mode.DEVICE) {
        // The model prices the host's work on the lanes' partial results apart, a result byte at a time; left in
        // the line through the two samples, it would be counted twice (and, where the results grow with the
        // records, as PageRank's and Apriori's do, nearly double the host's time).
        smallHost = smallHost.minus(hostPerResultByte.times(small.get(m).device().resultBytes()));
        largeHost = largeHost.minus(hostPerResultByte.times(large.get(m).device().resultBytes()));
      }
      Work fit = Work.fit(small.get(m).records(), smallHost, large.get(m).records(), largeHost);
      Counts perSplit = Counts.of(twoSplits.get(m).hostCounted()).minus(Counts.of(small.get(m).hostCounted()));
      if (m == Mode.DEVICE) {
        // The second split's partial results are work per result byte, not per split.
        perSplit = perSplit.minus(hostPerResultByte.times(
            twoSplits.get(m).hostBytesOut() - small.get(m).hostBytesOut()));
      }
      perSplit = perSplit.atLeastZero();
      host.put(modelMode(m), new Work(fit.perRecord(), fit.fixed().minus(perSplit).atLeastZero()));
      hostPerSplit.put(modelMode(m), perSplit);
    }
    RunStatistics smallDevice = small.get(Mode.DEVICE);
    RunStatistics largeDevice = large.get(Mode.DEVICE);
    RunStatistics.DeviceWork ds = smallDevice.device();
    RunStatistics.DeviceWork dl = largeDevice.device();
    Work execution = Work.fit(smallDevice.records(), Counts.of(ds.counted()), largeDevice.records(),
        Counts.of(dl.counted()));
    // The lanes that read: a device has a lane a core, but a core without a channel reads nothing.
    long executionLanes = lanes;
    Work lane = new Work(execution.perRecord(), execution.fixed().times(1.0 / executionLanes));
    // The merge: what the merged runs counted beyond the same runs merged on the host (the same records on
    // the same lanes), a fixed part an execution (the controller's set-up) and a part a byte of the lanes'
    // results it merges.
    Counts mergeSmall = Counts.of(merged.device().counted()).minus(Counts.of(ds.counted())).atLeastZero();
    Counts mergeLarge = Counts.of(mergedLarge.device().counted()).minus(Counts.of(dl.counted())).atLeastZero();
    Work merge = Work.fitOrScale(ds.resultBytes(), mergeSmall, dl.resultBytes(), mergeLarge);
    // A lane's results against the records it read (with a combiner, the keys among them): every run's lanes.
    // A small run reaches only the lanes of the channels its stripes do.
    DeviceConfig wideConfig = DeviceConfig.load(wide);
    RunStatistics[] runs = {manyLanes, tailSmall, tailLarge, smallDevice, largeDevice};
    double[] perLane = new double[runs.length];
    double[] bytesPerLane = new double[runs.length];
    double[] held = new double[runs.length];
    for (int i = 0; i < runs.length; i++) {
      int active = AnalyticModel.activeLanes(i == 0 ? wideConfig : config, (double) runs[i].inputBytes());
      perLane[i] = (double) runs[i].records() / active;
      bytesPerLane[i] = (double) runs[i].device().resultBytes() / active;
      // The counter sums each execution's busiest lane: their mean (one execution a split).
      held[i] = (double) runs[i].device().laneStateBytes() / Math.max(1, runs[i].deviceExecutions());
    }
    ResultCurve laneResults = ResultCurve.through(perLane, bytesPerLane);
    // What a lane's function held (the iSSD's M(f), for the swap) against the same lane sizes.
    ResultCurve laneState = ResultCurve.through(perLane, held);
    // No lane's buffer filled in these two: every record was still held at the end.
    Work tailFit = Work.fit(tailSmall.records(), Counts.of(tailSmall.device().countedTail()), tailLarge.records(),
        Counts.of(tailLarge.device().countedTail()));
    Work tail = new Work(tailFit.perRecord(), tailFit.fixed().times(1.0 / lanes));
    int recordBytes = smallDevice.recordBytes();
    Workload w = new Workload(job.name(), recordBytes, lane, tail, merge, laneResults, host,
        hostPerSplit, hostPerResultByte, laneState);
    say(log, "work a record (%d bytes): device lane %.0f ops (%.0f heap, %.1f calls); host %s", recordBytes,
        lane.perRecord().ops(), lane.perRecord().memory(), lane.perRecord().calls(),
        String.join(", ", host.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %.0f ops",
            e.getKey().optionName(), e.getValue().perRecord().ops())).toList()));
    return w;
  }

  /** The jobs' keys with the lanes' results merged {@code where} ({@code host} or {@code device}). */
  private static Map<String, String> merge(Map<String, String> hadoopKeys, String where) {
    Map<String, String> keys = new HashMap<>(hadoopKeys);
    keys.put(DeviceMapperConfigKeys.MERGE, where);
    return keys;
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
