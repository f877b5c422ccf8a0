package org.smartssd.devicemapper;

import org.smartssd.devicemapper.tasklet.CountersReporter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.devicemapper.Jobs.counter;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Devices that cannot run the job's map: one that refuses the tasklet (it does not share Hadoop's
 * packages, the default), one that fails it (a memory budget too small for a Hadoop mapper). With
 * fallback=auto the job still gives the right answer, the splits' maps running on the host; with
 * never it fails, naming the device.
 */
class RefusingDeviceTest {
  private static final int RECORDS = 20_000;

  @TempDir static java.nio.file.Path work;
  @TempDir static java.nio.file.Path work2;
  private static Jobs refusing;
  private static Jobs failing;
  private static byte[] records;

  @BeforeAll
  static void start() throws IOException {
    records = new byte[RECORDS * 20];
    new Random(7).nextBytes(records);
    refusing = Jobs.start(work, false);
    refusing.write("/trace.bin", records);
    failing = Jobs.start(work2, true, Map.of("smartssd.device.isp.memory-budget-bytes", "65536"));
    failing.write("/trace.bin", records);
  }

  @AfterAll
  static void stop() throws IOException {
    refusing.close();
    failing.close();
  }

  private static Map<String, Long> expected() {
    Map<String, Long> counts = new TreeMap<>();
    for (int r = 0; r < RECORDS; r++) {
      counts.merge(Integer.toString((records[r * 20 + 19] & 0xFF) >>> 5), 1L, Long::sum);
    }
    return counts;
  }

  private static Job job(Jobs jobs, String fallback, Path out) throws IOException {
    Configuration conf = jobs.conf();
    conf.setLong(FileInputFormat.SPLIT_MAXSIZE, 128 << 10);
    conf.set(DeviceMapperConfigKeys.FALLBACK, fallback);
    Job job = TestJobs.regionCount(conf, jobs.path("/trace.bin"), out);
    DeviceJobClient.configure(job);
    return job;
  }

  @Test
  void aRefusedTaskletFallsBackToTheHostWithTheSameResult() throws Exception {
    for (Jobs jobs : List.of(refusing, failing)) {
      Path out = jobs.output();
      Job job = job(jobs, "auto", out);
      int splits = new DeviceInputFormat().getSplits(job).size();
      Counters counters = Jobs.run(job);
      assertThat(Jobs.counts(out)).isEqualTo(expected());
      assertThat(splits).isEqualTo(3); // 400,000 bytes in 128 KiB splits (the last takes up to 1.1 splits)
      assertThat(counter(counters, DeviceCounters.FALLBACK_SPLITS)).isEqualTo(splits);
      assertThat(counter(counters, DeviceCounters.DEVICE_EXECUTIONS)).isZero();
      assertThat(counter(counters, TestJobs.MapperCounters.RECORDS)).isEqualTo(RECORDS);
      assertThat(counter(counters, DeviceCounters.HOST_INTERFACE_BYTES)).isGreaterThanOrEqualTo(records.length);
    }
  }

  @Test
  void withFallbackNeverTheJobFails() throws Exception {
    for (Jobs jobs : List.of(refusing, failing)) {
      Job job = job(jobs, "never", jobs.output());
      assertThat(job.waitForCompletion(false)).isFalse();
    }
  }

  @Test
  void withFallbackNeverTheTaskSaysWhichDeviceAndWhy() throws Exception {
    assertThatThrownBy(() -> initialize(refusing))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("device " + refusing.device.address())
        .hasMessageContaining("refused the tasklet")
        .hasMessageContaining("nor in a package this device shares with tasklets (org.smartssd.device.tasklet.)")
        .hasMessageContaining("smartssd.mapper.fallback is never");
    assertThatThrownBy(() -> initialize(failing))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("device " + failing.device.address())
        .hasMessageContaining("the execution failed")
        .hasMessageContaining("memory budget");
  }

  /** The record reader of the first split, as a map task would start it. */
  private static void initialize(Jobs jobs) throws Exception {
    Job job = job(jobs, "never", jobs.output());
    InputSplit split = new DeviceInputFormat().getSplits(job).get(0);
    Counters counters = new Counters();
    TaskAttemptContextImpl context = new TaskAttemptContextImpl(job.getConfiguration(),
        new TaskAttemptID("test", 1, TaskType.MAP, 0, 0), new CountersReporter(counters));
    try (DeviceRecordReader reader = new DeviceRecordReader()) {
      reader.initialize(split, context);
    }
  }
}
