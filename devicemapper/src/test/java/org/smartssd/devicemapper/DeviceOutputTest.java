package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.smartssd.devicemapper.Jobs.counter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A map-only job's output written by the device where its map runs ({@link DeviceOutputFormat}): the
 * same files, lines and counters as the host writes, without its records crossing the host link.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeviceOutputTest {
  @TempDir static java.nio.file.Path work;
  private Jobs jobs;
  private long lines;

  @BeforeAll
  void start() throws Exception {
    jobs = Jobs.start(work, true);
    Random random = new Random(7);
    for (int f = 0; f < 3; f++) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < 3000 + 1000 * f; i++) {
        text.append("line ").append(i).append(" of file ").append(f).append(": ").append(random.nextLong()).append('\n');
        lines++;
      }
      jobs.write("/in/part-" + f + ".txt", text.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  @AfterAll
  void stop() throws Exception {
    jobs.close();
  }

  /** The identity map over lines, map-only: (offset, line) lines, as TextOutputFormat writes them. */
  private Job echo(Configuration conf, Path output) throws IOException {
    Job job = TestJobs.lineEcho(conf, jobs.path("/in"), output);
    job.setNumReduceTasks(0);
    FileInputFormat.setMaxInputSplitSize(job, 40 << 10);
    return job;
  }

  /** The part files' lines, sorted, and the names in the output directory. */
  private record Output(List<String> lines, List<String> names, long bytes) {}

  private Output read(Path output) throws IOException {
    List<String> all = new ArrayList<>();
    List<String> names = new ArrayList<>();
    long bytes = 0;
    for (FileStatus f : output.getFileSystem(jobs.conf()).listStatus(output)) {
      names.add(f.getPath().getName());
      if (f.getPath().getName().startsWith("part-")) {
        bytes += f.getLen();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
            f.getPath().getFileSystem(jobs.conf()).open(f.getPath()), StandardCharsets.UTF_8))) {
          for (String line = r.readLine(); line != null; line = r.readLine()) {
            all.add(line);
          }
        }
      }
    }
    Collections.sort(all);
    Collections.sort(names);
    return new Output(all, names, bytes);
  }

  @Test
  void theDeviceWritesTheTasksFilesWhereTheHostWouldAndNoRecordCrossesTheLink() throws Exception {
    Path onHost = jobs.path("/out/host");
    Counters hostCounters = Jobs.run(echo(jobs.conf(), onHost));
    Output host = read(onHost);
    assertThat(host.lines()).hasSize((int) lines);

    Path inDevice = jobs.path("/out/device");
    Job job = echo(jobs.conf(), inDevice);
    DeviceJobClient.configure(job);
    assertThat(job.getOutputFormatClass()).isEqualTo(DeviceOutputFormat.class);
    Counters counters = Jobs.run(job);
    Output device = read(inDevice);

    assertThat(device.lines()).isEqualTo(host.lines());
    assertThat(device.names()).isEqualTo(host.names()).contains("_SUCCESS", "part-m-00000");
    assertThat(counter(counters, DeviceCounters.FALLBACK_SPLITS)).isZero();
    assertThat(counter(counters, DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(host.names().size() - 1);
    assertThat(counter(counters, DeviceCounters.DEVICE_OUTPUT_BYTES)).isEqualTo(device.bytes());
    assertThat(counter(counters, DeviceCounters.DEVICE_OUTPUT_PAGES)).isPositive();
    assertThat(counter(counters, TaskCounter.MAP_OUTPUT_RECORDS))
        .isEqualTo(counter(hostCounters, TaskCounter.MAP_OUTPUT_RECORDS)).isEqualTo(lines);
    // Polls, counters and the executions' frames: a small fraction of the output's bytes.
    assertThat(counter(counters, DeviceCounters.HOST_INTERFACE_BYTES)).isLessThan(device.bytes() / 10);
    assertThat(counter(counters, DeviceCounters.DEVICE_RESULT_BYTES)).isLessThan(device.bytes() / 100);
  }

  @Test
  void outputElsewhereOrTurnedOffCrossesTheLinkWithTheSameLines() throws Exception {
    Path onHost = jobs.path("/out/reference");
    Jobs.run(echo(jobs.conf(), onHost));
    List<String> expected = read(onHost).lines();

    Path local = jobs.output(); // not on the device: the records come to the host to be written
    Job job = echo(jobs.conf(), local);
    DeviceJobClient.configure(job);
    Counters counters = Jobs.run(job);
    assertThat(read(local).lines()).isEqualTo(expected);
    assertThat(counter(counters, DeviceCounters.DEVICE_OUTPUT_BYTES)).isZero();
    assertThat(counter(counters, DeviceCounters.DEVICE_RESULT_BYTES)).isPositive();

    Configuration off = jobs.conf();
    off.setBoolean(DeviceMapperConfigKeys.OUTPUT_IN_DEVICE, false);
    Path offDevice = jobs.path("/out/off");
    Job kept = echo(off, offDevice);
    DeviceJobClient.configure(kept);
    assertThat(kept.getOutputFormatClass()).isNotEqualTo(DeviceOutputFormat.class);
    Counters offCounters = Jobs.run(kept);
    assertThat(read(offDevice).lines()).isEqualTo(expected);
    assertThat(counter(offCounters, DeviceCounters.DEVICE_OUTPUT_BYTES)).isZero();
  }

  @Test
  void aSplitThatFallsBackToTheHostWritesItsFileThere() throws Exception {
    Path onHost = jobs.path("/out/fallback-reference");
    Jobs.run(echo(jobs.conf(), onHost));
    Configuration conf = jobs.conf();
    conf.set(DeviceMapperConfigKeys.FALLBACK, "always");
    Path out = jobs.path("/out/fallback");
    Job job = echo(conf, out);
    DeviceJobClient.configure(job);
    Counters counters = Jobs.run(job);
    assertThat(read(out).lines()).isEqualTo(read(onHost).lines());
    assertThat(counter(counters, DeviceCounters.FALLBACK_SPLITS)).isPositive();
    assertThat(counter(counters, DeviceCounters.DEVICE_OUTPUT_BYTES)).isZero();
  }
}
