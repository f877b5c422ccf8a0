package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.WorkProfile;
import org.smartssd.device.runtime.isp.WorkProfiles;
import org.smartssd.devicemapper.DeviceMapperConfigKeys;
import org.smartssd.opcount.OpMeter;

/**
 * The counted work of measured runs by call path, on the host and in the devices, when a command was
 * asked for it ({@code --work-profile}): the host's threads each profile into a tree of their own
 * ({@link OpMeter#profileEveryThread}), taken before and after the run; each device execution profiles
 * its lanes (execution option {@code profile}), and a job's splits write theirs into a directory
 * ({@value DeviceMapperConfigKeys#PROFILE_DIR}) read after the job.
 */
public final class WorkProfiling {
  private static volatile boolean enabled;

  private WorkProfiling() {}

  /** Profiles every measured run from now on (the host's threads from their next counted method on). */
  public static void enable() {
    enabled = true;
    OpMeter.profileEveryThread();
  }

  /** Profiles no run from now on (a command's end, in a JVM that runs others after it: the tests'). */
  public static void disable() {
    enabled = false;
    OpMeter.stopProfilingNewThreads();
  }

  public static boolean enabled() {
    return enabled;
  }

  /** A snapshot's work by call path. */
  static WorkProfile of(OpMeter.Snapshot snapshot) {
    return WorkProfiles.of(snapshot.profile());
  }

  /**
   * A fresh directory for a job's splits to write their profiles into: under the JVM's temporary
   * directory when the job's file system is the local one (the local runner), else under {@code /tmp}
   * of the default file system, where a cluster's tasks can write.
   */
  static Path newDeviceDirectory(Configuration conf) throws IOException {
    FileSystem fs = FileSystem.get(conf);
    String name = "smartssd-profiles-" + UUID.randomUUID();
    Path dir = fs.getScheme().equals("file")
        ? new Path(new java.io.File(System.getProperty("java.io.tmpdir"), name).toURI())
        : new Path("/tmp/" + name);
    dir = fs.makeQualified(dir);
    if (!dir.getFileSystem(conf).mkdirs(dir)) {
      throw new IOException("cannot make the profiles' directory " + dir);
    }
    return dir;
  }

  /** The profiles the splits wrote into the directory, added up; the directory is deleted. */
  static Devices readDeviceDirectory(Configuration conf, Path dir) throws IOException {
    try {
      return readDirectory(conf, dir);
    } finally {
      dir.getFileSystem(conf).delete(dir, true);
    }
  }

  /** The profiles a job's splits wrote into a directory ({@code smartssd.mapper.profile-dir}), added up. */
  public static Devices readDirectory(Configuration conf, Path dir) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    WorkProfile sum = WorkProfile.EMPTY;
    int files = 0;
    for (FileStatus f : fs.listStatus(dir)) {
      if (!f.getPath().getName().endsWith(org.smartssd.devicemapper.DeviceJobClient.PROFILE_SUFFIX)) {
        continue;
      }
      byte[] bytes = new byte[(int) f.getLen()];
      try (var in = fs.open(f.getPath())) {
        in.readFully(bytes);
      }
      try {
        sum = sum.plus(WorkProfile.fromBytes(bytes));
      } catch (IllegalArgumentException e) {
        throw new IOException("profile " + f.getPath() + " is not one: " + e.getMessage(), e);
      }
      files++;
    }
    return new Devices(sum, files);
  }

  /** The devices' profiles of a job, added up, and how many splits wrote one. */
  public record Devices(WorkProfile profile, int executions) {}
}
