package org.smartssd.model;

import java.util.Arrays;

/**
 * The bytes of partial results a lane hands over against the records it read, measured at a few lane
 * sizes. With a combiner they are about the distinct keys among the records (the device mapper keeps
 * combining into one buffer, so a counting job sends each key once a lane), which grow ever slower as
 * records come; without one, about the records themselves. Between two measured sizes the bytes follow
 * the power law through them (a straight line on log-log axes: exact for bytes proportional to the
 * records, and bending as the keys saturate); below the smallest and past the largest, the nearest
 * segment's power law goes on. A segment with a size of no bytes is a straight line instead.
 *
 * <p>The same curve gives the keys of all the lanes' results merged: those of one lane that read every
 * record.
 *
 * @param records lane sizes, ascending, each above zero and each once
 * @param bytes the bytes of results at each size, at least zero
 */
public record ResultCurve(double[] records, double[] bytes) {
  /** No results at any size. */
  public static final ResultCurve NONE = new ResultCurve(new double[] {1}, new double[] {0});

  public ResultCurve {
    if (records.length == 0 || records.length != bytes.length) {
      throw new IllegalArgumentException("a result curve needs as many sizes as byte counts, and at least one: "
          + records.length + " and " + bytes.length);
    }
    records = records.clone();
    bytes = bytes.clone();
    for (int i = 0; i < records.length; i++) {
      if (!(records[i] > 0) || !(bytes[i] >= 0) || (i > 0 && !(records[i] > records[i - 1]))) {
        throw new IllegalArgumentException("result curve sizes must be positive and ascending, bytes at least zero: "
            + Arrays.toString(records) + " -> " + Arrays.toString(bytes));
      }
    }
  }

  /** The measured lane sizes (a copy). */
  @Override
  public double[] records() {
    return records.clone();
  }

  /** The bytes measured at each size (a copy). */
  @Override
  public double[] bytes() {
    return bytes.clone();
  }

  /** The same bytes whatever a lane read (one key a lane, say). */
  public static ResultCurve constant(double bytes) {
    return new ResultCurve(new double[] {1, 2}, new double[] {bytes, bytes});
  }

  /**
   * A curve through measured points, in any order: points of the same size are averaged, points of no
   * records are dropped.
   *
   * @throws IllegalArgumentException if no point has records
   */
  public static ResultCurve through(double[] records, double[] bytes) {
    java.util.TreeMap<Double, double[]> bySize = new java.util.TreeMap<>();
    for (int i = 0; i < records.length; i++) {
      if (records[i] > 0) {
        double[] sum = bySize.computeIfAbsent(records[i], k -> new double[2]);
        sum[0] += Math.max(0, bytes[i]);
        sum[1]++;
      }
    }
    if (bySize.isEmpty()) {
      throw new IllegalArgumentException("no measured point has records: " + Arrays.toString(records));
    }
    double[] r = new double[bySize.size()];
    double[] b = new double[bySize.size()];
    int i = 0;
    for (var e : bySize.entrySet()) {
      r[i] = e.getKey();
      b[i] = e.getValue()[0] / e.getValue()[1];
      i++;
    }
    return new ResultCurve(r, b);
  }

  /** The bytes of results of a lane that read {@code n} records. */
  public double bytes(double n) {
    if (!(n > 0)) {
      return 0;
    }
    if (records.length == 1) {
      return bytes[0] * n / records[0];
    }
    int i = Arrays.binarySearch(records, n);
    if (i >= 0) {
      return bytes[i];
    }
    int after = -i - 1;
    // The segment that holds n, or the nearest one outside the measured sizes.
    int lo = Math.max(0, Math.min(after - 1, records.length - 2));
    return segment(lo, n);
  }

  private double segment(int lo, double n) {
    double n0 = records[lo];
    double n1 = records[lo + 1];
    double b0 = bytes[lo];
    double b1 = bytes[lo + 1];
    if (b0 > 0 && b1 > 0) {
      double exponent = Math.log(b1 / b0) / Math.log(n1 / n0);
      return b0 * Math.pow(n / n0, exponent);
    }
    return Math.max(0, b0 + (b1 - b0) * (n - n0) / (n1 - n0));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResultCurve c && Arrays.equals(records, c.records) && Arrays.equals(bytes, c.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(records) + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("ResultCurve[");
    for (int i = 0; i < records.length; i++) {
      s.append(i == 0 ? "" : ", ").append(String.format(java.util.Locale.ROOT, "%.0f records: %.0f bytes",
          records[i], bytes[i]));
    }
    return s.append(']').toString();
  }
}
