package org.smartssd.examples.mining;

import java.nio.ByteBuffer;
import java.util.Base64;
import org.apache.hadoop.conf.Configuration;

/**
 * The k-means centroids a job's mappers assign points to, as the job's configuration carries them: the
 * one place that reads {@link #DIMENSIONS} and {@link #CENTROIDS}. The centroids are doubles, carried
 * exactly (their bits, Base64), so that every mapper, in the host or in a device, assigns a point as the
 * direct computation does.
 */
public final class Centroids {
  /** Coordinates of a point: each record is that many big-endian floats. */
  public static final String DIMENSIONS = "smartssd.mining.kmeans.dimensions";
  public static final int DIMENSIONS_DEFAULT = 8;
  /** The centroids: k x dimensions big-endian doubles, Base64. No default: the driver sets them each iteration. */
  public static final String CENTROIDS = "smartssd.mining.kmeans.centroids";
  /** The most dimensions a point may have. */
  public static final int MAX_DIMENSIONS = 4096;

  private final double[][] centroids;

  private Centroids(double[][] centroids) {
    this.centroids = centroids;
  }

  /**
   * The centroids of a job's configuration.
   *
   * @throws IllegalArgumentException naming the key when one is missing or malformed
   */
  public static Centroids of(Configuration conf) {
    int d = dimensions(conf);
    String text = conf.get(CENTROIDS);
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException(CENTROIDS + " is not set: the k-means driver sets it each iteration");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(CENTROIDS + " is not Base64: " + e.getMessage());
    }
    if (bytes.length == 0 || bytes.length % (8 * d) != 0) {
      throw new IllegalArgumentException(CENTROIDS + " holds " + bytes.length + " bytes, not k centroids of " + d
          + " doubles");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    double[][] c = new double[bytes.length / (8 * d)][d];
    for (double[] centroid : c) {
      for (int i = 0; i < d; i++) {
        centroid[i] = in.getDouble();
      }
    }
    return new Centroids(c);
  }

  /** {@link #DIMENSIONS} of a configuration, 1 to {@link #MAX_DIMENSIONS}. */
  public static int dimensions(Configuration conf) {
    String text = conf.getTrimmed(DIMENSIONS, Integer.toString(DIMENSIONS_DEFAULT));
    int d;
    try {
      d = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(DIMENSIONS + "='" + text + "' is not a whole number");
    }
    if (d < 1 || d > MAX_DIMENSIONS) {
      throw new IllegalArgumentException(DIMENSIONS + " must be between 1 and " + MAX_DIMENSIONS + ", not " + d);
    }
    return d;
  }

  /** The value of {@link #CENTROIDS} for these centroids (each of the same dimensions). */
  public static String encode(double[][] centroids) {
    ByteBuffer out = ByteBuffer.allocate(centroids.length * centroids[0].length * 8);
    for (double[] c : centroids) {
      for (double x : c) {
        out.putDouble(x);
      }
    }
    return Base64.getEncoder().encodeToString(out.array());
  }

  public int k() {
    return centroids.length;
  }

  public int dimensions() {
    return centroids[0].length;
  }

  /**
   * The index of the centroid nearest to a point (squared Euclidean distance, in double, dimension by
   * dimension in order); the lowest index of those equally near.
   */
  public int nearest(float[] point) {
    int best = 0;
    double bestDistance = Double.POSITIVE_INFINITY;
    for (int j = 0; j < centroids.length; j++) {
      double[] c = centroids[j];
      double distance = 0;
      for (int i = 0; i < c.length; i++) {
        double diff = point[i] - c[i];
        distance += diff * diff;
      }
      if (distance < bestDistance) {
        bestDistance = distance;
        best = j;
      }
    }
    return best;
  }
}
