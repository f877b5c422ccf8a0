package org.smartssd.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.smartssd.examples.calibration.HostCalibration;
import org.smartssd.examples.calibration.TaskletCalibration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd calibrate}: the programs that measure the model's calibrated constants. */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    description = "Measures constants of the model on this machine.",
    subcommands = {CalibrateCommand.Host.class, CalibrateCommand.Tasklets.class})
public final class CalibrateCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name what to calibrate: host or tasklets");
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
            + "smartssd.device.host-cpu.copy-mb-per-s and smartssd.device.isp.library-call-ops (their defaults come "
            + "from this program)."})
  static final class Host implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "15",
        description = "Timed runs of each kernel, after as many warm-up runs; the least CPU time counts (default: "
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
      out.printf(Locale.ROOT, "%-20s %14s %14s %8s %14s %12s %14s %14s%n", "kernel", "measured ns", "model ns",
          "error", "ops", "memory", "library calls", "bulk bytes");
      for (HostCalibration.Kernel k : fit.kernels()) {
        double predicted = fit.predictedNanos(k);
        out.printf(Locale.ROOT, "%-20s %,14.0f %,14.0f %+7.1f%% %,14d %,12d %,14d %,14d%s%n", k.name(), k.cpuNanos(),
            predicted, 100 * (predicted - k.cpuNanos()) / k.cpuNanos(), k.counts().ops(), k.counts().memoryAccesses(),
            k.counts().libraryCalls(), k.counts().bulkBytes(),
            org.smartssd.examples.calibration.CalibrationKernels.FITTED.contains(k.name()) ? "" : "  (not fitted)");
      }
      out.printf(Locale.ROOT, "%nfit on this machine (%.0f MHz, from %s): %.4f ns an op, %.4f ns more a heap access, "
          + "%.3f ns a library call, %.5f ns a bulk byte%n", fit.machineMhz(),
          machineMhz > 0 ? "--machine-mhz" : "/proc/cpuinfo", fit.nanosPerOp(), fit.nanosPerMemoryAccess(),
          fit.nanosPerLibraryCall(), fit.nanosPerBulkByte());
      out.printf(Locale.ROOT, "smartssd.device.host-cpu.cycles-per-op=%.3f%n", fit.cyclesPerOp());
      out.printf(Locale.ROOT, "smartssd.device.host-cpu.copy-mb-per-s=%.0f%n", fit.copyMbPerS());
      out.printf(Locale.ROOT, "smartssd.device.isp.library-call-ops=%.1f%n", fit.libraryCallOps());
      out.flush();
      return 0;
    }
  }

  /** {@code smartssd calibrate tasklets}. */
  @Command(
      name = "tasklets",
      mixinStandardHelpOptions = true,
      description = {
        "The Smart SSD's tasklet experiments on the modelled device (Kang et al., MSST 2013), on a device of its own: "
            + "a scan whose tasklet reads k integers from the device's memory and compares each, k = 1 to 256 a record "
            + "(a page by default, as the source counts them), and the filtering experiment (60% of records with a "
            + "match, 256 accesses a record: stop at the first match against search everything). Prints the modelled "
            + "throughput against the device's internal read bandwidth and its link, beside the source's shape."})
  static final class Tasklets implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--profile", paramLabel = "P", defaultValue = "msst13-sata",
        description = "The device's profile (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--megabytes", paramLabel = "MB", defaultValue = "256",
        description = "Data scanned at each point of the curve, decimal MB (default: ${DEFAULT-VALUE}).")
    int megabytes;

    @Option(names = "--filter-megabytes", paramLabel = "MB", defaultValue = "1000",
        description = "Data of the filtering experiment, decimal MB (default: ${DEFAULT-VALUE}, the source's 1 GB).")
    int filterMegabytes;

    @Option(names = "--record-bytes", paramLabel = "N", defaultValue = "0",
        description = "Record length, a multiple of 4; 0 (the default) is the device's page.")
    int recordBytes;

    @Option(names = "--device-conf", paramLabel = "key=value",
        description = "A device key (smartssd.device.*), such as smartssd.device.isp.cores=1.")
    Map<String, String> deviceProperties = new LinkedHashMap<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
      CommandLine cl = spec.commandLine();
      if (megabytes < 1 || filterMegabytes < 1) {
        throw new CommandLine.ParameterException(cl, "--megabytes and --filter-megabytes must be 1 or more");
      }
      if (recordBytes < 0 || recordBytes % 4 != 0) {
        throw new CommandLine.ParameterException(cl, "--record-bytes must be 0 or a positive multiple of 4, not "
            + recordBytes);
      }
      Map<String, String> keys = DeviceConf.checked(cl, deviceProperties, profile);
      PrintWriter out = cl.getOut();
      TaskletCalibration.Outcome o = TaskletCalibration.run(keys, megabytes, filterMegabytes, recordBytes, cl.getErr());
      out.printf(Locale.ROOT, "profile %s: %d cores, internal reads %.0f MB/s, host link %.0f MB/s (%.2f x); %d-byte "
          + "records; all figures modelled%n%n", profile, o.cores(), o.internalMbPerS(), o.linkMbPerS(),
          o.internalMbPerS() / o.linkMbPerS(), o.recordBytes());
      out.printf(Locale.ROOT, "%8s  %10s  %8s  %10s  %14s  %16s  %s%n", "accesses", "MB/s", "x link", "x internal",
          "compute s", "ops a record", "bound by");
      for (TaskletCalibration.Point p : o.curve()) {
        out.printf(Locale.ROOT, "%8d  %10.1f  %8.2f  %10.2f  %14.3f  %,16.1f  %s%n", p.accesses(), p.modelledMbPerS(),
            p.modelledMbPerS() / o.linkMbPerS(), p.modelledMbPerS() / o.internalMbPerS(),
            p.stats().modelledComputeNanos() / 1e9, (double) p.stats().countedOps() / p.stats().records(),
            p.computeBound(o.cores()) ? "the cores" : "the flash");
      }
      out.printf(Locale.ROOT, "%nfiltering (256 accesses a record, 60%% of records with a match): search everything "
          + "%.3f s, stop at the first match %.3f s: %.0f%% faster (the source: 40%%)%n",
          o.searching().stats().modelledNanos() / 1e9, o.filtering().stats().modelledNanos() / 1e9,
          100 * o.filteringSpeedup());
      out.flush();
      return 0;
    }
  }
}
