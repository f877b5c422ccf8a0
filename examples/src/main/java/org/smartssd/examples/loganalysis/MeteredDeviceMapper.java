package org.smartssd.examples.loganalysis;

import java.io.IOException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.smartssd.devicemapper.DeviceCounters;
import org.smartssd.devicemapper.DeviceMapper;

/**
 * Device mode's mapper: {@link DeviceMapper}, which also files the modelled time of its split's
 * execution under the device that ran it (counter group {@link #GROUP}, a counter a device, named by
 * its {@code host:port}), so that a run over several devices can tell each device's modelled time
 * from the job's total ({@link DeviceCounters#MODELLED_DEVICE_NANOS}, summed over all splits).
 * One task reads one split, so the task's own total is its split's.
 */
public class MeteredDeviceMapper extends DeviceMapper {
  /** The counter group of modelled device nanoseconds by device. */
  public static final String GROUP = "org.smartssd.examples.DeviceModelledNanos";

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    InputSplit split = context.getInputSplit();
    if (split instanceof FileSplit file) {
      String device = file.getPath().toUri().getAuthority();
      long nanos = context.getCounter(DeviceCounters.MODELLED_DEVICE_NANOS).getValue();
      if (device != null && nanos > 0) {
        context.getCounter(GROUP, device).increment(nanos);
      }
    }
    super.cleanup(context);
  }
}
