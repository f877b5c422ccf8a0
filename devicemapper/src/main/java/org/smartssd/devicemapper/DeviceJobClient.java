package org.smartssd.devicemapper;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.smartssd.devicemapper.tasklet.OldApi;
import org.smartssd.devicemapper.tasklet.OldApiCombiner;
import org.smartssd.devicemapper.tasklet.OldApiMapper;
import java.util.List;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs the map phase (mapper, and combiner as a partial reduce) of an unchanged Hadoop MapReduce job
 * inside the Smart SSDs that hold its input; the job's reducers do the global merge on the host.
 *
 * <p>As a library: configure a {@link Job} as usual (mapper, combiner, reducer, map output classes,
 * {@link FixedLengthInputFormat} or {@link TextInputFormat} over input paths on objfs), call {@link
 * #configure(Job)}, then {@code job.waitForCompletion(...)}. The reducers' output is what the
 * unchanged job gives; {@link DeviceCounters} says what ran where.
 *
 * <p>As a command ({@link Tool}):
 *
 * <pre>
 * hadoop jar smartssd-devicemapper.jar org.smartssd.devicemapper.DeviceJobClient [-D key=value ...] \
 *     FACTORY_CLASS [factory arguments ...]
 * </pre>
 *
 * where {@code FACTORY_CLASS} implements {@link JobFactory} and makes the configured job from its
 * arguments; the command configures it for the devices, runs it and exits 0 when it succeeds.
 *
 * <p>A device that runs these tasklets needs Hadoop's classes (hadoop-common and
 * hadoop-mapreduce-client-core with their dependencies) and this module's on its class path, and
 * shares their packages with tasklets ({@code smartssd.device.isp.shared-packages}, which does by
 * default); see CONFIG.md.
 */
