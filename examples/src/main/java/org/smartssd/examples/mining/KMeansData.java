package org.smartssd.examples.mining;

import java.util.Random;

/**
 * k-means points as MineBench's k-means reads them, generated: Gaussian clusters. Each of
 * {@code clusters} clusters has a centre drawn uniformly from [-50, 50] in every dimension and a standard
 * deviation drawn uniformly from [1, 4]; each point belongs to a cluster drawn uniformly and is its centre
 * plus Gaussian noise, clamped to [-127, 127] and rounded to the fixed-point grid of {@link PartialSum}
 * (multiples of 2^-16), so that every coordinate is a float exactly and sums exactly. Deterministic by seed.
 */
public final class KMeansData {
  private KMeansData() {}

  /** {@code n} points of {@code d} dimensions, point after point, dimension after dimension. */
  public static float[] generate(int n, int d, int clusters, long seed) {
    if (n < 1 || d < 1 || clusters < 1) {
      throw new IllegalArgumentException("points, dimensions and clusters must be 1 or more: " + n + ", " + d
          + ", " + clusters);
    }
    Random random = new Random(seed);
    double[][] centres = new double[clusters][d];
    double[] sigmas = new double[clusters];
    for (int c = 0; c < clusters; c++) {
      for (int i = 0; i < d; i++) {
        centres[c][i] = -50 + 100 * random.nextDouble();
      }
      sigmas[c] = 1 + 3 * random.nextDouble();
    }
    float[] points = new float[Math.multiplyExact(n, d)];
    for (int p = 0, at = 0; p < n; p++) {
      int c = random.nextInt(clusters);
      for (int i = 0; i < d; i++) {
        double v = Math.max(-127, Math.min(127, centres[c][i] + sigmas[c] * random.nextGaussian()));
        points[at++] = (float) (Math.round(v * PartialSum.SCALE) / PartialSum.SCALE);
      }
    }
    return points;
  }
}
