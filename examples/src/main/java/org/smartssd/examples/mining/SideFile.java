package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * A file a mining job's tasks read in their {@code setup} (the last iteration's centroids or ranks, the
 * out-degrees), named in the job's configuration as a comma-separated list of copies, one on each device
 * that holds input: a map task reads the copy on its split's device (the same {@code objfs://HOST:PORT}),
 * so that in a device it reads its own device's object, next to the flash; a task with no split (a
 * reducer), or whose split's device holds no copy, reads the first. The file is read whole through
 * {@link FileSystem#get(java.net.URI, Configuration)}, as any Hadoop job reads side data: in the device
 * that call gives the device's own read-only file system.
 */
final class SideFile {
  private SideFile() {}

  /** The split's path of a map task's split, or null for none (a reduce task's). */
  static Path splitPath(InputSplit split) {
    return split instanceof FileSplit f ? f.getPath() : null;
  }

  /**
   * The copy to read of the file {@code key} names: the one on the same device as {@code near}, else the first.
   *
   * @return null when the key is unset or empty
   */
  static Path choose(Configuration conf, String key, Path near) {
    String[] copies = conf.getTrimmedStrings(key);
    if (copies.length == 0) {
      return null;
    }
    String device = near == null ? null : near.toUri().getAuthority();
    if (device != null) {
      for (String copy : copies) {
        Path p = new Path(copy);
        if (device.equals(p.toUri().getAuthority())) {
          return p;
        }
      }
    }
    return new Path(copies[0]);
  }

  /**
   * The whole file.
   *
   * @param key the configuration key that named it, for the error
   * @throws IOException naming the key and the file when it cannot be read, or is too large for one array
   */
  static byte[] read(Configuration conf, String key, Path file) throws IOException {
    try {
      FileSystem fs = FileSystem.get(file.toUri(), conf);
      long length = fs.getFileStatus(file).getLen();
      if (length > Integer.MAX_VALUE - 8) {
        throw new IOException("it holds " + length + " bytes, more than one array holds");
      }
      byte[] bytes = new byte[(int) length];
      try (FSDataInputStream in = fs.open(file)) {
        in.readFully(bytes);
      }
      return bytes;
    } catch (IOException e) {
      throw new IOException(key + ": cannot read '" + file + "': " + e.getMessage(), e);
    }
  }
}
