package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * PageRank's reduce: a node's new rank, base + d x (the sum of its in-links' shares), fixed point, with
 * d in millionths (rounded down). A node no edge leads to gets no line: its rank is the base. The reducer
 * also sums the new ranks of the dangling nodes (those without out-links, from the dangling nodes file,
 * {@link RankVector}) into the counter {@link Totals#DANGLING_RANK}, those without a line at the base: the
 * driver makes the next iteration's base term from it, without reading the ranks. It must be the job's
 * only reducer (every node's line comes to it).
 */
public class RankReducer extends Reducer<IntWritable, LongWritable, IntWritable, LongWritable> {
  /** The counters the reducer keeps. */
  public enum Totals {
    /** The sum of the new ranks of the nodes without out-links, fixed point. */
    DANGLING_RANK
  }

  private long base;
  private int dampingPpm;
  private int[] dangling;
  /** The first dangling node not below the last node reduced. */
  private int at;
  private int last;
  private long danglingWithLine;
  private long danglingLines;
  private final LongWritable rank = new LongWritable();

  @Override
  protected void setup(Context context) throws IOException {
    base = RankVector.base(context.getConfiguration());
    dampingPpm = RankVector.dampingPpm(context.getConfiguration());
    dangling = RankVector.dangling(context.getConfiguration());
    at = 0;
    last = -1;
  }

  @Override
  protected void reduce(IntWritable node, Iterable<LongWritable> shares, Context context)
      throws IOException, InterruptedException {
    int v = node.get();
    if (v <= last) {
      throw new IOException("node " + v + " after node " + last + ": the PageRank job has one reducer, which gets its"
          + " nodes in order");
    }
    last = v;
    long sum = 0;
    for (LongWritable s : shares) {
      sum = Math.addExact(sum, s.get());
    }
    rank.set(base + Math.multiplyExact(sum, (long) dampingPpm) / RankVector.MILLION);
    context.write(node, rank);
    while (at < dangling.length && dangling[at] < v) {
      at++;
    }
    if (at < dangling.length && dangling[at] == v) {
      danglingWithLine = Math.addExact(danglingWithLine, rank.get());
      danglingLines++;
    }
  }

  @Override
  protected void cleanup(Context context) {
    long total = Math.addExact(danglingWithLine, Math.multiplyExact(dangling.length - danglingLines, base));
    context.getCounter(Totals.DANGLING_RANK).increment(total);
  }
}
