package org.smartssd.model;

/**
 * What one function costs: counted work for each input record, and a fixed part (per lane and
 * execution on a device; per job on the host).
 */
public record Work(Counts perRecord, Counts fixed) {
  public static final Work NONE = new Work(Counts.ZERO, Counts.ZERO);

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
   * As {@link #fit}; where the two sizes are the same, the work of either taken as a part a unit (none
   * fixed).
   */
  public static Work fitOrScale(long size1, Counts counts1, long size2, Counts counts2) {
    if (size1 != size2) {
      return fit(size1, counts1, size2, counts2);
    }
    return new Work(counts2.times(1.0 / Math.max(1, size2)).atLeastZero(), Counts.ZERO);
  }

  /** The work for {@code records} records, fixed part included. */
  public Counts of(double records) {
    return perRecord.times(records).plus(fixed);
  }
}
