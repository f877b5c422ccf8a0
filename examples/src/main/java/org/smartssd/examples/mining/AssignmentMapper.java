package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * k-means' assignments, a map-only job after the last iteration: each point to its nearest centroid (the
 * last iteration's, read in {@code setup} as {@link KMeansMapper} reads them), written as
 * {@code OFFSET<TAB>CLUSTER}, the point's byte offset in its file. Its output, {@code TextOutputFormat}'s,
 * goes to a directory on the device that holds the points: in the device, the device writes it itself.
 */
public class AssignmentMapper extends Mapper<LongWritable, BytesWritable, LongWritable, IntWritable> {
  private Centroids centroids;
  private float[] point;
  private final IntWritable cluster = new IntWritable();

  @Override
  protected void setup(Context context) throws IOException {
    centroids = Centroids.read(context.getConfiguration(), SideFile.splitPath(context.getInputSplit()));
    point = new float[centroids.dimensions()];
  }

  @Override
  protected void map(LongWritable offset, BytesWritable record, Context context)
      throws IOException, InterruptedException {
    KMeansMapper.readPoint(offset, record, point);
    cluster.set(centroids.nearest(point));
    context.write(offset, cluster);
  }
}
