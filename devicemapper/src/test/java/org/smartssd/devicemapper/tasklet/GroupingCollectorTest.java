package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.junit.jupiter.api.Test;
import org.smartssd.devicemapper.wire.ResultCodec;

/**
 * The buffer that groups the map output by key as it comes: for Hadoop's own classes (kept in their
 * serialized form by the buffer itself, or as numbers) and for any other Writable (through its Hadoop
 * serializer), every key's combined value is right and what goes to the host is Hadoop's bytes.
 */
class GroupingCollectorTest {

  /** A Writable the buffer knows nothing of: a pair of ints. */
  public static final class Point implements Writable {
    int x;
    int y;

    @Override
    public void write(java.io.DataOutput out) throws IOException {
      out.writeInt(x);
      WritableUtils.writeVInt(out, y);
    }

    @Override
    public void readFields(java.io.DataInput in) throws IOException {
      x = in.readInt();
      y = WritableUtils.readVInt(in);
    }
  }

  /** Sums the y of a point's values into one point, keyed by the point. */
  public static final class PointSum extends Reducer<Point, IntWritable, Point, IntWritable> {
    @Override
    protected void reduce(Point key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      int sum = 0;
      for (IntWritable v : values) {
        sum += v.get();
      }
      context.write(key, new IntWritable(sum));
    }
  }

  /** Keeps the longest of a key's values (bytes of any length: the buffer keeps them serialized). */
  public static final class Longest extends Reducer<Text, BytesWritable, Text, BytesWritable> {
    @Override
    protected void reduce(Text key, Iterable<BytesWritable> values, Context context)
        throws IOException, InterruptedException {
      BytesWritable best = new BytesWritable();
      for (BytesWritable v : values) {
        if (v.getLength() > best.getLength()) {
          best.set(v);
        }
      }
      context.write(key, best);
    }
  }

