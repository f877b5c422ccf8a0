package org.smartssd.model;

import org.smartssd.opcount.CoreCost;
import org.smartssd.opcount.OpCounts;

/**
 * Counted work as averages (per record, per lane): the five counts of {@link OpCounts}, fractional.
 *
 * @param ops bytecode instructions
 * @param memory heap accesses
 * @param calls library calls
 * @param bulk bulk bytes
 * @param reads data reads inside the library calls
 */
public record Counts(double ops, double memory, double calls, double bulk, double reads) {
  public static final Counts ZERO = new Counts(0, 0, 0, 0, 0);

  /** Counts without library reads. */
  public Counts(double ops, double memory, double calls, double bulk) {
    this(ops, memory, calls, bulk, 0);
  }

  public static Counts of(OpCounts c) {
    return new Counts(c.ops(), c.memoryAccesses(), c.libraryCalls(), c.bulkBytes(), c.libraryReads());
  }

  public Counts plus(Counts o) {
    return new Counts(ops + o.ops, memory + o.memory, calls + o.calls, bulk + o.bulk, reads + o.reads);
  }

  public Counts minus(Counts o) {
    return new Counts(ops - o.ops, memory - o.memory, calls - o.calls, bulk - o.bulk, reads - o.reads);
  }

  public Counts times(double f) {
    return new Counts(ops * f, memory * f, calls * f, bulk * f, reads * f);
  }

  /** No count below zero (a regression on noisy counts can give a small negative fixed part). */
  public Counts atLeastZero() {
    return new Counts(Math.max(0, ops), Math.max(0, memory), Math.max(0, calls), Math.max(0, bulk),
        Math.max(0, reads));
  }

  /** The time of this work on a core, in nanoseconds (the iSSD's Eq. 13, by kind). */
  public double nanos(CoreCost core) {
    return core.nanos(ops, memory, calls, bulk, reads);
  }
}
