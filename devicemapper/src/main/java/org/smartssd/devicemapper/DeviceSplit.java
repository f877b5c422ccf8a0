package org.smartssd.devicemapper;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * One split of a device job: a byte range of an object on a device (an objfs file), located on the
 * host the device is attached to, as objfs block locations name it. It is a {@link FileSplit}, so
 * that a mapper that asks its split for its file finds it, on the host as in the device; unlike a
 * {@code FileSplit}, its locations survive serialization (a task reads them too).
 */
public class DeviceSplit extends FileSplit implements Writable {
  private static final String[] NONE = new String[0];

  private String[] hosts = NONE;
  /** Set on the task side when this split's map runs on the host (never serialized). */
  private transient boolean ranOnHost;

  /** For Hadoop's deserialization. */
  public DeviceSplit() {}

  public DeviceSplit(Path file, long start, long length, String[] hosts) {
    super(file, start, length, hosts);
    this.hosts = hosts == null ? NONE : hosts.clone();
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    super.write(out);
    WritableUtils.writeVInt(out, hosts.length);
    for (String host : hosts) {
      Text.writeString(out, host);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    super.readFields(in);
    int n = WritableUtils.readVInt(in);
    if (n < 0) {
      throw new IOException("corrupt device split: " + n + " hosts");
    }
    String[] read = new String[n];
    for (int i = 0; i < n; i++) {
      read[i] = Text.readString(in);
    }
    hosts = read;
    ranOnHost = false;
  }

  /** True once the record reader decided to run this split's map on the host (the device could not). */
  public boolean ranOnHost() {
    return ranOnHost;
  }

  void markRanOnHost() {
    ranOnHost = true;
  }

  @Override
  public String toString() {
    return super.toString() + " on " + Arrays.toString(hosts);
  }
}
