package org.smartssd.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.smartssd.examples.calibration.HostCalibration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd calibrate}: the programs that measure the model's calibrated constants. */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    description = "Measures constants of the model on this machine.",
    subcommands = {CalibrateCommand.Host.class})
public final class CalibrateCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name what to calibrate: host");
  }

  /** {@code smartssd calibrate host}. */
  @Command(
      name = "host",
      mixinStandardHelpOptions = true,
      description = {
        "Times kernels of plain instructions, heap accesses, library calls, bulk copies and Hadoop's serialization "
            + "and sorting on this machine, counts the same kernels, and fits the cost of each kind of counted work "
            + "(non-negative least squares, relative errors). Prints each kernel measured and fitted, and the "
            + "values of the model's host keys: smartssd.device.host-cpu.cycles-per-op, "
            + "smartssd.device.host-cpu.memory-access-ns, smartssd.device.host-cpu.copy-mb-per-s and "
            + "smartssd.device.isp.library-call-ops (their defaults come from this program)."})
  static final class Host implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "9",
        description = "Timed runs of each kernel, after as many warm-up runs; the median counts (default: "
            + "${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--machine-mhz", paramLabel = "MHZ", defaultValue = "0",
        description = "This machine's clock, to turn time into cycles (default: read from /proc/cpuinfo).")
    double machineMhz;

    @Override
    public Integer call() throws IOException {
      CommandLine cl = spec.commandLine();
      if (repeat < 1) {
        throw new CommandLine.ParameterException(cl, "--repeat must be 1 or more, not " + repeat);
      }
      if (machineMhz < 0) {
        throw new CommandLine.ParameterException(cl, "--machine-mhz must be positive, not " + machineMhz);
      }
      PrintWriter out = cl.getOut();
      HostCalibration.Fit fit = HostCalibration.run(repeat, machineMhz, cl.getErr());
      out.printf(Locale.ROOT, "%-20s %14s %14s %8s %14s %12s %14s %14s%n", "kernel", "measured ns", "fitted ns",
          "error", "ops", "memory", "library calls", "bulk bytes");
      for (HostCalibration.Kernel k : fit.kernels()) {
        double predicted = fit.predictedNanos(k);
        out.printf(Locale.ROOT, "%-20s %,14.0f %,14.0f %+7.1f%% %,14d %,12d %,14d %,14d%n", k.name(), k.cpuNanos(),
            predicted, 100 * (predicted - k.cpuNanos()) / k.cpuNanos(), k.counts().ops(), k.counts().memoryAccesses(),
            k.counts().libraryCalls(), k.counts().bulkBytes());
      }
      out.printf(Locale.ROOT, "%nfit on this machine (%.0f MHz, from %s): %.4f ns an op, %.4f ns more a heap access, "
          + "%.3f ns a library call, %.5f ns a bulk byte%n", fit.machineMhz(),
          machineMhz > 0 ? "--machine-mhz" : "/proc/cpuinfo", fit.nanosPerOp(), fit.nanosPerMemoryAccess(),
          fit.nanosPerLibraryCall(), fit.nanosPerBulkByte());
      out.printf(Locale.ROOT, "smartssd.device.host-cpu.cycles-per-op=%.3f%n", fit.cyclesPerOp());
      out.printf(Locale.ROOT, "smartssd.device.host-cpu.memory-access-ns=%.3f%n", fit.nanosPerMemoryAccess());
      out.printf(Locale.ROOT, "smartssd.device.host-cpu.copy-mb-per-s=%.0f%n", fit.copyMbPerS());
      out.printf(Locale.ROOT, "smartssd.device.isp.library-call-ops=%.1f%n", fit.libraryCallOps());
      out.flush();
      return 0;
    }
  }
}
