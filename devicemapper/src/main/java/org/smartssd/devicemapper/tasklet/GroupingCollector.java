package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.LongConsumer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
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
 * <p>Each key is serialized once, when it is first seen, and a table of the distinct keys is kept from one
 * combine to the next while it holds few keys. A {@code Text} key of up to {@value #SHORT_KEY} bytes is
 * looked up as two words (its bytes and its length), compared as two numbers; a longer key, or a key of
 * another class, by a hash of its serialized bytes (eight at a time) and a comparison of the bytes. Each
 * key's values are kept together, in the order they came: for Hadoop's {@code LongWritable} and
 * {@code IntWritable} as numbers ({@link WritableCodec}), else as their serialized bytes. The combiner
 * reads them in place into one reused value object, as Hadoop's reduce context does. What the combiner
 * writes is buffered as the map's records are, to be combined again with the next ones, as Hadoop combines
 * its spills again when it merges them: a counting job sends each key once per lane. Only when the
 * combined pairs alone fill half the buffer (the combiner no longer shrinks much) do they go to the result
 * batcher before the end.
 *
 * <p>The buffer is full at {@code maxRecords} pairs or {@code maxBytes} serialized bytes, keys and values
 * as Hadoop would hold them (a Text key's length counted as one byte). Where values are numbers, the buffer
 * is checked only now and then: it lets in as many pairs as could come before it is full were each as long
 * as the longest key and its value, then checks again.
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
  /** The longest {@code Text} key looked up as two words: its bytes past the first eight and its length fit the second. */
  static final int SHORT_KEY = 15;

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  /** No key or value object yet: {@link #checkedKey} and {@link #checkedValue} before the first. */
  private static final Object NONE = new Object();
  private static final long M = 0x9E3779B97F4A7C15L;
  private static final long[] NO_NUMBERS = new long[0];
  private static final int[] NO_SPANS = new int[0];

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
  /** Text keys, {@code LongWritable} or {@code IntWritable} values, and a combiner: the mapper's pairs take {@link #collect}'s own path. */
  private final boolean textNumbers;
  private final boolean longValues;
  /** The one value object the combiner reads every value into, as Hadoop's reduce context reuses one. */
  private Object combineValue;
  private Object combineKey;
  /** The last value object {@link #collect} found of the map output's value class. */
  private Object checkedValue = NONE;
  /** The last key object whose class was checked. */
  private Object checkedKey = NONE;

  // ---- the distinct keys ----
  private final ByteArena keyBytes = new ByteArena(4096);
  private int groups;
  /** Each group's key, four ints: its serialized bytes' start and end, where its compared bytes begin, its hash. */
  private int[] info = new int[4 * 64];
  /** The longest serialized key of a group. */
  private int longestKey;
  /**
   * Short Text keys, open addressing: two words a slot ({@link #textGroup}), side by side (one array: one
   * field read a key), the second 0 only for an empty slot.
   */
  private long[] shortWords = new long[2 * 64];
  /** The group of each short-key slot. */
  private int[] shortGroups = new int[64];
  private int shortMask = 63;
  private int shortKeys;
  /** Other keys, open addressing: group + 1, 0 for empty; at most half full. */
  private int[] slots = new int[128];
  private int otherKeys;
  /** A key or a pair serialized to be looked up or handed on. */
  private final ByteArena scratch = new ByteArena(256);
  /** A numeric value serialized to be handed on. */
  private final byte[] number = new byte[8];

  // ---- the buffered pairs: the map's, and while combining, the combiner's ----
  private Records current;
  private Records spare;
  private boolean combining;
  private JobConf combinerView;

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
    this.maxRecords = Math.max(1, maxRecords);
    this.maxBytes = Math.max(1, maxBytes);
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
    this.longValues = valueClass == LongWritable.class;
    this.textNumbers = combiner != null && textKeys && (longValues || valueClass == IntWritable.class);
    this.current = new Records(); // after numericValues: it says how a buffer keeps its values
    this.spare = new Records();
  }

  @Override
  public void collect(Object key, Object value) throws IOException, InterruptedException {
    if (key != checkedKey) { // an object's class never changes: a key or value object is checked once
      checkKey(key);
    }
    if (value != checkedValue) {
      checkValue(value);
    }
    if (!textNumbers) {
      add(key, value);
      return;
    }
    // A Text key and a number: the pair, inline, into its group's values.
    Text t = (Text) key;
    int n = t.getLength();
    int g = textGroup(t.getBytes(), 0, n);
    long v = longValues ? ((LongWritable) value).get() : ((IntWritable) value).get();
    Records r = current;
    int[] sizes = r.sizes;
    int c = sizes[g];
    long[] vs = r.numbers[g];
    if (c == vs.length) {
      vs = r.moreNumbers(g);
    }
    vs[c] = v;
    sizes[g] = c + 1;
    if (c == 0) {
      r.first(g);
    }
    if (--r.room <= 0) {
      full();
    }
  }

  private void checkKey(Object key) throws IOException {
    if (key.getClass() != keyClass) {
      throw new IOException("Type mismatch in key from map: expected " + keyClass.getName() + ", received "
          + key.getClass().getName());
    }
    checkedKey = key;
  }

  private void checkValue(Object value) throws IOException {
    if (value.getClass() != valueClass) {
      throw new IOException("Type mismatch in value from map: expected " + valueClass.getName() + ", received "
          + value.getClass().getName());
    }
    checkedValue = value;
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
    int held;
    if (textKeys) {
      Text t = (Text) key;
      held = t.getLength();
      g = textGroup(t.getBytes(), 0, held);
    } else {
      ByteArena sc = scratch;
      sc.reset();
      keys.write(key, sc);
      held = sc.length;
      g = group(sc.data, 0, held);
    }
    Records r = current;
    if (numericValues) { // its key's bytes are counted group by group (Records#heldBytes)
      r.addNumber(g, numberCodec.toLong(value));
    } else {
      r.held += held;
      ByteArena v = r.values;
      int start = v.length;
      values.write(value, v);
      r.addBytes(g, start, v.length);
    }
    if (--r.room <= 0 || (!numericValues && r.heldBytes() >= maxBytes)) {
      full();
    }
  }

  @Override
  public void collectRaw(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength)
      throws IOException, InterruptedException {
    if (combiner == null) {
      out.add(data, keyOffset, keyLength, data, valueOffset, valueLength);
      return;
    }
    int g;
    int held;
    if (textKeys) {
      int content = keys.contentStart(data, keyOffset);
      held = keyOffset + keyLength - content;
      g = textGroup(data, content, held);
    } else {
      held = keyLength;
      g = group(data, keyOffset, keyLength);
    }
    Records r = current;
    if (numericValues) {
      r.addNumber(g, numberCodec.readLong(data, valueOffset, valueLength));
    } else {
      r.held += held;
      int start = r.values.length;
      r.values.append(data, valueOffset, valueLength);
      r.addBytes(g, start, r.values.length);
    }
    if (--r.room <= 0 || (!numericValues && r.heldBytes() >= maxBytes)) {
      full();
    }
  }

  /**
   * The group of the Text key whose bytes are {@code b[offset, offset + n)}, made when it is new. A short
   * key is two words: its first eight bytes (little-endian, zeros past its end), and its bytes past the
   * eighth with its length plus one in the top byte, which no empty slot has.
   */
  private int textGroup(byte[] b, int offset, int n) {
    if (n > SHORT_KEY) {
      return longTextGroup(b, offset, n);
    }
    long w0;
    long w1 = (long) (n + 1) << 56;
    if (n >= 8) {
      w0 = (long) LONGS.get(b, offset);
      if (n > 8) {
        w1 |= (long) LONGS.get(b, offset + n - 8) >>> (128 - 8 * n);
      }
    } else if (n >= 4) { // two reads that overlap (the bytes they share are the same): no read past the key
      w0 = (int) INTS.get(b, offset) & 0xFFFF_FFFFL | ((int) INTS.get(b, offset + n - 4) & 0xFFFF_FFFFL) << (8 * n - 32);
    } else {
      w0 = shortWord(b, offset, n);
    }
    long[] sw = shortWords;
    int mask = shortMask;
    // shortSlot, written out: this is every record's path
    for (int s = (int) ((w0 + w1) * M >>> 32) & mask; ; s = (s + 1) & mask) {
      int i = s << 1;
      long x = sw[i + 1];
      if (x == w1 && sw[i] == w0) {
        return shortGroups[s];
      }
      if (x == 0) {
        return newShortGroup(s, w0, w1, b, offset, n);
      }
    }
  }

  /** The {@code n} (0 to 3) bytes at {@code b[offset]}, little-endian, zeros above, read within the key. */
  private static long shortWord(byte[] b, int offset, int n) {
    if (n >= 2) {
      long lo = (short) SHORTS.get(b, offset) & 0xFFFFL;
      return lo | ((short) SHORTS.get(b, offset + n - 2) & 0xFFFFL) << (8 * (n - 2));
    }
    return n == 1 ? b[offset] & 0xFFL : 0;
  }

  /** The home slot of a short key's words, before the mask: their sum's multiplicative hash. */
  private static int shortSlot(long w0, long w1) {
    return (int) ((w0 + w1) * M >>> 32);
  }

  private int newShortGroup(int s, long w0, long w1, byte[] b, int offset, int n) {
    int start = keyBytes.length;
    keyBytes.vint(n);
    int content = keyBytes.length;
    keyBytes.append(b, offset, n);
    int g = newGroup(start, content, 0);
    shortWords[2 * s] = w0;
    shortWords[2 * s + 1] = w1;
    shortGroups[s] = g;
    if (++shortKeys * 2 > shortGroups.length) {
      long[] words = shortWords;
      int[] owners = shortGroups;
      shortWords = new long[2 * words.length];
      shortGroups = new int[2 * owners.length];
      shortMask = shortGroups.length - 1;
      for (int i = 0; i < owners.length; i++) {
        if (words[2 * i + 1] != 0) {
          int t = shortSlot(words[2 * i], words[2 * i + 1]) & shortMask;
          while (shortWords[2 * t + 1] != 0) {
            t = (t + 1) & shortMask;
          }
          shortWords[2 * t] = words[2 * i];
          shortWords[2 * t + 1] = words[2 * i + 1];
          shortGroups[t] = owners[i];
        }
      }
    }
    return g;
  }

  /** The group of a Text key longer than {@value #SHORT_KEY} bytes, made when it is new. */
  private int longTextGroup(byte[] b, int offset, int n) {
    int h = ByteArena.hash(b, offset, n);
    int g = find(b, offset, n, h);
    if (g < 0) {
      int start = keyBytes.length;
      keyBytes.vint(n);
      int content = keyBytes.length;
      keyBytes.append(b, offset, n);
      g = newOtherGroup(start, content, h);
    }
    return g;
  }

  /** The group of a serialized key of a class other than Text, made when it is new. */
  private int group(byte[] serialized, int offset, int length) {
    int content = keys.contentStart(serialized, offset);
    int n = offset + length - content;
    int h = ByteArena.hash(serialized, content, n);
    int g = find(serialized, content, n, h);
    if (g < 0) {
      int start = keyBytes.length;
      keyBytes.append(serialized, offset, length);
      g = newOtherGroup(start, start + (content - offset), h);
    }
    return g;
  }

  /** The group in {@link #slots} whose key's compared bytes are {@code b[offset, offset + n)}, or -1. */
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

  private int newOtherGroup(int start, int content, int h) {
    int g = newGroup(start, content, h);
    if (++otherKeys * 2 > slots.length) {
      slots = new int[slots.length * 2];
      for (int i = 0; i < g; i++) {
        if (!textKeys || info[4 * i + 1] - info[4 * i + 2] > SHORT_KEY) { // not in the short-key table
          place(i);
        }
      }
    }
    place(g);
    return g;
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
    longestKey = Math.max(longestKey, keyBytes.length - start);
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

  /**
   * The buffer let in as many pairs as it was allowed: counts what it holds, and spills if it is full
   * (unless the combiner is writing into it), else lets more in.
   */
  private void full() throws IOException, InterruptedException {
    Records r = current;
    r.settle();
    if (!combining && full(r)) {
      spill(false);
      return;
    }
    r.allow(combining ? Integer.MAX_VALUE / 2 : allowance(r));
  }

  /** Whether the next pair might not fit: at the most pairs, or within one longest pair of the most bytes. */
  private boolean full(Records r) {
    return r.count >= maxRecords || r.heldBytes() + longestPair() > maxBytes;
  }

  private long longestPair() {
    return (long) longestKey + (numericValues ? valueWidth : 0);
  }

  /** How many more pairs surely fit in {@code r} (at least one: it is not full). */
  private int allowance(Records r) {
    int byCount = maxRecords - r.count;
    if (!numericValues) {
      return Math.max(1, byCount); // bytes values: what the buffer holds is checked pair by pair
    }
    long byBytes = (maxBytes - r.heldBytes()) / Math.max(1, longestPair());
    return (int) Math.max(1, Math.min(byCount, byBytes));
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
    in.settle();
    if (in.count > 0) {
      current = spare;
      spare = in;
      combining = true;
      current.allow(Integer.MAX_VALUE / 2);
      try {
        combine(in);
      } finally {
        combining = false;
      }
      in.clear();
      current.settle();
      holding.accept(current.heldBytes());
    }
    Records combined = current;
    if (last || combined.count >= Math.max(1, maxRecords / 2) || combined.heldBytes() >= maxBytes / 2) {
      handOn(combined);
      combined.clear();
      if (groups > KEPT_KEYS) { // both buffers are empty: no pair names a group
        forgetKeys();
      }
    }
    combined.allow(allowance(combined));
  }

  private void forgetKeys() {
    groups = 0;
    longestKey = 0;
    keyBytes.reset();
    Arrays.fill(slots, 0);
    otherKeys = 0;
    Arrays.fill(shortWords, 0);
    shortKeys = 0;
    current.forgetGroups();
    spare.forgetGroups();
  }

  /** Hands every buffered pair to the batcher, Hadoop's serialized bytes, key by key. */
  private void handOn(Records r) throws IOException, InterruptedException {
    byte[] k = keyBytes.data;
    int[] in = info;
    for (int o = 0; o < r.orderCount; o++) {
      int g = r.order[o];
      int start = in[4 * g];
      int length = in[4 * g + 1] - start;
      int n = r.sizes[g];
      if (numericValues) {
        long[] vs = r.numbers[g];
        for (int i = 0; i < n; i++) {
          numberCodec.writeLong(vs[i], number, 0);
          out.add(k, start, length, number, 0, valueWidth);
        }
      } else {
        int[] spans = r.spans[g];
        byte[] v = r.values.data;
        for (int i = 0; i < 2 * n; i += 2) {
          out.add(k, start, length, v, spans[i], spans[i + 1] - spans[i]);
        }
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
    Reducer reducer = ReflectionUtils.newInstance(combiner, combinerView);
    GroupedContext context = new GroupedContext(in);
    reducer.run(new WrappedReducer().getReducerContext(context));
    combineValue = context.values.value; // reused by the next combine, as the key is
  }

  /**
   * The buffered pairs, key by key: each group's values in the order they came (as numbers, or where their
   * serialized bytes are in {@link #values}), the groups in the order their first value came.
   */
  private final class Records {
    /** The pairs, once {@link #settle}d. */
    int count;
    /** Pairs that may come before the buffer counts what it holds again (counted down as they come). */
    int room;
    private int allowed;
    /** Each group's values here. */
    int[] sizes = new int[0];
    long[][] numbers = new long[0][];
    /** Bytes values: each group's values' start and end in {@link #values}, two ints a value. */
    int[][] spans = new int[0][];
    final ByteArena values = new ByteArena(numericValues ? 16 : 4096);
    /** The groups with a value here, in the order their first came. */
    int[] order = new int[16];
    int orderCount;
    /**
     * The bytes of the pairs' keys here (a Text key's own bytes, any other key's serialized bytes) and of
     * their values, where values are kept as bytes; with numbers, the keys' bytes are counted group by
     * group when asked ({@link #heldBytes}), not pair by pair. {@link #heldBytes} adds each pair's fixed part.
     */
    long held;

    void ensureGroups(int n) {
      if (sizes.length < n) {
        int size = Math.max(n, sizes.length * 2);
        int from = sizes.length;
        sizes = Arrays.copyOf(sizes, size);
        if (numericValues) {
          numbers = Arrays.copyOf(numbers, size);
          Arrays.fill(numbers, from, size, NO_NUMBERS);
        } else {
          spans = Arrays.copyOf(spans, size);
          Arrays.fill(spans, from, size, NO_SPANS);
        }
      }
    }

    void forgetGroups() {
      if (numericValues) {
        Arrays.fill(numbers, NO_NUMBERS);
      } else {
        Arrays.fill(spans, NO_SPANS);
      }
    }

    long[] moreNumbers(int g) {
      long[] vs = numbers[g];
      return numbers[g] = Arrays.copyOf(vs, Math.max(4, 2 * vs.length));
    }

    /** The group's first pair here: it joins the order. */
    void first(int g) {
      if (orderCount == order.length) {
        order = Arrays.copyOf(order, orderCount * 2);
      }
      order[orderCount++] = g;
    }

    void addNumber(int g, long v) {
      int c = sizes[g];
      long[] vs = numbers[g];
      if (c == vs.length) {
        vs = moreNumbers(g);
      }
      vs[c] = v;
      sizes[g] = c + 1;
      if (c == 0) {
        first(g);
      }
    }

    void addBytes(int g, int start, int stop) {
      int c = sizes[g];
      int[] s = spans[g];
      if (2 * c == s.length) {
        s = spans[g] = Arrays.copyOf(s, Math.max(4, 2 * s.length));
      }
      s[2 * c] = start;
      s[2 * c + 1] = stop;
      sizes[g] = c + 1;
      held += stop - start;
      if (c == 0) {
        first(g);
      }
    }

    /** Lets {@code n} more pairs in before the buffer counts again. */
    void allow(int n) {
      settle();
      allowed = n;
      room = n;
    }

    /** Counts the pairs let in since the last {@link #allow}. */
    void settle() {
      count += allowed - room;
      allowed = room;
    }

    /**
     * The serialized bytes of the pairs here, keys and values, as Hadoop's buffer would hold them, with a Text
     * key's length counted as one byte (Hadoop's vint takes 2 to 5 for a key of 128 bytes or more).
     */
    long heldBytes() {
      settle();
      return held + (numericValues ? keyBytes() : 0) + (long) count * ((textKeys ? 1 : 0) + valueWidth);
    }

    /** The bytes of the pairs' keys here, group by group: a Text key's own bytes, any other key's serialized. */
    private long keyBytes() {
      int[] in = info;
      long bytes = 0;
      for (int o = 0; o < orderCount; o++) {
        int g = order[o];
        bytes += (long) sizes[g] * (in[4 * g + 1] - in[4 * g + (textKeys ? 2 : 0)]);
      }
      return bytes;
    }

    void clear() {
      for (int i = 0; i < orderCount; i++) {
        sizes[order[i]] = 0;
      }
      orderCount = 0;
      count = 0;
      room = 0;
      allowed = 0;
      held = 0;
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
      this.values = valuesOf(in, combineValue);
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
      values.start(group, in.sizes[group]);
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

  private Values valuesOf(Records in, Object value) {
    if (valueClass == LongWritable.class) {
      return new LongValues(in, value == null ? new LongWritable() : (LongWritable) value);
    }
    if (valueClass == IntWritable.class) {
      return new IntValues(in, value == null ? new IntWritable() : (IntWritable) value);
    }
    if (numericValues) {
      return new NumberValues(in, numberCodec, value);
    }
    return new BytesValues(in, values, value);
  }

  /**
   * The values of one group after another, each read into one reused object; the combiner's iterable
   * and iterator of a key's values (the same iterator each time, as Hadoop's: a second loop goes on
   * from where the first stopped). After {@link #start} the current value is the group's first, and the
   * iterator hands it out first without reading it again, as Hadoop's does; every later value is read
   * as it is handed out. So the current value is always the one before {@link #at}, except right after
   * {@code start}, when both are the first ({@code at} is 0).
   */
  private abstract static class Values implements Iterable<Object>, java.util.Iterator<Object> {
    /** The value the iterator hands out next, and the end of the group's. */
    int at;
    int stop;
    Object value;

    Values(Object value) {
      this.value = value;
    }

    /** The group's values are read from now on. */
    abstract void group(int g);

    /** Reads the group's value {@code i} into {@link #value}. */
    abstract void load(int i);

    /** A group of {@code n} values: the current value is its first. */
    final void start(int g, int n) {
      group(g);
      at = 0;
      stop = n;
      load(0);
    }

    final void end() {
      at = stop;
    }

    /** To the group's next value, made current, as Hadoop's {@code nextKeyValue}; false at its end. */
    final boolean moveOn() {
      int k = Math.max(at, 1);
      if (k >= stop) {
        return false;
      }
      load(k);
      at = k + 1;
      return true;
    }

    @Override
    public final java.util.Iterator<Object> iterator() {
      return this;
    }

    @Override
    public final boolean hasNext() {
      return at < stop;
    }

    @Override
    public Object next() {
      int i = at;
      if (i >= stop) {
        throw noMore();
      }
      at = i + 1;
      if (i != 0) {
        load(i);
      }
      return value;
    }

    static java.util.NoSuchElementException noMore() {
      return new java.util.NoSuchElementException("no more values for this key");
    }
  }

  /** {@code LongWritable} values: {@link #next} sets the value itself, the path of every value a combiner reads. */
  private static final class LongValues extends Values {
    private final Records in;
    private final LongWritable into;
    private long[] vs;

    LongValues(Records in, LongWritable into) {
      super(into);
      this.in = in;
      this.into = into;
    }

    @Override
    void group(int g) {
      vs = in.numbers[g];
    }

    @Override
    void load(int i) {
      into.set(vs[i]);
    }

    @Override
    public Object next() {
      int i = at;
      if (i >= stop) {
        throw noMore();
      }
      at = i + 1;
      LongWritable w = into;
      if (i != 0) {
        w.set(vs[i]);
      }
      return w;
    }
  }

  private static final class IntValues extends Values {
    private final Records in;
    private final IntWritable into;
    private long[] vs;

    IntValues(Records in, IntWritable into) {
      super(into);
      this.in = in;
      this.into = into;
    }

    @Override
    void group(int g) {
      vs = in.numbers[g];
    }

    @Override
    void load(int i) {
      into.set((int) vs[i]);
    }

    @Override
    public Object next() {
      int i = at;
      if (i >= stop) {
        throw noMore();
      }
      at = i + 1;
      IntWritable w = into;
      if (i != 0) {
        w.set((int) vs[i]);
      }
      return w;
    }
  }

  private static final class NumberValues extends Values {
    private final Records in;
    private final WritableCodec.Numeric codec;
    private long[] vs;

    NumberValues(Records in, WritableCodec.Numeric codec, Object value) {
      super(value);
      this.in = in;
      this.codec = codec;
    }

    @Override
    void group(int g) {
      vs = in.numbers[g];
    }

    @Override
    void load(int i) {
      value = codec.fromLong(vs[i], value);
    }
  }

  private static final class BytesValues extends Values {
    private final Records in;
    private final WritableCodec codec;
    private int[] spans;

    BytesValues(Records in, WritableCodec codec, Object value) {
      super(value);
      this.in = in;
      this.codec = codec;
    }

    @Override
    void group(int g) {
      spans = in.spans[g];
    }

    @Override
    void load(int i) {
      int start = spans[2 * i];
      try {
        value = codec.read(in.values.data, start, spans[2 * i + 1] - start, value);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
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
