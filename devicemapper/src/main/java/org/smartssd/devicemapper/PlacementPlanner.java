package org.smartssd.devicemapper;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.model.AnalyticModel;
import org.smartssd.model.Counts;
import org.smartssd.model.Mode;
import org.smartssd.model.Prediction;
import org.smartssd.model.ResultCurve;
import org.smartssd.model.Work;
import org.smartssd.model.Workload;
import org.smartssd.objectfs.DeviceClients;
import org.smartssd.objectfs.ObjectFileSystem;

/**
 * {@code smartssd.mapper.placement=auto}: chooses where a job's map phase runs. It reads the devices'
 * parameters (DEVICE_INFO), measures the job's work on a sample in the device (the job's own mapper
 * and combiner, run by the tasklet over the first bytes of one split, counted), predicts the job's
 * time in device mode and on the host with the analytic model, and picks the faster.
 *
 * <p>The sample: executions over the first bytes of the largest split on the device that holds the
 * most input, 1 MiB and 4 MiB (a straight line through their counts gives the work per record and its
 * fixed part), and two small enough that no lane's buffer fills (what a lane computes once its reads
 * are done, per record it holds); none more than a sixteenth of the job's input (at least 64 KiB),
 * so that planning stays small beside the job. Their results are discarded; merged on the host; and
 * where the job would merge on a device (its {@code smartssd.mapper.merge}, else the device's
 * default), the first two again merged there, for the merge's work. They are the device's work like
 * any other: a run measured from before {@code configure} includes them.
 *
 * <p>The host's prediction, where this JVM counts the host's work ({@code bin/smartssd} does): the
 * job itself run on the host over the same first bytes ({@link HostSample}: its mapper, combiner and
 * reducer behind Hadoop's record reader, collector, sort, spills and reduce), counted, gives the
 * host's work per record and a fixed part a split, priced on the modelled host's CPU, with every byte
 * read over the link. The fixed part (a job's and its map task's own work) is charged to both
 * placements, a split each: in the devices' case the host still runs a proxy map task a split and the
 * reduce. Where this JVM does not count ({@code hadoop jar}), the host's prediction prices only the
 * work per record the lanes counted (the job's map and combine), which leaves out Hadoop's own work on
 * the host and so favours the host; the plan's reason says so. The device's prediction charges the
 * lanes' results on the link, or their merge on the device and its result. A job whose input is on
 * no device, or that the device cannot run, runs on the host.
 */
