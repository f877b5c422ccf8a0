package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.mapreduce.Reducer;

/** k-means' combiner: a cluster's partial sums added into one. */
public class PartialSumCombiner extends Reducer<IntWritable, PartialSum, IntWritable, PartialSum> {
  private final PartialSum total = new PartialSum();

  @Override
  protected void reduce(IntWritable cluster, Iterable<PartialSum> partials, Context context)
      throws IOException, InterruptedException {
    boolean first = true;
    for (PartialSum p : partials) {
      if (first) {
        total.clear(p.dimensions());
        first = false;
      }
      total.add(p);
    }
    context.write(cluster, total);
  }
}
