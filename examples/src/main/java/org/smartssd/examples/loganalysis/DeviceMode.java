package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.devicemapper.DeviceCounters;
import org.smartssd.devicemapper.DeviceMapperConfigKeys;
import org.smartssd.devicemapper.DeviceJobClient;
import org.smartssd.opcount.OpCounts;

/**
 * The one place that knows {@code DeviceJobClient}: device mode's wiring and its counters; and the same
 * in-device figures of executions the host runs itself.
 */
public final class DeviceMode {
  /**
   * Package prefixes a device must share with tasklets so that a Hadoop mapper and combiner run inside
   * it (its {@code smartssd.device.isp.shared-packages}): the tasklet API and Hadoop, as
   * {@link DeviceJobClient} asks.
   */
  public static final String SHARED_PACKAGES = org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_SHARED_PACKAGES_DEFAULT;

  /**
   * Hadoop's key for the map tasks the local runner runs at once (its default: 1). Device mode sets it,
   * unless given, to the number of devices holding the input: a device-mode map task waits on its
   * device, so the devices work in parallel as they would on a cluster.
   */
  static final String LOCAL_MAP_TASKS = "mapreduce.local.map.tasks.maximum";

  /** {@code DeviceJobClient}'s placement key: device, host or auto. */
  public static final String PLACEMENT = DeviceMapperConfigKeys.PLACEMENT;

  private DeviceMode() {}

  /**
   * Rewires a configured job so that its map phase (mapper and combiner) runs inside the devices, its
   * mapper filing each split's modelled time under its device ({@link MeteredDeviceMapper}).
   *
   * @param devices the devices holding the input
   */
  static void configure(Job job, int devices) throws IOException {
    try {
      DeviceJobClient.configure(job);
    } catch (IllegalArgumentException e) {
      throw new IOException("device mode: " + e.getMessage(), e);
    }
    job.setMapperClass(MeteredDeviceMapper.class);
    if (job.getConfiguration().get(LOCAL_MAP_TASKS) == null) {
      job.getConfiguration().setInt(LOCAL_MAP_TASKS, Math.max(1, devices));
    }
  }

  /**
   * As {@link #configure(Job, int)}, for a job over these inputs: the devices holding them are those of
   * their objfs file systems.
   */
  public static void configure(Job job, List<Path> inputs) throws IOException {
    configure(job, HostInterfaceMeter.devices(job.getConfiguration(), inputs).size());
  }

  /** The in-device counters of a finished job. */
  static Values values(Counters counters) {
    Map<String, Long> byDevice = new TreeMap<>();
    for (Counter c : counters.getGroup(MeteredDeviceMapper.GROUP)) {
      byDevice.put(c.getName(), c.getValue());
    }
    RunStatistics.DeviceWork work = new RunStatistics.DeviceWork(
        counters.findCounter(DeviceCounters.MODELLED_DEVICE_COMPUTE_NANOS).getValue(),
        new OpCounts(counters.findCounter(DeviceCounters.DEVICE_COUNTED_OPS).getValue(),
            counters.findCounter(DeviceCounters.DEVICE_COUNTED_MEMORY_ACCESSES).getValue(),
            counters.findCounter(DeviceCounters.DEVICE_COUNTED_LIBRARY_CALLS).getValue(),
            counters.findCounter(DeviceCounters.DEVICE_COUNTED_BULK_BYTES).getValue(),
            counters.findCounter(DeviceCounters.DEVICE_COUNTED_LIBRARY_READS).getValue()),
        new OpCounts(counters.findCounter(DeviceCounters.DEVICE_COUNTED_TAIL_OPS).getValue(),
            counters.findCounter(DeviceCounters.DEVICE_COUNTED_TAIL_MEMORY_ACCESSES).getValue(),
            counters.findCounter(DeviceCounters.DEVICE_COUNTED_TAIL_LIBRARY_CALLS).getValue(),
            counters.findCounter(DeviceCounters.DEVICE_COUNTED_TAIL_BULK_BYTES).getValue(),
            counters.findCounter(DeviceCounters.DEVICE_COUNTED_TAIL_LIBRARY_READS).getValue()),
        counters.findCounter(DeviceCounters.MODELLED_HOST_DELAY_NANOS).getValue(),
        counters.findCounter(DeviceCounters.BEHIND_MODEL_NANOS).getValue(),
        counters.findCounter(DeviceCounters.DEVICE_RESULT_BYTES).getValue(),
        counters.findCounter(DeviceCounters.DEVICE_LANES).getValue(),
        counters.findCounter(DeviceCounters.DEVICE_LANE_STATE_BYTES).getValue(),
        counters.findCounter(DeviceCounters.DEVICE_SWAP_PAGES_READ).getValue());
    return new Values(counters.findCounter(DeviceCounters.DEVICE_EXECUTIONS).getValue(),
        counters.findCounter(DeviceCounters.DEVICE_BYTES_SCANNED).getValue(),
        counters.findCounter(DeviceCounters.HOST_INTERFACE_BYTES).getValue(),
        counters.findCounter(DeviceCounters.MODELLED_DEVICE_NANOS).getValue(),
        counters.findCounter(DeviceCounters.FALLBACK_SPLITS).getValue(), byDevice, work, placement(counters));
  }