final class PlacementPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(PlacementPlanner.class);
  private static final long SAMPLE_SMALL_BYTES = 1L << 20;
  private static final long SAMPLE_LARGE_BYTES = 4L << 20;
  private static final long TAIL_SAMPLE_MAX_BYTES = 16L << 20;
  /** The least a sample may be cut to; and each is at most the input over {@value #SAMPLE_SHARE}. */
  private static final long SAMPLE_MIN_BYTES = 64L << 10;
  private static final long SAMPLE_SHARE = 16;

  /** Where the map phase runs. */
  enum Placement {
    DEVICE,
    HOST;

    String optionName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * A plan: the placement and both predictions (modelled seconds; NaN when there was nothing to
   * predict), and why.
   */
  record Plan(Placement placement, double predictedDeviceSeconds, double predictedHostSeconds, String reason) {}

  private PlacementPlanner() {}

  /**
   * Plans a job already configured by {@link DeviceJobClient#configure} (its real mapper, combiner and
   * input format remembered).
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static Plan plan(Job job, DeviceMapperSettings settings) throws IOException, InterruptedException {
    Configuration conf = job.getConfiguration();
    InputFormat real = ReflectionUtils.newInstance(DeviceMapperSettings.realInputFormat(conf), conf);
    Map<DeviceAddress, List<FileSplit>> byDevice = new LinkedHashMap<>();
    org.apache.hadoop.io.compress.CompressionCodecFactory codecs =
        new org.apache.hadoop.io.compress.CompressionCodecFactory(conf);
    for (InputSplit s : (List<InputSplit>) real.getSplits(job)) {
      if (!(s instanceof FileSplit f) || !ObjectFileSystem.SCHEME.equals(f.getPath().toUri().getScheme())) {
        return new Plan(Placement.HOST, Double.NaN, Double.NaN, "part of the input is on no device: " + s);
      }
      if (codecs.getCodec(f.getPath()) != null) {
        return new Plan(Placement.HOST, Double.NaN, Double.NaN, "split " + f.getPath() + " is compressed, and the "
            + "planner samples a split's first bytes, which a compressed file cannot be read from in part (no "
            + "prediction): the job runs on the host; " + DeviceMapperConfigKeys.PLACEMENT + "=device runs its "
            + "map in the devices");
      }
      byDevice.computeIfAbsent(DeviceClients.deviceAddress(f.getPath().toUri()), a -> new ArrayList<>()).add(f);
    }
    if (byDevice.isEmpty()) {
      return new Plan(Placement.DEVICE, Double.NaN, Double.NaN, "no input: nothing to place");
    }
    DeviceAddress sampled = null;
    long most = -1;
    for (Map.Entry<DeviceAddress, List<FileSplit>> e : byDevice.entrySet()) {
      long bytes = e.getValue().stream().mapToLong(FileSplit::getLength).sum();
      if (bytes > most) {
        most = bytes;
        sampled = e.getKey();
      }
    }
    FileSplit largest = byDevice.get(sampled).stream().max((a, b) -> Long.compare(a.getLength(), b.getLength()))
        .orElseThrow();
    Map<DeviceAddress, DeviceConfig> configs = new LinkedHashMap<>();
    Sample sample;
    for (DeviceAddress a : byDevice.keySet()) {
      try (DeviceClient client = DeviceClients.connectClient(conf, a)) {
        DeviceConfig c = config(client.info());
        if (c.isp().computeModel() != org.smartssd.device.runtime.config.IspParameters.ComputeModel.COUNTED) {
          return new Plan(Placement.DEVICE, Double.NaN, Double.NaN, "device " + a + " does not count its work "
              + "(smartssd.device.isp.compute-model is " + c.isp().computeModel().optionName() + "), so the analytic "
              + "model cannot price the job: it runs in the devices, as asked of DeviceJobClient");
        }
        configs.put(a, c);
      }
    }
    long input = byDevice.values().stream().flatMap(List::stream).mapToLong(FileSplit::getLength).sum();
    long sampleCap = Math.max(SAMPLE_MIN_BYTES, input / SAMPLE_SHARE);
    try (DeviceClient client = DeviceClients.connectClient(conf, sampled)) {
      DeviceConfig c = configs.get(sampled);
      boolean anyMerges = configs.values().stream().anyMatch(d -> mergesOnDevice(settings, d));
      sample = Sample.run(client, conf, settings, largest, sampleCap, c, anyMerges);
    } catch (UnsupportedJobException e) {
      return new Plan(Placement.HOST, Double.NaN, Double.NaN, "the device cannot run this job: " + e.getMessage());
    } catch (SampleFailed e) {
      return new Plan(Placement.HOST, Double.NaN, Double.NaN, e.getMessage());
    }
    Work host = null;
    String hostNotCounted = "the host's own work was not counted (no counting agent in this JVM)";
    if (HostSample.counting()) {
      long sampleBytes = Math.min(largest.getLength(), sampleCap);
      try {
        host = HostSample.measure(job, largest, Math.min(sampleBytes / 4, SAMPLE_SMALL_BYTES),
            Math.min(sampleBytes, SAMPLE_LARGE_BYTES));
      } catch (IOException e) {
        hostNotCounted = "the host's sample failed (" + e.getMessage() + ")";
        LOG.warn("job '{}': {}=auto could not run its sample on the host: {}; its host prediction prices only the "
            + "job's map and combine as the device counted them, and so favours the host", job.getJobName(),
            DeviceMapperConfigKeys.PLACEMENT, e.getMessage());
      }
    } else {
      LOG.warn("job '{}': {}=auto cannot count the host's work in this JVM (no counting agent enabled; bin/smartssd "
          + "enables it): its host prediction prices only the job's map and combine as the device counted them, not "
          + "Hadoop's own work on the host, and so favours the host", job.getJobName(), DeviceMapperConfigKeys.PLACEMENT);
    }
    // Each device its own share; they work in parallel, the host computes for all of them.
    double deviceNanos = 0;
    double deviceHostNanos = 0;
    double hostAccessNanos = 0;
    double hostComputeNanos = 0;
    for (Map.Entry<DeviceAddress, List<FileSplit>> e : byDevice.entrySet()) {
      DeviceConfig c = configs.get(e.getKey());
      long bytes = e.getValue().stream().mapToLong(FileSplit::getLength).sum();
      long records = Math.round(bytes / sample.bytesPerRecord());
      long splitBytes = e.getValue().stream().mapToLong(FileSplit::getLength).max().orElse(1);
      org.smartssd.model.Job modelJob = org.smartssd.model.Job.onDevice(c, records, 1,
          ObjectFileSystem.defaultReadahead(c.geometry()), Math.max(1, splitBytes), mergesOnDevice(settings, c),
          settings.bufferRecords());
      Workload w = sample.workload(host);
      Prediction d = AnalyticModel.predict(w, c, modelJob, Mode.DEVICE);
      Prediction h = AnalyticModel.predict(w, c, modelJob, Mode.HOST_NORMAL);
      deviceNanos = Math.max(deviceNanos, d.executionNanos());
      deviceHostNanos += d.hostNanos();
      hostAccessNanos = Math.max(hostAccessNanos, h.dataAccessNanos());
      hostComputeNanos += h.processingNanos();
    }
    double device = (deviceNanos + deviceHostNanos) / 1e9;
    double hostSeconds = (hostAccessNanos + hostComputeNanos) / 1e9;
    Placement p = device <= hostSeconds ? Placement.DEVICE : Placement.HOST;
    String reason = String.format(Locale.ROOT, "predicted (modelled) %.3f s in the devices, %.3f s on the host, "
        + "from a sample of %,d records on %s%s", device, hostSeconds, sample.records(), sampled, host != null
            ? " and the same records on the host, counted"
            : "; " + hostNotCounted + ", so its prediction is low");
    return new Plan(p, device, hostSeconds, reason);
  }

  /** Whether the job's executions on a device merge their lanes' results there: the job's say, else the device's. */
  static boolean mergesOnDevice(DeviceMapperSettings settings, DeviceConfig device) {
    return settings.merge().isEmpty() ? device.isp().mergeOnDevice() : settings.merge().equals("device");
  }

  /** A device's configuration from what DEVICE_INFO says of it. */
  static DeviceConfig config(DeviceInfo info) {
    return DeviceConfig.load(info.parameters());
  }

  /** A sample failed in the device: the job runs on the host, and the plan says why. */
  static final class SampleFailed extends Exception {
    SampleFailed(String message) {
      super(message);
    }
  }

  /** What the sample executions measured. */
  record Sample(long records, double bytesPerRecord, Work lane, Work tail, ResultCurve laneResults, Work merge,
      ResultCurve laneState) {

    /**
     * Runs the sample executions over the split's first bytes on {@code device}: its lanes are its cores
     * with a channel (a core without one reads nothing), and a small sample reaches only the lanes of the
     * channels its stripes do.
     *
     * @throws UnsupportedJobException when the tasklet cannot be built for this job
     */
    static Sample run(DeviceClient client, Configuration conf, DeviceMapperSettings settings, FileSplit split,
        long cap, DeviceConfig device, boolean merging) throws IOException, InterruptedException, SampleFailed {
      int lanes = Math.max(1, Math.min(device.isp().cores(), device.geometry().channels()));
      long most = Math.min(split.getLength(), cap);
      TaskAttemptID attempt = new TaskAttemptID("plan", 0, TaskType.MAP, 0, 0);
      TaskletJarBuilder.Tasklet tasklet = TaskletJarBuilder.build(conf, settings, split, attempt);
      DeviceClient.Installed installed = client.installTasklet(ByteBuffer.wrap(tasklet.jar()), tasklet.className(),
          tasklet.parameters());
      try {
        URI uri = split.getPath().toUri();
        long smallBytes = Math.min(most / 4, SAMPLE_SMALL_BYTES);
        long largeBytes = Math.min(most, SAMPLE_LARGE_BYTES);
        ExecutionStatistics small = execute(client, installed.taskletId(), uri.getPath(), split.getStart(), smallBytes,
            settings, "host");
        if (small.records() == 0) {
          throw new SampleFailed("the sample of " + split.getPath() + " holds no record");
        }
        ExecutionStatistics large = execute(client, installed.taskletId(), uri.getPath(), split.getStart(), largeBytes,
            settings, "host");
        double bytesPerRecord = (double) large.bytesScanned() / large.records();
        Work total = Work.fitOrScale(small.records(), counts(small), large.records(), counts(large));
        Work lane = new Work(total.perRecord(), total.fixed().times(1.0 / lanes));
        // Two samples under a buffer a lane: every record read is still held when the input ends.
        long tailRecords1 = Math.max(1, lanes * (long) settings.bufferRecords() / 5);
        long tailBytes1 = Math.min(Math.min(most / 2, TAIL_SAMPLE_MAX_BYTES),
            (long) Math.ceil(tailRecords1 * bytesPerRecord));
        long tailBytes2 = Math.min(Math.min(most, TAIL_SAMPLE_MAX_BYTES),
            (long) Math.ceil(lanes * (long) settings.bufferRecords() * 7 / 10 * bytesPerRecord));
        ExecutionStatistics t1 = execute(client, installed.taskletId(), uri.getPath(), split.getStart(), tailBytes1,
            settings, "host");
        ExecutionStatistics t2 = execute(client, installed.taskletId(), uri.getPath(), split.getStart(), tailBytes2,
            settings, "host");
        Work tailFit = Work.fitOrScale(t1.records(), tailCounts(t1), t2.records(), tailCounts(t2));
        Work tail = new Work(tailFit.perRecord(), tailFit.fixed().times(1.0 / lanes));
        // A lane's results against the records it read, from every sample's lanes that had data.
        ExecutionStatistics[] runs = {t1, t2, small, large};
        double[] perLane = new double[runs.length];
        double[] bytesPerLane = new double[runs.length];
        double[] held = new double[runs.length];
        for (int i = 0; i < runs.length; i++) {
          int active = AnalyticModel.activeLanes(device, runs[i].bytesScanned());
          perLane[i] = (double) runs[i].records() / active;
          bytesPerLane[i] = (double) runs[i].resultBytes() / active;
          held[i] = runs[i].laneStateBytes();
        }
        ResultCurve results = ResultCurve.through(perLane, bytesPerLane);
        // What the busiest lane's function held (the iSSD's M(f), for the swap), against the same sizes.
        ResultCurve state = ResultCurve.through(perLane, held);
        // Merged on the device: the same two again, merged there; what they count beyond is the merge's, a
        // fixed part and a part a byte of the lanes' results.
        Work merge = Work.NONE;
        if (merging) {
          ExecutionStatistics smallMerged = execute(client, installed.taskletId(), uri.getPath(), split.getStart(),
              smallBytes, settings, "device");
          ExecutionStatistics largeMerged = execute(client, installed.taskletId(), uri.getPath(), split.getStart(),
              largeBytes, settings, "device");
          Counts mergeSmall = counts(smallMerged).minus(counts(small)).atLeastZero();
          Counts mergeLarge = counts(largeMerged).minus(counts(large)).atLeastZero();
          merge = Work.fitOrScale(small.resultBytes(), mergeSmall, large.resultBytes(), mergeLarge);
        }
        return new Sample(large.records(), bytesPerRecord, lane, tail, results, merge, state);
      } finally {
        try {
          client.removeObject(installed.taskletId());
        } catch (IOException e) {
          LOG.debug("removing the planner's tasklet: {}", e.toString());
        }
      }
    }

    /**
     * The workload for the analytic model: the host's work as its own sample counted it (a record's, and
     * a split's in either placement), or, with {@code hostWork} null, the lanes' work a record.
     */
    Workload workload(Work hostWork) {
      Work perRecord = new Work(hostWork != null ? hostWork.perRecord() : lane.perRecord(), Counts.ZERO);
      Counts perSplit = hostWork != null ? hostWork.fixed() : Counts.ZERO;
      Map<Mode, Work> host = new EnumMap<>(Mode.class);
      host.put(Mode.HOST_NORMAL, perRecord);
      host.put(Mode.HOST_OPTIMIZED, perRecord);
      host.put(Mode.DEVICE, Work.NONE);
      Map<Mode, Counts> hostPerSplit = new EnumMap<>(Mode.class);
      hostPerSplit.put(Mode.HOST_NORMAL, perSplit);
      hostPerSplit.put(Mode.HOST_OPTIMIZED, perSplit);
      hostPerSplit.put(Mode.DEVICE, perSplit);
      return new Workload("sampled job", (int) Math.max(1, Math.round(bytesPerRecord)), lane, tail, merge,
          laneResults, host, hostPerSplit, Counts.ZERO, laneState);
    }

    private static ExecutionStatistics execute(DeviceClient client, long taskletId, String path, long start,
        long length, DeviceMapperSettings settings, String merge) throws IOException, SampleFailed {
      long id = client.executeObject(taskletId, List.of(new InputRange(path, start, Math.max(1, length))),
          Map.of("merge", merge));
      Response.ExecutionProgress end = ExecutionPoller.drain(client, id, r -> { }, settings.polling());
      if (end.state() != ExecutionState.DONE) {
        throw new SampleFailed("the sample execution on the device ended " + end.state() + ": " + end.message());
      }
      return end.statistics();
    }

    private static Counts counts(ExecutionStatistics s) {
      return new Counts(s.countedOps(), s.countedMemoryAccesses(), s.countedLibraryCalls(), s.countedBulkBytes(),
          s.countedLibraryReads());
    }

    private static Counts tailCounts(ExecutionStatistics s) {
      return new Counts(s.countedTailOps(), s.countedTailMemoryAccesses(), s.countedTailLibraryCalls(),
          s.countedTailBulkBytes(), s.countedTailLibraryReads());
    }
  }
}
