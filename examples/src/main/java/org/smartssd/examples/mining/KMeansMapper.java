package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * k-means' map: each point (a fixed-length record of big-endian floats) to its nearest centroid, as
 * (cluster, the point as a partial sum of one). The centroids are read in {@code setup} from the file the
 * job's configuration names ({@link Centroids}): in a device, from the device's own flash.
 */
public class KMeansMapper extends Mapper<LongWritable, BytesWritable, IntWritable, PartialSum> {
  private Centroids centroids;
  private float[] point;
  private final IntWritable cluster = new IntWritable();
  private final PartialSum one = new PartialSum();

  @Override
  protected void setup(Context context) throws IOException {
    centroids = Centroids.read(context.getConfiguration(), SideFile.splitPath(context.getInputSplit()));
    point = new float[centroids.dimensions()];
  }

  @Override
  protected void map(LongWritable offset, BytesWritable record, Context context)
      throws IOException, InterruptedException {
    readPoint(offset, record, point);
    cluster.set(centroids.nearest(point));
    one.setPoint(point);
    context.write(cluster, one);
  }

  /**
   * Reads a point record into {@code point}.
   *
   * @throws IOException naming the record's offset when it is not {@code point.length} summable floats
   */
  static void readPoint(LongWritable offset, BytesWritable record, float[] point) throws IOException {
    byte[] b = record.getBytes();
    if (record.getLength() != 4 * point.length) {
      throw new IOException("the record at byte " + offset.get() + " has " + record.getLength() + " bytes, not "
          + point.length + " floats");
    }
    for (int i = 0, p = 0; i < point.length; i++, p += 4) {
      int bits = (b[p] & 0xff) << 24 | (b[p + 1] & 0xff) << 16 | (b[p + 2] & 0xff) << 8 | (b[p + 3] & 0xff);
      float x = Float.intBitsToFloat(bits);
      if (!PartialSum.summable(x)) {
        throw new IOException("the point at byte " + offset.get() + " has coordinate " + i + " = " + x
            + ": not a number within " + PartialSum.MAX_COORDINATE);
      }
      point[i] = x;
    }
  }
}
