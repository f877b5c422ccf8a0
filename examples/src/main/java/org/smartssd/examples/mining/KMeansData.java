package org.smartssd.examples.mining;

import java.util.Random;

/**
 * k-means points as MineBench's k-means reads them, generated: {@link GaussianClusters}, each coordinate
 * clamped to [-127, 127] and rounded to the fixed-point grid of {@link PartialSum} (multiples of 2^-16),
 * so that every coordinate is a float exactly and sums exactly. Deterministic by seed.
 */
public final class KMeansData {
  private KMeansData() {}

  /** {@code n} points of {@code d} dimensions, point after point, dimension after dimension. */
  public static float[] generate(int n, int d, int clusters, long seed) {
    if (n < 1 || d < 1 || clusters < 1) {
      throw new IllegalArgumentException("points, dimensions and clusters must be 1 or more: " + n + ", " + d
          + ", " + clusters);
    }
    GaussianClusters model = new GaussianClusters(clusters, d, new Random(seed));
    double[] point = new double[d];
    float[] points = new float[Math.multiplyExact(n, d)];
    for (int p = 0, at = 0; p < n; p++) {
      model.next(point);
      for (int i = 0; i < d; i++) {
        double v = Math.max(-127, Math.min(127, point[i]));
        points[at++] = (float) (Math.round(v * PartialSum.SCALE) / PartialSum.SCALE);
      }
    }
    return points;
  }
}
