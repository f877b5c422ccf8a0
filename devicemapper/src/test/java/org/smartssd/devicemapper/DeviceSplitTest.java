package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Device splits: located on the device's host, and still so after serialization, as a task reads them. */
class DeviceSplitTest {
  @TempDir static java.nio.file.Path work;
  private static Jobs jobs;

  @BeforeAll
  static void start() throws IOException {
    jobs = Jobs.start(work, true);
    jobs.write("/a/small.txt", "one\ntwo\n".getBytes());
    jobs.write("/a/large.txt", new byte[300_000]);
    jobs.write("/a/empty.txt", new byte[0]);
  }

  @AfterAll
  static void stop() throws IOException {
    jobs.close();
  }

  @Test
  void serializationKeepsPathRangeAndLocations() throws IOException {
    DeviceSplit split = new DeviceSplit(new Path("objfs://127.0.0.1:7070/logs/day1.bin"), 4096, 1 << 20,
        new String[] {"node-1", "node-2"});
    DeviceSplit copy = roundTrip(split);
    assertThat(copy.getPath()).isEqualTo(split.getPath());
    assertThat(copy.getStart()).isEqualTo(4096);
    assertThat(copy.getLength()).isEqualTo(1 << 20);
    assertThat(copy.getLocations()).containsExactly("node-1", "node-2");
    assertThat(copy.ranOnHost()).isFalse();

    DeviceSplit none = roundTrip(new DeviceSplit(new Path("objfs://h:1/x"), 0, 0, null));
    assertThat(none.getLocations()).isEmpty();
  }

  @Test
  void theSplitsOfAnObjectAreOnItsDevicesHost() throws Exception {
    Configuration conf = jobs.conf();
    conf.setLong(FileInputFormat.SPLIT_MAXSIZE, 100_000);
    Job job = TestJobs.wordCount(conf, jobs.path("/a"), jobs.output());
    DeviceJobClient.configure(job);
    List<InputSplit> splits = new DeviceInputFormat().getSplits(job);

    // large.txt in three ranges, small.txt and empty.txt whole.
    assertThat(splits).hasSize(5);
    long large = 0;
    for (InputSplit s : splits) {
      assertThat(s).isInstanceOf(DeviceSplit.class).isInstanceOf(FileSplit.class);
      if (s.getLength() == 0) {
        assertThat(s.getLocations()).isEmpty(); // FileInputFormat locates an empty file nowhere
        continue;
      }
      assertThat(s.getLocations()).containsExactly("test-device"); // TestDevices.small's device name
      assertThat(roundTrip((DeviceSplit) s).getLocations()).containsExactly("test-device");
      if (((FileSplit) s).getPath().getName().equals("large.txt")) {
        large += s.getLength();
      }
    }
    assertThat(large).isEqualTo(300_000);
  }

  private static DeviceSplit roundTrip(DeviceSplit split) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    split.write(out);
    DataInputBuffer in = new DataInputBuffer();
    in.reset(out.getData(), out.getLength());
    DeviceSplit copy = ReflectionUtils.newInstance(DeviceSplit.class, new Configuration());
    copy.readFields(in);
    assertThat(in.available()).isZero();
    return copy;
  }
}
