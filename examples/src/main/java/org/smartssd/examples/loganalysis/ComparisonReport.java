package org.smartssd.examples.loganalysis;

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

/**
 * The comparison's report: the table {@code compare} prints, {@code results.csv}, {@code results.json},
 * and the charts ({@link ComparisonCharts}). Ratios are to host-normal of the same scenario and pacing
 * (mode's value divided by host-normal's: below 1 is better).
 */
public final class ComparisonReport {
  public static final String CSV = "results.csv";
  public static final String JSON = "results.json";

  private final Comparison.Outcome outcome;

  public ComparisonReport(Comparison.Outcome outcome) {
    this.outcome = outcome;
  }

  /** Writes the CSV, JSON and charts into a directory (created if needed); returns the files written. */
  public List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>();
    files.add(Files.writeString(dir.resolve(CSV), csv(), StandardCharsets.UTF_8));
    files.add(Files.writeString(dir.resolve(JSON), Json.write(json()), StandardCharsets.UTF_8));
    files.addAll(ComparisonCharts.write(dir, stats()));
    return files;
  }

  /** The results (identical in every run, or the disagreements) and the table of figures. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<Scenario, AnalysisResult> e : outcome.expected().entrySet()) {
      sb.append(e.getKey().optionName()).append('\n').append(e.getValue().text());
    }
    sb.append(outcome.agree()
        ? "every run found these results, in every mode, paced and unpaced: they equal a direct count of the trace\n"
        : "RESULTS DISAGREE: " + String.join("; ", outcome.disagreements()) + "\n");
    if (outcome.options().deviceTotal() > 1) {
      sb.append(String.format(Locale.ROOT, "the trace was spread over %d devices in equal parts; every run read all of "
          + "them%n", outcome.options().deviceTotal()));
    }
    sb.append('\n');
    String header = String.format(Locale.ROOT, "%-9s  %-14s  %-5s  %8s  %10s  %20s  %10s  %9s  |  %6s  %9s  %6s  %6s%n",
        "scenario", "mode", "paced", "wall s", "modelled s", "host-interface bytes", "host CPU s", "energy J",
        "wall", "bytes", "CPU", "energy");
    sb.append(String.format(Locale.ROOT, "%-" + (header.indexOf('|') + 3) + "s%s%n", "",
        "ratio to host-normal (same scenario and pacing)"));
    sb.append(header);
    for (RunStatistics s : stats()) {
      RunStatistics base = baseline(s);
      sb.append(String.format(Locale.ROOT, "%-9s  %-14s  %-5s  %8.3f  %10.3f  %,20d  %10.3f  %9.1f  |  %6s  %9s  %6s  %6s%n",
          s.scenario().optionName(), s.mode().optionName(), paced(s), s.wallSeconds(), s.modelledSeconds(),
          s.hostInterfaceBytes(), s.hostCpuSeconds(), s.energyJoules(),
          ratioText(s, base, RunStatistics::wallSeconds), ratioText(s, base, x -> x.hostInterfaceBytes()),
          ratioText(s, base, RunStatistics::hostCpuSeconds), ratioText(s, base, RunStatistics::energyJoules)));
    }
    sb.append(String.format(Locale.ROOT,
        "%nwall: measured, submission to result; modelled: device execution + host-link busy time (modelled; with "
            + "several devices, the slowest device's); "
            + "host CPU: this JVM's process CPU time (the device runs in another); energy: modelled "
            + "(host %s W active / %s W idle, each device %s W / %s W).%n",
        fmt(energy().hostActiveW()), fmt(energy().hostIdleW()), fmt(energy().deviceActiveW()),
        fmt(energy().deviceIdleW())));
    return sb.toString();
  }

  String csv() {
    StringBuilder sb = new StringBuilder("scenario,mode,paced,records,input_bytes,wall_s,modelled_s,"
        + "modelled_device_execution_s,modelled_link_busy_s,host_interface_bytes,host_bytes_in,host_bytes_out,"
        + "host_cpu_s,modelled_energy_j,device_executions,device_bytes_scanned,fallback_splits,"
        + "wall_vs_host_normal,bytes_vs_host_normal,cpu_vs_host_normal,energy_vs_host_normal,devices\n");
    for (RunStatistics s : stats()) {
      RunStatistics b = baseline(s);
      sb.append(String.join(",", s.scenario().optionName(), s.mode().optionName(), paced(s),
          Long.toString(s.records()), Long.toString(s.inputBytes()), num(s.wallSeconds()), num(s.modelledSeconds()),
          num(s.deviceExecutionNanos() / 1e9), num(s.linkBusyNanos() / 1e9), Long.toString(s.hostInterfaceBytes()),
          Long.toString(s.hostBytesIn()), Long.toString(s.hostBytesOut()), num(s.hostCpuSeconds()),
          num(s.energyJoules()), Long.toString(s.deviceExecutions()), Long.toString(s.deviceBytesScanned()),
          Long.toString(s.fallbackSplits()), num(ratio(s, b, RunStatistics::wallSeconds)),
          num(ratio(s, b, x -> x.hostInterfaceBytes())), num(ratio(s, b, RunStatistics::hostCpuSeconds)),
          num(ratio(s, b, RunStatistics::energyJoules)), Integer.toString(s.devices().size()))).append('\n');
    }
    return sb.toString();
  }

  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    Comparison.Options o = outcome.options();
    m.put("records", o.records());
    m.put("seed", o.seed());
    m.put("profile", outcome.profile());
    m.put("devices", o.deviceTotal());
    m.put("device", o.devices().isEmpty()
        ? (o.deviceCount() == 1 ? "child process, started by compare" : o.deviceCount() + " child processes, started by compare")
        : String.join(",", o.devices()));
    m.put("results_agree", outcome.agree());
    m.put("disagreements", outcome.disagreements());
    Map<String, Object> results = new LinkedHashMap<>();
    outcome.expected().forEach((s, r) -> results.put(s.optionName(), r.lines()));
    m.put("results", results);
    List<Object> runs = new ArrayList<>();
    for (RunStatistics s : stats()) {
      Map<String, Object> r = s.toMap();
      RunStatistics b = baseline(s);
      r.put("wall_vs_host_normal", ratio(s, b, RunStatistics::wallSeconds));
      r.put("bytes_vs_host_normal", ratio(s, b, x -> x.hostInterfaceBytes()));
      r.put("cpu_vs_host_normal", ratio(s, b, RunStatistics::hostCpuSeconds));
      r.put("energy_vs_host_normal", ratio(s, b, RunStatistics::energyJoules));
      runs.add(r);
    }
    m.put("runs", runs);
    Map<String, Object> energy = new LinkedHashMap<>();
    energy.put("host_active_w", energy().hostActiveW());
    energy.put("host_idle_w", energy().hostIdleW());
    energy.put("device_active_w", energy().deviceActiveW());
    energy.put("device_idle_w", energy().deviceIdleW());
    m.put("energy_model", energy);
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("wall_s", "measured: job submission to result, on the host");
    d.put("modelled_s", "modelled: for each device, its execution time (device mode, from the job's counters) plus the "
        + "time its modelled host link was busy during the run (STATISTICS before and after); with several devices, "
        + "which work in parallel, the longest of these");
    d.put("modelled_device_execution_s", "modelled: in-device execution time, summed over the devices");
    d.put("modelled_link_busy_s", "modelled: host-link busy time, summed over the devices");
    d.put("host_interface_bytes", "measured: bytes across the devices' host links, both ways (STATISTICS before and "
        + "after), summed over the devices");
    d.put("host_cpu_s", "measured: CPU time of the host JVM (OperatingSystemMXBean.getProcessCpuTime); the device runs "
        + "in another process");
    d.put("modelled_energy_j", "modelled: T = max(wall, modelled); host active for min(T, host CPU) and idle the rest; "
        + "each device active for min(T, its own modelled time) and idle the rest, summed over the devices");
    d.put("ratios", "the mode's value divided by host-normal's, same scenario and pacing");
    m.put("definitions", d);
    m.put("total_s", outcome.totalSeconds());
    return m;
  }

  private List<RunStatistics> stats() {
    return outcome.runs().stream().map(AnalysisRun::statistics).toList();
  }

  private EnergyModel energy() {
    // Every run reads the same device parameters; the first says them.
    return outcome.runs().isEmpty() ? EnergyModel.defaults() : outcome.runs().get(0).statistics().energyModel();
  }

  private RunStatistics baseline(RunStatistics s) {
    for (AnalysisRun r : outcome.runs()) {
      RunStatistics b = r.statistics();
      if (b.mode() == Mode.HOST_NORMAL && b.scenario() == s.scenario() && java.util.Objects.equals(b.paced(), s.paced())) {
        return b;
      }
    }
    return null;
  }

  private static double ratio(RunStatistics s, RunStatistics base, ToDoubleFunction<RunStatistics> f) {
    if (base == null || f.applyAsDouble(base) == 0) {
      return Double.NaN;
    }
    return f.applyAsDouble(s) / f.applyAsDouble(base);
  }

  private static String ratioText(RunStatistics s, RunStatistics base, ToDoubleFunction<RunStatistics> f) {
    double r = ratio(s, base, f);
    if (Double.isNaN(r)) {
      return "-";
    }
    return r >= 0.01 ? String.format(Locale.ROOT, "%.2f", r) : String.format(Locale.ROOT, "%.1e", r);
  }

  private static String paced(RunStatistics s) {
    return s.paced() == null ? "-" : s.paced() ? "yes" : "no";
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : Double.toString(v);
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
