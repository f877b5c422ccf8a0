package org.smartssd.examples.mining;

import java.util.Random;

/**
 * Points in Gaussian clusters, MineBench-like (as k-means' points are made): each of {@code clusters}
 * clusters has a centre drawn uniformly from [-50, 50] in every dimension and a standard deviation
 * drawn uniformly from [1, 4]; each point belongs to a cluster drawn uniformly and is its centre plus
 * Gaussian noise of its deviation. Deterministic by the random source, point after point.
 */
public final class GaussianClusters {
  private final Random random;
  private final double[][] centres;
  private final double[] sigmas;

  /** Draws the clusters from {@code random}, which then draws the points. */
  public GaussianClusters(int clusters, int dimensions, Random random) {
    this(clusters, dimensions, 1, random);
  }

  /**
   * Clusters whose deviations are {@code spread} times the model's (1: the model's own; more: clusters
   * that overlap more).
   */
  public GaussianClusters(int clusters, int dimensions, double spread, Random random) {
    if (clusters < 1 || dimensions < 1 || !(spread > 0)) {
      throw new IllegalArgumentException("clusters and dimensions must be 1 or more, the spread above 0: " + clusters
          + ", " + dimensions + ", " + spread);
    }
    this.random = random;
    this.centres = new double[clusters][dimensions];
    this.sigmas = new double[clusters];
    for (int c = 0; c < clusters; c++) {
      for (int i = 0; i < dimensions; i++) {
        centres[c][i] = -50 + 100 * random.nextDouble();
      }
      sigmas[c] = spread * (1 + 3 * random.nextDouble());
    }
  }

  /**
   * The next point, into {@code point} (one coordinate a dimension).
   *
   * @return its cluster
   */
  public int next(double[] point) {
    int c = random.nextInt(centres.length);
    for (int i = 0; i < point.length; i++) {
      point[i] = centres[c][i] + sigmas[c] * random.nextGaussian();
    }
    return c;
  }
}
