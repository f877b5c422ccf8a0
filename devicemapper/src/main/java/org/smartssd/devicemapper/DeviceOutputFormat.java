package org.smartssd.devicemapper;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.objectfs.DeviceClients;
import org.smartssd.objectfs.ObjectFileSystem;

/**
 * The output format of a map-only job whose output the devices write ({@link DeviceJobClient#configure}
 * sets it in place of the job's {@code TextOutputFormat}, remembered in {@value
 * DeviceMapperConfigKeys#REAL_OUTPUT_FORMAT_CLASS}). Everything is the job's format's: its checks, its
 * committer (so the task's file is committed as Hadoop commits it), its file names. The map task's
 * record writer is made only when a record reaches the host (a split whose map ran on the host, or a
 * device that could not write the output): a split whose device wrote the task's file itself sends no
 * record, and the host makes no file.
 */
public final class DeviceOutputFormat<K, V> extends OutputFormat<K, V> {

  /** The job's own output format (a {@link TextOutputFormat}). */
  @SuppressWarnings("unchecked")
  static <K, V> FileOutputFormat<K, V> real(Configuration conf) {
    Class<?> real = conf.getClass(DeviceMapperConfigKeys.REAL_OUTPUT_FORMAT_CLASS, null);
    if (real == null) {
      throw new IllegalStateException(DeviceMapperConfigKeys.REAL_OUTPUT_FORMAT_CLASS + " is not set: the job was not"
          + " configured with " + DeviceJobClient.class.getName() + ".configure(job)");
    }
    return (FileOutputFormat<K, V>) ReflectionUtils.newInstance(real, conf);
  }

  @Override
  public RecordWriter<K, V> getRecordWriter(TaskAttemptContext context) throws IOException, InterruptedException {
    FileOutputFormat<K, V> real = real(context.getConfiguration());
    return new RecordWriter<>() {
      private RecordWriter<K, V> writer;

      @Override
      public void write(K key, V value) throws IOException, InterruptedException {
        if (writer == null) {
          writer = real.getRecordWriter(context);
        }
        writer.write(key, value);
      }

      @Override
      public void close(TaskAttemptContext c) throws IOException, InterruptedException {
        if (writer != null) {
          writer.close(c);
        }
      }
    };
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException, InterruptedException {
    real(context.getConfiguration()).checkOutputSpecs(context);
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException, InterruptedException {
    return real(context.getConfiguration()).getOutputCommitter(context);
  }

  /**
   * The task's output file, as the job's format would name it, when it is on the device at {@code
   * device} and the devices write the job's output; else null (the records then go to the host).
   *
   * @return the file's path on the device and the permission to make it with (the file's default under
   *     the job's umask, as Hadoop's {@code FileSystem.create} gives it)
   */
  static Target target(TaskAttemptContext context, DeviceAddress device) throws IOException {
    Configuration conf = context.getConfiguration();
    if (conf.get(DeviceMapperConfigKeys.REAL_OUTPUT_FORMAT_CLASS) == null) {
      return null;
    }
    Path file = real(conf).getDefaultWorkFile(context, "");
    URI uri = file.toUri();
    if (!ObjectFileSystem.SCHEME.equals(uri.getScheme())
        || !DeviceClients.deviceAddress(uri).equals(device)) {
      return null;
    }
    FsPermission permission = FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(conf));
    return new Target(uri.getPath(), permission.toShort() & 07777, file.toString());
  }

  /** Where a device writes a task's output: its path on the device, its permission, and the file as Hadoop names it. */
  record Target(String devicePath, int permission, String file) {}
}
