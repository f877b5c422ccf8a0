package org.smartssd.examples.calibration;

/**
 * Non-negative least squares for a handful of unknowns: every subset of the unknowns is solved by
 * its normal equations, and the best fit whose coefficients are all zero or more wins. With four
 * unknowns that is fifteen small solves, exact and with no iteration to tune.
 */
final class LeastSquares {
  private LeastSquares() {}

  /**
   * The x ≥ 0 minimizing |A x - b|².
   *
   * @param a rows of the design matrix
   * @param b the observations
   */
  static double[] nonNegative(double[][] a, double[] b) {
    int n = a[0].length;
    double[] best = new double[n];
    double bestResidual = residual(a, b, best);
    for (int subset = 1; subset < (1 << n); subset++) {
      double[] x = solveSubset(a, b, subset, n);
      if (x == null) {
        continue;
      }
      boolean nonNegative = true;
      for (double v : x) {
        nonNegative &= v >= 0;
      }
      double r = residual(a, b, x);
      if (nonNegative && r < bestResidual) {
        bestResidual = r;
        best = x;
      }
    }
    return best;
  }

  static double residual(double[][] a, double[] b, double[] x) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      double d = dot(a[i], x) - b[i];
      sum += d * d;
    }
    return sum;
  }

  static double dot(double[] row, double[] x) {
    double s = 0;
    for (int j = 0; j < row.length; j++) {
      s += row[j] * x[j];
    }
    return s;
  }

  /** Least squares over the unknowns in {@code subset} (the others zero), or null if singular. */
  private static double[] solveSubset(double[][] a, double[] b, int subset, int n) {
    int[] cols = new int[Integer.bitCount(subset)];
    for (int j = 0, k = 0; j < n; j++) {
      if ((subset & (1 << j)) != 0) {
        cols[k++] = j;
      }
    }
    int m = cols.length;
    double[][] normal = new double[m][m + 1];
    for (int p = 0; p < m; p++) {
      for (int q = 0; q < m; q++) {
        double s = 0;
        for (double[] row : a) {
          s += row[cols[p]] * row[cols[q]];
        }
        normal[p][q] = s;
      }
      double s = 0;
      for (int i = 0; i < a.length; i++) {
        s += a[i][cols[p]] * b[i];
      }
      normal[p][m] = s;
    }
    double[] y = gauss(normal);
    if (y == null) {
      return null;
    }
    double[] x = new double[n];
    for (int k = 0; k < m; k++) {
      x[cols[k]] = y[k];
    }
    return x;
  }

  /** Solves an augmented m x (m+1) system by Gaussian elimination with partial pivoting. */
  private static double[] gauss(double[][] m) {
    int n = m.length;
    for (int c = 0; c < n; c++) {
      int pivot = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) {
          pivot = r;
        }
      }
      if (Math.abs(m[pivot][c]) < 1e-300) {
        return null;
      }
      double[] t = m[c];
      m[c] = m[pivot];
      m[pivot] = t;
      for (int r = 0; r < n; r++) {
        if (r != c) {
          double f = m[r][c] / m[c][c];
          for (int k = c; k <= n; k++) {
            m[r][k] -= f * m[c][k];
          }
        }
      }
    }
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = m[i][n] / m[i][i];
    }
    return x;
  }
}
