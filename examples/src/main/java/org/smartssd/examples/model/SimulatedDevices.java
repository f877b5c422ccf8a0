package org.smartssd.examples.model;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.examples.loganalysis.DeviceMode;
import org.smartssd.examples.loganalysis.LogAnalysis;

/**
 * Devices of this JVM for the sampler and the sweep, in a temporary directory of their own: unpaced (only
 * the model's times matter here), on an ephemeral port each; and the configuration of the jobs that run on
 * them. A {@link Runner} puts its data on them.
 */
final class SimulatedDevices implements Closeable {
  private final Path work;
  private final List<SimulatedDevice> devices = new ArrayList<>();
  private final Configuration conf;

  /**
   * Starts {@code count} devices with the given keys ({@code smartssd.device.*}).
   *
   * @param hadoopKeys keys for the jobs (such as {@code smartssd.mapper.merge})
   */
  SimulatedDevices(Map<String, String> deviceKeys, int count, Map<String, String> hadoopKeys) throws IOException {
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

  /** The jobs' configuration. */
  Configuration conf() {
    return conf;
  }

  /** A directory of this machine the runner may use; deleted on close. */
  Path work() {
    return work;
  }

  /** {@code objfs://ADDRESS/relative} on each device, in order ({@code relative} starts with a slash). */
  List<String> paths(String relative) {
    return devices.stream().map(d -> "objfs://" + d.address() + relative).toList();
  }

  /**
   * Waits until every device has done, on its modelled clock, what it was given: the programs of the
   * data just loaded would otherwise meet the jobs' reads (as they would on a real drive, but a sweep
   * compares jobs on a quiet device). Unpaced, the modelled clock is the wall clock since the device
   * started.
   */
  void awaitIdle() throws InterruptedException {
    for (SimulatedDevice d : devices) {
      DeviceStatistics s = d.statistics();
      long wait = s.modelledHorizonNanos() - s.uptimeNanos();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000 + 1);
      }
    }
  }

  /** Stops the devices and deletes their directory. */
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
    org.smartssd.examples.loganalysis.WorkDirectory.delete(work);
    if (failed != null) {
      throw failed;
    }
  }
}
