package org.smartssd.devicemapper.tasklet;

import org.smartssd.devicemapper.wire.ResultCodec;
import java.io.IOException;
import java.util.function.LongConsumer;
import java.util.Arrays;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.util.QuickSort;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A lane's small map output buffer for a job whose combiner runs over sorted input (it sets a sort
 * comparator or a combiner grouping comparator): the map output serialized as Hadoop's map output buffer
 * holds it; each time it fills (and at the end) it is sorted with the job's sort comparator and the job's
 * combiner runs over it through Hadoop's own reduce context, as Hadoop runs a combiner over a spill (a new
 * combiner instance each time, grouping with the combiner's grouping comparator). Jobs that set neither
 * group their map output as it comes instead ({@link GroupingCollector}).
 *
 * <p>What the combiner gives back stays in the buffer, to be combined again with the next records,
 * as Hadoop combines its spills again when it merges them. Only when the combined pairs alone fill half
 * the buffer (the combiner no longer shrinks much) do they go to the result batcher before the end.
 */
final class MapOutputCollector implements LaneCollector {
  private final JobConf conf;
  private final TaskAttemptID attempt;
  private final Class<?> keyClass;
  private final Class<?> valueClass;
  @SuppressWarnings("rawtypes")
  private final Class<? extends Reducer> combiner;
  private final StatusReporter reporter;
  private final ResultCodec.PairBatcher out;
  private final int maxRecords;
  private final int maxBytes;

  private final DataOutputBuffer buffer = new DataOutputBuffer();
  private final Serializer<Object> keySerializer;
  private final Serializer<Object> valueSerializer;
  private int[] keyStart = new int[1024];
  private int[] valueStart = new int[1024];
  private int[] valueEnd = new int[1024];
  private int[] order = new int[1024];
  private int count;

  // The combiner's output, serialized one pair at a time into the carry.
  private final DataOutputBuffer scratch = new DataOutputBuffer();
  private final DataOutputBuffer carry = new DataOutputBuffer();
  private final LongConsumer holding;
  private int[] carryKeyLength = new int[1024];
  private int[] carryValueLength = new int[1024];
  private int carried;
  private final Serializer<Object> outKeySerializer;
  private final Serializer<Object> outValueSerializer;
  private final Counter combineInputKeys = new GenericCounter();
  private final Counter combineInputValues = new GenericCounter();
  /** The combiner's view of the job's configuration (made at the first combine). */
  private JobConf combinerView;

  /**
   * @param combiner the job's combiner, or null to hand the map output on as it is
   * @param maxRecords records buffered before the combiner runs
   * @param maxBytes serialized bytes buffered before the combiner runs
   * @param holding told the bytes of the combined pairs after each combine: the lane's partial result,
   *     what it keeps between records (the iSSD's M(f); {@code TaskletContext.holding})
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  MapOutputCollector(JobConf conf, TaskAttemptID attempt, Class<? extends Reducer> combiner, StatusReporter reporter,
      ResultCodec.PairBatcher out, int maxRecords, int maxBytes, LongConsumer holding) throws IOException {
    this.conf = conf;
    this.holding = holding;
    this.attempt = attempt;
    this.keyClass = conf.getMapOutputKeyClass();
    this.valueClass = conf.getMapOutputValueClass();
    this.combiner = combiner;
    this.reporter = reporter;
    this.out = out;
    this.maxRecords = maxRecords;
    this.maxBytes = maxBytes;
    SerializationFactory serializations = new SerializationFactory(conf);
    this.keySerializer = (Serializer<Object>) serializations.getSerializer(keyClass);
    this.valueSerializer = (Serializer<Object>) serializations.getSerializer(valueClass);
    this.outKeySerializer = (Serializer<Object>) serializations.getSerializer(keyClass);
    this.outValueSerializer = (Serializer<Object>) serializations.getSerializer(valueClass);
    if (keySerializer == null || valueSerializer == null) {
      throw new IOException("no serialization in io.serializations for the map output classes "
          + keyClass.getName() + " and " + valueClass.getName());
    }
    keySerializer.open(buffer);
    valueSerializer.open(buffer);
    outKeySerializer.open(scratch);
    outValueSerializer.open(scratch);
  }

  /** The mapper's {@code context.write}, checked as Hadoop's map output buffer checks it. */
  @Override
  public void collect(Object key, Object value) throws IOException, InterruptedException {
    if (key.getClass() != keyClass) {
      throw new IOException("Type mismatch in key from map: expected " + keyClass.getName() + ", received "
          + key.getClass().getName());
    }
    if (value.getClass() != valueClass) {
      throw new IOException("Type mismatch in value from map: expected " + valueClass.getName() + ", received "
          + value.getClass().getName());
    }
    int ks = buffer.getLength();
    keySerializer.serialize(key);
    int vs = buffer.getLength();
    valueSerializer.serialize(value);
    add(ks, vs, buffer.getLength());
  }

  /** A pair already serialized (a lane's partial result, merged on the device). */
  @Override
  public void collectRaw(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength)
      throws IOException, InterruptedException {
    int ks = buffer.getLength();
    buffer.write(data, keyOffset, keyLength);
    int vs = buffer.getLength();
    buffer.write(data, valueOffset, valueLength);
    add(ks, vs, buffer.getLength());
  }

  private void add(int ks, int vs, int ve) throws IOException, InterruptedException {
    record(ks, vs, ve);
    if (count >= maxRecords || buffer.getLength() >= maxBytes) {
      spill(false);
    }
  }

