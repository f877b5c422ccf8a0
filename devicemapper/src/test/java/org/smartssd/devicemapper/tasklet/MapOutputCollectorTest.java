package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
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
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.junit.jupiter.api.Test;
import org.smartssd.devicemapper.wire.ResultCodec;

/**
 * The lane's buffer with the job's combiner: every key's sum is right, and a counting job sends each
 * key once a lane (the combiner's groups are whole), grouped by hashing or by the job's comparator.
 */
class MapOutputCollectorTest {

  @Test
  void theCombinerSeesWholeGroupsAndEachKeyLeavesOnce() throws Exception {
    for (boolean jobComparator : new boolean[] {false, true}) {
      for (int bufferRecords : new int[] {1, 7, 1000, 100_000}) {
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
        MapOutputCollector collector = new MapOutputCollector(conf, TaskAttemptID.forName(
            "attempt_1_0001_m_000000_0"), LongSumReducer.class, new CountersReporter(new Counters()), batcher,
            bufferRecords, 1 << 20);
        Random random = new Random(bufferRecords);
        Map<String, Long> expected = new TreeMap<>();
        Text key = new Text();
        LongWritable value = new LongWritable();
        for (int i = 0; i < 20_000; i++) {
          String k = "k" + random.nextInt(50);
          long v = random.nextInt(100);
          expected.merge(k, v, Long::sum);
          key.set(k);
          value.set(v);
          collector.collect(key, value);
        }
        collector.finish();
        batcher.flush();

        Map<String, Long> sums = new TreeMap<>();
        int pairs = 0;
        DataInputBuffer in = new DataInputBuffer();
        for (byte[] r : results) {
          ResultCodec.PairCursor cursor = new ResultCodec.PairCursor(r, 0, r.length);
          while (cursor.next()) {
            in.reset(r, cursor.keyOffset, cursor.keyLength);
            key.readFields(in);
            in.reset(r, cursor.valueOffset, cursor.valueLength);
            value.readFields(in);
            sums.merge(key.toString(), value.get(), Long::sum);
            pairs++;
          }
        }
        String setting = (jobComparator ? "sorted" : "hashed") + ", buffer of " + bufferRecords;
        assertThat(sums).as(setting).isEqualTo(expected);
        if (bufferRecords > 2 * expected.size()) { // the combined pairs stay buffered until the end
          assertThat(pairs).as("%s: each key once", setting).isEqualTo(expected.size());
        }
      }
    }
  }

  /** Reads no value: each key once a combine, with 1. */
  public static final class KeysOnly extends org.apache.hadoop.mapreduce.Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws java.io.IOException, InterruptedException {
      context.write(key, new LongWritable(1));
    }
  }

  /** Reads at most two values of each key, and iterates its values a second time (Hadoop gives none then). */
  public static final class FirstTwo extends org.apache.hadoop.mapreduce.Reducer<Text, LongWritable, Text, LongWritable> {
    @Override
    protected void reduce(Text key, Iterable<LongWritable> values, Context context)
        throws java.io.IOException, InterruptedException {
      int n = 0;
      for (LongWritable v : values) {
        if (++n == 2) {
          break;
        }
      }
      for (LongWritable v : values) {
        n += 100; // the iterator is the same one: what the first loop left
      }
      context.write(key, new LongWritable(n));
    }
  }

  /**
   * A combiner that leaves values unread, or iterates twice, sees the same through the grouped
   * context as through Hadoop's own (the buffer sorted with a comparator).
   */
  @Test
  void combinersThatSkipValuesSeeWhatHadoopGivesThem() throws Exception {
    for (Class<? extends org.apache.hadoop.mapreduce.Reducer> combiner : List.of(KeysOnly.class, FirstTwo.class)) {
      Map<String, List<Long>> hashed = run(combiner, false);
      Map<String, List<Long>> sorted = run(combiner, true);
      assertThat(hashed).as(combiner.getSimpleName()).isEqualTo(sorted);
    }
  }

  @SuppressWarnings("rawtypes")
  private static Map<String, List<Long>> run(Class<? extends org.apache.hadoop.mapreduce.Reducer> combiner,
      boolean jobComparator) throws Exception {
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
    MapOutputCollector collector = new MapOutputCollector(conf, TaskAttemptID.forName("attempt_1_0001_m_000000_0"),
        combiner, new CountersReporter(new Counters()), batcher, 400, 1 << 20);
    Random random = new Random(3);
    Text key = new Text();
    LongWritable value = new LongWritable(1);
    for (int i = 0; i < 3000; i++) {
      key.set("k" + random.nextInt(30));
      collector.collect(key, value);
    }
    collector.finish();
    batcher.flush();
    Map<String, List<Long>> out = new TreeMap<>();
    DataInputBuffer in = new DataInputBuffer();
    for (byte[] r : results) {
      ResultCodec.PairCursor cursor = new ResultCodec.PairCursor(r, 0, r.length);
      while (cursor.next()) {
        in.reset(r, cursor.keyOffset, cursor.keyLength);
        key.readFields(in);
        in.reset(r, cursor.valueOffset, cursor.valueLength);
        value.readFields(in);
        out.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(value.get());
      }
    }
    out.values().forEach(v -> v.sort(null));
    return out;
  }
}
