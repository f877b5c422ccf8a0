package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.smartssd.devicemapper.Jobs.counter;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unchanged word count on devices whose lanes have little memory (the iSSD's channel memory): the
 * combined pairs a lane keeps are its function's memory, and a lane that keeps more than fits reads its
 * data again to swap; the answer is the same, only the reads and the time grow.
 */
class LaneMemoryJobTest {
  @TempDir Path work;

  /** Runs the word count over the same text on a device with lanes of {@code laneMemory} bytes (0: unbounded). */
  private static Run wordCount(Path work, String laneMemory, byte[] text) throws Exception {
    try (Jobs jobs = Jobs.start(work, true, Map.of("smartssd.device.isp.lane-memory-bytes", laneMemory))) {
      jobs.write("/text/part-0.txt", text);
      org.apache.hadoop.fs.Path out = jobs.output();
      Job job = TestJobs.wordCount(jobs.conf(), jobs.path("/text"), out);
      DeviceJobClient.configure(job);
      Counters counters = Jobs.run(job);
      return new Run(Jobs.lines(out), counters);
    }
  }

  private record Run(List<String> output, Counters counters) {}

  @Test
  void aLaneThatKeepsMoreWordsThanItsMemoryReadsAgainAndCountsTheSame() throws Exception {
    Random random = new Random(5);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      text.append("word").append(random.nextInt(400)).append(i % 12 == 11 ? '\n' : ' ');
    }
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    Run unbounded = wordCount(work.resolve("unbounded"), "0", bytes);
    // 128 bytes a lane: its several KB of pairs take dozens of passes more over its pages, milliseconds of
    // reads, well above the run-to-run spread of the execution's end (a few ms: records that straddle pages
    // reach their lane at the wall clock's pace).
    Run small = wordCount(work.resolve("small"), "128", bytes);

    assertThat(small.output()).isEqualTo(unbounded.output());
    long executions = counter(small.counters(), DeviceCounters.DEVICE_EXECUTIONS);
    assertThat(executions).isPositive();
    assertThat(counter(unbounded.counters(), DeviceCounters.DEVICE_SWAP_PAGES_READ)).isZero();
    // A lane keeps a pair for each of the up to 400 words it saw: several KB, far more than 128 bytes.
    long held = counter(small.counters(), DeviceCounters.DEVICE_LANE_STATE_BYTES);
    assertThat(held).isEqualTo(counter(unbounded.counters(), DeviceCounters.DEVICE_LANE_STATE_BYTES));
    assertThat(held / executions).isGreaterThan(2 * 1024);
    assertThat(counter(small.counters(), DeviceCounters.DEVICE_SWAP_PAGES_READ)).isPositive();
    long smallNanos = counter(small.counters(), DeviceCounters.MODELLED_DEVICE_NANOS);
    long unboundedNanos = counter(unbounded.counters(), DeviceCounters.MODELLED_DEVICE_NANOS);
    assertThat(smallNanos).as("modelled: %d ns with 128-byte lanes, %d unbounded", smallNanos, unboundedNanos)
        .isGreaterThan(unboundedNanos);
  }
}
