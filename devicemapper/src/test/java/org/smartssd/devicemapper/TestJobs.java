package org.smartssd.devicemapper;

import java.io.IOException;
import java.util.StringTokenizer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/** Ordinary Hadoop jobs, written as anyone would, that the tests run unchanged on the host and in a device. */
final class TestJobs {
  private TestJobs() {}

  /** A counter the mappers count with, which must reach the job's counters from the device too. */
  enum MapperCounters {
    LINES,
    RECORDS
  }

  /** WordCount's mapper. */
  public static class TokenizerMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private final Text word = new Text();

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.getCounter(MapperCounters.LINES).increment(1);
      StringTokenizer words = new StringTokenizer(value.toString());
      while (words.hasMoreTokens()) {
        word.set(words.nextToken());
        context.write(word, ONE);
      }
    }
  }

  /** WordCount's combiner and reducer. */
  public static class IntSumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    private final IntWritable result = new IntWritable();

    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      int sum = 0;
      for (IntWritable v : values) {
        sum += v.get();
      }
      result.set(sum);
      context.write(key, result);
    }
  }

  /** Lines per file, from the split the mapper's context gives (a FileSplit, on the host as in the device). */
  public static class FileLinesMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private final Text file = new Text();

    @Override
    protected void setup(Context context) {
      file.set(((FileSplit) context.getInputSplit()).getPath().getName());
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      context.write(file, ONE);
    }
  }

  /** Counters of the old-API word count's mapper. */
  public enum OldApiCounters {
    LINES
  }

  /** Words of lines, as the old API's mapper: (word, 1), a counter through its Reporter, which also gives its split. */
  public static class OldWordMapper extends org.apache.hadoop.mapred.MapReduceBase
      implements org.apache.hadoop.mapred.Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private final Text word = new Text();
    private String prefix = "";

    @Override
    public void configure(org.apache.hadoop.mapred.JobConf job) {
      prefix = job.get("test.old-api.prefix", "");
    }

    @Override
    public void map(LongWritable offset, Text line, org.apache.hadoop.mapred.OutputCollector<Text, IntWritable> out,
        org.apache.hadoop.mapred.Reporter reporter) throws IOException {
      reporter.incrCounter(OldApiCounters.LINES, 1);
      org.apache.hadoop.mapred.FileSplit split = (org.apache.hadoop.mapred.FileSplit) reporter.getInputSplit();
      if (!split.getPath().getName().startsWith("part-") || split.getLength() <= 0) {
        throw new IOException("the reporter's split is " + split);
      }
      StringTokenizer words = new StringTokenizer(line.toString());
      while (words.hasMoreTokens()) {
        word.set(prefix + words.nextToken());
        out.collect(word, ONE);
      }
    }
  }

  /** Sums the values per key, as the old API's reducer (and combiner). */
  public static class OldSumReducer extends org.apache.hadoop.mapred.MapReduceBase
      implements org.apache.hadoop.mapred.Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    public void reduce(Text key, java.util.Iterator<IntWritable> values,
        org.apache.hadoop.mapred.OutputCollector<Text, IntWritable> out, org.apache.hadoop.mapred.Reporter reporter)
        throws IOException {
      int sum = 0;
      while (values.hasNext()) {
        sum += values.next().get();
      }
      out.collect(key, new IntWritable(sum));
    }
  }

  /** A word count written against the old API: JobConf, mapred.Mapper, mapred.Reducer as combiner and reducer. */
  static org.apache.hadoop.mapred.JobConf oldWordCount(Configuration conf, Path input, Path output) {
    org.apache.hadoop.mapred.JobConf job = new org.apache.hadoop.mapred.JobConf(conf);
    job.setJobName("old-API word count");
    job.set("test.old-api.prefix", "w:");
    job.setMapperClass(OldWordMapper.class);
    job.setCombinerClass(OldSumReducer.class);
    job.setReducerClass(OldSumReducer.class);
    job.setInputFormat(org.apache.hadoop.mapred.TextInputFormat.class);
    job.setOutputFormat(org.apache.hadoop.mapred.TextOutputFormat.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    org.apache.hadoop.mapred.FileInputFormat.addInputPath(job, input);
    org.apache.hadoop.mapred.FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /** A job's own Writable: a page's visits, as a SequenceFile's values. */
  public static class Visits implements org.apache.hadoop.io.Writable {
    private int hits;
    private String page = "";

    public Visits() {}

    public Visits(int hits, String page) {
      this.hits = hits;
      this.page = page;
    }

    @Override
    public void write(java.io.DataOutput out) throws IOException {
      out.writeInt(hits);
      out.writeUTF(page);
    }

    @Override
    public void readFields(java.io.DataInput in) throws IOException {
      hits = in.readInt();
      page = in.readUTF();
    }
  }

  /** Hits per key and page of (Text, {@link Visits}) records. */
  public static class VisitsMapper extends Mapper<Text, Visits, Text, LongWritable> {
    private final Text out = new Text();
    private final LongWritable hits = new LongWritable();

    @Override
    protected void map(Text key, Visits value, Context context) throws IOException, InterruptedException {
      out.set(key + "/" + value.page);
      hits.set(value.hits);
      context.write(out, hits);
    }
  }

  /** A SequenceFile of (Text, {@link Visits}): hits summed per key and page. */
  static Job visits(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "visits");
    job.setInputFormatClass(org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat.class);
    job.setMapperClass(VisitsMapper.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(LongSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /** Records per value of the top three bits of byte 19 of 20-byte records (the World Cup trace's region). */
  public static class RegionMapper extends Mapper<LongWritable, BytesWritable, IntWritable, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final IntWritable region = new IntWritable();

    @Override
    protected void map(LongWritable offset, BytesWritable record, Context context)
        throws IOException, InterruptedException {
      if (record.getLength() != 20 || offset.get() % 20 != 0) {
        throw new IOException("bad record at " + offset + ": " + record.getLength() + " bytes");
      }
      context.getCounter(MapperCounters.RECORDS).increment(1);
      region.set((record.getBytes()[19] & 0xFF) >>> 5);
      context.write(region, ONE);
    }
  }

  static Job wordCount(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "word count");
    job.setMapperClass(TokenizerMapper.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setInputFormatClass(TextInputFormat.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  static Job fileLines(Configuration conf, Path input, Path output) throws IOException {
    Job job = wordCount(conf, input, output);
    job.setMapperClass(FileLinesMapper.class);
    return job;
  }

  /** The identity mapper and reducer over lines: (offset, line) exactly as the input format presents them. */
  static Job lineEcho(Configuration conf, Path input, Path output) throws IOException {
    return echo(conf, "line echo", TextInputFormat.class, LongWritable.class, input, output);
  }

  /** The lines cut at their first tab as KeyValueTextInputFormat cuts them, passed through (key, value). */
  static Job keyValueEcho(Configuration conf, Path input, Path output) throws IOException {
    return echo(conf, "key/value echo", org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat.class,
        Text.class, input, output);
  }

  /** The identity mapper and reducer: the records exactly as the input format presents them, values Text. */
  @SuppressWarnings("rawtypes")
  private static Job echo(Configuration conf, String name, Class<? extends org.apache.hadoop.mapreduce.InputFormat> format,
      Class<?> keyClass, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, name);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setOutputKeyClass(keyClass);
    job.setOutputValueClass(Text.class);
    job.setInputFormatClass(format);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /**
   * A SequenceFile of (Text, IntWritable): the values summed per key, by the identity mapper, with
   * {@code IntSumReducer} as combiner and reducer.
   */
  static Job sequenceSum(Configuration conf, Path input, Path output) throws IOException {
    Job job = Job.getInstance(conf, "sequence sum");
    job.setInputFormatClass(org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setCombinerClass(org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer.class);
    job.setReducerClass(org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  static Job regionCount(Configuration conf, Path input, Path output) throws IOException {
    return countPerKey(conf, "records per region", 20, RegionMapper.class, input, output);
  }

  /**
   * A job over fixed-length records whose mapper emits (int key, 1) and whose combiner and reducer sum
   * the ones: records per key.
   */
  static Job countPerKey(Configuration conf, String name, int recordLength,
      Class<? extends org.apache.hadoop.mapreduce.Mapper<?, ?, ?, ?>> mapper, Path input, Path output)
      throws IOException {
    Job job = Job.getInstance(conf, name);
    FixedLengthInputFormat.setRecordLength(job.getConfiguration(), recordLength);
    job.setInputFormatClass(FixedLengthInputFormat.class);
    job.setMapperClass(mapper);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(LongSumReducer.class);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(LongWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /** For DeviceJobClient's command line: {@code INPUT OUTPUT}, a word count. */
  public static class WordCountFactory implements JobFactory {
    @Override
    public Job createJob(Configuration conf, String[] args) throws IOException {
      return wordCount(conf, new Path(args[0]), new Path(args[1]));
    }
  }
}
