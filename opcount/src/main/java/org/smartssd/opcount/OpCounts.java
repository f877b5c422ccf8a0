package org.smartssd.opcount;

/**
 * The work some code did, counted by kind. Counts depend only on the code and its input, never on
 * the machine or its load.
 *
 * @param ops bytecode instructions executed, each counted once
 * @param memoryAccesses those of them that touch the heap: field and static loads and stores, array
 *     loads and stores, array lengths, object and array allocations
 * @param libraryCalls calls into code that is not counted (the Java platform's, and libraries outside
 *     the counted scope)
 * @param bulkBytes bytes moved by bulk library calls ({@code System.arraycopy}, {@code (byte[], int
 *     off, int len)} reads and writes, {@code Arrays.copyOf}) and zeroed by array allocations
 * @param libraryReads the data reads the library calls' callees make, by each callee's calibrated
 *     reads a call ({@link LibraryReads}): the memory work inside the calls, which the counting does not see
 */
public record OpCounts(long ops, long memoryAccesses, long libraryCalls, long bulkBytes, long libraryReads) {
  public static final OpCounts ZERO = new OpCounts(0, 0, 0, 0, 0);

  /** Counts without library reads (work that makes no library call, or counted before they were). */
  public OpCounts(long ops, long memoryAccesses, long libraryCalls, long bulkBytes) {
    this(ops, memoryAccesses, libraryCalls, bulkBytes, 0);
  }

  public OpCounts plus(OpCounts o) {
    return new OpCounts(ops + o.ops, memoryAccesses + o.memoryAccesses, libraryCalls + o.libraryCalls,
        bulkBytes + o.bulkBytes, libraryReads + o.libraryReads);
  }

  public OpCounts minus(OpCounts o) {
    return new OpCounts(ops - o.ops, memoryAccesses - o.memoryAccesses, libraryCalls - o.libraryCalls,
        bulkBytes - o.bulkBytes, libraryReads - o.libraryReads);
  }

  public boolean isZero() {
    return ops == 0 && memoryAccesses == 0 && libraryCalls == 0 && bulkBytes == 0 && libraryReads == 0;
  }

  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT,
        "%,d ops (%,d memory accesses, %,d library calls, %,d bulk bytes, %,d library reads)", ops, memoryAccesses,
        libraryCalls, bulkBytes, libraryReads);
  }
}
