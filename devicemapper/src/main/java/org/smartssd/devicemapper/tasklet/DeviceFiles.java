package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.tasklet.TaskletContext;

/**
 * What a job's code gets in the device when it asks Hadoop for a file system ({@code FileSystem.get},
 * {@code Path.getFileSystem}): the device rewrites those calls to these methods
 * (its {@code tasklet-redirects.txt}), so that a mapper that reads a side file, such as the distributed
 * cache's ({@code context.getCacheFiles()}: the last iteration's centroids or ranks), reads it where it is,
 * next to the flash, instead of the host sending it. The file system is {@link DeviceFileSystem}: the
 * objects of the device the split is on ({@code objfs://HOST:PORT/}, as the split's path names it), read
 * whole through the lane's {@link TaskletContext#readObject} as the execution's user, never written.
 * Any other file system (the local disk's, HDFS, another device) is refused with an {@code IOException}
 * that names the path: the execution then fails, and the split's map runs on the host.
 */
public final class DeviceFiles {
  /** The lane whose code runs on this thread: set by {@link MapReduceTasklet} around the job's code. */
  private static final ThreadLocal<Lane> CURRENT = new ThreadLocal<>();

  private DeviceFiles() {}

  /**
   * A lane's access to its device's objects, with the objects it has read (a side file read twice is
   * read from flash once per lane and execution).
   */
  static final class Lane {
    private final TaskletContext context;
    private final String authority;
    private final Map<String, ByteBuffer> read = new HashMap<>();

    /**
     * @param authority the device as the job's paths name it ({@code HOST:PORT} of {@code objfs://})
     */
    Lane(TaskletContext context, String authority) {
      this.context = context;
      this.authority = authority;
    }

    String authority() {
      return authority;
    }

    /** The whole object at {@code devicePath}, read-only. */
    ByteBuffer object(String devicePath) throws IOException {
      ByteBuffer bytes = read.get(devicePath);
      if (bytes == null) {
        try {
          bytes = context.readObject(devicePath);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("reading '" + devicePath + "' was interrupted");
        }
        read.put(devicePath, bytes);
      }
      return bytes.duplicate();
    }

    /** Forgets what was read (a new execution reads afresh). */
    void forget() {
      read.clear();
    }
  }

  /** Makes {@code lane} the one whose files this thread's job code reaches; returns the one before. */
  static Lane bind(Lane lane) {
    Lane before = CURRENT.get();
    CURRENT.set(lane);
    return before;
  }

  /** {@code FileSystem.get(uri, conf)} in the device. */
  public static FileSystem get(URI uri, Configuration conf) throws IOException {
    Lane lane = CURRENT.get();
    if (lane == null) {
      throw new IOException("'" + uri + "' is not on this device's files this code may read: only a MapReduce job's"
          + " code, in a lane of its execution, reads them");
    }
    URI name = uri;
    if (name.getScheme() == null) {
      name = FileSystem.getDefaultUri(conf);
    }
    if (!"objfs".equals(name.getScheme()) || (name.getAuthority() != null
        && !name.getAuthority().equals(lane.authority()))) {
      throw new IOException("'" + uri + "' is not on this device (objfs://" + lane.authority() + "/): in the device, a"
          + " job reads only its own device's objects");
    }
    DeviceFileSystem fs = new DeviceFileSystem(lane);
    fs.setConf(conf);
    return fs;
  }

  /** {@code FileSystem.get(conf)} in the device: the job's default file system, when it is this device. */
  public static FileSystem get(Configuration conf) throws IOException {
    return get(FileSystem.getDefaultUri(conf), conf);
  }

  /** {@code path.getFileSystem(conf)} in the device. */
  public static FileSystem getFileSystem(Path path, Configuration conf) throws IOException {
    return get(path.toUri(), conf);
  }
}
