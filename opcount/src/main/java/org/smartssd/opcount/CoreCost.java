package org.smartssd.opcount;

/**
 * Turns counted work into time on one core: the iSSD's Eq. 13 (time = CPI x instructions / clock),
 * with the instructions counted by kind.
 *
 * <pre>
 *   t = cyclesPerOp x (ops + libraryCalls x libraryCallOps) / clock
 *     + memoryAccesses x memoryAccessNanos
 *     + bulkBytes / copyBandwidth
 *     + libraryReads x libraryReadNanos
 * </pre>
 *
 * <p>{@code memoryAccessNanos} is what a heap access costs beyond its instruction: the DRAM's
 * latency on a core without caches (the Smart SSD's cores), close to nothing on a host whose caches
 * serve most accesses. {@code libraryCallOps} stands for the work done inside code that is not
 * counted, in counted ops; {@code libraryReadNanos} what a data read inside such code costs (a DRAM
 * round trip on a core without caches, a share of an L1 miss on one with caches, nothing on the host).
 *
 * @param mhz the core's clock
 * @param cyclesPerOp cycles per counted op
 * @param memoryAccessNanos extra time per heap access
 * @param libraryCallOps counted ops a call into uncounted code stands for
 * @param copyMbPerS bandwidth of bulk copies, decimal MB per second
 * @param libraryReadNanos time per data read inside a library call ({@link OpCounts#libraryReads})
 */
public record CoreCost(double mhz, double cyclesPerOp, double memoryAccessNanos, double libraryCallOps,
    double copyMbPerS, double libraryReadNanos) {

  public CoreCost {
    positive("mhz", mhz);
    positive("cyclesPerOp", cyclesPerOp);
    notNegative("memoryAccessNanos", memoryAccessNanos);
    notNegative("libraryCallOps", libraryCallOps);
    positive("copyMbPerS", copyMbPerS);
    notNegative("libraryReadNanos", libraryReadNanos);
  }

  /** A core whose library calls' reads cost nothing beyond the call (a host's, whose caches serve them). */
  public CoreCost(double mhz, double cyclesPerOp, double memoryAccessNanos, double libraryCallOps, double copyMbPerS) {
    this(mhz, cyclesPerOp, memoryAccessNanos, libraryCallOps, copyMbPerS, 0);
  }

  /** Cycles of the counted work, memory stalls and copies included. */
  public double cycles(OpCounts c) {
    return nanos(c) * mhz / 1000.0;
  }

  /** Time of the counted work on this core, in nanoseconds (rounded up: no work is free). */
  public long nanos(OpCounts c) {
    return (long) Math.ceil(nanos(c.ops(), c.memoryAccesses(), c.libraryCalls(), c.bulkBytes(), c.libraryReads()));
  }

  /** Time of work given as (possibly fractional, averaged) counts, in nanoseconds. */
  public double nanos(double ops, double memoryAccesses, double libraryCalls, double bulkBytes, double libraryReads) {
    double instructionNanos = cyclesPerOp * (ops + libraryCalls * libraryCallOps) * 1000.0 / mhz;
    double memoryNanos = memoryAccesses * memoryAccessNanos + libraryReads * libraryReadNanos;
    double copyNanos = bulkBytes * 1000.0 / copyMbPerS;
    return instructionNanos + memoryNanos + copyNanos;
  }

  /** The same core at another clock (the controller core runs the lanes' code at its own rate). */
  public CoreCost atMhz(double otherMhz) {
    return new CoreCost(otherMhz, cyclesPerOp, memoryAccessNanos, libraryCallOps, copyMbPerS, libraryReadNanos);
  }

  private static void positive(String name, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be a positive number, was " + v);
    }
  }

  private static void notNegative(String name, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be zero or more, was " + v);
    }
  }
}