  private void record(int ks, int vs, int ve) {
    if (count == keyStart.length) {
      int n = count * 2;
      keyStart = Arrays.copyOf(keyStart, n);
      valueStart = Arrays.copyOf(valueStart, n);
      valueEnd = Arrays.copyOf(valueEnd, n);
      order = Arrays.copyOf(order, n);
    }
    keyStart[count] = ks;
    valueStart[count] = vs;
    valueEnd[count] = ve;
    order[count] = count;
    count++;
  }

  /** The end of the lane: combines what is buffered and hands everything to the batcher. */
  @Override
  public void finish() throws IOException, InterruptedException {
    spill(true);
  }

  /**
   * Combines what is buffered (at the end, or when the buffer is full) and keeps the combined pairs
   * buffered, unless it is the end or they fill half the buffer: then they go to the batcher.
   * Without a combiner, hands the buffer on as it is.
   */
  private void spill(boolean last) throws IOException, InterruptedException {
    if (count == 0) {
      return;
    }
    if (combiner == null) {
      handOn();
      return;
    }
    carry.reset();
    carried = 0;
    combine(buffer.getData());
    holding.accept(carry.getLength());
    count = 0;
    buffer.reset();
    byte[] pairs = carry.getData();
    int at = 0;
    for (int i = 0; i < carried; i++) {
      int ks = buffer.getLength();
      buffer.write(pairs, at, carryKeyLength[i]);
      at += carryKeyLength[i];
      int vs = buffer.getLength();
      buffer.write(pairs, at, carryValueLength[i]);
      at += carryValueLength[i];
      record(ks, vs, buffer.getLength());
    }
    if (last || count >= Math.max(1, maxRecords / 2) || buffer.getLength() >= maxBytes / 2) {
      handOn();
    }
  }

  /** Hands every buffered pair to the batcher and empties the buffer. */
  private void handOn() throws IOException, InterruptedException {
    byte[] data = buffer.getData();
    for (int i = 0; i < count; i++) {
      out.add(data, keyStart[i], valueStart[i] - keyStart[i], data, valueStart[i], valueEnd[i] - valueStart[i]);
    }
    count = 0;
    buffer.reset();
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private void combine(byte[] data) throws IOException, InterruptedException {
    sort(data);
    // The combiner (the job's code) gets a copy of the configuration, made once a lane as a Hadoop task
    // runs every spill's combiner with its one configuration: what the combiner does to it never
    // reaches the one this collector makes classes from. (A copy for each combine cost a tenth of the
    // lanes' time in the log analysis, measured with JFR.)
    if (combinerView == null) {
      combinerView = new JobConf(conf);
    }
    Reducer reducer = ReflectionUtils.newInstance(combiner, combinerView);
    SortedRun run = new SortedRun(data);
    ReduceContextImpl context = new ReduceContextImpl(combinerView, attempt, run, combineInputKeys, combineInputValues,
        new CombineOutput(), null, reporter, conf.getCombinerKeyGroupingComparator(), keyClass, valueClass);
    reducer.run(new WrappedReducer().getReducerContext(context));
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private void sort(byte[] data) {
    RawComparator sortComparator = conf.getOutputKeyComparator();
    new QuickSort().sort(new IndexedSortable() {
      @Override
      public int compare(int i, int j) {
        int a = order[i];
        int b = order[j];
        return sortComparator.compare(data, keyStart[a], valueStart[a] - keyStart[a], data, keyStart[b],
            valueStart[b] - keyStart[b]);
      }

      @Override
      public void swap(int i, int j) {
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }, 0, count);
  }

  /** The buffer in sorted order, as the combiner's reduce context reads a spill. */
  private final class SortedRun implements RawKeyValueIterator {
    private final byte[] data;
    private final DataInputBuffer key = new DataInputBuffer();
    private final DataInputBuffer value = new DataInputBuffer();
    private final Progress progress = new Progress();
    private int next;
    SortedRun(byte[] data) {
      this.data = data;
    }

    @Override
    public boolean next() {
      if (next >= count) {
        return false;
      }
      int r = order[next++];
      key.reset(data, keyStart[r], valueStart[r] - keyStart[r]);
      value.reset(data, valueStart[r], valueEnd[r] - valueStart[r]);
      return true;
    }

    @Override
    public DataInputBuffer getKey() {
      return key;
    }

    @Override
    public DataInputBuffer getValue() {
      return value;
    }

    @Override
    public Progress getProgress() {
      return progress;
    }

    @Override
    public void close() {}
  }

  /** Where the combiner writes: checked as Hadoop's spill writer checks it, then carried. */
  private final class CombineOutput extends RecordWriter<Object, Object> {
    @Override
    public void write(Object key, Object value) throws IOException, InterruptedException {
      if (key.getClass() != keyClass) {
        throw new IOException("wrong key class: " + key.getClass() + " is not " + keyClass);
      }
      if (value.getClass() != valueClass) {
        throw new IOException("wrong value class: " + value.getClass() + " is not " + valueClass);
      }
      scratch.reset();
      outKeySerializer.serialize(key);
      int keyLength = scratch.getLength();
      outValueSerializer.serialize(value);
      if (carried == carryKeyLength.length) {
        carryKeyLength = Arrays.copyOf(carryKeyLength, carried * 2);
        carryValueLength = Arrays.copyOf(carryValueLength, carried * 2);
      }
      carryKeyLength[carried] = keyLength;
      carryValueLength[carried] = scratch.getLength() - keyLength;
      carried++;
      carry.write(scratch.getData(), 0, scratch.getLength());
    }

    @Override
    public void close(TaskAttemptContext context) {}
  }
}
