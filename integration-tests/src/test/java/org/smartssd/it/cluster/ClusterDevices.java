package org.smartssd.it.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.protocol.HostSecret;

/** Device settings of the cluster tests. */
final class ClusterDevices {
  private ClusterDevices() {}

  /**
   * A small device (64 MiB of flash, so that its backing files are quick to make) of the default
   * profile that runs MapReduce tasklets: it shares Hadoop's packages with them, as a device must.
   */
  static Map<String, String> properties() {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("smartssd.device.flash.blocks-per-way", "16");
    o.put("smartssd.device.flash.pages-per-block", "32");
    o.put("smartssd.device.flash.page-size-bytes", "4096");
    o.put("smartssd.device.flash.overprovisioning-percent", "20");
    o.put("smartssd.device.isp.shared-packages", SHARED_PACKAGES);
    o.put("smartssd.device.host.secret-file", secretFile().toString());
    return o;
  }

  private static Path secretFile;

  /**
   * The secret every device of these tests requires of its hosts, made once a run (never a constant
   * in the repository): the devices get it as {@code smartssd.device.host.secret-file}, the jobs'
   * configurations as {@code fs.objfs.secret-file} ({@link #withSecret}).
   */
  static synchronized Path secretFile() {
    if (secretFile == null) {
      try {
        Path dir = Files.createTempDirectory("smartssd-it-secret");
        secretFile = dir.resolve("secret");
        dir.toFile().deleteOnExit(); // deleted after the file: deleteOnExit goes in reverse order of registration
        HostSecret.generate(secretFile);
        secretFile.toFile().deleteOnExit();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot make the devices' secret", e);
      }
    }
    return secretFile;
  }

  /** {@code conf}, with the devices' secret for objfs and the device mapper. */
  static Configuration withSecret(Configuration conf) {
    conf.set("fs.objfs.secret-file", secretFile().toString());
    return conf;
  }

  /** What a device shares with MapReduce tasklets: the tasklet API and Hadoop. */
  static final String SHARED_PACKAGES = org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_SHARED_PACKAGES_DEFAULT;

  /** What a device without Hadoop's classes for tasklets shares: it refuses MapReduce tasklets. */
  static final String TASKLET_API_ONLY = "org.smartssd.device.tasklet.";

  /**
   * {@link #properties()}, paced, with one slow core: a device-mode execution over a few hundred
   * kilobytes lasts seconds of wall time, so that a fault can land in the middle of it.
   */
  static Map<String, String> slow() {
    Map<String, String> o = properties();
    o.put("smartssd.device.pace", "true");
    o.put("smartssd.device.isp.cores", "1");
    o.put("smartssd.device.isp.compute-model", "cycles");
    o.put("smartssd.device.isp.cycles-per-byte", "4");
    o.put("smartssd.device.isp.core-mhz", "0.5");
    return o;
  }
}
