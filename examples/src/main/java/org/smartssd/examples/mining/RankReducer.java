package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * PageRank's reduce: a node's new rank, base + d x (the sum of its in-links' shares), fixed point, with
 * d in millionths (rounded down). A node no edge leads to gets no line: its rank is the base.
 */
public class RankReducer extends Reducer<IntWritable, LongWritable, IntWritable, LongWritable> {
  private long base;
  private int dampingPpm;
  private final LongWritable rank = new LongWritable();

  @Override
  protected void setup(Context context) {
    base = RankVector.base(context.getConfiguration());
    dampingPpm = RankVector.dampingPpm(context.getConfiguration());
  }

  @Override
  protected void reduce(IntWritable node, Iterable<LongWritable> shares, Context context)
      throws IOException, InterruptedException {
    long sum = 0;
    for (LongWritable s : shares) {
      sum = Math.addExact(sum, s.get());
    }
    rank.set(base + Math.multiplyExact(sum, (long) dampingPpm) / RankVector.MILLION);
    context.write(node, rank);
  }
}
