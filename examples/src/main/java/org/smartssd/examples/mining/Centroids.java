package org.smartssd.examples.mining;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The k-means centroids a job's tasks assign points to, read from the file the job's configuration names
 * (the last iteration's reducer output, or the first centroids the driver wrote): the one place that reads
 * {@link #DIMENSIONS} and {@link #CENTROIDS_PATH}. The file is text, a line a cluster, as
 * {@link CentroidReducer} writes it: {@code CLUSTER<TAB>POINTS<TAB>X0 X1 ...}, each coordinate the exact
 * double ({@link Double#toString}, which {@link Double#parseDouble} reads back to the same bits), so that
 * every mapper, on the host or in a device, assigns a point as the direct computation does. In a device
 * the file is read from the device's own flash ({@link SideFile}).
 */
public final class Centroids {
  /** Coordinates of a point: each record is that many big-endian floats. */
  public static final String DIMENSIONS = "smartssd.mining.kmeans.dimensions";
  public static final int DIMENSIONS_DEFAULT = 8;
  /**
   * The centroids file, as copies (comma-separated), one on each device that holds input. No default: the
   * driver sets it each iteration.
   */
  public static final String CENTROIDS_PATH = "smartssd.mining.kmeans.centroids-path";
  /** The most dimensions a point may have. */
  public static final int MAX_DIMENSIONS = 4096;

  private final double[][] centroids;
  private final long[] counts;

  private Centroids(double[][] centroids, long[] counts) {
    this.centroids = centroids;
    this.counts = counts;
  }

  /**
   * The centroids of a job's configuration: the copy of {@link #CENTROIDS_PATH} on the device of
   * {@code near} (a map task's split), else the first.
   *
   * @param near a map task's split's path, or null (a reduce task)
   * @throws IOException naming the key and file when the file cannot be read or is not centroids
   * @throws IllegalArgumentException naming the key when one is missing or malformed
   */
  public static Centroids read(Configuration conf, Path near) throws IOException {
    int d = dimensions(conf);
    Path file = SideFile.choose(conf, CENTROIDS_PATH, near);
    if (file == null) {
      throw new IllegalArgumentException(CENTROIDS_PATH + " is not set: the k-means driver sets it each iteration");
    }
    return parse(SideFile.read(conf, CENTROIDS_PATH, file), d, CENTROIDS_PATH + " '" + file + "'");
  }

  /**
   * Centroids from a file's bytes: k lines, clusters 0 to k - 1 each once, in any order.
   *
   * @param what the file, for the error
   */
  static Centroids parse(byte[] bytes, int d, String what) throws IOException {
    String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
    int k = lines.length;
    if (bytes.length == 0 || k == 0) {
      throw new IOException(what + " holds no centroid");
    }
    double[][] c = new double[k][];
    long[] counts = new long[k];
    for (String line : lines) {
      String[] f = line.split("\t");
      try {
        if (f.length != 3) {
          throw new NumberFormatException("not CLUSTER<TAB>POINTS<TAB>COORDINATES");
        }
        int j = Integer.parseInt(f[0]);
        String[] x = f[2].split(" ");
        if (j < 0 || j >= k || c[j] != null || x.length != d) {
          throw new NumberFormatException("cluster " + j + " of " + k + " with " + x.length + " coordinates, not one of"
              + " clusters 0 to " + (k - 1) + ", each once, of " + d);
        }
        counts[j] = Long.parseLong(f[1]);
        c[j] = new double[d];
        for (int i = 0; i < d; i++) {
          c[j][i] = Double.parseDouble(x[i]);
        }
      } catch (NumberFormatException e) {
        throw new IOException(what + ": the line '" + line + "' is not a centroid: " + e.getMessage(), e);
      }
    }
    return new Centroids(c, counts);
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

  /**
   * A cluster's line of the centroids file, as {@link CentroidReducer} writes it (its key, a tab, its value):
   * {@code CLUSTER<TAB>POINTS<TAB>X0 X1 ...}.
   */
  public static String line(int cluster, long points, double[] centroid) {
    return cluster + "\t" + value(points, centroid);
  }

  /** The value part of a cluster's line: {@code POINTS<TAB>X0 X1 ...}, each coordinate's exact double. */
  static String value(long points, double[] centroid) {
    StringBuilder sb = new StringBuilder().append(points).append('\t');
    for (int i = 0; i < centroid.length; i++) {
      sb.append(i == 0 ? "" : " ").append(centroid[i]);
    }
    return sb.toString();
  }

  /** The bytes of a centroids file holding these centroids (and counts). */
  public static byte[] file(double[][] centroids, long[] counts) {
    StringBuilder sb = new StringBuilder();
    for (int j = 0; j < centroids.length; j++) {
      sb.append(line(j, counts[j], centroids[j])).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  public int k() {
    return centroids.length;
  }

  public int dimensions() {
    return centroids[0].length;
  }

  /** Cluster {@code j}'s centroid (not a copy). */
  double[] centroid(int j) {
    return centroids[j];
  }

  /** How many points cluster {@code j} had when the file was written (0 in the first centroids). */
  long count(int j) {
    return counts[j];
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
