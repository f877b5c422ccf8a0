package org.smartssd.examples.mining;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * A k-means partial result: how many points, and the sum of their coordinates in fixed point (each
 * coordinate times {@link #SCALE}, rounded to a long). Integer sums are associative: whatever the order
 * in which mappers, combiners (on the host or in a device's lanes) and the reducer add them, the sums,
 * and so the centroids, are the same bits. The generator writes coordinates on the fixed-point grid
 * ({@link KMeansData}), so for its points the sums are exact; a coordinate off the grid is rounded to it,
 * the same way everywhere.
 */
public class PartialSum implements Writable {
  /** The fixed point's scale: 2^16. */
  public static final double SCALE = 65536.0;
  /** The largest coordinate (in magnitude) a point may have: 2^31, so that a sum of 2^16 points cannot overflow. */
  public static final double MAX_COORDINATE = 2147483648.0;

  private long count;
  private long[] sums = new long[0];

  public PartialSum() {}

  public PartialSum(int dimensions) {
    sums = new long[dimensions];
  }

  /** A coordinate in fixed point. The caller checked that it is finite and within {@link #MAX_COORDINATE}. */
  public static long fixed(float coordinate) {
    return Math.round(coordinate * SCALE);
  }

  /** Whether a coordinate can be summed: finite and within {@link #MAX_COORDINATE}. */
  public static boolean summable(float coordinate) {
    return Math.abs(coordinate) <= MAX_COORDINATE; // false for NaN too
  }

  /** Makes this one point's partial result. */
  public void setPoint(float[] point) {
    if (sums.length != point.length) {
      sums = new long[point.length];
    }
    count = 1;
    for (int i = 0; i < point.length; i++) {
      sums[i] = fixed(point[i]);
    }
  }

  public void clear(int dimensions) {
    if (sums.length != dimensions) {
      sums = new long[dimensions];
    }
    count = 0;
    java.util.Arrays.fill(sums, 0);
  }

  /**
   * Adds another partial result.
   *
   * @throws ArithmeticException if a sum overflows
   * @throws IllegalArgumentException if the dimensions differ
   */
  public void add(PartialSum other) {
    if (other.sums.length != sums.length) {
      throw new IllegalArgumentException("a partial sum of " + other.sums.length + " dimensions added to one of "
          + sums.length);
    }
    count = Math.addExact(count, other.count);
    for (int i = 0; i < sums.length; i++) {
      sums[i] = Math.addExact(sums[i], other.sums[i]);
    }
  }

  public long count() {
    return count;
  }

  public int dimensions() {
    return sums.length;
  }

  public long sum(int dimension) {
    return sums[dimension];
  }

  /** The mean of the points' coordinate: their fixed-point sum over the scale times their count. */
  public double mean(int dimension) {
    return sums[dimension] / (SCALE * count);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVLong(out, count);
    WritableUtils.writeVInt(out, sums.length);
    for (long s : sums) {
      WritableUtils.writeVLong(out, s);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    count = WritableUtils.readVLong(in);
    int d = WritableUtils.readVInt(in);
    if (d < 0 || d > Centroids.MAX_DIMENSIONS) {
      throw new IOException("a partial sum of " + d + " dimensions");
    }
    if (sums.length != d) {
      sums = new long[d];
    }
    for (int i = 0; i < d; i++) {
      sums[i] = WritableUtils.readVLong(in);
    }
  }

  @Override
  public String toString() {
    return count + " " + java.util.Arrays.toString(sums);
  }
}
