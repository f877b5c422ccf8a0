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
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.smartssd.device.runtime.config.EnergyParameters;

/**
 * The comparison's report: the tables {@code compare} prints, {@code results.csv}, {@code results.json},
 * and the charts ({@link ComparisonCharts}). Ratios are to host-normal of the same scenario and pacing
 * (mode's value divided by host-normal's: below 1 is better). For device mode, Active Flash's slowdown
 * S = t_ssd / t_host and energy saving ΔE = 1 - S (ΔP_ssd / ΔP_host) against host-normal, from the
 * modelled times and the modelled energy above idle (ΔP t).
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

  /** The results (identical in every run, or the disagreements) and the tables of figures. */
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
    sb.append('\n').append(timeTable()).append('\n').append(costTable());
    List<String> behind = new ArrayList<>();
    for (RunStatistics s : stats()) {
      if (s.behindModel()) {
        behind.add(String.format(Locale.ROOT, "%s %s: %.3f s", s.scenario().optionName(), s.mode().optionName(),
            s.behindModelNanos() / 1e9));
      }
    }
    if (!behind.isEmpty()) {
      sb.append(String.format(Locale.ROOT, "%n* behind the model: paced, the devices worked later than modelled by more "
          + "than 1%% of the modelled time (%s), "
          + "because this machine cannot simulate them as fast as the model has them run; these rows' wall times "
          + "are not the model's.%n", String.join("; ", behind)));
    }
    List<String> fellBack = new ArrayList<>();
    for (RunStatistics s : stats()) {
      if (s.fellBack()) {
        fellBack.add(String.format(Locale.ROOT, "%s %s%s: %d split(s)", s.scenario().optionName(),
            s.mode().optionName(), Boolean.TRUE.equals(s.paced()) ? " paced" : "", s.fallbackSplits()));
      }
    }
    if (!fellBack.isEmpty()) {
      sb.append(String.format(Locale.ROOT, "%n! NOT IN THE DEVICE: these device-mode runs ran splits on the host "
          + "(smartssd.mapper.fallback=auto), so their rows are not the device's figures: %s. The warnings above name "
          + "each device and why.%n", String.join("; ", fellBack)));
    }
    if (!stats().isEmpty() && !stats().get(0).parameters().counted()) {
      sb.append(String.format(Locale.ROOT, "%nthe devices' compute model is %s, not counted: host s is this JVM's measured "
          + "CPU time, which depends on this machine and its load.%n",
          stats().get(0).parameters().computeModel().optionName()));
    }
    if (stats().stream().anyMatch(s -> !s.hostComputeKnown())) {
      sb.append(String.format(Locale.ROOT, "%nhost compute was not counted (this JVM runs without the counting agent, "
          + "-javaagent:smartssd-opcount.jar; bin/smartssd starts it): the modelled times leave it out.%n"));
    }
    sb.append(String.format(Locale.ROOT, "%n%s%n", legend()));
    return sb.toString();
  }

  private String timeTable() {
    StringBuilder sb = new StringBuilder();
    String header = String.format(Locale.ROOT,
        "%-9s  %-14s  %-5s  %8s  %10s  %10s  %8s  %9s  %12s  |  %6s  %8s%n", "scenario", "mode", "paced", "wall s",
        "modelled s", "device s", "I/O s", "host s", "contention s", "wall", "modelled");
    sb.append(String.format(Locale.ROOT, "%-" + (header.indexOf('|') + 3) + "s%s%n",
        "time: measured wall, and modelled = device execution + I/O + host compute", "ratio to host-normal"));
    sb.append(header);
    for (RunStatistics s : stats()) {
      RunStatistics base = baseline(s);
      sb.append(String.format(Locale.ROOT, "%-9s  %-14s  %-5s  %8.3f  %10.3f  %10.3f  %8.3f  %9s  %12.4f  |  %6s  %8s%n",
          s.scenario().optionName(), modeText(s), paced(s), s.wallSeconds(), s.modelledSeconds(),
          s.deviceExecutionNanos() / 1e9, s.ioNanos() / 1e9,
          s.hostComputeKnown() ? String.format(Locale.ROOT, "%.3f", s.hostComputeNanos() / 1e9) : "-",
          s.contentionNanos() / 1e9, ratioText(s, base, RunStatistics::wallSeconds),
          ratioText(s, base, RunStatistics::modelledSeconds)));
    }
    return sb.toString();
  }

  private String costTable() {
    StringBuilder sb = new StringBuilder();
    String header = String.format(Locale.ROOT,
        "%-9s  %-14s  %-5s  %20s  %7s  %7s  %7s  %9s  %7s  %7s  %7s  |  %9s  %6s  %6s  %6s%n", "scenario", "mode",
        "paced", "host-interface bytes", "user s", "sys s", "idle s", "energy J", "host J", "device J", "flash J",
        "bytes", "energy", "S", "ΔE");
    sb.append(String.format(Locale.ROOT, "%-" + (header.indexOf('|') + 3) + "s%s%n",
        "cost: bytes and host CPU measured, energy modelled", "ratio to host-normal; Active Flash's S and ΔE"));
    sb.append(header);
    for (RunStatistics s : stats()) {
      RunStatistics base = baseline(s);
      RunStatistics.Energy e = s.energy();
      HostCpu cpu = s.hostCpu();
      sb.append(String.format(Locale.ROOT,
          "%-9s  %-14s  %-5s  %,20d  %7s  %7s  %7s  %9.1f  %7.1f  %8.2f  %7.2f  |  %9s  %6s  %6s  %6s%n",
          s.scenario().optionName(), modeText(s), paced(s), s.hostInterfaceBytes(),
          seconds(cpu.known() ? cpu.userNanos() : -1), seconds(cpu.known() ? cpu.systemNanos() : -1),
          seconds(cpu.idleNanos(s.wallNanos(), s.processors())), e.total(), e.hostIdle() + e.hostCompute(),
          e.deviceIdle() + e.deviceCores(), e.flash() + e.link(), ratioText(s, base, x -> x.hostInterfaceBytes()),
          ratioText(s, base, RunStatistics::energyJoules), activeFlash(s, base, true), activeFlash(s, base, false)));
    }
    return sb.toString();
  }

  private String legend() {
    EnergyParameters e = energy();
    return String.format(Locale.ROOT, "wall: measured, submission to result. modelled: the slowest device's execution "
        + "and the time it served the host's commands (I/O: the raw records' reads in host modes, flash and link), then "
        + "the host's counted work on the modelled host CPU (%s); device s and I/O s are summed over the devices; contention: modelled time internal reads and host operations delayed each "
        + "other. user/sys/idle: this JVM's CPU time from /proc (idle: the rest of its %d processors over the wall "
        + "time; a device process counts as idle). energy: modelled, host %s W idle + %s W with its cores busy, each "
        + "device %s W idle + %s W with its cores busy, flash operations and link bytes (what the devices' work added "
        + "is their own energy accounts', from STATISTICS); host J and device J include idle power over the modelled "
        + "time. S = t_ssd / t_host, ΔE = 1 - S (ΔP_ssd / ΔP_host) for device mode "
        + "against host-normal (Active Flash), from modelled times and energies above idle.", hostDescription(),
        stats().isEmpty() ? 0 : stats().get(0).processors(), fmt(e.hostIdleWatts()), fmt(e.hostActiveWatts()),
        fmt(e.deviceIdleWatts()), fmt(e.deviceActiveWatts()));
  }

  private String hostDescription() {
    if (stats().isEmpty()) {
      return "";
    }
    RunStatistics.ModelParameters p = stats().get(0).parameters();
    return String.format(Locale.ROOT, "%s MHz x %d core%s, %s cycles an op", fmt(p.host().mhz()), p.hostCores(),
        p.hostCores() == 1 ? "" : "s", fmt(p.host().cyclesPerOp()));
  }

  /** Active Flash's slowdown S (or energy saving ΔE) of a device-mode run against host-normal; "-" otherwise. */
  private static String activeFlash(RunStatistics s, RunStatistics base, boolean slowdown) {
    double v = slowdown ? slowdown(s, base) : saving(s, base);
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
  }

  static double slowdown(RunStatistics s, RunStatistics base) {
    if (!s.mode().inDevice() || base == null || base.modelledNanos() == 0) {
      return Double.NaN;
    }
    return (double) s.modelledNanos() / base.modelledNanos();
  }

  /** ΔE = 1 - S ΔP_ssd / ΔP_host = 1 - (ΔP_ssd t_ssd) / (ΔP_host t_host): energy above idle, device mode to host. */
  static double saving(RunStatistics s, RunStatistics base) {
    if (!s.mode().inDevice() || base == null || base.energy().dynamic() == 0) {
      return Double.NaN;
    }
    return 1 - s.energy().dynamic() / base.energy().dynamic();
  }

  String csv() {
    StringBuilder sb = new StringBuilder("scenario,mode,paced,records,input_bytes,wall_s,modelled_s,"
        + "modelled_device_execution_s,modelled_link_busy_s,modelled_io_s,modelled_host_compute_s,modelled_device_compute_s,"
        + "modelled_contention_s,host_counted_ops,device_counted_ops,host_interface_bytes,host_bytes_in,"
        + "host_bytes_out,host_cpu_s,host_cpu_user_s,host_cpu_system_s,host_cpu_idle_s,modelled_energy_j,"
        + "energy_host_idle_j,energy_host_compute_j,energy_device_idle_j,energy_device_cores_j,energy_flash_j,"
        + "energy_link_j,device_executions,device_bytes_scanned,fallback_splits,behind_model_s,"
        + "wall_vs_host_normal,modelled_vs_host_normal,bytes_vs_host_normal,cpu_vs_host_normal,"
        + "energy_vs_host_normal,slowdown_s,energy_saving_delta_e,devices\n");
    for (RunStatistics s : stats()) {
      RunStatistics b = baseline(s);
      RunStatistics.Energy e = s.energy();
      HostCpu cpu = s.hostCpu();
      sb.append(String.join(",", s.scenario().optionName(), s.mode().optionName(), paced(s),
          Long.toString(s.records()), Long.toString(s.inputBytes()), num(s.wallSeconds()), num(s.modelledSeconds()),
          num(s.deviceExecutionNanos() / 1e9), num(s.linkBusyNanos() / 1e9), num(s.ioNanos() / 1e9),
          s.hostComputeKnown() ? num(s.hostComputeNanos() / 1e9) : "", num(s.device().computeNanos() / 1e9),
          num(s.contentionNanos() / 1e9), s.hostCounted() != null ? Long.toString(s.hostCounted().ops()) : "",
          Long.toString(s.device().countedOps()), Long.toString(s.hostInterfaceBytes()),
          Long.toString(s.hostBytesIn()), Long.toString(s.hostBytesOut()), num(s.hostCpuSeconds()),
          cpu.known() ? num(cpu.userNanos() / 1e9) : "", cpu.known() ? num(cpu.systemNanos() / 1e9) : "",
          cpu.known() ? num(cpu.idleNanos(s.wallNanos(), s.processors()) / 1e9) : "", num(e.total()),
          num(e.hostIdle()), num(e.hostCompute()), num(e.deviceIdle()), num(e.deviceCores()), num(e.flash()),
          num(e.link()), Long.toString(s.deviceExecutions()), Long.toString(s.deviceBytesScanned()),
          Long.toString(s.fallbackSplits()), num(s.behindModelNanos() / 1e9),
          num(ratio(s, b, RunStatistics::wallSeconds)), num(ratio(s, b, RunStatistics::modelledSeconds)),
          num(ratio(s, b, x -> x.hostInterfaceBytes())), num(ratio(s, b, RunStatistics::hostCpuSeconds)),
          num(ratio(s, b, RunStatistics::energyJoules)), num(slowdown(s, b)), num(saving(s, b)),
          Integer.toString(s.devices().size()))).append('\n');
    }
    return sb.toString();
  }

  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    Comparison.Options o = outcome.options();
    m.put("records", outcome.records());
    m.put("trace_files", o.traces().stream().map(Path::toString).toList());
    m.put("stored", o.gzip() ? "gzip" : "plain");
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
      r.put("modelled_vs_host_normal", ratio(s, b, RunStatistics::modelledSeconds));
      r.put("bytes_vs_host_normal", ratio(s, b, x -> x.hostInterfaceBytes()));
      r.put("cpu_vs_host_normal", ratio(s, b, RunStatistics::hostCpuSeconds));
      r.put("energy_vs_host_normal", ratio(s, b, RunStatistics::energyJoules));
      r.put("slowdown_s", slowdown(s, b));
      r.put("energy_saving_delta_e", saving(s, b));
      runs.add(r);
    }
    m.put("runs", runs);
    EnergyParameters e = energy();
    Map<String, Object> energy = new LinkedHashMap<>();
    energy.put("host_active_w", e.hostActiveWatts());
    energy.put("host_idle_w", e.hostIdleWatts());
    energy.put("device_active_w", e.deviceActiveWatts());
    energy.put("device_idle_w", e.deviceIdleWatts());
    energy.put("page_read_j", e.pageReadJoules());
    energy.put("page_program_j", e.pageProgramJoules());
    energy.put("block_erase_j", e.blockEraseJoules());
    energy.put("link_j_per_byte", e.linkJoulesPerByte());
    m.put("energy_model", energy);
    if (!stats().isEmpty()) {
      RunStatistics.ModelParameters p = stats().get(0).parameters();
      Map<String, Object> host = new LinkedHashMap<>();
      host.put("mhz", p.host().mhz());
      host.put("cores", p.hostCores());
      host.put("cycles_per_op", p.host().cyclesPerOp());
      host.put("memory_access_ns", p.host().memoryAccessNanos());
      host.put("library_call_ops", p.host().libraryCallOps());
      host.put("copy_mb_per_s", p.host().copyMbPerS());
      m.put("host_model", host);
    }
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("wall_s", "measured: job submission to result, on the host");
    d.put("modelled_s", "modelled: for each device, its execution time (device mode, from the job's counters) plus the "
        + "time it served the host's commands during the run (modelled_io_s, from STATISTICS before and after); with "
        + "several devices, which work in parallel, the longest of these; then the host's compute "
        + "(modelled_host_compute_s)");
    d.put("modelled_device_execution_s", "modelled: in-device execution time, summed over the devices");
    d.put("modelled_link_busy_s", "modelled: host-link busy time, summed over the devices");
    d.put("modelled_io_s", "modelled: the time the devices served the host's commands (their durations summed, at "
        + "least the link's busy time): the raw records' reads in host modes, flash and link both; summed over the "
        + "devices");
    d.put("modelled_host_compute_s", "modelled: the host's counted work (bytecode instructions of Hadoop's and the "
        + "jobs' code, by kind) priced with the modelled host CPU; empty when not counted");
    d.put("modelled_device_compute_s", "modelled: the devices' cores' busy time, summed over the cores");
    d.put("modelled_contention_s", "modelled: time internal reads delayed host commands plus time host operations "
        + "delayed internal reads");
    d.put("host_interface_bytes", "measured: bytes across the devices' host links, both ways (STATISTICS before and "
        + "after), summed over the devices");
    d.put("host_cpu_s", "measured: CPU time of the host JVM (OperatingSystemMXBean.getProcessCpuTime); the device runs "
        + "in another process");
    d.put("host_cpu_user_s", "measured: user-mode CPU time of the host JVM, from /proc/self/stat");
    d.put("host_cpu_system_s", "measured: kernel CPU time on the host JVM's behalf, from /proc/self/stat");
    d.put("host_cpu_idle_s", "measured: wall time x processors - user - system: host CPU time the run left unused");
    d.put("modelled_energy_j", "modelled: host and devices at idle power over the modelled time, plus their cores' "
        + "active power while they compute, plus every flash page read and programmed and block erased, plus the "
        + "link's energy per byte; the devices' cores, flash and link are the devices' own energy accounts "
        + "(STATISTICS before and after, summed over the devices), the rest is modelled on the host");
    d.put("behind_model_s", "paced runs: how much later than modelled the devices' executions ended and their answers "
        + "went out, summed (the simulator could not keep up with the model); behind_model: more than 1% of the "
        + "modelled time");
    d.put("ratios", "the mode's value divided by host-normal's, same scenario and pacing");
    d.put("slowdown_s", "Active Flash's S = t_ssd / t_host: device mode's modelled time over host-normal's");
    d.put("energy_saving_delta_e", "Active Flash's ΔE = 1 - S (ΔP_ssd / ΔP_host): 1 - device mode's modelled energy "
        + "above idle over host-normal's");
    m.put("definitions", d);
    m.put("total_s", outcome.totalSeconds());
    return m;
  }

  private List<RunStatistics> stats() {
    return outcome.runs().stream().map(AnalysisRun::statistics).toList();
  }

  private EnergyParameters energy() {
    // Every run reads the same device parameters; the first says them.
    return outcome.runs().isEmpty() ? org.smartssd.device.runtime.config.DeviceConfig.defaults().energy()
        : outcome.runs().get(0).statistics().parameters().energy();
  }

  private RunStatistics baseline(RunStatistics s) {
    for (AnalysisRun r : outcome.runs()) {
      RunStatistics b = r.statistics();
      if (b.mode() == Mode.HOST_NORMAL && b.scenario() == s.scenario() && Objects.equals(b.paced(), s.paced())) {
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
    return ratioText(ratio(s, base, f));
  }

  /** A ratio as the reports' tables print it: two decimals, or two digits of a small one; "-" for none (NaN). */
  public static String ratioText(double r) {
    if (Double.isNaN(r)) {
      return "-";
    }
    return r >= 0.01 ? String.format(Locale.ROOT, "%.2f", r) : String.format(Locale.ROOT, "%.1e", r);
  }

  /** The mode, marked {@code !} when a device-mode run ran splits on the host. */
  private static String modeText(RunStatistics s) {
    return s.mode().optionName() + (s.fellBack() ? "!" : "");
  }

  private static String paced(RunStatistics s) {
    return s.paced() == null ? "-" : s.paced() ? (s.behindModel() ? "yes*" : "yes") : "no";
  }

  private static String seconds(long nanos) {
    return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f", nanos / 1e9);
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : Double.toString(v);
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
