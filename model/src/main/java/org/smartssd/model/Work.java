package org.smartssd.model;

/**
 * What one function costs: counted work for each input record, and a fixed part (per lane and
 * execution on a device; per job on the host).
 */
public record Work(Counts perRecord, Counts fixed) {
  public static final Work NONE = new Work(Counts.ZERO, Counts.ZERO);
  /**
   * How far apart two samples' sizes must be for {@link #fitApart} to fit a line: the larger at least
   * this many times the smaller (so that their difference is well above what either measured apart from
   * the slope).
   */
  public static final double APART = 1.5;

  /**
   * The work that explains two samples of {@code records1} and {@code records2} records, whose
   * counts were {@code counts1} and {@code counts2}: a straight line through them.
   */
  public static Work fit(long records1, Counts counts1, long records2, Counts counts2) {
    if (records1 == records2) {
      throw new IllegalArgumentException("two samples of different sizes are needed, both were " + records1);
    }
    Counts perRecord = counts2.minus(counts1).times(1.0 / (records2 - records1)).atLeastZero();
    Counts fixed = counts1.minus(perRecord.times(records1)).atLeastZero();
    return new Work(perRecord, fixed);
  }

  /**
   * As {@link #fit}, where the two sizes are far enough apart to tell a part a unit from a fixed part
   * (the larger at least {@link #APART} times the smaller); otherwise the larger sample's work, all of
   * it fixed: sizes that close say nothing of the slope, and a line through them would multiply what
   * little separates them (a merge of keys that two samples both saw all of is as large for either).
   */
  public static Work fitApart(long size1, Counts counts1, long size2, Counts counts2) {
    long small = Math.min(size1, size2);
    long large = Math.max(size1, size2);
    if (small > 0 && large >= APART * small) {
      return fit(size1, counts1, size2, counts2);
    }
    return new Work(Counts.ZERO, (size2 >= size1 ? counts2 : counts1).atLeastZero());
  }

  /** The work for {@code records} records, fixed part included. */
  public Counts of(double records) {
    return perRecord.times(records).plus(fixed);
  }
}
