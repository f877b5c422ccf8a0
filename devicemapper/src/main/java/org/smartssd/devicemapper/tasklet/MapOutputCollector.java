package org.smartssd.devicemapper.tasklet;

import org.smartssd.devicemapper.wire.ResultCodec;
import java.io.IOException;
import java.util.function.LongConsumer;
import java.util.Arrays;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.MRJobConfig;
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
 * A lane's small map output buffer, inside the device: the map output serialized as Hadoop's map
 * output buffer holds it; each time it fills (and at the end) it is sorted with the job's sort
 * comparator and the job's combiner runs over it, as Hadoop runs a combiner over a spill (a new
 * combiner instance each time, grouping with the combiner's grouping comparator).
 *
 * <p>When the job sets neither a sort comparator nor a combiner grouping comparator, the buffer is
 * grouped by hashing the serialized keys instead of sorting them: the combiner then sees each
 * distinct key once with all its values, as after a sort, in the order keys first appeared (the
 * order of a combiner's input keys is not part of its contract, and the shuffle sorts anyway). With
 * either comparator set, the buffer is sorted with it, as Hadoop does.
 *
 * <p>What the combiner gives back stays in the buffer, to be combined again with the next records,
 * as Hadoop combines its spills again when it merges them: a counting job sends each key once per
 * lane. Only when the combined pairs alone fill half the buffer (the combiner no longer shrinks
 * much) do they go to the result batcher before the end. Without a combiner, the buffer goes to the
 * batcher as it is whenever it fills.
 */
final class MapOutputCollector {
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
  /** Group by hashing the serialized keys rather than sorting (the job sets no comparator). */
  private final boolean hashGrouping;
  private int[] slots = new int[0];
  private int[] groupHead = new int[1024];
  private int[] groupSize = new int[1024];
  private int[] groupOf = new int[1024];

  // The combiner's output, serialized one pair at a time into the carry.
  private final DataOutputBuffer scratch = new DataOutputBuffer();
  private final DataOutputBuffer carry = new DataOutputBuffer();
  private final LongConsumer holding;
  private int[] carryKeyLength = new int[1024];
  private int[] carryValueLength = new int[1024];
  private int carried;
  private final Serializer<Object> outKeySerializer;
  private final Serializer<Object> outValueSerializer;
  /** The combiner's input, read from the buffer (hash grouping: {@link GroupedCombineContext}). */
  private final DataInputBuffer combineIn = new DataInputBuffer();
  private final Deserializer<Object> keyDeserializer;
  private final Deserializer<Object> valueDeserializer;
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
    this.hashGrouping = isEmpty(conf.get(MRJobConfig.KEY_COMPARATOR))
        && isEmpty(conf.get(MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS));
    SerializationFactory serializations = new SerializationFactory(conf);
    this.keySerializer = (Serializer<Object>) serializations.getSerializer(keyClass);
    this.valueSerializer = (Serializer<Object>) serializations.getSerializer(valueClass);
    this.outKeySerializer = (Serializer<Object>) serializations.getSerializer(keyClass);
    this.outValueSerializer = (Serializer<Object>) serializations.getSerializer(valueClass);
    if (keySerializer == null || valueSerializer == null) {
      throw new IOException("no serialization in io.serializations for the map output classes "
          + keyClass.getName() + " and " + valueClass.getName());
    }
    this.keyDeserializer = (Deserializer<Object>) serializations.getDeserializer(keyClass);
    this.valueDeserializer = (Deserializer<Object>) serializations.getDeserializer(valueClass);
    keySerializer.open(buffer);
    valueSerializer.open(buffer);
    if (keyDeserializer != null && valueDeserializer != null) {
      keyDeserializer.open(combineIn);
      valueDeserializer.open(combineIn);
    }
    outKeySerializer.open(scratch);
    outValueSerializer.open(scratch);
  }

  /** The mapper's {@code context.write}, checked as Hadoop's map output buffer checks it. */
  void collect(Object key, Object value) throws IOException, InterruptedException {
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
  void collectRaw(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength)
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
      groupOf = Arrays.copyOf(groupOf, n);
    }
    keyStart[count] = ks;
    valueStart[count] = vs;
    valueEnd[count] = ve;
    order[count] = count;
    count++;
  }

  /** The end of the lane: combines what is buffered and hands everything to the batcher. */
  void finish() throws IOException, InterruptedException {
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
    if (hashGrouping) {
      groupByKeyBytes(data);
    } else {
      sort(data);
    }
    // The combiner (the job's code) gets a copy of the configuration, made once a lane as a Hadoop task
    // runs every spill's combiner with its one configuration: what the combiner does to it never
    // reaches the one this collector makes classes from. (A copy for each combine cost a tenth of the
    // lanes' time in the log analysis, measured with JFR.)
    if (combinerView == null) {
      combinerView = new JobConf(conf);
    }
    Reducer reducer = ReflectionUtils.newInstance(combiner, combinerView);
    SortedRun run = new SortedRun(data);
    ReduceContextImpl context = hashGrouping && keyDeserializer != null && valueDeserializer != null
        ? new GroupedCombineContext(run)
        : new ReduceContextImpl(combinerView, attempt, run, combineInputKeys, combineInputValues, new CombineOutput(),
            null, reporter, conf.getCombinerKeyGroupingComparator(), keyClass, valueClass);
    reducer.run(new WrappedReducer().getReducerContext(context));
  }

  private static boolean isEmpty(String s) {
    return s == null || s.trim().isEmpty();
  }

  /**
   * Orders the buffer so that records with byte-equal keys are adjacent, groups in the order their
   * keys first appear: an open-addressing table of the groups' first records, then a counting sort.
   */
  private void groupByKeyBytes(byte[] data) {
    int capacity = Integer.highestOneBit(Math.max(4, count) * 2 - 1) << 1;
    if (slots.length < capacity) {
      slots = new int[capacity];
    }
    Arrays.fill(slots, 0, capacity, -1);
    int mask = capacity - 1;
    int groups = 0;
    for (int r = 0; r < count; r++) {
      int ks = keyStart[r];
      int kl = valueStart[r] - ks;
      int slot = hash(data, ks, kl) & mask;
      while (true) {
        int g = slots[slot];
        if (g < 0) {
          if (groups == groupHead.length) {
            groupHead = Arrays.copyOf(groupHead, groups * 2);
            groupSize = Arrays.copyOf(groupSize, groups * 2);
          }
          groupHead[groups] = r;
          groupSize[groups] = 1;
          slots[slot] = groups;
          groupOf[r] = groups++;
          break;
        }
        int h = groupHead[g];
        int hs = keyStart[h];
        if (valueStart[h] - hs == kl && Arrays.equals(data, hs, hs + kl, data, ks, ks + kl)) {
          groupSize[g]++;
          groupOf[r] = g;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    // groupSize becomes each group's next position in order[].
    int at = 0;
    for (int g = 0; g < groups; g++) {
      int n = groupSize[g];
      groupSize[g] = at;
      at += n;
    }
    for (int r = 0; r < count; r++) {
      order[groupSize[groupOf[r]]++] = r;
    }
  }

  /**
   * A serialized key's hash for the grouping table: FNV-1a over its bytes, then MurmurHash3's finalizer,
   * so that the low bits the table uses depend on every byte. Hadoop's {@code WritableComparator.hashBytes}
   * (31 h + b) gives an int key's four bytes only about 9,000 distinct values below 100,000 and numbers
   * close together neighbouring slots: a lane grouping a PageRank job's node ids probed for most of the
   * table, about 50,000 counted ops a record.
   */
  static int hash(byte[] data, int start, int length) {
    int h = 0x811c9dc5;
    for (int i = start; i < start + length; i++) {
      h = (h ^ (data[i] & 0xff)) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ h >>> 16;
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

    /** The group of the record {@link #next()} moved to (hash grouping). */
    int group() {
      return groupOf[order[next - 1]];
    }

    /** The group of the record after it, or -1 at the end (hash grouping). */
    int peekGroup() {
      return next < count ? groupOf[order[next]] : -1;
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

  /**
   * The combiner's reduce context over a run grouped by key bytes. Hadoop's {@code ReduceContextImpl}
   * copies and deserializes the key again for every value and compares it with the next one; here the
   * run knows where each group ends, so a group's key is read once and only its values one by one
   * (the combine was four tenths of a lane's time in the log analysis, measured with JFR). What the
   * combiner sees is what Hadoop gives it: each key once with an iterable of its values, read into
   * the same key and value objects; values it does not read are skipped. The key bytes of a group
   * are equal, so reading the key again for each value would give it the same content; a combiner
   * that changes the key object while it iterates sees its change kept. A {@code MarkableIterator}
   * over these values is not supported (it needs Hadoop's own iterator); such a combiner fails with
   * Hadoop's message, and the job can set a comparator to have the buffer sorted and Hadoop's context
   * used instead.
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private final class GroupedCombineContext extends ReduceContextImpl {
    private final SortedRun run;
    /** Whether the run stands at a record not yet made the current one (true after the super constructor's next()). */
    private boolean pending;
    private int group = -1;
    private Object key;
    private Object value;
    /** Whether the current value was handed out by the values' iterator. */
    private boolean valueTaken;
    private final java.util.Iterator<Object> values = new java.util.Iterator<>() {
      @Override
      public boolean hasNext() {
        return !valueTaken || run.peekGroup() == group && group >= 0;
      }

      @Override
      public Object next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException("no more values for this key");
        }
        if (valueTaken) {
          run.next();
          readValue();
        }
        valueTaken = true;
        return value;
      }
    };

    GroupedCombineContext(SortedRun run) throws IOException, InterruptedException {
      // The super constructor moves the run to its first record.
      super(combinerView, attempt, run, combineInputKeys, combineInputValues, new CombineOutput(), null,
          MapOutputCollector.this.reporter,
          null, keyClass, valueClass);
      this.run = run;
      this.pending = count > 0;
    }

    @Override
    public boolean nextKey() throws IOException {
      if (!pending) {
        while (run.peekGroup() == group && group >= 0) { // the values the combiner left: skipped
          run.next();
          combineInputValues.increment(1);
        }
        if (run.peekGroup() < 0) {
          group = -1;
          return false;
        }
        run.next();
      }
      pending = false;
      group = run.group();
      combineIn.reset(run.getKey().getData(), run.getKey().getPosition(),
          run.getKey().getLength() - run.getKey().getPosition());
      key = keyDeserializer.deserialize(key);
      combineInputKeys.increment(1);
      readValue();
      valueTaken = false;
      return true;
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      if (pending || group < 0) {
        return nextKey();
      }
      if (run.peekGroup() != group) {
        return nextKey();
      }
      run.next();
      readValue();
      valueTaken = false;
      return true;
    }

    private void readValue() {
      try {
        combineIn.reset(run.getValue().getData(), run.getValue().getPosition(),
            run.getValue().getLength() - run.getValue().getPosition());
        value = valueDeserializer.deserialize(value);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      combineInputValues.increment(1);
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
    public Iterable getValues() {
      return () -> values;
    }
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
