package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.smartssd.devicemapper.Jobs.counter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.StringTokenizer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's side files read where they are: a mapper that reads a table in its setup, as Hadoop jobs do
 * (the distributed cache's file through {@code Path.getFileSystem}, or a path in the configuration
 * through {@code FileSystem.get}), runs in the device, which reads the table next to the flash.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SideFilesTest {
  @TempDir static java.nio.file.Path work;
  private Jobs jobs;

  /** Each word's weight, from the side table; the words the table lacks weigh nothing. */
  public static class WeightedWordsMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private final Map<String, Long> weights = new HashMap<>();
    private final Text word = new Text();
    private final LongWritable weight = new LongWritable();

    @Override
    protected void setup(Context context) throws IOException {
      Configuration conf = context.getConfiguration();
      String named = conf.get("weights.path");
      FileSystem fs;
      Path table;
      if (named != null) {
        table = new Path(named);
        fs = FileSystem.get(table.toUri(), conf);
      } else {
        URI[] cached = context.getCacheFiles();
        table = new Path(cached[0]);
        fs = table.getFileSystem(conf);
      }
      try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(table), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          int tab = line.indexOf('\t');
          weights.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
        }
      }
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      StringTokenizer words = new StringTokenizer(value.toString());
      while (words.hasMoreTokens()) {
        String w = words.nextToken();
        Long v = weights.get(w);
        if (v != null) {
          word.set(w);
          weight.set(v);
          context.write(word, weight);
        }
      }
    }
  }

  private Map<String, Long> expected;

  @BeforeAll
  void start() throws Exception {
    jobs = Jobs.start(work, true);
    String[] words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"};
    StringBuilder table = new StringBuilder();
    for (int i = 0; i < words.length - 1; i++) { // zeta is not in the table
      table.append(words[i]).append('\t').append(i + 1).append('\n');
    }
    jobs.write("/side/weights.tsv", table.toString().getBytes(StandardCharsets.UTF_8));
    StringBuilder text = new StringBuilder();
    expected = new java.util.TreeMap<>();
    for (int i = 0; i < 20_000; i++) {
      String w = words[(i * 7) % words.length];
      text.append(w).append(' ').append(words[i % words.length]).append('\n');
      for (String x : new String[] {w, words[i % words.length]}) {
        int at = java.util.Arrays.asList(words).indexOf(x);
        if (at < words.length - 1) {
          expected.merge(x, (long) at + 1, Long::sum);
        }
      }
    }
    jobs.write("/text/words.txt", text.toString().getBytes(StandardCharsets.UTF_8));
  }

  @AfterAll
  void stop() throws Exception {
    jobs.close();
  }

  private Job job(Configuration conf, Path output) throws IOException {
    Job job = Job.getInstance(conf, "weighted words");
    job.setInputFormatClass(TextInputFormat.class);
    job.setMapperClass(WeightedWordsMapper.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(LongSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    FileInputFormat.addInputPath(job, jobs.path("/text"));
    FileInputFormat.setMaxInputSplitSize(job, 64 << 10);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  @Test
  void aMapperReadsItsCachedTableInTheDevice() throws Exception {
    Path hostOut = jobs.output();
    Job onHost = job(jobs.conf(), hostOut);
    onHost.addCacheFile(jobs.path("/side/weights.tsv").toUri());
    Jobs.run(onHost);
    assertThat(Jobs.counts(hostOut)).isEqualTo(expected);

    Configuration conf = jobs.conf();
    conf.set(DeviceMapperConfigKeys.FALLBACK, "never");
    Path out = jobs.output();
    Job inDevice = job(conf, out);
    inDevice.addCacheFile(jobs.path("/side/weights.tsv").toUri());
    DeviceJobClient.configure(inDevice);
    Counters counters = Jobs.run(inDevice);
    assertThat(Jobs.counts(out)).isEqualTo(expected);
    assertThat(counter(counters, DeviceCounters.DEVICE_EXECUTIONS)).isPositive();
    assertThat(counter(counters, DeviceCounters.FALLBACK_SPLITS)).isZero();
  }

  @Test
  void aMapperReadsATableNamedInItsConfigurationInTheDevice() throws Exception {
    Configuration conf = jobs.conf();
    conf.set(DeviceMapperConfigKeys.FALLBACK, "never");
    conf.set("weights.path", jobs.path("/side/weights.tsv").toString());
    Path out = jobs.output();
    Job inDevice = job(conf, out);
    DeviceJobClient.configure(inDevice);
    Counters counters = Jobs.run(inDevice);
    assertThat(Jobs.counts(out)).isEqualTo(expected);
    assertThat(counter(counters, DeviceCounters.FALLBACK_SPLITS)).isZero();
  }

  @Test
  void aTableElsewhereIsReadOnTheHostSayingWhy() throws Exception {
    java.nio.file.Path local = work.resolve("weights-local.tsv");
    java.nio.file.Files.writeString(local, "alpha\t1\nbeta\t2\ngamma\t3\ndelta\t4\nepsilon\t5\n");
    Configuration conf = jobs.conf();
    conf.set("weights.path", local.toUri().toString());
    Path out = jobs.output();
    Job auto = job(conf, out);
    DeviceJobClient.configure(auto);
    Counters counters = Jobs.run(auto);
    assertThat(Jobs.counts(out)).isEqualTo(expected);
    assertThat(counter(counters, DeviceCounters.FALLBACK_SPLITS)).isPositive();

    Configuration never = jobs.conf();
    never.set("weights.path", local.toUri().toString());
    never.set(DeviceMapperConfigKeys.FALLBACK, "never");
    Job strict = job(never, jobs.output());
    DeviceJobClient.configure(strict);
    // The split's execution fails ("'file:...' is not on this device"), and fallback never fails its task.
    assertThat(strict.waitForCompletion(false)).isFalse();
  }
}
