package org.smartssd.examples.calibration;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.smartssd.opcount.CountingClassLoader;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.OpMeter;
import org.smartssd.opcount.Scopes;

/**
 * Measures what counted work costs on this machine, for the model of the host's compute
 * ({@code smartssd calibrate host}). Each of {@link CalibrationKernels} runs as it is (timed: the
 * thread's CPU time, the least of several runs after the JIT has warmed up) and counted (once: the
 * counts do not vary). A non-negative least-squares fit of time against the counts, each kernel
 * weighted by its own time (relative errors), gives the cost of an op, of a library call and of a bulk
 * byte on this machine; the op's cost times this machine's clock is the host's cycles per op. Heap
 * accesses get no cost of their own: on a host their caches serve them, so their cost is in the op's,
 * and in every kernel they move with the ops, so that a fit cannot tell the two apart. The fit takes the kernels whose code is like the code the host model prices (objects,
 * library calls, Hadoop's serialization and sorting, copies); the two loops of plain arithmetic and
 * of an array scan are timed and shown, not fitted: the JIT turns their bytecodes into far fewer (or,
 * for a chain of multiplications, slower) instructions than such code's, in opposite directions. The iSSD measured its host's CPI the same way, with a profiler (VTune), on the
 * functions it then priced with Eq. 13.
 */
public final class HostCalibration {

  /** One kernel: its size, its counts, and its measured CPU time. */
  public record Kernel(String name, int size, OpCounts counts, double cpuNanos) {}

  /**
   * The fit, and what it means for the model's keys.
   *
   * @param nanosPerOp this machine's time per counted op
   * @param nanosPerMemoryAccess extra time per heap access (0: in the op's, see the class comment)
   * @param nanosPerLibraryCall time per call into uncounted code
   * @param nanosPerBulkByte time per byte of bulk copies
   * @param machineMhz this machine's clock
   */
  public record Fit(double nanosPerOp, double nanosPerMemoryAccess, double nanosPerLibraryCall,
      double nanosPerBulkByte, double machineMhz, List<Kernel> kernels) {

    /** {@code smartssd.device.host-cpu.cycles-per-op}. */
    public double cyclesPerOp() {
      return nanosPerOp * machineMhz / 1000.0;
    }

    /** {@code smartssd.device.isp.library-call-ops}: what a library call costs, in counted ops. */
    public double libraryCallOps() {
      return nanosPerLibraryCall / nanosPerOp;
    }

    /** {@code smartssd.device.host-cpu.copy-mb-per-s}. */
    public double copyMbPerS() {
      return nanosPerBulkByte > 0 ? 1000.0 / nanosPerBulkByte : Double.POSITIVE_INFINITY;
    }

    /** The fitted time of a kernel. */
    public double predictedNanos(Kernel k) {
      OpCounts c = k.counts();
      return c.ops() * nanosPerOp + c.memoryAccesses() * nanosPerMemoryAccess + c.libraryCalls() * nanosPerLibraryCall
          + c.bulkBytes() * nanosPerBulkByte;
    }
  }

  /** Sizes giving each kernel a few tens of milliseconds on a current core. */
  static final Map<String, Integer> SIZES = Map.of("arithmetic", 20_000_000, "arrayScan", 20_000_000,
      "objectGraph", 10_000_000, "hashGrouping", 2_000_000, "strings", 1_000_000, "bulkCopy", 64_000,
      "hadoopSerialization", 1_000_000, "hadoopSort", 3_200_000);

  private HostCalibration() {}

  /**
   * Runs the calibration.
   *
   * @param repetitions timed runs of each kernel (the least CPU time counts), after as many warm-up runs
   * @param machineMhz this machine's clock, or 0 to read it from {@code /proc/cpuinfo}
   */
  public static Fit run(int repetitions, double machineMhz, PrintWriter log) throws IOException {
    double mhz = machineMhz > 0 ? machineMhz : cpuinfoMhz();
    ClassLoader counting = new CountingClassLoader("calibration", HostCalibration.class.getClassLoader(),
        Scopes.packages(List.of("org/smartssd/examples/calibration/", "org/apache/hadoop/")));
    List<Kernel> kernels = new ArrayList<>();
    for (String name : CalibrationKernels.NAMES) {
      int size = SIZES.get(name);
      Method plain = kernel(CalibrationKernels.class, name);
      Method counted = kernel(load(counting), name);
      OpCounts counts = counts(counted, size);
      double nanos = leastCpuNanos(plain, size, repetitions);
      kernels.add(new Kernel(name, size, counts, nanos));
      log.printf(Locale.ROOT, "calibrate: %-20s %,12.0f ns  %s%n", name, nanos, counts);
      log.flush();
    }
    List<Kernel> fitted = kernels.stream().filter(k -> CalibrationKernels.FITTED.contains(k.name())).toList();
    double[][] a = new double[fitted.size()][];
    double[] b = new double[fitted.size()];
    for (int i = 0; i < fitted.size(); i++) {
      Kernel k = fitted.get(i);
      OpCounts c = k.counts();
      double w = 1.0 / k.cpuNanos(); // relative error: every kernel weighs the same
      a[i] = new double[] {c.ops() * w, c.libraryCalls() * w, c.bulkBytes() * w};
      b[i] = 1.0;
    }
    double[] x = LeastSquares.nonNegative(a, b);
    if (x[0] <= 0) {
      throw new IllegalStateException("the fit gave no cost per op: " + Arrays.toString(x));
    }
    return new Fit(x[0], 0, x[1], x[2], mhz, kernels);
  }

  private static Class<?> load(ClassLoader loader) {
    try {
      return Class.forName(CalibrationKernels.class.getName(), true, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Method kernel(Class<?> type, String name) {
    try {
      return type.getMethod(name, int.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("no kernel " + name, e);
    }
  }

  private static OpCounts counts(Method counted, int size) {
    OpCounts before = OpMeter.current().counts();
    invoke(counted, size);
    return OpMeter.current().counts().minus(before);
  }

  /** The least CPU time of the runs: what the work costs, with as little of the machine's noise as it can. */
  private static double leastCpuNanos(Method plain, int size, int repetitions) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < repetitions; i++) {
      invoke(plain, size);
    }
    double[] times = new double[repetitions];
    for (int i = 0; i < repetitions; i++) {
      long before = threads.getCurrentThreadCpuTime();
      invoke(plain, size);
      times[i] = threads.getCurrentThreadCpuTime() - before;
    }
    Arrays.sort(times);
    return times[0];
  }

  private static long invoke(Method m, int size) {
    try {
      return (long) m.invoke(null, size);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("kernel " + m.getName() + " failed: " + e.getCause(), e.getCause());
    }
  }

  /** The clock of this machine's first processor, from {@code /proc/cpuinfo}. */
  static double cpuinfoMhz() throws IOException {
    Path cpuinfo = Path.of("/proc/cpuinfo");
    if (Files.isReadable(cpuinfo)) {
      for (String line : Files.readAllLines(cpuinfo)) {
        if (line.startsWith("cpu MHz")) {
          return Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
        }
      }
    }
    throw new IOException("/proc/cpuinfo gives no clock: give this machine's with --machine-mhz");
  }
}