  @Test
  void longAndShortTextKeysOfEveryLengthAndByteGroupExactly() throws Exception {
    Random random = new Random(11);
    List<Text> keys = new ArrayList<>();
    for (int n = 0; n <= 300; n += (n < 20 ? 1 : 37)) { // one-byte and two-byte lengths, around 8 and 16
      byte[] b = new byte[n];
      random.nextBytes(b);
      keys.add(new Text(b));
      byte[] sameButLast = b.clone();
      if (n > 0) {
        sameButLast[n - 1] ^= 1;
        keys.add(new Text(sameButLast));
      }
    }
    Map<String, Long> expected = new TreeMap<>();
    List<Object[]> input = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      Text k = keys.get(random.nextInt(keys.size()));
      long v = random.nextInt(1000) - 500;
      input.add(new Object[] {new Text(k), new LongWritable(v)});
      expected.merge(hex(k), v, Long::sum);
    }
    for (int buffer : new int[] {1, 50, 100_000}) {
      Map<String, Long> sums = new TreeMap<>();
      for (Object[] pair : run(Text.class, LongWritable.class, LongSumReducer.class, buffer, input)) {
        sums.merge(hex((Text) pair[0]), ((LongWritable) pair[1]).get(), Long::sum);
      }
      assertThat(sums).as("buffer of %d", buffer).isEqualTo(expected);
    }
  }

  @Test
  void aWritableTheBufferDoesNotKnowGoesThroughItsSerializer() throws Exception {
    Random random = new Random(5);
    Map<String, Integer> expected = new HashMap<>();
    List<Object[]> input = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      Point p = new Point();
      p.x = random.nextInt(20);
      p.y = random.nextInt(3) * 1000; // vints of one and of two bytes
      int v = random.nextInt(10);
      input.add(new Object[] {p, new IntWritable(v)});
      expected.merge(p.x + "," + p.y, v, Integer::sum);
    }
    Map<String, Integer> sums = new HashMap<>();
    List<Object[]> out = run(Point.class, IntWritable.class, PointSum.class, 64, input);
    for (Object[] pair : out) {
      Point p = (Point) pair[0];
      sums.merge(p.x + "," + p.y, ((IntWritable) pair[1]).get(), Integer::sum);
    }
    assertThat(sums).isEqualTo(expected);
  }

  @Test
  void valuesOfAnyLengthAreKeptSerializedAndNullValuesAsNothing() throws Exception {
    Random random = new Random(9);
    List<Object[]> input = new ArrayList<>();
    Map<String, Integer> longest = new TreeMap<>();
    for (int i = 0; i < 3000; i++) {
      String k = "k" + random.nextInt(25);
      byte[] b = new byte[random.nextInt(300)];
      random.nextBytes(b);
      input.add(new Object[] {new Text(k), new BytesWritable(b)});
      longest.merge(k, b.length, Math::max);
    }
    Map<String, Integer> found = new TreeMap<>();
    for (Object[] pair : run(Text.class, BytesWritable.class, Longest.class, 100, input)) {
      found.merge(pair[0].toString(), ((BytesWritable) pair[1]).getLength(), Math::max);
    }
    assertThat(found).isEqualTo(longest);

    List<Object[]> nulls = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      nulls.add(new Object[] {new Text("n" + (i % 3)), NullWritable.get()});
    }
    List<Object[]> out = run(Text.class, NullWritable.class, null, 10, nulls);
    assertThat(out).hasSize(100); // no combiner: every pair, as written
  }

  @Test
  void pairsMergedOnTheControllerGroupWithTheLanesOwn() throws Exception {
    JobConf conf = conf(Text.class, IntWritable.class);
    List<byte[]> results = new ArrayList<>();
    ResultCodec.PairBatcher batcher = batcher(results);
    LaneCollector c = MapReduceTasklet.collector(conf, attempt(), IntSumReducer.class,
        new CountersReporter(new Counters()), batcher, 1000, 1 << 20, b -> {});
    DataOutputBuffer pair = new DataOutputBuffer();
    for (int i = 0; i < 30; i++) {
      pair.reset();
      new Text("key-" + (i % 3)).write(pair);
      int keyLength = pair.getLength();
      new IntWritable(i).write(pair);
      c.collectRaw(pair.getData(), 0, keyLength, keyLength, pair.getLength() - keyLength);
    }
    c.collect(new Text("key-0"), new IntWritable(1000));
    c.finish();
    batcher.flush();
    Map<String, Integer> sums = new TreeMap<>();
    for (Object[] p : decode(results, Text.class, IntWritable.class)) {
      sums.merge(p[0].toString(), ((IntWritable) p[1]).get(), Integer::sum);
    }
    assertThat(sums).containsExactlyEntriesOf(new TreeMap<>(Map.of("key-0", 135 + 1000, "key-1", 145, "key-2", 155)));
  }

  @Test
  void manyDistinctKeysAreEachCombinedAndTheTableStartsAfresh() throws Exception {
    List<Object[]> input = new ArrayList<>();
    for (int i = 0; i < 3 * GroupingCollector.KEPT_KEYS; i++) {
      input.add(new Object[] {new IntWritable(i % (2 * GroupingCollector.KEPT_KEYS)), new LongWritable(1)});
    }
    Map<Integer, Long> sums = new TreeMap<>();
    for (Object[] p : run(IntWritable.class, LongWritable.class, LongSumReducer.class, 500, input)) {
      sums.merge(((IntWritable) p[0]).get(), ((LongWritable) p[1]).get(), Long::sum);
    }
    assertThat(sums).hasSize(2 * GroupingCollector.KEPT_KEYS);
    assertThat(sums.get(0)).isEqualTo(2);
    assertThat(sums.get(GroupingCollector.KEPT_KEYS + 1)).isEqualTo(1);
  }

  @Test
  void aPairOfTheWrongClassIsRefusedAsHadoopRefusesIt() throws Exception {
    LaneCollector c = MapReduceTasklet.collector(conf(Text.class, LongWritable.class), attempt(), LongSumReducer.class,
        new CountersReporter(new Counters()), batcher(new ArrayList<>()), 10, 1 << 20, b -> {});
    assertThatThrownBy(() -> c.collect(new Text("a"), new IntWritable(1)))
        .hasMessage("Type mismatch in value from map: expected org.apache.hadoop.io.LongWritable, received "
            + "org.apache.hadoop.io.IntWritable");
    // Each key and value object's class is checked once: a new object of the wrong class is refused after
    // good ones.
    LongWritable one = new LongWritable(1);
    c.collect(new Text("a"), one);
    assertThatThrownBy(() -> c.collect(new IntWritable(1), one))
        .hasMessage("Type mismatch in key from map: expected org.apache.hadoop.io.Text, received "
            + "org.apache.hadoop.io.IntWritable");
  }

  /** The hash depends on the bytes alone, not on where they are. */
  @Test
  void theHashOfTheSameBytesIsTheSameWhereverTheyAre() {
    Random random = new Random(2);
    for (int n = 0; n < 40; n++) {
      byte[] b = new byte[n];
      random.nextBytes(b);
      int h = ByteArena.hash(b, 0, n);
      for (int offset : new int[] {1, 3, 9}) {
        for (int after : new int[] {0, 1, 7, 9}) {
          byte[] placed = new byte[offset + n + after];
          random.nextBytes(placed);
          System.arraycopy(b, 0, placed, offset, n);
          assertThat(ByteArena.hash(placed, offset, n)).as("%d bytes at %d, %d after", n, offset, after).isEqualTo(h);
        }
      }
    }
  }

  /**
   * Keys of many lengths written through one reused Text (its array longer than the key, stale bytes past
   * it) group as copies of them do, and the buffer never holds more bytes than it may: its counts of what
   * it holds, checked now and then, stop it before the bound whatever the keys' lengths.
   */
  @Test
  void aReusedKeyGroupsAsItsCopiesAndTheBufferKeepsToItsBytes() throws Exception {
    Random random = new Random(23);
    Map<String, Long> expected = new TreeMap<>();
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      byte[] b = new byte[random.nextInt(i % 3 == 0 ? 40 : 9)];
      random.nextBytes(b);
      keys.add(b);
    }
    int maxBytes = 2000;
    List<Long> held = new ArrayList<>();
    List<byte[]> results = new ArrayList<>();
    ResultCodec.PairBatcher batcher = batcher(results);
    LaneCollector c = MapReduceTasklet.collector(conf(Text.class, LongWritable.class), attempt(),
        LongSumReducer.class, new CountersReporter(new Counters()), batcher, 1 << 20, maxBytes, held::add);
    Text reused = new Text(new byte[64]); // room past every key, and bytes there that are not the key's
    LongWritable value = new LongWritable();
    for (int i = 0; i < 30_000; i++) {
      byte[] k = keys.get(random.nextInt(keys.size()));
      reused.set(k);
      long v = random.nextInt(100);
      value.set(v);
      c.collect(reused, value);
      expected.merge(java.util.HexFormat.of().formatHex(k), v, Long::sum);
    }
    c.finish();
    batcher.flush();
    Map<String, Long> sums = new TreeMap<>();
    for (Object[] pair : decode(results, Text.class, LongWritable.class)) {
      sums.merge(hex((Text) pair[0]), ((LongWritable) pair[1]).get(), Long::sum);
    }
    assertThat(sums).isEqualTo(expected);
    assertThat(held).as("the bytes held after each combine").isNotEmpty().allSatisfy(b -> assertThat(b)
        .isLessThanOrEqualTo((long) maxBytes));
  }

  /** A vint as the arena writes it reads back through Hadoop's WritableUtils, and is as long as it says. */
  @Test
  void vintsAreHadoops() throws IOException {
    for (int v : new int[] {0, 1, 127, 128, 255, 256, 65_535, 65_536, 16_777_215, 16_777_216, Integer.MAX_VALUE}) {
      ByteArena a = new ByteArena(16);
      a.vint(v);
      DataOutputBuffer hadoop = new DataOutputBuffer();
      WritableUtils.writeVInt(hadoop, v);
      assertThat(Arrays.copyOf(a.data, a.length)).as("%d", v).isEqualTo(Arrays.copyOf(hadoop.getData(),
          hadoop.getLength()));
      assertThat(ByteArena.vintSize(a.data[0])).isEqualTo(a.length);
    }
  }

  // ---- helpers ----

  private static String hex(Text t) {
    return java.util.HexFormat.of().formatHex(t.getBytes(), 0, t.getLength());
  }

  private static TaskAttemptID attempt() {
    return TaskAttemptID.forName("attempt_1_0001_m_000000_0");
  }

  private static JobConf conf(Class<?> key, Class<?> value) {
    JobConf conf = new JobConf(false);
    conf.setMapOutputKeyClass(key);
    conf.setMapOutputValueClass(value);
    return conf;
  }

  private static ResultCodec.PairBatcher batcher(List<byte[]> results) throws IOException {
    ResultCodec.PairBatcher batcher = new ResultCodec.PairBatcher(1 << 16);
    batcher.sink(r -> {
      byte[] copy = new byte[r.remaining()];
      r.duplicate().get(copy);
      results.add(copy);
    });
    return batcher;
  }

  @SuppressWarnings("rawtypes")
  private static List<Object[]> run(Class<?> key, Class<?> value, Class<? extends Reducer> combiner, int buffer,
      List<Object[]> input) throws Exception {
    List<byte[]> results = new ArrayList<>();
    ResultCodec.PairBatcher batcher = batcher(results);
    LaneCollector c = MapReduceTasklet.collector(conf(key, value), attempt(), combiner,
        new CountersReporter(new Counters()), batcher, buffer, 1 << 20, b -> {});
    assertThat(c).isInstanceOf(GroupingCollector.class);
    for (Object[] pair : input) {
      c.collect(pair[0], pair[1]);
    }
    c.finish();
    batcher.flush();
    return decode(results, key, value);
  }

  private static List<Object[]> decode(List<byte[]> results, Class<?> key, Class<?> value) throws Exception {
    List<Object[]> out = new ArrayList<>();
    DataInputBuffer in = new DataInputBuffer();
    for (byte[] r : results) {
      ResultCodec.PairCursor cursor = new ResultCodec.PairCursor(r, 0, r.length);
      while (cursor.next()) {
        Writable k = (Writable) (key == NullWritable.class ? NullWritable.get() : key.getConstructor().newInstance());
        Writable v = (Writable) (value == NullWritable.class ? NullWritable.get()
            : value.getConstructor().newInstance());
        in.reset(r, cursor.keyOffset, cursor.keyLength);
        k.readFields(in);
        assertThat(in.getPosition()).isEqualTo(cursor.keyOffset + cursor.keyLength);
        in.reset(r, cursor.valueOffset, cursor.valueLength);
        v.readFields(in);
        assertThat(in.getPosition()).isEqualTo(cursor.valueOffset + cursor.valueLength);
        out.add(new Object[] {k, v});
      }
    }
    return out;
  }
}
