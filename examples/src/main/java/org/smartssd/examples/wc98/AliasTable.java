package org.smartssd.examples.wc98;

import java.util.SplittableRandom;

/**
 * Samples an index in proportion to fixed weights in constant time (Vose's alias method): one uniform
 * draw picks a column and, from its fractional part, the column's own index or its alias.
 */
final class AliasTable {
  private final double[] threshold;
  private final int[] alias;

  AliasTable(double[] weights) {
    int n = weights.length;
    if (n == 0) {
      throw new IllegalArgumentException("no weights");
    }
    double sum = 0;
    for (double w : weights) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("weight " + w);
      }
      sum += w;
    }
    if (!(sum > 0)) {
      throw new IllegalArgumentException("all weights are zero");
    }
    threshold = new double[n];
    alias = new int[n];
    double[] scaled = new double[n];
    int[] small = new int[n];
    int[] large = new int[n];
    int smallCount = 0;
    int largeCount = 0;
    for (int i = 0; i < n; i++) {
      scaled[i] = weights[i] * n / sum;
      if (scaled[i] < 1.0) {
        small[smallCount++] = i;
      } else {
        large[largeCount++] = i;
      }
    }
    while (smallCount > 0 && largeCount > 0) {
      int s = small[--smallCount];
      int l = large[--largeCount];
      threshold[s] = scaled[s];
      alias[s] = l;
      scaled[l] = scaled[l] + scaled[s] - 1.0;
      if (scaled[l] < 1.0) {
        small[smallCount++] = l;
      } else {
        large[largeCount++] = l;
      }
    }
    // What is left is 1 up to rounding: such columns always answer themselves.
    while (largeCount > 0) {
      int l = large[--largeCount];
      threshold[l] = 1.0;
      alias[l] = l;
    }
    while (smallCount > 0) {
      int s = small[--smallCount];
      threshold[s] = 1.0;
      alias[s] = s;
    }
  }

  int size() {
    return threshold.length;
  }

  int sample(SplittableRandom random) {
    double u = random.nextDouble() * threshold.length;
    int column = (int) u;
    if (column >= threshold.length) {
      column = threshold.length - 1;
    }
    return u - column < threshold[column] ? column : alias[column];
  }
}
