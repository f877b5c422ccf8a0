package org.smartssd.examples.calibration;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import org.smartssd.opcount.CountingClassLoader;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.OpMeter;
import org.smartssd.opcount.Scopes;

/**
 * One kernel of {@link CalibrationKernels}, for {@code bench/memory-calibration}, which compares what the
 * model counts with what compiled code does with memory, under valgrind's callgrind (which counts every
 * data read and write of the process, and the misses of a simulated cache, the same in every run):
 *
 * <p>A kernel is one of {@link CalibrationKernels}' (the counted heap accesses' calibration) or of
 * {@link LibraryKernels}' (the library calls' reads).
 *
 * <ul>
 *   <li>{@code count KERNEL N}: the kernel's counted work at size {@code N} (ops, heap accesses, library
 *       calls, bulk bytes), by the counting class loader, as the device counts a tasklet's;
 *   <li>{@code run KERNEL N}: the kernel, plain, compiled first (run at a small size until the JIT has
 *       compiled it; with {@code -Xbatch} compilation is done before the call returns), then once at size
 *       {@code N}. Two runs at two sizes differ by the work of the extra iterations alone, compiled: the
 *       JVM's start, the JIT's work and the warm-up are the same in both.
 * </ul>
 */
public final class MemoryCalibration {
  /** Warm-up runs at {@link #WARM_SIZE}: more than the JIT's compile thresholds. */
  static final int WARM_RUNS = 40;
  static final int WARM_SIZE = 20_000;

  private MemoryCalibration() {}

  public static void main(String[] args) throws Exception {
    boolean library = args.length == 3 && LibraryKernels.NAMES.contains(args[1]);
    if (args.length != 3 || !List.of("count", "run").contains(args[0])
        || !(library || CalibrationKernels.NAMES.contains(args[1]))) {
      System.err.println("usage: MemoryCalibration count|run KERNEL N, KERNEL one of " + CalibrationKernels.NAMES
          + " or " + LibraryKernels.NAMES);
      System.exit(2);
    }
    Class<?> kernels = library ? LibraryKernels.class : CalibrationKernels.class;
    int n = Integer.parseInt(args[2]);
    if (args[0].equals("count")) {
      ClassLoader counting = new CountingClassLoader("calibration", MemoryCalibration.class.getClassLoader(),
          Scopes.packages(List.of("org/smartssd/examples/calibration/", "org/apache/hadoop/")));
      Method counted = Class.forName(kernels.getName(), true, counting).getMethod(args[1], int.class);
      OpCounts before = OpMeter.current().counts();
      counted.invoke(null, n);
      OpCounts c = OpMeter.current().counts().minus(before);
      System.out.printf(Locale.ROOT, "counted ops %d heap %d calls %d bulk %d reads %d%n", c.ops(),
          c.memoryAccesses(), c.libraryCalls(), c.bulkBytes(), c.libraryReads());
      return;
    }
    Method plain = kernels.getMethod(args[1], int.class);
    long sink = 0;
    for (int i = 0; i < WARM_RUNS; i++) {
      sink += (long) plain.invoke(null, WARM_SIZE);
    }
    sink += (long) plain.invoke(null, n);
    System.out.println("result " + sink);
  }
}
