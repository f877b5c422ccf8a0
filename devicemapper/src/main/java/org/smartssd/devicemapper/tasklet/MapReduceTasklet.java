package org.smartssd.devicemapper.tasklet;

import org.smartssd.devicemapper.wire.JobConfigurations;
import org.smartssd.devicemapper.wire.InputSpec;
import org.smartssd.devicemapper.wire.ResultCodec;
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
 * reduce, as a tasklet inside the device. It is the device's own code, not the job's: a device that
 * shares this package ({@code smartssd.device.isp.shared-packages}, as it does by default) runs it
 * from its own class path, trusted, and the tasklet's jar holds only the job's classes, which the
 * device's sandbox checks. It reaches them by name through Hadoop's {@code Configuration}, whose
 * class loader is the lane thread's context loader: the tasklet's own. The job names classes in its
 * configuration, and the host is not trusted: a class this adapter makes must be the job's own (from
 * the tasklet's jar) or one of Hadoop's few it knows ({@link JobClasses}), its configuration cannot
 * read the device's environment or system properties, and its serializations are Hadoop's
 * Writables.
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
  /**
   * The job's configuration as its differences from the defaults in the jar ({@link JobConfigurations}); a
   * large one in parts, {@code configuration.1} and on, {@code configuration.parts} saying how many.
   */
  public static final String CONFIGURATION = "configuration";
  /** How records are presented, as the host decided once: an {@link InputSpec}, encoded. */
  public static final String INPUT = "input";
  /** The binary name of the generated {@link MapperDriver} subclass of the job's mapper. */
  public static final String MAPPER_DRIVER = "mapper-driver";
  /** The combiner's binary name, or empty for none. */
  public static final String COMBINER = "combiner";
  /** The split, as the mapper's {@code context.getInputSplit()} shows it: a {@code FileSplit}. */
  public static final String SPLIT_PATH = "split-path";
  public static final String SPLIT_START = "split-start";
  public static final String SPLIT_LENGTH = "split-length";
  /** The map task attempt the device works for. */
  public static final String TASK_ATTEMPT = "task-attempt";
  public static final String BUFFER_RECORDS = "buffer-records";
  public static final String BUFFER_BYTES = "buffer-bytes";
  public static final String RESULT_BATCH_BYTES = "result-batch-bytes";
  /** The split's file's length (a SequenceFile's or a bzip2 file's split). */
  public static final String FILE_LENGTH = "file-length";
  /** A bzip2 file's split: the block size level in the file's header, '1' to '9' (its fourth byte). */
  public static final String BZIP2_LEVEL = "bzip2-level";
  /** A SequenceFile split's file: the end of its header, its sync mark (hex), its classes. */
  public static final String SEQUENCE_HEADER_END = "sequence-header-end";
  public static final String SEQUENCE_SYNC = "sequence-sync";
  public static final String SEQUENCE_KEY_CLASS = "sequence-key-class";
  public static final String SEQUENCE_VALUE_CLASS = "sequence-value-class";
  /**
   * Execution option: how the map output is written to the execution's output object; {@link
   * #OUTPUT_TEXT} (the only one) writes it as {@code TextOutputFormat}'s lines.
   */
  public static final String OUTPUT_FORMAT = "output-format";
  public static final String OUTPUT_TEXT = "text";
  /** Text lines are written to flash once this many bytes of them wait (and at the lane's end). */
  static final int TEXT_FLUSH_BYTES = 64 << 10;
  /** How a SequenceFile's values are compressed, each on its own: "deflate", "gzip", or empty for not. */
  public static final String SEQUENCE_VALUE_CODEC = "sequence-value-codec";


  private JobConf conf;
  private InputRecords records;
  /** The split's decompression, when it is compressed; else null. */
  private CompressedInput compressed;
  /** The split's SequenceFile records, when it is one; else null. */
  private SequenceInput sequence;
  /** The split's bzip2 text records, when it is one; else null. */
  private Bzip2SplitInput bzip2;
  private int readPast;
  private org.apache.hadoop.io.Writable sequenceKey;
  private org.apache.hadoop.io.Writable sequenceValue;
  private final org.apache.hadoop.io.DataInputBuffer sequenceBytes = new org.apache.hadoop.io.DataInputBuffer();
  /** A record-compressed SequenceFile's value decompression (each value a stream of its own), else null. */
  private GzipInflater valueInflater;
  private byte[] value = new byte[1024];
  private int valueLength;
  private int maxValueBytes;
  private ResultCodec.PairBatcher batcher;
  private LaneCollector collector;
  private MapperDriver driver;
  @SuppressWarnings("rawtypes")
  private LaneContext mapperContext;
  private final Counters counters = new Counters();
  private final CurrentRecord current = new CurrentRecord();
  /** Where the mapper's context writes: the lane's map output buffer, or text lines for the output object. */
  private LaneWriter laneWriter;
  /** The lines of a map-only job's output waiting to go to flash, or null when the output goes to the host. */
  private TextLines text;
  /** The device's files as the job's code reaches them here ({@link DeviceFiles}). */
  private DeviceFiles.Lane files;

  /** Cheap: the device constructs one instance to check the class; the work is in {@link #onCreate}. */
  public MapReduceTasklet() {}

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public void onCreate(TaskletContext context) throws Exception {
    Map<String, String> p = context.parameters();
    ClassLoader code = Thread.currentThread().getContextClassLoader();
    conf = context.lane() < 0 ? readConfiguration(p, code) : configuration(p, context.lanes(), code);
    String authority = new Path(required(p, SPLIT_PATH)).toUri().getAuthority();
    files = new DeviceFiles.Lane(context, authority == null ? "" : authority);
    TaskAttemptID attempt = TaskAttemptID.forName(required(p, TASK_ATTEMPT));
    batcher = new ResultCodec.PairBatcher(intParameter(p, RESULT_BATCH_BYTES));
    String combinerName = p.getOrDefault(COMBINER, "");
    Class<? extends Reducer> combiner = combinerName.isEmpty() ? null
        : JobClasses.combiner(combinerName, code);
    CountersReporter reporter = new CountersReporter(counters);
    collector = collector(conf, attempt, combiner, reporter, batcher, intParameter(p, BUFFER_RECORDS),
        intParameter(p, BUFFER_BYTES), context::holding);
    if (context.lane() < 0) {
      return; // the controller core's instance only merges
    }
    InputSpec spec = spec(required(p, INPUT));
    if (spec.kind() == InputSpec.Kind.SEQUENCE) {
      sequence(p, context.maxRecordBytes(), code);
    } else {
      records = records(spec);
    }
    if (spec.compression() == InputSpec.Compression.BZIP2 && spec.kind() != InputSpec.Kind.FIXED_LENGTH) {
      bzip2(p, spec, context.maxRecordBytes());
    } else if (spec.compression() != InputSpec.Compression.NONE) {
      int level = spec.compression() == InputSpec.Compression.BZIP2 ? level(p) : 0;
      compressed = new CompressedInput(required(p, SPLIT_PATH), spec.compression(), level,
          spec.kind() == InputSpec.Kind.FIXED_LENGTH ? spec.recordLength() : 0, records.format().delimiter(),
          context.maxRecordBytes(), this::map);
    }
    // The job's code gets a copy of the configuration: what it does to it (a Configuration is a Writable,
    // and readFields rewrites it) never reaches the one this runtime confined and makes classes from.
    JobConf jobsView = new JobConf(conf);
    Object instance = ReflectionUtils.newInstance(JobClasses.driver(required(p, MAPPER_DRIVER), code), jobsView);
    driver = (MapperDriver) instance;
    InputSplit split = new FileSplit(new Path(required(p, SPLIT_PATH)), Long.parseLong(required(p, SPLIT_START)),
        Long.parseLong(required(p, SPLIT_LENGTH)), new String[0]);
    laneWriter = new LaneWriter(collector);
    MapContextImpl mapContext = new MapContextImpl(jobsView, attempt, current, laneWriter, null, reporter, split);
    mapperContext = new LaneContext(new WrappedMapper(), mapContext, laneWriter);
  }

  @Override
  public RecordFormat recordFormat() {
    if (sequence != null || bzip2 != null) {
      return RecordFormat.stream(readPast);
    }
    if (records == null) {
      return RecordFormat.raw();
    }
    return compressed != null ? RecordFormat.stream() : records.format();
  }

  @Override
  public void onExecute(ExecutionInfo execution) throws Exception {
    files.forget();
    DeviceFiles.Lane before = DeviceFiles.bind(files);
    try {
      execute(execution);
    } finally {
      DeviceFiles.bind(before);
    }
  }

  private void execute(ExecutionInfo execution) throws Exception {
    String format = execution.options().get(OUTPUT_FORMAT);
    if (execution.hasOutput()) {
      if (!OUTPUT_TEXT.equals(format)) {
        throw new IOException("execution " + execution.executionId() + " names an output object but option "
            + OUTPUT_FORMAT + " is '" + format + "', not " + OUTPUT_TEXT);
      }
      text = new TextLines(conf.get("mapreduce.output.textoutputformat.separator", "\t"),
          counters.findCounter(org.apache.hadoop.mapreduce.TaskCounter.MAP_OUTPUT_RECORDS));
      laneWriter.text(text);
      mapperContext.to = laneWriter.to;
    } else if (format != null) {
      throw new IOException("option " + OUTPUT_FORMAT + "=" + format + " but the execution names no output object");
    }
    driver.runSetup(mapperContext);
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception {
    DeviceFiles.Lane before = DeviceFiles.bind(files);
    try {
      dataAvailable(chunk, results);
    } finally {
      DeviceFiles.bind(before);
    }
  }

  private void dataAvailable(DataChunk chunk, ResultSink results) throws Exception {
    batcher.sink(results);
    if (compressed != null) {
      compressed.feed(chunk); // whole records, as they come out, to map
    } else if (bzip2 != null) {
      bzip2.feed(chunk); // the split's records, as they come out, to map
    } else if (sequence != null) {
      sequence.feed(chunk); // each record, as it is whole, to mapSequenceRecord
    } else {
      map(chunk);
    }
    if (text != null && text.waiting() >= TEXT_FLUSH_BYTES) {
      text.flushTo(results);
    }
  }

  /** A SequenceFile's record, read into the reused key and value as Hadoop's reader reads it, mapped. */
  private void mapSequenceRecord(byte[] bytes, int keyOffset, int keyLength, int valueOffset, int valueLength)
      throws Exception {
    sequenceBytes.reset(bytes, keyOffset, keyLength);
    sequenceKey.readFields(sequenceBytes);
    if (valueInflater == null) {
      sequenceBytes.reset(bytes, valueOffset, valueLength);
    } else {
      this.valueLength = 0;
      valueInflater.reset();
      valueInflater.feed(bytes, valueOffset, valueLength);
      valueInflater.finish();
      sequenceBytes.reset(value, 0, this.valueLength);
    }
    sequenceValue.readFields(sequenceBytes);
    current.key = sequenceKey;
    current.value = sequenceValue;
    driver.runMap(sequenceKey, sequenceValue, mapperContext);
  }

  /** A compressed value's bytes as they come out, gathered (at most what the device lets a record hold). */
  private void decompressedValue(byte[] bytes, int offset, int length) throws IOException {
    if (valueLength + length > maxValueBytes) {
      throw new IOException("a SequenceFile value decompresses to more than " + maxValueBytes + " bytes, the most the"
          + " device allows (smartssd.device.isp.max-record-bytes)");
    }
    if (value.length - valueLength < length) {
      value = java.util.Arrays.copyOf(value, Math.max(valueLength + length, 2 * value.length));
    }
    System.arraycopy(bytes, offset, value, valueLength, length);
    valueLength += length;
  }

  /** Sets up the reading of a SequenceFile split, from the split's parameters. */
  private void sequence(Map<String, String> p, int maxRecordBytes, ClassLoader code) throws IOException {
    byte[] sync;
    try {
      sync = java.util.HexFormat.of().parseHex(required(p, SEQUENCE_SYNC));
    } catch (IllegalArgumentException e) {
      throw new IOException("parameter " + SEQUENCE_SYNC + " is not hexadecimal: " + e.getMessage(), e);
    }
    long start = Long.parseLong(required(p, SPLIT_START));
    long end = start + Long.parseLong(required(p, SPLIT_LENGTH));
    JobConf readers = new JobConf(conf);
    sequenceKey = ReflectionUtils.newInstance(
        JobClasses.writable(required(p, SEQUENCE_KEY_CLASS), code, "the SequenceFile's key class"), readers);
    sequenceValue = ReflectionUtils.newInstance(
        JobClasses.writable(required(p, SEQUENCE_VALUE_CLASS), code, "the SequenceFile's value class"), readers);
    String codec = p.getOrDefault(SEQUENCE_VALUE_CODEC, "");
    switch (codec) {
      case "" -> valueInflater = null;
      case "deflate" -> valueInflater = GzipInflater.zlib(this::decompressedValue);
      case "gzip" -> valueInflater = new GzipInflater(this::decompressedValue);
      default -> throw new IOException("parameter " + SEQUENCE_VALUE_CODEC + ": unknown codec '" + codec + "'");
    }
    this.maxValueBytes = maxRecordBytes;
    readPast = SequenceInput.readPast(maxRecordBytes);
    sequence = new SequenceInput(required(p, SPLIT_PATH), start, end, Long.parseLong(required(p, SEQUENCE_HEADER_END)),
        sync, Long.parseLong(required(p, FILE_LENGTH)), maxRecordBytes, this::mapSequenceRecord);
  }

  /** Sets up the reading of a bzip2 file's split of text, from the split's parameters. */
  private void bzip2(Map<String, String> p, InputSpec spec, int maxRecordBytes) throws IOException {
    String path = required(p, SPLIT_PATH);
    long start = longParameter(p, SPLIT_START);
    long end = start + longParameter(p, SPLIT_LENGTH);
    long fileLength = longParameter(p, FILE_LENGTH);
    int level = level(p);
    if (start < 0 || end <= start || end > fileLength) {
      throw new IOException("parameters " + SPLIT_START + ", " + SPLIT_LENGTH + ", " + FILE_LENGTH + ": split ["
          + start + ", " + end + ") is not a part of a file of " + fileLength + " bytes");
    }
    readPast = Bzip2SplitInput.readPast(level, maxRecordBytes);
    int delimiter = spec.kind() == InputSpec.Kind.DELIMITED ? spec.delimiter() & 0xFF : Bzip2SplitInput.DEFAULT_LINES;
    bzip2 = new Bzip2SplitInput(path, start, end, fileLength, level, delimiter, maxRecordBytes, this::map);
  }

  private static int level(Map<String, String> p) throws IOException {
    int level = intParameter(p, BZIP2_LEVEL);
    if (level < 1 || level > Bzip2Decoder.MAX_LEVEL) {
      throw new IOException("parameter " + BZIP2_LEVEL + ": " + level + " is not a bzip2 block size level (1 to 9)");
    }
    return level;
  }

  /** Maps the records of a chunk of whole ones. */
  private void map(DataChunk chunk) throws Exception {
    InputRecords in = records;
    in.reset(chunk);
    in.mapAll(driver, mapperContext, current);
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws Exception {
    DeviceFiles.Lane before = DeviceFiles.bind(files);
    try {
      read(results, last);
    } finally {
      DeviceFiles.bind(before);
    }
  }

  private void read(ResultSink results, boolean last) throws Exception {
    batcher.sink(results);
    if (!last) {
      return; // partial results go out as whole batches; the rest at the end
    }
    if (compressed != null) {
      compressed.finish();
    }
    if (bzip2 != null) {
      bzip2.finish();
    }
    if (sequence != null) {
      sequence.finish();
    }
    driver.runCleanup(mapperContext);
    if (text != null) {
      text.flushTo(results);
    }
    finish(results);
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws Exception {
    DeviceFiles.Lane before = DeviceFiles.bind(files);
    try {
      merge(laneResults, results);
    } finally {
      DeviceFiles.bind(before);
    }
  }

  private void merge(List<TaskletResult> laneResults, ResultSink results) throws Exception {
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

  /** A job's configuration read once for the lanes of an execution, until each lane has its copy. */
  private static final class SharedConfiguration {
    final JobConf conf;
    int copies;

    SharedConfiguration(JobConf conf) {
      this.conf = conf;
    }
  }

  /**
   * The configurations being copied, by the tasklet's class loader: this class is the device's, one
   * for every tasklet, so a tasklet's configuration is only ever its own. Dropped once each lane has
   * its own copy, as each Hadoop task has its own (copying costs a fifth of reading).
   */
  private static final Map<ClassLoader, SharedConfiguration> CONFIGURATIONS = new java.util.WeakHashMap<>();

  private static JobConf configuration(Map<String, String> parameters, int lanes, ClassLoader code)
      throws IOException {
    synchronized (CONFIGURATIONS) {
      SharedConfiguration shared = CONFIGURATIONS.get(code);
      if (shared == null) {
        shared = new SharedConfiguration(readConfiguration(parameters, code));
        CONFIGURATIONS.put(code, shared);
      }
      JobConf copy = new JobConf(shared.conf);
      if (++shared.copies >= lanes) {
        CONFIGURATIONS.remove(code);
      }
      return copy;
    }
  }

  private static JobConf readConfiguration(Map<String, String> parameters, ClassLoader code) throws IOException {
    byte[] defaults;
    try (InputStream in = code.getResourceAsStream(JobConfigurations.DEFAULTS_ENTRY)) {
      if (in == null) {
        throw new IOException("the tasklet's jar has no " + JobConfigurations.DEFAULTS_ENTRY + ": the host's defaults");
      }
      defaults = in.readAllBytes();
    }
    JobConf conf = JobConfigurations.decode(defaults, JobConfigurations.getDifferences(parameters, CONFIGURATION));
    JobClasses.confine(conf, code);
    return conf;
  }

  /**
   * The lane's map output buffer: grouped by key as the pairs come ({@link GroupingCollector}) unless the
   * job has a combiner and sets a sort or combiner grouping comparator, which the buffer is then sorted
   * with, as Hadoop sorts a spill ({@link MapOutputCollector}).
   */
  @SuppressWarnings("rawtypes")
  static LaneCollector collector(JobConf conf, TaskAttemptID attempt, Class<? extends Reducer> combiner,
      CountersReporter reporter, ResultCodec.PairBatcher batcher, int maxRecords, int maxBytes,
      java.util.function.LongConsumer holding) throws IOException {
    boolean comparators = !isEmpty(conf.get(org.apache.hadoop.mapreduce.MRJobConfig.KEY_COMPARATOR))
        || !isEmpty(conf.get(org.apache.hadoop.mapreduce.MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS));
    return combiner != null && comparators
        ? new MapOutputCollector(conf, attempt, combiner, reporter, batcher, maxRecords, maxBytes, holding)
        : new GroupingCollector(conf, attempt, combiner, reporter, batcher, maxRecords, maxBytes, holding);
  }

  private static boolean isEmpty(String s) {
    return s == null || s.trim().isEmpty();
  }

  private static InputSpec spec(String input) throws IOException {
    try {
      return InputSpec.parse(input);
    } catch (IllegalArgumentException e) {
      throw new IOException("parameter " + INPUT + ": " + e.getMessage(), e);
    }
  }

  /** The records as the job's input format presents them, as the host decided ({@link InputSpec}). */
  private static InputRecords records(InputSpec spec) {
    return switch (spec.kind()) {
      case FIXED_LENGTH -> InputRecords.fixedLength(spec.recordLength());
      case LINES -> InputRecords.lines();
      case DELIMITED -> InputRecords.delimited(spec.delimiter());
      case KEY_VALUE -> InputRecords.keyValue(spec.delimiter());
      case SEQUENCE -> throw new IllegalArgumentException("a SequenceFile's records are read by SequenceInput");
    };
  }

  private static String required(Map<String, String> p, String name) throws IOException {
    String value = p.get(name);
    if (value == null) {
      throw new IOException("parameter " + name + " is missing");
    }
    return value;
  }

  private static int intParameter(Map<String, String> p, String name) throws IOException {
    try {
      return Integer.parseInt(required(p, name));
    } catch (NumberFormatException e) {
      throw new IOException("parameter " + name + ": '" + p.get(name) + "' is not a number", e);
    }
  }

  private static long longParameter(Map<String, String> p, String name) throws IOException {
    try {
      return Long.parseLong(required(p, name));
    } catch (NumberFormatException e) {
      throw new IOException("parameter " + name + ": '" + p.get(name) + "' is not a number", e);
    }
  }

  /**
   * The mapper's context: Hadoop's ({@code WrappedMapper.Context} over a {@code MapContextImpl}), whose
   * {@code write} goes straight to the lane's writer, as Hadoop's goes there through the task context.
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private static final class LaneContext extends WrappedMapper.Context {
    /** Where the lane's writer writes (kept the same as its {@link LaneWriter#to}). */
    LaneCollector to;

    LaneContext(WrappedMapper outer, MapContextImpl context, LaneWriter writer) {
      outer.super(context);
      this.to = writer.to;
    }

    /** Straight to where the writer writes: the mapper's pairs take no detour through the wrapped context. */
    @Override
    public void write(Object key, Object value) throws IOException, InterruptedException {
      to.collect(key, value);
    }
  }

  /**
   * What the mapper's context writes goes to the lane's buffer, or, for an execution that writes the job's
   * output itself, to the output object's text lines.
   */
  private static final class LaneWriter extends RecordWriter<Object, Object> {
    LaneCollector to;

    LaneWriter(LaneCollector collector) {
      this.to = collector;
    }

    void text(TextLines text) {
      to = new LaneCollector() {
        @Override
        public void collect(Object key, Object value) throws IOException, InterruptedException {
          text.write(key, value);
        }

        @Override
        public void collectRaw(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
          throw new IllegalStateException("a map-only execution's output has no serialized pairs");
        }

        @Override
        public void finish() {}
      };
    }

    @Override
    public void write(Object key, Object value) throws IOException, InterruptedException {
      to.collect(key, value);
    }

    @Override
    public void close(TaskAttemptContext context) {}
  }

  /** The record being mapped, for a mapper that asks its context for the current key or value. */
  static final class CurrentRecord extends RecordReader<Object, Object> {
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