public final class DeviceJobClient extends Configured implements Tool {
  /** The suffix of a split's profile file in {@value DeviceMapperConfigKeys#PROFILE_DIR}: {@code ATTEMPT.profile}. */
  public static final String PROFILE_SUFFIX = ".profile";

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DeviceJobClient.class);

  /** For {@link ToolRunner}. */
  public DeviceJobClient() {}

  /**
   * Rewires a configured job so that its map phase runs in the devices: remembers the job's mapper,
   * combiner and input format ({@code smartssd.mapper.real.*}), and sets the input format to {@link
   * DeviceInputFormat} and the mapper to {@link DeviceMapper}. The combiner stays set, so that the
   * host combines the devices' partial results once more before the shuffle. Calling it on a job
   * already configured changes nothing.
   *
   * <p>Then it places the map phase ({@code smartssd.mapper.placement}): in the devices, on the host
   * (every split's map reads its raw records through objfs, as the unchanged job would), or, with
   * {@code auto}, where the analytic model predicts it runs faster ({@link PlacementPlanner}: it runs a
   * few sample executions in a device first). The choice and the predictions go into the job's
   * configuration ({@code smartssd.mapper.placement.chosen}, {@code .predicted-device-s},
   * {@code .predicted-host-s}, {@code .reason}), the log, and the job's counters.
   *
   * @throws IllegalArgumentException when the input format is not {@link FixedLengthInputFormat}
   *     (with a record length) or {@link TextInputFormat}, or a {@code smartssd.mapper.*} value is bad
   * @throws IOException when the job's classes cannot be loaded, or auto placement cannot reach a
   *     device holding the input
   */
  @SuppressWarnings("rawtypes")
  public static void configure(Job job) throws IOException {
    Configuration conf = job.getConfiguration();
    DeviceMapperSettings settings = DeviceMapperSettings.from(conf); // a bad value fails here, before submission
    Class<? extends Mapper> mapper;
    Class<? extends InputFormat> inputFormat;
    Class<? extends Reducer> combiner;
    try {
      mapper = job.getMapperClass();
      inputFormat = job.getInputFormatClass();
      combiner = job.getCombinerClass();
    } catch (ClassNotFoundException e) {
      throw new IOException("cannot load the job's classes: " + e.getMessage(), e);
    }
    if (mapper == DeviceMapper.class || inputFormat == DeviceInputFormat.class) {
      return; // configured already
    }
    if (inputFormat == FixedLengthInputFormat.class) {
      if (FixedLengthInputFormat.getRecordLength(conf) <= 0) {
        throw new IllegalArgumentException("the job reads fixed-length records without a record length: set it with "
            + "FixedLengthInputFormat.setRecordLength (" + FixedLengthInputFormat.FIXED_RECORD_LENGTH + ")");
      }
    } else if (inputFormat != TextInputFormat.class && inputFormat != KeyValueTextInputFormat.class
        && inputFormat != SequenceFileInputFormat.class) {
      throw new IllegalArgumentException("the devices present records as FixedLengthInputFormat, TextInputFormat, "
          + "KeyValueTextInputFormat or SequenceFileInputFormat do; the job's input format is " + inputFormat.getName());
    }
    conf.set(DeviceMapperConfigKeys.REAL_MAPPER_CLASS, mapper.getName());
    conf.set(DeviceMapperConfigKeys.REAL_INPUT_FORMAT_CLASS, inputFormat.getName());
    if (combiner != null) {
      conf.set(DeviceMapperConfigKeys.REAL_COMBINER_CLASS, combiner.getName());
    } else {
      conf.unset(DeviceMapperConfigKeys.REAL_COMBINER_CLASS);
    }
    job.setInputFormatClass(DeviceInputFormat.class);
    job.setMapperClass(DeviceMapper.class);
    outputInDevice(job, settings);
    place(job, settings);
  }

  /**
   * A map-only job whose output is {@code TextOutputFormat}'s, uncompressed: its map tasks' files are
   * written by the devices where the map runs (when a task's file is on the device of its split), so
   * its records never cross the host link ({@link DeviceOutputFormat}).
   */
  private static void outputInDevice(Job job, DeviceMapperSettings settings) throws IOException {
    Configuration conf = job.getConfiguration();
    conf.unset(DeviceMapperConfigKeys.REAL_OUTPUT_FORMAT_CLASS);
    Class<?> format;
    try {
      format = job.getOutputFormatClass();
    } catch (ClassNotFoundException e) {
      throw new IOException("cannot load the job's output format: " + e.getMessage(), e);
    }
    if (settings.outputInDevice() && job.getNumReduceTasks() == 0 && format == TextOutputFormat.class
        && !FileOutputFormat.getCompressOutput(job)) {
      conf.set(DeviceMapperConfigKeys.REAL_OUTPUT_FORMAT_CLASS, format.getName());
      job.setOutputFormatClass(DeviceOutputFormat.class);
    }
  }

  /**
   * Configures a job written against the old {@code org.apache.hadoop.mapred} API ({@code JobConf},
   * run with {@code JobClient.runJob}) so that its map phase runs in the devices: its mapper, combiner
   * and input format are remembered ({@code smartssd.mapper.real.old-*}) and driven through the new
   * API's ({@link OldApiMapper}, {@link OldApiCombiner}, {@link OldApiInputFormat}), the map task runs
   * the new API's {@code DeviceMapper}, and the reducer, partitioner and output stay the job's.
   *
   * @throws IllegalArgumentException when the job cannot: a {@code MapRunnable}, an old-API
   *     partitioner (the new API's map cannot take one), a map-only job with an old-API output format,
   *     or an input format the devices do not present records as
   */
  public static void configure(JobConf conf) throws IOException {
    if (DeviceMapper.class.getName().equals(conf.get(MRJobConfig.MAP_CLASS_ATTR))
        && conf.get(OldApi.MAPPER_CLASS) != null) {
      return; // configured already
    }
    DeviceMapperSettings settings = DeviceMapperSettings.from(conf);
    String runner = conf.get("mapred.map.runner.class");
    if (runner != null) {
      String streaming = runner.startsWith("org.apache.hadoop.streaming.")
          ? " (a Hadoop Streaming job: its map is an external program, and a device runs no programs, only Java"
              + " tasklets)" : "";
      throw new IllegalArgumentException("the job runs its map with a MapRunnable (" + runner + ")" + streaming
          + ", which the devices do not drive: only a Mapper's map");
    }
    if (conf.getNumReduceTasks() > 0 && conf.get("mapred.partitioner.class") != null) {
      throw new IllegalArgumentException("the job's partitioner " + conf.get("mapred.partitioner.class") + " is an "
          + "old-API one, which Hadoop does not take with the new API's map that runs the devices' output");
    }
    if (conf.getNumReduceTasks() == 0 && conf.get("mapred.output.format.class") != null) {
      throw new IllegalArgumentException("a map-only job's output format " + conf.get("mapred.output.format.class")
          + " is an old-API one, which Hadoop does not take with the new API's map that runs the devices' output");
    }
    Class<?> inputFormat = conf.getInputFormat().getClass();
    if (TaskletJarBuilder.oldInputSpecOf(inputFormat) == null) {
      throw new IllegalArgumentException("the devices present records as the old API's FixedLengthInputFormat, "
          + "TextInputFormat, KeyValueTextInputFormat or SequenceFileInputFormat do; the job's input format is "
          + inputFormat.getName());
    }
    if (inputFormat == org.apache.hadoop.mapred.FixedLengthInputFormat.class
        && org.apache.hadoop.mapred.FixedLengthInputFormat.getRecordLength(conf) <= 0) {
      throw new IllegalArgumentException("the job reads fixed-length records without a record length: set it with "
          + "FixedLengthInputFormat.setRecordLength (" + FixedLengthInputFormat.FIXED_RECORD_LENGTH + ")");
    }
    conf.set(OldApi.MAPPER_CLASS, conf.getMapperClass().getName());
    conf.set(OldApi.INPUT_FORMAT_CLASS, inputFormat.getName());
    conf.set(DeviceMapperConfigKeys.REAL_MAPPER_CLASS, OldApiMapper.class.getName());
    conf.set(DeviceMapperConfigKeys.REAL_INPUT_FORMAT_CLASS, OldApiInputFormat.class.getName());
    if (conf.getCombinerClass() != null) {
      // The host combines the devices' partial pairs once more with the job's own (old-API) combiner.
      conf.set(OldApi.COMBINER_CLASS, conf.getCombinerClass().getName());
      conf.set(DeviceMapperConfigKeys.REAL_COMBINER_CLASS, OldApiCombiner.class.getName());
    } else {
      conf.unset(OldApi.COMBINER_CLASS);
      conf.unset(DeviceMapperConfigKeys.REAL_COMBINER_CLASS);
    }
    conf.unset("mapred.mapper.class");
    conf.unset("mapred.input.format.class");
    conf.setUseNewMapper(true);
    conf.set(MRJobConfig.INPUT_FORMAT_CLASS_ATTR, DeviceInputFormat.class.getName());
    conf.set(MRJobConfig.MAP_CLASS_ATTR, DeviceMapper.class.getName());
    Job job = Job.getInstance(conf);
    place(job, settings);
    for (String key : List.of(DeviceMapperConfigKeys.PLACEMENT_CHOSEN, DeviceMapperConfigKeys.PLACEMENT_REASON,
        DeviceMapperConfigKeys.PLACEMENT_PREDICTED_DEVICE_S, DeviceMapperConfigKeys.PLACEMENT_PREDICTED_HOST_S)) {
      String value = job.getConfiguration().get(key);
      if (value == null) {
        conf.unset(key);
      } else {
        conf.set(key, value);
      }
    }
  }

  private static void place(Job job, DeviceMapperSettings settings) throws IOException {
    Configuration conf = job.getConfiguration();
    conf.unset(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_DEVICE_S);
    conf.unset(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_HOST_S);
    conf.unset(DeviceMapperConfigKeys.PLACEMENT_REASON);
    switch (settings.placement()) {
      case DEVICE -> conf.set(DeviceMapperConfigKeys.PLACEMENT_CHOSEN, "device");
      case HOST -> conf.set(DeviceMapperConfigKeys.PLACEMENT_CHOSEN, "host");
      case AUTO -> {
        PlacementPlanner.Plan plan;
        try {
          plan = PlacementPlanner.plan(job, settings);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while placing job '" + job.getJobName() + "'");
        }
        conf.set(DeviceMapperConfigKeys.PLACEMENT_CHOSEN, plan.placement().optionName());
        if (!Double.isNaN(plan.predictedDeviceSeconds())) {
          conf.set(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_DEVICE_S, Double.toString(plan.predictedDeviceSeconds()));
          conf.set(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_HOST_S, Double.toString(plan.predictedHostSeconds()));
        }
        conf.set(DeviceMapperConfigKeys.PLACEMENT_REASON, plan.reason());
        LOG.info("job '{}': {}=auto placed the map phase on the {}: {}", job.getJobName(),
            DeviceMapperConfigKeys.PLACEMENT, plan.placement().optionName(), plan.reason());
      }
    }
  }

  /**
   * {@code FACTORY_CLASS [arguments ...]}: makes the job with the {@link JobFactory}, configures it
   * for the devices and runs it.
   *
   * @return 0 when the job succeeded, 1 when it failed, 2 for bad arguments
   */
  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 1 || args[0].equals("-h") || args[0].equals("--help")) {
      System.err.println("usage: hadoop jar smartssd-devicemapper.jar " + DeviceJobClient.class.getName()
          + " [-D key=value ...] FACTORY_CLASS [arguments ...]");
      System.err.println("  FACTORY_CLASS implements " + JobFactory.class.getName()
          + ": it makes the configured job from the arguments; its map phase then runs in the devices.");
      return 2;
    }
    Configuration conf = getConf() == null ? new Configuration() : getConf();
    Job job;
    try {
      job = job(conf, args);
    } catch (IllegalArgumentException e) {
      System.err.println("smartssd: " + e.getMessage());
      return 2;
    }
    return job.waitForCompletion(true) ? 0 : 1;
  }

  /**
   * The job {@code FACTORY_CLASS [arguments ...]} makes, configured for the devices, not yet submitted.
   *
   * @throws IllegalArgumentException naming what is wrong: no factory named, no such class, a class that is no
   *     {@link JobFactory}, or arguments the factory refuses
   */
  public static Job job(Configuration conf, String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("name the job's factory: FACTORY_CLASS [arguments ...]");
    }
    Class<?> type;
    try {
      type = conf.getClassByName(args[0]);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("no class " + args[0] + " on the class path");
    }
    if (!JobFactory.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException(args[0] + " does not implement " + JobFactory.class.getName());
    }
    JobFactory factory = (JobFactory) ReflectionUtils.newInstance(type, conf);
    Job job = factory.createJob(conf, Arrays.copyOfRange(args, 1, args.length));
    configure(job);
    return job;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new DeviceJobClient(), args));
  }
}
