package org.smartssd.devicemapper;

import org.smartssd.devicemapper.tasklet.MapReduceTasklet;
import org.smartssd.devicemapper.wire.JobConfigurations;
import org.smartssd.devicemapper.tasklet.MapperDriver;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.KeyValueLineRecordReader;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.junit.jupiter.api.Test;
import org.smartssd.device.runtime.isp.LoadedTasklet;
import org.smartssd.device.runtime.isp.TaskletLoader;
import org.smartssd.device.runtime.isp.TaskletRefusedException;

/** What CREATE_OBJECT installs: the adapter, the job's classes and its configuration, and nothing of the host. */
class TaskletJarTest {
  private static final FileSplit SPLIT = new FileSplit(new Path("objfs://127.0.0.1:7070/in/a.txt"), 0, 100, null);
  private static final TaskAttemptID ATTEMPT = new TaskAttemptID("j", 1, TaskType.MAP, 3, 0);

  /** A mapper nested in a class that uses files (this test): the class must not go to the device. */
  public static class NestedMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(value, key);
    }
  }

  static File useOfFiles() {
    return new File("/tmp");
  }

  private static Configuration configured(Job job) throws IOException {
    DeviceJobClient.configure(job);
    return job.getConfiguration();
  }

  private static TaskletJarBuilder.Tasklet build(Configuration conf) throws IOException {
    return TaskletJarBuilder.build(conf, DeviceMapperSettings.from(conf), SPLIT, ATTEMPT);
  }

  private static Map<String, byte[]> entries(byte[] jar) throws IOException {
    Map<String, byte[]> entries = new TreeMap<>();
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
      for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
        entries.put(e.getName(), in.readAllBytes());
      }
    }
    return entries;
  }

  @Test
  void theJarHoldsTheJobsClassesAndItsConfigurationNotTheDevicesRuntime() throws Exception {
    Configuration conf = configured(TestJobs.wordCount(new Configuration(), new Path("/in"), new Path("/out")));
    TaskletJarBuilder.Tasklet tasklet = build(conf);
    Map<String, byte[]> entries = entries(tasklet.jar());
    String p = "org/smartssd/devicemapper/";

    assertThat(tasklet.className()).isEqualTo(MapReduceTasklet.class.getName());
    assertThat(entries).containsKeys(
        p + "TestJobs$TokenizerMapper.class", p + "TestJobs$IntSumReducer.class", p + "TestJobs$MapperCounters.class",
        p + "TestJobs$TokenizerMapper" + MapperShims.SUFFIX + ".class", JobConfigurations.DEFAULTS_ENTRY);
    for (String name : entries.keySet()) {
      // The device's runtime (org.smartssd.devicemapper.tasklet and .wire) is the device's, trusted: not in the jar.
      assertThat(name).doesNotStartWith("org/apache/hadoop/").doesNotStartWith("org/slf4j/")
          .doesNotStartWith("org/smartssd/device/").doesNotStartWith("java/")
          .doesNotStartWith("org/smartssd/devicemapper/runtime/")
          .isNotIn(p + "DeviceRecordReader.class", p + "TaskletJarBuilder.class", p + "DeviceJobClient.class",
              p + "DeviceMapperSettings.class", p + "DeviceInputFormat.class");
    }
    // The enclosing class of the job's classes is only a stub: no methods, nothing it refers to.
    assertThat(entries.get(p + "TestJobs.class").length).isLessThan(300);

    Configuration shipped = JobConfigurations.decode(entries.get(JobConfigurations.DEFAULTS_ENTRY),
        tasklet.parameters().get(MapReduceTasklet.CONFIGURATION));
    assertThat(shipped.get(MRJobConfig.MAP_CLASS_ATTR)).isEqualTo(TestJobs.TokenizerMapper.class.getName());
    assertThat(shipped.get(MRJobConfig.INPUT_FORMAT_CLASS_ATTR)).isEqualTo(TextInputFormat.class.getName());
    Map<String, String> expected = JobConfigurations.entries(conf);
    expected.put(MRJobConfig.MAP_CLASS_ATTR, TestJobs.TokenizerMapper.class.getName());
    expected.put(MRJobConfig.INPUT_FORMAT_CLASS_ATTR, TextInputFormat.class.getName());
    assertThat(JobConfigurations.entries(shipped)).isEqualTo(expected);

    assertThat(tasklet.parameters()).containsEntry(MapReduceTasklet.INPUT, "lines")
        .containsEntry(MapReduceTasklet.COMBINER, TestJobs.IntSumReducer.class.getName())
        .containsEntry(MapReduceTasklet.SPLIT_PATH, SPLIT.getPath().toString())
        .containsEntry(MapReduceTasklet.TASK_ATTEMPT, ATTEMPT.toString());
  }

  /**
   * A configuration larger than one protocol string (65,535 bytes) goes in parts, each within it, and comes
   * back whole: a job whose configuration carries a large value (a rank vector) runs in the device.
   */
  @Test
  void aLargeConfigurationGoesInPartsAndComesBackWhole() throws Exception {
    Configuration conf = configured(TestJobs.wordCount(new Configuration(), new Path("/in"), new Path("/out")));
    byte[] random = new byte[300_000];
    new java.util.Random(3).nextBytes(random);
    String large = java.util.Base64.getEncoder().encodeToString(random); // does not compress
    conf.set("a.large.value", large);
    TaskletJarBuilder.Tasklet tasklet = build(conf);
    Map<String, String> parameters = tasklet.parameters();
    int parts = Integer.parseInt(parameters.get(MapReduceTasklet.CONFIGURATION + ".parts"));
    assertThat(parts).isGreaterThan(4);
    for (int i = 0; i < parts; i++) {
      String part = parameters.get(i == 0 ? MapReduceTasklet.CONFIGURATION : MapReduceTasklet.CONFIGURATION + "." + i);
      assertThat(part.length()).isBetween(1, JobConfigurations.PART_CHARS);
    }
    byte[] defaults = entries(tasklet.jar()).get(JobConfigurations.DEFAULTS_ENTRY);
    Configuration shipped = JobConfigurations.decode(defaults,
        JobConfigurations.getDifferences(parameters, MapReduceTasklet.CONFIGURATION));
    assertThat(shipped.get("a.large.value")).isEqualTo(large);

    Map<String, String> missing = new java.util.TreeMap<>(parameters);
    missing.remove(MapReduceTasklet.CONFIGURATION + ".2");
    assertThatThrownBy(() -> JobConfigurations.getDifferences(missing, MapReduceTasklet.CONFIGURATION))
        .isInstanceOf(IOException.class).hasMessageContaining(MapReduceTasklet.CONFIGURATION + ".2");
  }

  @Test
  void jobsWithTheSameClassesShipTheSameJarAndOnlyTheirDifferences() throws Exception {
    Configuration a = configured(TestJobs.wordCount(new Configuration(), new Path("/in"), new Path("/out-a")));
    Configuration b = configured(TestJobs.wordCount(new Configuration(), new Path("/in"), new Path("/out-b")));
    b.set("a.key.of.job.b", "its value");
    b.unset("io.file.buffer.size"); // a default the job removed
    TaskletJarBuilder.Tasklet first = build(a);
    TaskletJarBuilder.Tasklet second = build(b);

    assertThat(second.jar()).isEqualTo(first.jar());
    assertThat(second.parameters().get(MapReduceTasklet.CONFIGURATION))
        .isNotEqualTo(first.parameters().get(MapReduceTasklet.CONFIGURATION));
    byte[] defaults = entries(second.jar()).get(JobConfigurations.DEFAULTS_ENTRY);
    Configuration shipped = JobConfigurations.decode(defaults, second.parameters().get(MapReduceTasklet.CONFIGURATION));
    assertThat(shipped.get("a.key.of.job.b")).isEqualTo("its value");
    assertThat(shipped.get("io.file.buffer.size")).isNull();
    assertThat(shipped.get(FileOutputFormat.OUTDIR)).isEqualTo(b.get(FileOutputFormat.OUTDIR));
    // The differences are small next to the whole configuration.
    assertThat(second.parameters().get(MapReduceTasklet.CONFIGURATION).length()).isLessThan(defaults.length / 4);
  }

  @Test
  void theDeviceAcceptsTheJarOnlyWhenItSharesHadoopAndTheRuntime() throws Exception {
    Job job = TestJobs.lineEcho(new Configuration(), new Path("/in"), new Path("/out"));
    job.setMapperClass(NestedMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    TaskletJarBuilder.Tasklet tasklet = build(configured(job));
    ByteBuffer jar = ByteBuffer.wrap(tasklet.jar());

    TaskletLoader sharing = new TaskletLoader(Map.of(), List.of("org.apache.hadoop.",
        "org.smartssd.devicemapper.tasklet.", "org.smartssd.devicemapper.wire."), getClass().getClassLoader());
    LoadedTasklet loaded = sharing.load(jar, tasklet.className());
    assertThat(loaded.className()).isEqualTo(MapReduceTasklet.class.getName());
    assertThat(loaded.type()).as("the device's own runtime").isSameAs(MapReduceTasklet.class);
    assertThat(loaded.code()).as("the job's classes' loader").isNotSameAs(MapReduceTasklet.class.getClassLoader());

    TaskletLoader noRuntime = new TaskletLoader(Map.of(), List.of("org.apache.hadoop."), getClass().getClassLoader());
    assertThatThrownBy(() -> noRuntime.load(jar, tasklet.className())).isInstanceOf(TaskletRefusedException.class)
        .hasMessageContaining("class " + MapReduceTasklet.class.getName() + " is not in the jar");

    TaskletLoader notSharing = new TaskletLoader(Map.of(), List.of("org.smartssd.devicemapper.tasklet.", "org.smartssd.devicemapper.wire."),
        getClass().getClassLoader());
    assertThatThrownBy(() -> notSharing.load(jar, tasklet.className())).isInstanceOf(TaskletRefusedException.class)
        .hasMessageContaining("org.apache.hadoop.");
  }

  @Test
  void jobsTheDevicesCannotPresentRecordsForAreLeftToTheHost() throws Exception {
    Configuration conf = configured(TestJobs.wordCount(new Configuration(), new Path("/in"), new Path("/out")));
    conf.setInt(TaskletJarBuilder.MAX_LINE_LENGTH, 100);
    assertThatThrownBy(() -> build(conf)).isInstanceOf(UnsupportedJobException.class)
        .hasMessageContaining(TaskletJarBuilder.MAX_LINE_LENGTH);

    Configuration crlf = configured(TestJobs.wordCount(new Configuration(), new Path("/in"), new Path("/out")));
    crlf.set("textinputformat.record.delimiter", "\r\n");
    assertThatThrownBy(() -> build(crlf)).isInstanceOf(UnsupportedJobException.class)
        .hasMessageContaining("one byte");

    Configuration comma = configured(TestJobs.wordCount(new Configuration(), new Path("/in"), new Path("/out")));
    comma.set("textinputformat.record.delimiter", ",");
    assertThat(build(comma).parameters()).as("the host decides the record format: the device reads no input key")
        .containsEntry(MapReduceTasklet.INPUT, "delimited:44");

    Configuration keyValue = configured(TestJobs.keyValueEcho(new Configuration(), new Path("/in"), new Path("/out")));
    assertThat(build(keyValue).parameters()).as("a tab by default").containsEntry(MapReduceTasklet.INPUT, "key-value:9");
    keyValue.set(KeyValueLineRecordReader.KEY_VALUE_SEPARATOR, ",;");
    assertThat(build(keyValue).parameters()).as("the separator's first character")
        .containsEntry(MapReduceTasklet.INPUT, "key-value:44");
    keyValue.set(KeyValueLineRecordReader.KEY_VALUE_SEPARATOR, "");
    assertThatThrownBy(() -> build(keyValue)).isInstanceOf(UnsupportedJobException.class).hasMessageContaining("empty");
  }

  @Test
  void configureChecksTheInputFormatAndIsIdempotent() throws Exception {
    Job other = TestJobs.wordCount(new Configuration(), new Path("/in"), new Path("/out"));
    other.setInputFormatClass(org.apache.hadoop.mapreduce.lib.input.SequenceFileAsTextInputFormat.class);
    assertThatThrownBy(() -> DeviceJobClient.configure(other)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SequenceFileAsTextInputFormat");

    Job job = TestJobs.regionCount(new Configuration(), new Path("/in"), new Path("/out"));
    DeviceJobClient.configure(job);
    DeviceJobClient.configure(job);
    assertThat(job.getMapperClass()).isEqualTo(DeviceMapper.class);
    assertThat(job.getInputFormatClass()).isEqualTo(DeviceInputFormat.class);
    assertThat(DeviceMapperSettings.realMapper(job.getConfiguration())).isEqualTo(TestJobs.RegionMapper.class);

    Job bad = TestJobs.regionCount(new Configuration(), new Path("/in"), new Path("/out"));
    bad.getConfiguration().set(DeviceMapperConfigKeys.FALLBACK, "sometimes");
    assertThatThrownBy(() -> DeviceJobClient.configure(bad)).hasMessageContaining(DeviceMapperConfigKeys.FALLBACK);
  }
}
