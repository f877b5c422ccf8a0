package org.smartssd.devicemapper;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.model.Counts;
import org.smartssd.model.Work;
import org.smartssd.opcount.OpCountAgent;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.OpMeter;

/**
 * The host's side of the planner's sample: the job as the host runs it (its own mapper, combiner and
 * reducer behind Hadoop's record reader, map output collector, sort, spill, merge and reduce), run by
 * the local job runner in this JVM over the same first bytes of a split as the device's sample, and
 * counted as {@code bin/smartssd} counts the host's work (the counting agent, enabled). Two sizes give
 * the work per input record and a fixed part: a job's and its one map task's own work (submission,
 * the task's output buffer, the reduce, the commit), which every split's task does in either
 * placement (in the devices' case the proxy map task that reads their partial results).
 *
 * <p>Its output goes nowhere ({@link NullOutputFormat}): the sample has no side effect beyond
 * reading its input.
 */
final class HostSample {
  /** The sample's range, for {@link SampleInputFormat}: internal to the sample job. */
  static final String PATH = "smartssd.mapper.placement.sample.path";
  static final String START = "smartssd.mapper.placement.sample.start";
  static final String LENGTH = "smartssd.mapper.placement.sample.length";
  static final String REAL_INPUT_FORMAT = "smartssd.mapper.placement.sample.input-format";
  private static final long POLL_MS = 10;

  /** What the host counted for a sample of {@code records} input records. */
  record Measured(long records, Counts counts) {}

  private HostSample() {}

  /** Whether this JVM counts the host's work, and so can measure a host sample. */
  static boolean counting() {
    return OpCountAgent.enabled();
  }

  /**
   * The host's work per input record and its fixed part (a job with one split), from two samples of
   * {@code smallBytes} and {@code largeBytes} from the split's start.
   *
   * @throws IllegalStateException if this JVM does not count ({@link #counting()})
   * @throws IOException if a sample job fails
   */
  static Work measure(Job job, FileSplit split, long smallBytes, long largeBytes)
      throws IOException, InterruptedException {
    if (!counting()) {
      throw new IllegalStateException("this JVM does not count the host's work (no counting agent enabled)");
    }
    run(job, split, smallBytes); // classes load and initialise once a JVM: not the job's work
    Measured small = run(job, split, smallBytes);
    Measured large = run(job, split, largeBytes);
    return Work.fitOrScale(small.records(), small.counts(), large.records(), large.counts());
  }

  /** Runs the job on the host over the split's first {@code bytes} bytes, counted. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static Measured run(Job job, FileSplit split, long bytes) throws IOException, InterruptedException {
    Configuration conf = new Configuration(job.getConfiguration());
    conf.set("mapreduce.framework.name", "local");
    conf.set(PATH, split.getPath().toString());
    conf.setLong(START, split.getStart());
    conf.setLong(LENGTH, Math.max(1, Math.min(bytes, split.getLength())));
    conf.set(REAL_INPUT_FORMAT, DeviceMapperSettings.realInputFormat(conf).getName());
    Job sample = Job.getInstance(conf, "placement sample of " + job.getJobName());
    sample.setJarByClass(DeviceMapperSettings.realMapper(conf));
    sample.setMapperClass(DeviceMapperSettings.realMapper(conf));
    Class combiner = DeviceMapperSettings.realCombiner(conf);
    if (combiner != null) {
      sample.setCombinerClass(combiner);
    }
    try {
      sample.setReducerClass(job.getReducerClass());
    } catch (ClassNotFoundException e) {
      throw new IOException("cannot load the job's reducer: " + e.getMessage(), e);
    }
    sample.setNumReduceTasks(job.getNumReduceTasks());
    sample.setInputFormatClass(SampleInputFormat.class);
    sample.setOutputFormatClass(NullOutputFormat.class);

    Set<Thread> jobThreadsBefore = LocalJobThreads.alive();
    OpCounts before = OpMeter.total();
    OpCounts waiting;
    try {
      sample.submit();
      // This thread then only polls, as often as the wall clock says: not the job's work.
      OpCounts beforeWaiting = OpMeter.current().counts();
      while (!sample.isComplete()) {
        Thread.sleep(POLL_MS);
      }
      waiting = OpMeter.current().counts().minus(beforeWaiting);
    } catch (ClassNotFoundException e) {
      throw new IOException("the host sample of job '" + job.getJobName() + "': " + e.getMessage(), e);
    }
    // The local runner's job thread reports the job done, then cleans up after it: the job's work too.
    LocalJobThreads.awaitStartedSince(jobThreadsBefore);
    if (!sample.isSuccessful()) {
      throw new IOException("the host sample of job '" + job.getJobName() + "' over " + split.getPath()
          + " failed: " + sample.getStatus().getFailureInfo());
    }
    OpCounts counted = OpMeter.total().minus(before).minus(waiting);
    long records = sample.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue();
    return new Measured(records, Counts.of(counted));
  }

  /**
   * One split, the sample's range of one file, read by the job's own input format's record reader.
   * Public, as Hadoop makes it by reflection.
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  public static final class SampleInputFormat extends InputFormat {
    @Override
    public List<InputSplit> getSplits(JobContext context) {
      Configuration conf = context.getConfiguration();
      return List.of(new FileSplit(new Path(conf.get(PATH)), conf.getLong(START, 0), conf.getLong(LENGTH, 1),
          new String[0]));
    }

    @Override
    public RecordReader createRecordReader(InputSplit split, TaskAttemptContext context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      Class<? extends InputFormat> real = conf.getClass(REAL_INPUT_FORMAT, null, InputFormat.class);
      return ReflectionUtils.newInstance(real, conf).createRecordReader(split, context);
    }
  }
}
