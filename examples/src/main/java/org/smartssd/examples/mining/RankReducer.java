package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * PageRank's reduce: a node's new rank, base + d x (the sum of its in-links' shares), fixed point, with
 * d in millionths (rounded down). A node no edge leads to gets no line: its rank is the base. The reducer
 * also sums the new ranks of the dangling nodes (those without out-links, from the out-degrees file,
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
  private int[] outDegrees;
  private long danglingWithLine;
  private long danglingLines;
  private final LongWritable rank = new LongWritable();

  @Override
  protected void setup(Context context) throws IOException {
    base = RankVector.base(context.getConfiguration());
    dampingPpm = RankVector.dampingPpm(context.getConfiguration());
    outDegrees = RankVector.outDegrees(context.getConfiguration(), null);
  }

  @Override
  protected void reduce(IntWritable node, Iterable<LongWritable> shares, Context context)
      throws IOException, InterruptedException {
    int v = node.get();
    if (v < 0 || v >= outDegrees.length) {
      throw new IOException("node " + v + " is not one of the " + outDegrees.length + " nodes of the out-degrees file");
    }
    long sum = 0;
    for (LongWritable s : shares) {
      sum = Math.addExact(sum, s.get());
    }
    rank.set(base + Math.multiplyExact(sum, (long) dampingPpm) / RankVector.MILLION);
    context.write(node, rank);
    if (outDegrees[v] == 0) {
      danglingWithLine = Math.addExact(danglingWithLine, rank.get());
      danglingLines++;
    }
  }

  @Override
  protected void cleanup(Context context) {
    long dangling = 0;
    for (int d : outDegrees) {
      if (d == 0) {
        dangling++;
      }
    }
    long total = Math.addExact(danglingWithLine, Math.multiplyExact(dangling - danglingLines, base));
    context.getCounter(Totals.DANGLING_RANK).increment(total);
  }
}
