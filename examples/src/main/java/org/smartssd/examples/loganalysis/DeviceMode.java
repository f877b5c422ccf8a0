package org.smartssd.examples.loganalysis;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.smartssd.devicemapper.DeviceCounters;
import org.smartssd.devicemapper.DeviceJobClient;

/** The one place that knows {@code DeviceJobClient}: device mode's wiring and its counters. */
final class DeviceMode {
  /**
   * Package prefixes a device must share with tasklets so that a Hadoop mapper and combiner run inside
   * it (its {@code smartssd.device.isp.shared-packages}): the tasklet API and Hadoop, as
   * {@link DeviceJobClient} asks.
   */
  static final String SHARED_PACKAGES = "org.smartssd.device.tasklet.,org.apache.hadoop.";

  private DeviceMode() {}

  /** Rewires a configured job so that its map phase (mapper and combiner) runs inside the devices. */
  static void configure(Job job) throws IOException {
    try {
      DeviceJobClient.configure(job);
    } catch (IllegalArgumentException e) {
      throw new IOException("device mode: " + e.getMessage(), e);
    }
  }

  /** The in-device counters of a finished job. */
  static Values values(Counters counters) {
    return new Values(counters.findCounter(DeviceCounters.DEVICE_EXECUTIONS).getValue(),
        counters.findCounter(DeviceCounters.DEVICE_BYTES_SCANNED).getValue(),
        counters.findCounter(DeviceCounters.HOST_INTERFACE_BYTES).getValue(),
        counters.findCounter(DeviceCounters.MODELLED_DEVICE_NANOS).getValue(),
        counters.findCounter(DeviceCounters.FALLBACK_SPLITS).getValue());
  }

  record Values(long executions, long bytesScanned, long hostInterfaceBytes, long modelledNanos, long fallbackSplits) {}
}
