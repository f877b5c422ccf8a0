package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * k-means' reduce: a cluster's new centroid, the mean of its points, written as
 * {@code CLUSTER<TAB>POINTS<TAB>X0 X1 ...} with each coordinate's exact double ({@link Double#toString}).
 * A cluster no point joined keeps its centroid, written with 0 points: the reducer reads the job's centroids
 * ({@link Centroids}) in {@code setup}, so that its output is the whole next state, k lines, which the next
 * iteration's mappers read. It must be the job's only reducer (clusters come to it in order).
 */
public class CentroidReducer extends Reducer<IntWritable, PartialSum, IntWritable, Text> {
  private final PartialSum total = new PartialSum();
  private final Text line = new Text();
  private final IntWritable key = new IntWritable();
  private Centroids previous;
  /** The next cluster to write: those below it are written. */
  private int next;

  @Override
  protected void setup(Context context) throws IOException {
    previous = Centroids.read(context.getConfiguration(), null);
    next = 0;
  }

  @Override
  protected void reduce(IntWritable cluster, Iterable<PartialSum> partials, Context context)
      throws IOException, InterruptedException {
    int j = cluster.get();
    if (j < next || j >= previous.k()) {
      throw new IOException("cluster " + j + " is not one of the job's " + previous.k() + " after cluster " + (next - 1)
          + ": the k-means job has one reducer, which gets its clusters in order");
    }
    keepUpTo(j, context);
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
    next = j + 1;
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    keepUpTo(previous.k(), context);
  }

  /** Writes the clusters from {@link #next} to {@code end} (exclusive), which no point joined: their centroids kept. */
  private void keepUpTo(int end, Context context) throws IOException, InterruptedException {
    for (; next < end; next++) {
      key.set(next);
      line.set(Centroids.value(0, previous.centroid(next)));
      context.write(key, line);
    }
  }
}
