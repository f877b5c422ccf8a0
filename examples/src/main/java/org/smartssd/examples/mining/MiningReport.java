package org.smartssd.examples.mining;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.smartssd.examples.loganalysis.ComparisonCharts;
import org.smartssd.examples.loganalysis.ComparisonReport;
import org.smartssd.examples.loganalysis.Json;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;

/**
 * {@code smartssd mine}'s report: the table it prints (each mode's totals over its iterations and the jobs
 * after them, then iteration by iteration, then those jobs), {@code results.csv} (a row an iteration and mode,
 * a row a job after the iterations, named in the iteration column, and each mode's total),
 * {@code results.json} and charts. Wall times, bytes and host CPU are measured; modelled times and
 * energy come from the model, and say so.
 */
public final class MiningReport {
  public static final String CSV = "results.csv";
  public static final String JSON = "results.json";
  static final String WALL_CHART = "wall-time-by-iteration.png";
  static final String MODELLED_CHART = "modelled-time-by-iteration.png";
  static final String BYTES_CHART = "host-interface-bytes-by-iteration.png";

  private final Mine.Outcome outcome;

  public MiningReport(Mine.Outcome outcome) {
    this.outcome = outcome;
  }

  /** A mode's figures summed over its iterations. */
  record Totals(Mode mode, int iterations, double wallSeconds, double modelledSeconds, double deviceSeconds,
      double ioSeconds, Double hostComputeSeconds, long hostBytesIn, long hostBytesOut, double hostCpuSeconds,
      double energyJoules, long executions, long fallbackSplits) {
    long hostInterfaceBytes() {
      return hostBytesIn + hostBytesOut;
    }

    /** A mode's figures over its iterations and the jobs after them. */
    static Totals of(MiningRun.ModeRun run, Mode mode) {
      List<RunStatistics> s = new ArrayList<>(run.iterations().stream().map(MiningRun.Iteration::statistics).toList());
      s.addAll(run.after().stream().map(MiningRun.FinalJob::statistics).toList());
      boolean hostKnown = s.stream().allMatch(RunStatistics::hostComputeKnown);
      return new Totals(mode, run.iterations().size(), sum(s, RunStatistics::wallSeconds), sum(s, RunStatistics::modelledSeconds),
          sum(s, x -> x.deviceExecutionNanos() / 1e9), sum(s, x -> x.ioNanos() / 1e9),
          hostKnown ? sum(s, x -> x.hostComputeNanos() / 1e9) : null,
          s.stream().mapToLong(RunStatistics::hostBytesIn).sum(), s.stream().mapToLong(RunStatistics::hostBytesOut).sum(),
          sum(s, RunStatistics::hostCpuSeconds), sum(s, RunStatistics::energyJoules),
          s.stream().mapToLong(RunStatistics::deviceExecutions).sum(),
          s.stream().mapToLong(RunStatistics::fallbackSplits).sum());
    }

    private static double sum(List<RunStatistics> s, ToDoubleFunction<RunStatistics> f) {
      return s.stream().mapToDouble(f).sum();
    }
  }

  List<Totals> totals() {
    List<Totals> t = new ArrayList<>();
    for (MiningRun.ModeRun run : outcome.modes()) {
      if (!run.iterations().isEmpty()) {
        t.add(Totals.of(run, run.iterations().get(0).mode()));
      }
    }
    return t;
  }

  private Totals baseline() {
    return totals().stream().filter(t -> t.mode() == Mode.HOST_NORMAL).findFirst().orElse(null);
  }

