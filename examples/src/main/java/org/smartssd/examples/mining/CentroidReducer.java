package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * k-means' reduce: a cluster's new centroid, the mean of its points, written as
 * {@code CLUSTER<TAB>POINTS<TAB>X0 X1 ...} with each coordinate's exact double ({@link Double#toString}).
 */
public class CentroidReducer extends Reducer<IntWritable, PartialSum, IntWritable, Text> {
  private final PartialSum total = new PartialSum();
  private final Text line = new Text();

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
    StringBuilder sb = new StringBuilder().append(total.count()).append('\t');
    for (int i = 0; i < total.dimensions(); i++) {
      sb.append(i == 0 ? "" : " ").append(total.mean(i));
    }
    line.set(sb.toString());
    context.write(cluster, line);
  }
}