  /**
   * The in-device figures of executions the host ran itself, not through {@code DeviceJobClient}, as a
   * device-mode job's counters give them ({@code DeviceRecordReader} counts the same of each execution).
   */
  static Values values(List<ExecutionStatistics> executions) {
    long bytes = 0;
    long nanos = 0;
    long compute = 0;
    OpCounts counted = OpCounts.ZERO;
    OpCounts tail = OpCounts.ZERO;
    long hostDelay = 0;
    long behind = 0;
    long resultBytes = 0;
    long lanes = 0;
    long laneState = 0;
    long swap = 0;
    for (ExecutionStatistics s : executions) {
      bytes += s.bytesScanned();
      nanos += s.modelledNanos();
      compute += s.modelledComputeNanos() + s.modelledMergeNanos();
      counted = counted.plus(new OpCounts(s.countedOps(), s.countedMemoryAccesses(), s.countedLibraryCalls(),
          s.countedBulkBytes(), s.countedLibraryReads()));
      tail = tail.plus(new OpCounts(s.countedTailOps(), s.countedTailMemoryAccesses(), s.countedTailLibraryCalls(),
          s.countedTailBulkBytes(), s.countedTailLibraryReads()));
      hostDelay += s.modelledHostDelayNanos();
      behind += s.behindModelNanos();
      resultBytes += s.resultBytes();
      lanes += s.lanes();
      laneState += s.laneStateBytes();
      swap += s.swapPagesRead();
    }
    return new Values(executions.size(), bytes, 0, nanos, 0, Map.of(), new RunStatistics.DeviceWork(compute, counted,
        tail, hostDelay, behind, resultBytes, lanes, laneState, swap), null);
  }

  /** Where the job's map phase was placed, and auto's predictions (NaN when it predicted nothing). */
  private static RunStatistics.Placement placement(Counters counters) {
    boolean device = counters.findCounter(DeviceCounters.PLACEMENT_DEVICE).getValue() > 0;
    boolean host = counters.findCounter(DeviceCounters.PLACEMENT_HOST).getValue() > 0;
    if (!device && !host) {
      return null;
    }
    long predictedDevice = counters.findCounter(DeviceCounters.PREDICTED_DEVICE_NANOS).getValue();
    long predictedHost = counters.findCounter(DeviceCounters.PREDICTED_HOST_NANOS).getValue();
    boolean predicted = predictedDevice > 0 || predictedHost > 0;
    return new RunStatistics.Placement(host ? "host" : "device", predicted ? predictedDevice / 1e9 : Double.NaN,
        predicted ? predictedHost / 1e9 : Double.NaN);
  }

  /**
   * @param modelledNanos modelled execution time of all splits, summed
   * @param modelledNanosByDevice the same by device ({@code host:port}); adds up to {@code modelledNanos}
   * @param work the devices' compute, counted work, delays
   */
  record Values(long executions, long bytesScanned, long hostInterfaceBytes, long modelledNanos, long fallbackSplits,
      Map<String, Long> modelledNanosByDevice, RunStatistics.DeviceWork work, RunStatistics.Placement placement) {
    static final Values NONE = new Values(0, 0, 0, 0, 0, Map.of(), RunStatistics.DeviceWork.NONE, null);
  }
}