  /** Writes the CSV, the JSON and the charts into a directory (created if needed); the files written. */
  public List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>();
    files.add(Files.writeString(dir.resolve(CSV), csv(), StandardCharsets.UTF_8));
    files.add(Files.writeString(dir.resolve(JSON), Json.write(json()), StandardCharsets.UTF_8));
    files.addAll(charts(dir));
    return files;
  }

  public String table() {
    StringBuilder sb = new StringBuilder();
    Mine.Options o = outcome.options();
    sb.append(o.workload().algorithm()).append(": ").append(o.workload().description()).append('\n');
    for (String line : outcome.summary()) {
      sb.append("  ").append(line).append('\n');
    }
    sb.append(outcome.agree()
        ? String.format(Locale.ROOT, "every iteration, host-normal and in the device%s, found what the direct "
            + "computation (in memory) found, bit for bit, in %d iteration(s)%n", o.deviceTotal() > 1 ? "s" : "",
            outcome.directIterations())
        : "RESULTS DISAGREE: " + String.join("; ", outcome.disagreements()) + "\n");
    if (o.deviceTotal() > 1) {
      sb.append(String.format(Locale.ROOT, "the data set was spread over %d devices in equal parts; every job read all "
          + "of them%n", o.deviceTotal()));
    }
    sb.append('\n');
    String header = String.format(Locale.ROOT, "%-12s  %5s  %8s  %10s  %9s  %8s  %8s  %20s  %8s  %9s  |  %6s  %8s  %9s%n",
        "mode", "iter.", "wall s", "modelled s", "device s", "I/O s", "host s", "host-interface bytes", "host CPU",
        "energy J", "wall", "modelled", "bytes");
    sb.append(String.format(Locale.ROOT, "%-" + (header.indexOf('|') + 3) + "s%s%n",
        "totals over the iterations" + (outcome.modes().stream().anyMatch(m -> !m.after().isEmpty())
            ? " and the jobs after them" : "") + ": wall, bytes, host CPU measured; modelled time and energy modelled",
        "ratio to host-normal"));
    sb.append(header);
    Totals base = baseline();
    for (Totals t : totals()) {
      sb.append(String.format(Locale.ROOT, "%-12s  %5d  %8.3f  %10.3f  %9.3f  %8.3f  %8s  %,20d  %8.2f  %9.1f  |  %6s  "
          + "%8s  %9s%n", t.mode().optionName() + (t.fallbackSplits() > 0 ? "!" : ""), t.iterations(),
          t.wallSeconds(), t.modelledSeconds(), t.deviceSeconds(), t.ioSeconds(),
          t.hostComputeSeconds() == null ? "-" : String.format(Locale.ROOT, "%.3f", t.hostComputeSeconds()),
          t.hostInterfaceBytes(), t.hostCpuSeconds(), t.energyJoules(), ratio(t, base, Totals::wallSeconds),
          ratio(t, base, Totals::modelledSeconds), ratio(t, base, x -> x.hostInterfaceBytes())));
    }
    boolean stateFiles = outcome.modes().stream().flatMap(m -> m.iterations().stream()).anyMatch(i -> i.stateBytes() > 0);
    sb.append('\n').append(String.format(Locale.ROOT, "%-5s  %-12s  %8s  %10s  %20s  %12s  %12s  %14s%s%n", "iter.",
        "mode", "wall s", "modelled s", "host-interface bytes", "to device", "from device", "tasklets",
        stateFiles ? String.format(Locale.ROOT, "  %12s", "state file") : ""));
    int most = outcome.modes().stream().mapToInt(m -> m.iterations().size()).max().orElse(0);
    for (int i = 0; i < most; i++) {
      for (MiningRun.ModeRun run : outcome.modes()) {
        if (i < run.iterations().size()) {
          MiningRun.Iteration it = run.iterations().get(i);
          RunStatistics s = it.statistics();
          sb.append(String.format(Locale.ROOT, "%5d  %-12s  %8.3f  %10.3f  %,20d  %,12d  %,12d  %,14d%s%n",
              it.iteration(), it.mode().optionName() + (s.fellBack() ? "!" : ""), s.wallSeconds(), s.modelledSeconds(),
              s.hostInterfaceBytes(), s.hostBytesIn(), s.hostBytesOut(), it.taskletInstallBytes(),
              stateFiles ? String.format(Locale.ROOT, "  %,12d", it.stateBytes()) : ""));
        }
      }
    }
    for (MiningRun.ModeRun run : outcome.modes()) {
      for (MiningRun.FinalJob f : run.after()) {
        RunStatistics s = f.statistics();
        sb.append(String.format(Locale.ROOT, "%s, %s%s: wall %.3f s, modelled %.3f s, %,d host-interface bytes (%,d to "
            + "the device, %,d from it); wrote %,d bytes to %s%s%n", f.name(), f.mode().optionName(),
            s.fellBack() ? "!" : "", s.wallSeconds(), s.modelledSeconds(), s.hostInterfaceBytes(), s.hostBytesIn(),
            s.hostBytesOut(), f.outputBytes(), f.output(), f.mode() == Mode.DEVICE
                ? String.format(Locale.ROOT, ", %,d of them by the device itself", f.deviceOutputBytes()) : ""));
      }
    }
    if (totals().stream().anyMatch(t -> t.fallbackSplits() > 0)) {
      sb.append(String.format(Locale.ROOT, "%n! NOT IN THE DEVICE: some device-mode jobs ran splits on the host "
          + "(smartssd.mapper.fallback=auto): their rows are not the device's figures; the warnings above say why.%n"));
    }
    if (totals().stream().anyMatch(t -> t.hostComputeSeconds() == null)) {
      sb.append(String.format(Locale.ROOT, "%nhost compute was not counted (this JVM runs without the counting agent, "
          + "-javaagent:smartssd-opcount.jar; bin/smartssd starts it): the modelled times leave it out.%n"));
    }
    if (stateFiles) {
      sb.append(String.format(Locale.ROOT, "%nThe state stays in the devices: each iteration's reducer writes it to a "
          + "file on the devices (state file: its bytes), copied to every device that holds input, and the next "
          + "iteration's tasks read it there (in a device, next to the flash). host-interface bytes count the job's "
          + "data path (to device: the tasklets, the raw records' read requests, the state file and the first "
          + "iteration's side files written; from device: the results or raw records, the side files the reducer "
          + "reads); the driver's reading of the state to check it is not counted. tasklets: their CREATE_OBJECT "
          + "frames, part of to device.%n"));
    }
    sb.append(String.format(Locale.ROOT, "%nwall: measured, job submission to result, summed over the iterations. "
        + "modelled: for each job the slowest device's execution and the time it served the host's commands (I/O: the "
        + "raw records' reads in host-normal), then the host's counted work on the modelled host CPU; summed over the "
        + "iterations. host CPU: this JVM's CPU time (measured). energy: modelled. The direct computation took %.2f s "
        + "(measured, in memory).%n", outcome.directSeconds()));
    return sb.toString();
  }

  private static String ratio(Totals t, Totals base, ToDoubleFunction<Totals> f) {
    return ComparisonReport.ratioText(base == null || f.applyAsDouble(base) == 0 ? Double.NaN
        : f.applyAsDouble(t) / f.applyAsDouble(base));
  }

  String csv() {
    StringBuilder sb = new StringBuilder("algorithm,mode,iteration,paced,records,input_bytes,wall_s,modelled_s,"
        + "modelled_device_execution_s,modelled_io_s,modelled_host_compute_s,modelled_device_compute_s,"
        + "host_interface_bytes,host_bytes_in,host_bytes_out,host_cpu_s,modelled_energy_j,device_executions,"
        + "fallback_splits,devices,tasklet_install_bytes,state_file_bytes,output_bytes,device_output_bytes\n");
    String algorithm = outcome.options().workload().algorithm().optionName();
    long records = outcome.options().workload().records();
    for (MiningRun.ModeRun run : outcome.modes()) {
      for (MiningRun.Iteration it : run.iterations()) {
        RunStatistics s = it.statistics();
        sb.append(String.join(",", algorithm, it.mode().optionName(), Integer.toString(it.iteration()), paced(),
            Long.toString(records), Long.toString(s.inputBytes()), num(s.wallSeconds()), num(s.modelledSeconds()),
            num(s.deviceExecutionNanos() / 1e9), num(s.ioNanos() / 1e9),
            s.hostComputeKnown() ? num(s.hostComputeNanos() / 1e9) : "", num(s.device().computeNanos() / 1e9),
            Long.toString(s.hostInterfaceBytes()), Long.toString(s.hostBytesIn()), Long.toString(s.hostBytesOut()),
            num(s.hostCpuSeconds()), num(s.energyJoules()), Long.toString(s.deviceExecutions()),
            Long.toString(s.fallbackSplits()), Integer.toString(s.devices().size()),
            Long.toString(it.taskletInstallBytes()), Long.toString(it.stateBytes()), "", "")).append('\n');
      }
      for (MiningRun.FinalJob f : run.after()) {
        RunStatistics s = f.statistics();
        sb.append(String.join(",", algorithm, f.mode().optionName(), f.name().replace(',', ';'), paced(),
            Long.toString(s.inputBytes() / Math.max(1, s.recordBytes())), Long.toString(s.inputBytes()),
            num(s.wallSeconds()), num(s.modelledSeconds()), num(s.deviceExecutionNanos() / 1e9), num(s.ioNanos() / 1e9),
            s.hostComputeKnown() ? num(s.hostComputeNanos() / 1e9) : "", num(s.device().computeNanos() / 1e9),
            Long.toString(s.hostInterfaceBytes()), Long.toString(s.hostBytesIn()), Long.toString(s.hostBytesOut()),
            num(s.hostCpuSeconds()), num(s.energyJoules()), Long.toString(s.deviceExecutions()),
            Long.toString(s.fallbackSplits()), Integer.toString(s.devices().size()),
            Long.toString(f.taskletInstallBytes()), "", Long.toString(f.outputBytes()),
            Long.toString(f.deviceOutputBytes()))).append('\n');
      }
    }
    for (Totals t : totals()) {
      sb.append(String.join(",", algorithm, t.mode().optionName(), "total", paced(), Long.toString(records),
          Long.toString(outcome.options().workload().bytes()), num(t.wallSeconds()), num(t.modelledSeconds()),
          num(t.deviceSeconds()), num(t.ioSeconds()), t.hostComputeSeconds() == null ? "" : num(t.hostComputeSeconds()),
          "", Long.toString(t.hostInterfaceBytes()), Long.toString(t.hostBytesIn()), Long.toString(t.hostBytesOut()),
          num(t.hostCpuSeconds()), num(t.energyJoules()), Long.toString(t.executions()),
          Long.toString(t.fallbackSplits()), Integer.toString(outcome.options().deviceTotal()), "", "", "", ""))
          .append('\n');
    }
    return sb.toString();
  }

  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    Mine.Options o = outcome.options();
    IterativeMining<?> w = o.workload();
    m.put("algorithm", w.algorithm().optionName());
    m.put("data", w.description());
    m.put("records", w.records());
    m.put("input_bytes", w.bytes());
    m.put("profile", outcome.profile());
    m.put("paced", outcome.paced());
    m.put("devices", o.deviceTotal());
    m.put("device", o.devices().isEmpty() ? o.deviceCount() + " child process(es), started by mine"
        : String.join(",", o.devices()));
    m.put("results_agree", outcome.agree());
    m.put("disagreements", outcome.disagreements());
    m.put("iterations_direct", outcome.directIterations());
    m.put("direct_s", outcome.directSeconds());
    m.put("results", outcome.summary());
    List<Object> runs = new ArrayList<>();
    for (MiningRun.ModeRun run : outcome.modes()) {
      for (MiningRun.Iteration it : run.iterations()) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("iteration", it.iteration());
        r.putAll(it.statistics().toMap());
        r.put("records", w.records()); // points, edges or transactions (RunStatistics counts bytes over record size)
        r.put("record_bytes", w.recordBytes() == 1 ? null : w.recordBytes());
        r.put("tasklet_install_bytes", it.taskletInstallBytes());
        r.put("state_file_bytes", it.stateBytes());
        runs.add(r);
      }
      for (MiningRun.FinalJob f : run.after()) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("job", f.name());
        r.putAll(f.statistics().toMap());
        r.put("tasklet_install_bytes", f.taskletInstallBytes());
        r.put("output", f.output().toString());
        r.put("output_bytes", f.outputBytes());
        r.put("device_output_bytes", f.deviceOutputBytes());
        runs.add(r);
      }
    }
    m.put("runs", runs);
    Map<String, Object> totals = new LinkedHashMap<>();
    Totals base = baseline();
    for (Totals t : totals()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("iterations", t.iterations());
      e.put("wall_s", t.wallSeconds());
      e.put("modelled_s", t.modelledSeconds());
      e.put("modelled_device_execution_s", t.deviceSeconds());
      e.put("modelled_io_s", t.ioSeconds());
      e.put("modelled_host_compute_s", t.hostComputeSeconds());
      e.put("host_interface_bytes", t.hostInterfaceBytes());
      e.put("host_bytes_in", t.hostBytesIn());
      e.put("host_bytes_out", t.hostBytesOut());
      e.put("host_cpu_s", t.hostCpuSeconds());
      e.put("modelled_energy_j", t.energyJoules());
      e.put("device_executions", t.executions());
      e.put("fallback_splits", t.fallbackSplits());
      e.put("wall_vs_host_normal", base == null ? null : t.wallSeconds() / base.wallSeconds());
      e.put("modelled_vs_host_normal", base == null ? null : t.modelledSeconds() / base.modelledSeconds());
      e.put("bytes_vs_host_normal", base == null ? null : (double) t.hostInterfaceBytes() / base.hostInterfaceBytes());
      totals.put(t.mode().optionName(), e);
    }
    m.put("totals", totals);
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("wall_s", "measured: job submission to result, on the host (totals: summed over the iterations)");
    d.put("modelled_s", "modelled: the slowest device's execution time plus the time it served the host's commands, "
        + "then the host's counted work on the modelled host CPU (totals: summed over the iterations)");
    d.put("host_interface_bytes", "measured: bytes across the devices' host links, both ways (STATISTICS before and "
        + "after each job), summed over the devices (and the iterations and the jobs after them); for a workload whose "
        + "state stays in the devices, the job's data path: the first iteration's side files and first state written, "
        + "the job, the state file copied to the other devices; not the driver's reading of the state to check it");
    d.put("tasklet_install_bytes", "measured, device mode: the tasklets' CREATE_OBJECT frames (the job's configuration "
        + "among them), part of host_interface_bytes");
    d.put("state_file_bytes", "measured: the state file an iteration's reducer wrote on the devices (one copy)");
    d.put("device_output_bytes", "measured, device mode: what the devices wrote of a map-only job's output themselves");
    d.put("host_cpu_s", "measured: CPU time of the host JVM");
    d.put("modelled_energy_j", "modelled: as compare's, summed over the iterations");
    d.put("direct_s", "measured: the direct computation's wall time, in memory");
    d.put("results_agree", "every iteration of every mode found what the direct computation found, bit for bit, "
        + "and they stopped after as many iterations");
    m.put("definitions", d);
    m.put("total_s", outcome.totalSeconds());
    return m;
  }

  private List<Path> charts(Path dir) throws IOException {
    int most = outcome.modes().stream().mapToInt(r -> r.iterations().size()).max().orElse(0);
    List<String> categories = new ArrayList<>();
    for (int i = 1; i <= most; i++) {
      categories.add(Integer.toString(i));
    }
    String name = outcome.options().workload().algorithm().optionName();
    List<Path> files = new ArrayList<>();
    files.add(ComparisonCharts.bars(dir, WALL_CHART, name + ": elapsed time a job (measured wall clock)", "iteration",
        "seconds", false, categories, series(most, false, RunStatistics::wallSeconds)));
    files.add(ComparisonCharts.bars(dir, MODELLED_CHART, name + ": modelled time a job", "iteration",
        "seconds (modelled)", false, categories, series(most, false, RunStatistics::modelledSeconds)));
    files.add(ComparisonCharts.bars(dir, BYTES_CHART, name + ": bytes across the host interface a job (measured)",
        "iteration", "bytes (log scale)", true, categories,
        series(most, true, s -> Math.max(1, s.hostInterfaceBytes()))));
    return files;
  }

  private Map<String, List<Double>> series(int most, boolean logarithmic, ToDoubleFunction<RunStatistics> f) {
    Map<String, List<Double>> series = new LinkedHashMap<>();
    for (MiningRun.ModeRun run : outcome.modes()) {
      if (run.iterations().isEmpty()) {
        continue;
      }
      List<Double> ys = new ArrayList<>();
      for (int i = 0; i < most; i++) {
        ys.add(i < run.iterations().size() ? f.applyAsDouble(run.iterations().get(i).statistics())
            : logarithmic ? 1.0 : 0.0);
      }
      series.put(run.iterations().get(0).mode().optionName(), ys);
    }
    return series;
  }

  private String paced() {
    return outcome.paced() == null ? "-" : outcome.paced() ? "yes" : "no";
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : Double.toString(v);
  }
}
