package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.LongConsumer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A lane's map output buffer that groups the pairs by key as they come, for a job that sets neither a sort
 * comparator nor a combiner grouping comparator (or has no combiner): the combiner then sees each distinct
 * key once with all its values since the last combine, as after a sort, in the order keys first appeared
 * (the order of a combiner's input keys is not part of its contract, and the shuffle sorts anyway).
 *
 * <p>Each key is serialized once, when it is first seen: a table of the distinct keys (their serialized
 * bytes, hashed eight bytes at a time) is kept from one combine to the next while it holds few keys, so
 * that a record whose key is known costs a hash, one probe and a comparison. Each value is kept as its
 * serialized bytes, or, for Hadoop's {@code LongWritable} and {@code IntWritable}, as a number
 * ({@link WritableCodec}); the combiner reads them in place into one reused value object, as Hadoop's
 * reduce context does. What the combiner writes is buffered as the map's records are, to be combined
 * again with the next ones, as Hadoop combines its spills again when it merges them: a counting job sends
 * each key once per lane. Only when the combined pairs alone fill half the buffer (the combiner no longer
 * shrinks much) do they go to the result batcher before the end.
 *
 * <p>Hadoop's semantics are kept: the map output's key and value classes are checked as Hadoop's map
 * output buffer checks them, a new combiner instance runs over each buffer (with the lane's one copy of
 * the configuration), the combiner's output is checked as Hadoop's spill writer checks it, and what goes
 * to the host is Hadoop's serialized bytes. Without a combiner, each pair goes to the batcher as it is
 * written, serialized.
 */
final class GroupingCollector implements LaneCollector {
  /** Distinct keys the table keeps from one buffer to the next; past it, the table starts afresh. */
  static final int KEPT_KEYS = 4096;

  private final JobConf conf;
  private final TaskAttemptID attempt;
  private final Class<?> keyClass;
  private final Class<?> valueClass;
  @SuppressWarnings("rawtypes")
  private final Class<? extends Reducer> combiner;
  private final StatusReporter reporter;
  private final org.smartssd.devicemapper.wire.ResultCodec.PairBatcher out;
  private final int maxRecords;
  private final int maxBytes;
  private final LongConsumer holding;
  private final WritableCodec keys;
  private final WritableCodec values;
  private final boolean textKeys;
  private final boolean numericValues;
  /** The values' codec when the buffer keeps them as numbers, else null. */
  private final WritableCodec.Numeric numberCodec;
  /** The serialized bytes of a numeric value (0 otherwise). */
  private final int valueWidth;

  // ---- the distinct keys ----
  private final ByteArena keyBytes = new ByteArena(4096);
  private int groups;
  /** Each group's key, four ints: its serialized bytes' start and end, where its compared bytes begin, its hash. */
  private int[] info = new int[4 * 64];
  /** Open addressing: group + 1, 0 for empty; at most half full. */
  private int[] slots = new int[128];
  /** A key copied or serialized to be looked up, with room past it (hashed eight bytes at a time). */
  private final ByteArena scratch = new ByteArena(256);
  /** A numeric value serialized to be handed on. */
  private final byte[] number = new byte[8];

  // ---- the buffered pairs: the map's, and while combining, the combiner's ----
  private Records current;
  private Records spare;
  private boolean combining;
  private JobConf combinerView;
  private Object combineKey;
  private Object combineValue;

  @SuppressWarnings("rawtypes")
  GroupingCollector(JobConf conf, TaskAttemptID attempt, Class<? extends Reducer> combiner, StatusReporter reporter,
      org.smartssd.devicemapper.wire.ResultCodec.PairBatcher out, int maxRecords, int maxBytes, LongConsumer holding)
      throws IOException {
    this.conf = conf;
    this.attempt = attempt;
    this.keyClass = conf.getMapOutputKeyClass();
    this.valueClass = conf.getMapOutputValueClass();
    this.combiner = combiner;
    this.reporter = reporter;
    this.out = out;
    this.maxRecords = maxRecords;
    this.maxBytes = maxBytes;
    this.holding = holding;
    SerializationFactory serializations = new SerializationFactory(conf);
    this.keys = WritableCodec.of(keyClass, serializations);
    this.values = WritableCodec.of(valueClass, serializations);
    if (keys == null || values == null) {
      throw new IOException("no serialization in io.serializations for the map output classes "
          + keyClass.getName() + " and " + valueClass.getName());
    }
    this.textKeys = keyClass == Text.class;
    this.numberCodec = values instanceof WritableCodec.Numeric n ? n : null;
    this.numericValues = numberCodec != null;
    this.valueWidth = numericValues ? numberCodec.width() : 0;
    this.current = new Records(); // after numericValues: it says how a buffer keeps its values
    this.spare = new Records();
  }

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
    add(key, value);
  }

  /** A checked pair into the buffer. */
  private void add(Object key, Object value) throws IOException, InterruptedException {
    if (combiner == null) {
      ByteArena sc = scratch;
      sc.reset();
      keys.write(key, sc);
      int keyEnd = sc.length;
      values.write(value, sc);
      out.add(sc.data, 0, keyEnd, sc.data, keyEnd, sc.length - keyEnd);
      return;
    }
    int g;
    if (textKeys) {
      g = textGroup((Text) key);
    } else {
      ByteArena sc = scratch;
      sc.reset();
      keys.write(key, sc);
      g = group(sc.data, 0, sc.length);
    }
    Records r = current;
    if (numericValues) {
      // The pair, inline: the group, the number, the group's count, the bytes held.
      int at = r.count;
      if (at == r.group.length) {
        r.grow();
      }
      r.group[at] = g;
      r.numbers[at] = numberCodec.toLong(value);
      r.count = at + 1;
      int[] counts = r.counts;
      int c = counts[g];
      counts[g] = c + 1;
      if (c == 0) {
        r.first(g);
      }
      int[] in = info;
      r.heldBytes += in[4 * g + 1] - in[4 * g] + valueWidth;
    } else {
      int[] in = info;
      ByteArena v = r.values;
      int start = v.length;
      values.write(value, v);
      r.addBytes(g, start, v.length, in[4 * g + 1] - in[4 * g]);
    }
    if ((r.count >= maxRecords || r.heldBytes >= maxBytes) && !combining) {
      spill(false);
    }
  }


  @Override
  public void collectRaw(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength)
      throws IOException, InterruptedException {
    if (combiner == null) {
      out.add(data, keyOffset, keyLength, data, valueOffset, valueLength);
      return;
    }
    int g = group(data, keyOffset, keyLength);
    Records r = current;
    if (numericValues) {
      r.addNumber(g, numberCodec.readLong(data, valueOffset, valueLength), keyLength + valueWidth);
    } else {
      int start = r.values.length;
      r.values.append(data, valueOffset, valueLength);
      r.addBytes(g, start, r.values.length, keyLength);
    }
    if ((r.count >= maxRecords || r.heldBytes >= maxBytes) && !combining) {
      spill(false);
    }
  }

  /** The group of a Text key, made when it is new. */
  private int textGroup(Text t) {
    int n = t.getLength();
    // Copied first: in the scratch array, with room past them, the bytes are hashed eight at a time.
    ByteArena sc = scratch;
    sc.reset();
    sc.append(t.getBytes(), 0, n);
    byte[] b = sc.data;
    int h = ByteArena.hash(b, 0, n);
    int g = find(b, 0, n, h);
    if (g < 0) {
      int start = keyBytes.length;
      keyBytes.vint(n);
      int content = keyBytes.length;
      keyBytes.append(b, 0, n);
      g = newGroup(start, content, h);
    }
    return g;
  }


  /** The group of a serialized key, made when it is new. */
  private int group(byte[] serialized, int offset, int length) {
    int content = keys.contentStart(serialized, offset);
    int n = offset + length - content;
    int h = ByteArena.hash(serialized, content, n);
    int g = find(serialized, content, n, h);
    if (g < 0) {
      int start = keyBytes.length;
      keyBytes.append(serialized, offset, length);
      g = newGroup(start, start + (content - offset), h);
    }
    return g;
  }

  /** The group whose key's compared bytes are {@code b[offset, offset + n)}, or -1. */
  private int find(byte[] b, int offset, int n, int h) {
    int[] table = slots;
    int[] in = info;
    int mask = table.length - 1;
    for (int s = h & mask; ; s = (s + 1) & mask) {
      int g = table[s] - 1;
      if (g < 0) {
        return -1;
      }
      int i = 4 * g;
      if (in[i + 3] == h) {
        int c = in[i + 2];
        int end = in[i + 1];
        if (end - c == n && Arrays.equals(keyBytes.data, c, end, b, offset, offset + n)) {
          return g;
        }
      }
    }
  }

  /** A new group for the key just appended to {@link #keyBytes} at {@code start}. */
  private int newGroup(int start, int content, int h) {
    int g = groups++;
    if (4 * g == info.length) {
      info = Arrays.copyOf(info, info.length * 2);
    }
    info[4 * g] = start;
    info[4 * g + 1] = keyBytes.length;
    info[4 * g + 2] = content;
    info[4 * g + 3] = h;
    if (groups * 2 > slots.length) {
      slots = new int[slots.length * 2];
      for (int i = 0; i < groups; i++) {
        place(i);
      }
    } else {
      place(g);
    }
    current.ensureGroups(groups);
    spare.ensureGroups(groups);
    return g;
  }

  private void place(int g) {
    int mask = slots.length - 1;
    int s = info[4 * g + 3] & mask;
    while (slots[s] != 0) {
      s = (s + 1) & mask;
    }
    slots[s] = g + 1;
  }

  @Override
  public void finish() throws IOException, InterruptedException {
    spill(true);
  }

  /**
   * Combines what is buffered (at the end, or when the buffer is full) into the other buffer, and keeps
   * the combined pairs buffered, unless it is the end or they fill half the buffer: then they go to the
   * batcher.
   */
  private void spill(boolean last) throws IOException, InterruptedException {
    if (combiner == null) {
      return; // every pair went to the batcher as it came
    }
    Records in = current;
    if (in.count > 0) {
      current = spare;
      spare = in;
      combining = true;
      try {
        combine(in);
      } finally {
        combining = false;
      }
      in.clear();
      holding.accept(current.heldBytes);
    }
    Records combined = current;
    if (last || combined.count >= Math.max(1, maxRecords / 2) || combined.heldBytes >= maxBytes / 2) {
      handOn(combined);
      combined.clear();
      if (groups > KEPT_KEYS) { // both buffers are empty: no pair names a group
        groups = 0;
        keyBytes.reset();
        Arrays.fill(slots, 0);
      }
    }
  }

  /** Hands every buffered pair to the batcher, Hadoop's serialized bytes, in the order they came. */
  private void handOn(Records r) throws IOException, InterruptedException {
    byte[] k = keyBytes.data;
    int[] in = info;
    for (int at = 0; at < r.count; at++) {
      int i = 4 * r.group[at];
      int start = in[i];
      int length = in[i + 1] - start;
      if (numericValues) {
        numberCodec.writeLong(r.numbers[at], number, 0);
        out.add(k, start, length, number, 0, valueWidth);
      } else {
        out.add(k, start, length, r.values.data, r.valueStart[at], r.valueEnd[at] - r.valueStart[at]);
      }
    }
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private void combine(Records in) throws IOException, InterruptedException {
    // The combiner (the job's code) gets a copy of the configuration, made once a lane as a Hadoop task
    // runs every spill's combiner with its one configuration: what it does to it never reaches the one
    // this collector makes classes from.
    if (combinerView == null) {
      combinerView = new JobConf(conf);
    }
    in.arrange();
    Reducer reducer = ReflectionUtils.newInstance(combiner, combinerView);
    GroupedContext context = new GroupedContext(in);
    reducer.run(new WrappedReducer().getReducerContext(context));
    combineValue = context.values.value; // reused by the next combine, as the key is
  }

  /**
   * The buffered pairs in the order they came, each a group and a value; before a combine, arranged group by
   * group ({@link #arrange}: a counting sort), each group's values one after another.
   */
  private final class Records {
    int count;
    int[] group = new int[256];
    /** Each pair's value kept as a number, or where its serialized bytes are in {@link #values}. */
    long[] numbers = new long[numericValues ? 256 : 0];
    int[] valueStart = new int[numericValues ? 0 : 256];
    int[] valueEnd = new int[numericValues ? 0 : 256];
    final ByteArena values = new ByteArena(numericValues ? 16 : 4096);
    /** Each group's pairs here. */
    int[] counts = new int[0];
    /** The groups with a pair here, in the order their first came. */
    int[] order = new int[16];
    int orderCount;
    /** The pairs' serialized bytes, keys and values: what the lane holds. */
    long heldBytes;
    /** Arranged: each group's values, or pairs, from {@code end[g] - counts[g]} to {@code end[g]}. */
    int[] end = new int[0];
    long[] arrangedNumbers = new long[0];
    int[] arrangedPairs = new int[0];

    void ensureGroups(int n) {
      if (counts.length < n) {
        int size = Math.max(n, counts.length * 2);
        counts = Arrays.copyOf(counts, size);
        end = Arrays.copyOf(end, size); // a combine may make groups while it reads the arranged ones
      }
    }

    void grow() {
      int n = group.length * 2;
      group = Arrays.copyOf(group, n);
      if (numericValues) {
        numbers = Arrays.copyOf(numbers, n);
      } else {
        valueStart = Arrays.copyOf(valueStart, n);
        valueEnd = Arrays.copyOf(valueEnd, n);
      }
    }

    private void counted(int g) {
      int c = counts[g];
      counts[g] = c + 1;
      if (c == 0) {
        first(g);
      }
    }

    /** The group's first pair here: it joins the order. */
    void first(int g) {
      if (orderCount == order.length) {
        order = Arrays.copyOf(order, orderCount * 2);
      }
      order[orderCount++] = g;
    }

    void addNumber(int g, long v, long bytes) {
      int at = count;
      if (at == group.length) {
        grow();
      }
      group[at] = g;
      numbers[at] = v;
      count = at + 1;
      heldBytes += bytes;
      counted(g);
    }

    void addBytes(int g, int start, int stop, int keyLength) {
      int at = count;
      if (at == group.length) {
        grow();
      }
      group[at] = g;
      valueStart[at] = start;
      valueEnd[at] = stop;
      count = at + 1;
      heldBytes += keyLength + stop - start;
      counted(g);
    }

    /** Each group's values one after another, the groups in the order they came. */
    void arrange() {
      int at = 0;
      for (int i = 0; i < orderCount; i++) {
        int g = order[i];
        end[g] = at;
        at += counts[g];
      }
      int[] e = end;
      int[] gs = group;
      if (numericValues) {
        if (arrangedNumbers.length < count) {
          arrangedNumbers = new long[Math.max(count, 2 * arrangedNumbers.length)];
        }
        long[] to = arrangedNumbers;
        long[] from = numbers;
        for (int r = 0, n = count; r < n; r++) {
          to[e[gs[r]]++] = from[r];
        }
      } else {
        if (arrangedPairs.length < count) {
          arrangedPairs = new int[Math.max(count, 2 * arrangedPairs.length)];
        }
        int[] to = arrangedPairs;
        for (int r = 0, n = count; r < n; r++) {
          to[e[gs[r]]++] = r;
        }
      }
    }

    void clear() {
      for (int i = 0; i < orderCount; i++) {
        counts[order[i]] = 0;
      }
      orderCount = 0;
      count = 0;
      heldBytes = 0;
      values.reset();
    }
  }

  /** Nothing: the reduce context's own input, which {@link GroupedContext} never reads. */
  private static final class NoInput implements RawKeyValueIterator {
    private final Progress progress = new Progress();

    @Override
    public org.apache.hadoop.io.DataInputBuffer getKey() {
      return null;
    }

    @Override
    public org.apache.hadoop.io.DataInputBuffer getValue() {
      return null;
    }

    @Override
    public boolean next() {
      return false;
    }

    @Override
    public void close() {}

    @Override
    public Progress getProgress() {
      return progress;
    }
  }

  /**
   * The combiner's reduce context over a buffer: each group's key read once into the reused key object,
   * its values one by one into the reused value object, as Hadoop's context hands them (each key once with
   * an iterable of its values; values it does not read are skipped). A combiner that changes the key
   * object while it iterates sees its change kept. A {@code MarkableIterator} over these values is not
   * supported (it needs Hadoop's own iterator); such a combiner fails with Hadoop's message, and the job
   * can set a comparator to have the buffer sorted and Hadoop's context used instead.
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private final class GroupedContext extends ReduceContextImpl {
    private final Records in;
    private int orderIndex = -1;
    private final Values values;

    GroupedContext(Records in) throws IOException, InterruptedException {
      super(combinerView, attempt, new NoInput(), new GenericCounter(), new GenericCounter(), new CombineOutput(),
          null, GroupingCollector.this.reporter, null, keyClass, valueClass);
      this.in = in;
      this.values = new Values(in, GroupingCollector.this.values, numberCodec, combineValue);
    }

    @Override
    public boolean nextKey() throws IOException {
      if (++orderIndex >= in.orderCount) {
        orderIndex = in.orderCount;
        values.end();
        return false;
      }
      int group = in.order[orderIndex];
      int i = 4 * group;
      combineKey = keys.read(keyBytes.data, info[i], info[i + 1] - info[i], combineKey);
      int stop = in.end[group];
      values.start(stop - in.counts[group], stop);
      return true;
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      return values.moveOn() || nextKey();
    }

    @Override
    public Object getCurrentKey() {
      return combineKey;
    }

    @Override
    public Object getCurrentValue() {
      return values.value;
    }

    @Override
    public Iterable getValues() {
      return values;
    }
  }

  /**
   * The values of one group after another, each read into one reused object; the combiner's iterable
   * and iterator of a key's values (the same iterator each time, as Hadoop's: a second loop goes on
   * from where the first stopped).
   */
  private static final class Values implements Iterable<Object>, java.util.Iterator<Object> {
    private final long[] numbers;
    private final int[] pairs;
    private final Records in;
    private final WritableCodec codec;
    /** The codec of numeric values, or null: their serialized bytes are read with {@link #codec}. */
    private final WritableCodec.Numeric numeric;
    /** The current value's place, and the end of its group's; {@code at == stop} when there is none. */
    private int at;
    private int stop;
    /** Whether the current value was handed out by the iterator. */
    private boolean taken;
    Object value;

    Values(Records in, WritableCodec codec, WritableCodec.Numeric numeric, Object value) {
      this.in = in;
      this.numbers = in.arrangedNumbers;
      this.pairs = in.arrangedPairs;
      this.codec = codec;
      this.numeric = numeric;
      this.value = value;
    }

    /** A group's values, {@code [from, to)}: the current value is its first. */
    void start(int from, int to) {
      at = from;
      stop = to;
      read();
      taken = false;
    }

    void end() {
      at = stop;
    }

    /** To the group's next value, made current; false at its end. */
    boolean moveOn() {
      int n = at + 1;
      if (n >= stop) {
        return false;
      }
      at = n;
      read();
      taken = false;
      return true;
    }

    private void read() {
      if (numeric != null) {
        value = numeric.fromLong(numbers[at], value);
        return;
      }
      int r = pairs[at];
      try {
        value = codec.read(in.values.data, in.valueStart[r], in.valueEnd[r] - in.valueStart[r], value);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public java.util.Iterator<Object> iterator() {
      return this;
    }

    @Override
    public boolean hasNext() {
      return taken ? at + 1 < stop : at < stop;
    }

    @Override
    public Object next() {
      if (!taken) {
        if (at >= stop) {
          throw new java.util.NoSuchElementException("no more values for this key");
        }
        taken = true;
        return value;
      }
      int n = at + 1;
      if (n >= stop) {
        throw new java.util.NoSuchElementException("no more values for this key");
      }
      at = n;
      read();
      return value;
    }
  }

  /** Where the combiner writes: checked as Hadoop's spill writer checks it, then buffered. */
  private final class CombineOutput extends RecordWriter<Object, Object> {
    @Override
    public void write(Object key, Object value) throws IOException, InterruptedException {
      if (key.getClass() != keyClass) {
        throw new IOException("wrong key class: " + key.getClass() + " is not " + keyClass);
      }
      if (value.getClass() != valueClass) {
        throw new IOException("wrong value class: " + value.getClass() + " is not " + valueClass);
      }
      add(key, value);
    }

    @Override
    public void close(TaskAttemptContext context) {}
  }
}
