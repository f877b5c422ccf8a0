package org.smartssd.devicemapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * The adapter that runs an unchanged Hadoop {@code Mapper}, with the job's combiner as a partial
 * reduce, as a tasklet inside the device. It runs there, not on the host: it and everything it
 * uses (in this package: {@link MapperDriver}, {@link InputRecords}, {@link MapOutputCollector},
 * {@link ResultCodec}) see only the JDK, the tasklet API and the packages the device shares
 * (Hadoop's). It reaches the job's classes by name through Hadoop's {@code Configuration}, whose
 * class loader is the lane thread's context loader: the tasklet's own.
 *
 * <p>In each lane: {@code onCreate} reads the job's configuration (the host's defaults, an entry of
 * the tasklet's jar, and the job's differences from them, a parameter: {@link JobConfigurations}),
 * makes the mapper (through the generated {@link MapperDriver} subclass) and its {@code
 * Mapper.Context} ({@code WrappedMapper} over a {@code MapContextImpl} whose writer collects into
 * the lane's {@link MapOutputCollector}, with counters of its own); {@code onExecute} calls the
 * mapper's {@code setup}; {@code onDataAvailable} presents each record as Hadoop's input format
 * would ({@link InputRecords}) to {@code map}; the last {@code onRead} calls {@code cleanup}, runs
 * the combiner over what is left, and emits the rest and the lane's counters. Results are
 * {@link ResultCodec} records. As a {@link MergingTasklet}, the controller core can merge the lanes'
 * partial results with the combiner too (option {@code merge=device}).
 */
public final class MapReduceTasklet implements MergingTasklet {
  // ---- parameters (CREATE_OBJECT) ----
  /** The job's configuration as its differences from the defaults in the jar ({@link JobConfigurations}). */
  static final String CONFIGURATION = "configuration";
  /** How records are presented: {@link #INPUT_FIXED_LENGTH} or {@link #INPUT_TEXT}. */
  static final String INPUT = "input";
  static final String INPUT_FIXED_LENGTH = "fixed-length";
  static final String INPUT_TEXT = "text";
  /** The binary name of the generated {@link MapperDriver} subclass of the job's mapper. */
  static final String MAPPER_DRIVER = "mapper-driver";
  /** The combiner's binary name, or empty for none. */
  static final String COMBINER = "combiner";
  /** The split, as the mapper's {@code context.getInputSplit()} shows it: a {@code FileSplit}. */
  static final String SPLIT_PATH = "split-path";
  static final String SPLIT_START = "split-start";
  static final String SPLIT_LENGTH = "split-length";
  /** The map task attempt the device works for. */
  static final String TASK_ATTEMPT = "task-attempt";
  static final String BUFFER_RECORDS = "buffer-records";
  static final String BUFFER_BYTES = "buffer-bytes";
  static final String RESULT_BATCH_BYTES = "result-batch-bytes";

  /** LineRecordReader's limit on line length; the device supports only its default (none). */
  static final String MAX_LINE_LENGTH = "mapreduce.input.linerecordreader.line.maxlength";

  private JobConf conf;
  private InputRecords records;
  private ResultCodec.PairBatcher batcher;
  private MapOutputCollector collector;
  private MapperDriver driver;
  @SuppressWarnings("rawtypes")
  private Mapper.Context mapperContext;
  private final Counters counters = new Counters();
  private final CurrentRecord current = new CurrentRecord();

  /** Cheap: the device constructs one instance to check the class; the work is in {@link #onCreate}. */
  public MapReduceTasklet() {}

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public void onCreate(TaskletContext context) throws Exception {
    Map<String, String> p = context.parameters();
    conf = context.lane() < 0 ? readConfiguration(p) : configuration(p, context.lanes());
    TaskAttemptID attempt = TaskAttemptID.forName(required(p, TASK_ATTEMPT));
    batcher = new ResultCodec.PairBatcher(intParameter(p, RESULT_BATCH_BYTES));
    String combinerName = p.getOrDefault(COMBINER, "");
    Class<? extends Reducer> combiner = combinerName.isEmpty() ? null
        : conf.getClassByName(combinerName).asSubclass(Reducer.class);
    CountersReporter reporter = new CountersReporter(counters);
    collector = new MapOutputCollector(conf, attempt, combiner, reporter, batcher, intParameter(p, BUFFER_RECORDS),
        intParameter(p, BUFFER_BYTES));
    if (context.lane() < 0) {
      return; // the controller core's instance only merges
    }
    records = records(required(p, INPUT), conf);
    Object instance = ReflectionUtils.newInstance(conf.getClassByName(required(p, MAPPER_DRIVER)), conf);
    driver = (MapperDriver) instance;
    InputSplit split = new FileSplit(new Path(required(p, SPLIT_PATH)), Long.parseLong(required(p, SPLIT_START)),
        Long.parseLong(required(p, SPLIT_LENGTH)), new String[0]);
    MapContextImpl mapContext = new MapContextImpl(conf, attempt, current, new LaneWriter(collector), null, reporter,
        split);
    mapperContext = new WrappedMapper().getMapContext(mapContext);
  }

  @Override
  public RecordFormat recordFormat() {
    return records == null ? RecordFormat.raw() : records.format();
  }

  @Override
  public void onExecute(ExecutionInfo execution) throws Exception {
    driver.runSetup(mapperContext);
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception {
    batcher.sink(results);
    InputRecords in = records;
    in.reset(chunk);
    while (in.next()) {
      Object key = in.key();
      Object value = in.value();
      current.key = key;
      current.value = value;
      driver.runMap(key, value, mapperContext);
    }
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws Exception {
    batcher.sink(results);
    if (!last) {
      return; // partial results go out as whole batches; the rest at the end
    }
    driver.runCleanup(mapperContext);
    finish(results);
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws Exception {
    batcher.sink(results);
    byte[] bytes = new byte[0];
    for (TaskletResult result : laneResults) {
      ByteBuffer data = result.data();
      int n = data.remaining();
      if (bytes.length < n) {
        bytes = new byte[Math.max(n, bytes.length * 2)];
      }
      data.duplicate().get(bytes, 0, n);
      if (n > 0 && bytes[0] == ResultCodec.COUNTERS) {
        for (ResultCodec.CounterValue c : ResultCodec.readCounters(bytes, 0, n)) {
          counters.findCounter(c.group(), c.name()).increment(c.value());
        }
        continue;
      }
      ResultCodec.PairCursor pairs = new ResultCodec.PairCursor(bytes, 0, n);
      while (pairs.next()) {
        collector.collectRaw(bytes, pairs.keyOffset, pairs.keyLength, pairs.valueOffset, pairs.valueLength);
      }
    }
    finish(results);
  }

  /** The last of a lane (or of the merge): combine what is buffered, emit it, then the counters. */
  private void finish(ResultSink results) throws Exception {
    collector.finish();
    batcher.flush();
    byte[] counterRecord = ResultCodec.counters(counters);
    if (counterRecord != null) {
      results.emit(counterRecord);
    }
  }

  /**
   * The job's configuration, read once for the lanes of an execution (this class is defined by the
   * tasklet's own class loader, so the cache is the tasklet's) and dropped once each lane has its
   * own copy, as each Hadoop task has its own. Copying costs a fifth of reading.
   */
  private static JobConf configuration;
  private static int copies;

  private static synchronized JobConf configuration(Map<String, String> parameters, int lanes) throws IOException {
    if (configuration == null) {
      configuration = readConfiguration(parameters);
      copies = 0;
    }
    JobConf copy = new JobConf(configuration);
    if (++copies >= lanes) {
      configuration = null; // Hadoop's constructor cache may keep this class alive: keep no more than it
    }
    return copy;
  }

  private static JobConf readConfiguration(Map<String, String> parameters) throws IOException {
    byte[] defaults;
    try (InputStream in = MapReduceTasklet.class.getResourceAsStream("/" + JobConfigurations.DEFAULTS_ENTRY)) {
      if (in == null) {
        throw new IOException("the tasklet's jar has no " + JobConfigurations.DEFAULTS_ENTRY + ": the host's defaults");
      }
      defaults = in.readAllBytes();
    }
    return JobConfigurations.decode(defaults, required(parameters, CONFIGURATION));
  }

  /** The records as the job's input format presents them, read from the job's configuration as Hadoop reads it. */
  private static InputRecords records(String input, JobConf conf) throws IOException {
    if (input.equals(INPUT_FIXED_LENGTH)) {
      int length = conf.getInt("fixedlengthinputformat.record.length", 0);
      if (length <= 0) {
        throw new IOException("fixed record length " + length + " is invalid. It should be set to a value greater"
            + " than zero");
      }
      return InputRecords.fixedLength(length);
    }
    if (input.equals(INPUT_TEXT)) {
      if (conf.getInt(MAX_LINE_LENGTH, Integer.MAX_VALUE) != Integer.MAX_VALUE) {
        throw new IOException(MAX_LINE_LENGTH + " is set: the device does not skip long lines as LineRecordReader does");
      }
      String delimiter = conf.get("textinputformat.record.delimiter");
      if (delimiter == null) {
        return InputRecords.lines();
      }
      byte[] bytes = delimiter.getBytes(StandardCharsets.UTF_8);
      if (bytes.length != 1) {
        throw new IOException("the device cuts records at one byte; textinputformat.record.delimiter has "
            + bytes.length);
      }
      return InputRecords.delimited(bytes[0]);
    }
    throw new IOException("unknown input '" + input + "' (" + INPUT_FIXED_LENGTH + " or " + INPUT_TEXT + ")");
  }

  private static String required(Map<String, String> p, String name) throws IOException {
    String value = p.get(name);
    if (value == null) {
      throw new IOException("parameter " + name + " is missing");
    }
    return value;
  }

  private static int intParameter(Map<String, String> p, String name) throws IOException {
    return Integer.parseInt(required(p, name));
  }

  /** What the mapper's context writes goes to the lane's buffer. */
  private static final class LaneWriter extends RecordWriter<Object, Object> {
    private final MapOutputCollector collector;

    LaneWriter(MapOutputCollector collector) {
      this.collector = collector;
    }

    @Override
    public void write(Object key, Object value) throws IOException, InterruptedException {
      collector.collect(key, value);
    }

    @Override
    public void close(TaskAttemptContext context) {}
  }

  /** The record being mapped, for a mapper that asks its context for the current key or value. */
  private static final class CurrentRecord extends RecordReader<Object, Object> {
    Object key;
    Object value;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {}

    @Override
    public boolean nextKeyValue() {
      return false;
    }

    @Override
    public Object getCurrentKey() {
      return key;
    }

    @Override
    public Object getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() {
      return 0;
    }

    @Override
    public void close() {}
  }
}
