package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.junit.jupiter.api.Test;
import org.smartssd.devicemapper.wire.ResultCodec;

/**
 * The lane's buffer with the job's combiner, grouped by key as the pairs come ({@link GroupingCollector},
 * the device's own reduce context) or sorted with the job's comparator ({@link MapOutputCollector},
 * Hadoop's): every key's sum is right, a counting job sends each key once a lane, and combiners that leave
 * values unread see the same through both.
 */
class MapOutputCollectorTest {

  /** One map output pair, decoded from the lane's results. */
  private record Pair(String key, long value) {}

  @Test
  void theCombinerSeesWholeGroupsAndEachKeyLeavesOnce() throws Exception {
    for (boolean jobComparator : new boolean[] {false, true}) {
      for (int bufferRecords : new int[] {1, 7, 1000, 100_000}) {
        Random random = new Random(bufferRecords);
        List<Pair> input = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < 20_000; i++) {
          Pair p = new Pair("k" + random.nextInt(50), random.nextInt(100));
          input.add(p);
          expected.merge(p.key(), p.value(), Long::sum);
        }
        List<Pair> out = collect(LongSumReducer.class, jobComparator, bufferRecords, input);
        Map<String, Long> sums = new TreeMap<>();
        out.forEach(p -> sums.merge(p.key(), p.value(), Long::sum));
        String setting = (jobComparator ? "sorted" : "hashed") + ", buffer of " + bufferRecords;
        assertThat(sums).as(setting).isEqualTo(expected);
        if (bufferRecords > 2 * expected.size()) { // the combined pairs stay buffered until the end
          assertThat(out).as("%s: each key once", setting).hasSize(expected.size());
        }
      }
    }
  }

  /** Reads no value: each key once a combine, with 1. */
  public static final class KeysOnly extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      context.write(key, new LongWritable(1));
    }
  }

  /** Reads at most two values of each key, then iterates its values again (the same iterator: the rest). */
  public static final class FirstTwo extends Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      int n = 0;
      for (LongWritable v : values) {
        if (++n == 2) {
          break;
        }
      }
      for (LongWritable v : values) {
        n += 100;
      }
      context.write(key, new LongWritable(n));
    }
  }

  @Test
  void combinersThatSkipValuesSeeWhatHadoopGivesThem() throws Exception {
    Random random = new Random(3);
    List<Pair> input = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      input.add(new Pair("k" + random.nextInt(30), 1));
    }
    for (Class<? extends Reducer> combiner : List.of(KeysOnly.class, FirstTwo.class)) {
      assertThat(sorted(collect(combiner, false, 400, input))).as(combiner.getSimpleName())
          .isEqualTo(sorted(collect(combiner, true, 400, input)));
    }
  }

  @Test
  void theLaneHoldsItsCombinedPairsBetweenRecords() throws Exception {
    Random random = new Random(7);
    List<Pair> input = new ArrayList<>();
    Map<String, Long> keys = new TreeMap<>();
    for (int i = 0; i < 5000; i++) {
      Pair p = new Pair("key-" + random.nextInt(40), 1);
      input.add(p);
      keys.merge(p.key(), 1L, Long::sum);
    }
    // A Text is its length (one byte here) and its bytes; a LongWritable eight bytes.
    long pairBytes = keys.keySet().stream().mapToLong(k -> 1 + k.length() + 8).sum();
    long[] most = new long[1];
    long[] told = new long[1];
    java.util.function.LongConsumer holding = b -> {
      most[0] = Math.max(most[0], b);
      told[0]++;
    };
    // Every key stays buffered, combined, from the first combine on: the lane holds one pair a key.
    collect(LongSumReducer.class, false, 1000, input, holding);
    // A combine each time the buffer (its carried pairs with the new records) fills, and the last.
    assertThat(told[0]).isEqualTo(6);
    assertThat(most[0]).isEqualTo(pairBytes);
    // Without a combiner the buffer is handed on as it fills: the lane holds no partial result.
    most[0] = 0;
    told[0] = 0;
    collect(null, false, 1000, input, holding);
    assertThat(told[0]).isZero();
  }

  /** The pairs a lane's collector hands on for {@code input}, decoded. */
  @SuppressWarnings("rawtypes")
  private static List<Pair> collect(Class<? extends Reducer> combiner, boolean jobComparator, int bufferRecords,
      List<Pair> input) throws Exception {
    return collect(combiner, jobComparator, bufferRecords, input, b -> {});
  }

  @SuppressWarnings("rawtypes")
  private static List<Pair> collect(Class<? extends Reducer> combiner, boolean jobComparator, int bufferRecords,
      List<Pair> input, java.util.function.LongConsumer holding) throws Exception {
    JobConf conf = new JobConf(false);
    conf.setMapOutputKeyClass(Text.class);
    conf.setMapOutputValueClass(LongWritable.class);
    if (jobComparator) {
      conf.set(MRJobConfig.KEY_COMPARATOR, Text.Comparator.class.getName());
    }
    List<byte[]> results = new ArrayList<>();
    ResultCodec.PairBatcher batcher = new ResultCodec.PairBatcher(1 << 20);
    batcher.sink(r -> {
      byte[] copy = new byte[r.remaining()];
      r.duplicate().get(copy);
      results.add(copy);
    });
    LaneCollector collector = MapReduceTasklet.collector(conf, TaskAttemptID.forName("attempt_1_0001_m_000000_0"),
        combiner, new CountersReporter(new Counters()), batcher, bufferRecords, 1 << 20, holding);
    assertThat(collector).isInstanceOf(jobComparator && combiner != null ? MapOutputCollector.class
        : GroupingCollector.class);
    Text key = new Text();
    LongWritable value = new LongWritable();
    for (Pair p : input) {
      key.set(p.key());
      value.set(p.value());
      collector.collect(key, value);
    }
    collector.finish();
    batcher.flush();

    List<Pair> out = new ArrayList<>();
    DataInputBuffer in = new DataInputBuffer();
    for (byte[] r : results) {
      ResultCodec.PairCursor cursor = new ResultCodec.PairCursor(r, 0, r.length);
      while (cursor.next()) {
        in.reset(r, cursor.keyOffset, cursor.keyLength);
        key.readFields(in);
        in.reset(r, cursor.valueOffset, cursor.valueLength);
        value.readFields(in);
        out.add(new Pair(key.toString(), value.get()));
      }
    }
    return out;
  }

  private static List<Pair> sorted(List<Pair> pairs) {
    List<Pair> copy = new ArrayList<>(pairs);
    copy.sort(java.util.Comparator.comparing(Pair::key).thenComparingLong(Pair::value));
    return copy;
  }
}
