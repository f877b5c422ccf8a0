package org.smartssd.examples.activeflash;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.smartssd.examples.loganalysis.Json;

/**
 * {@code smartssd activeflash}'s report: what it prints, {@code results.json} and {@code results.csv} (one
 * row). Times on the paced device's clock and the compute and energy figures are modelled, and say so;
 * bytes and pages are counted by the device.
 */
public final class ActiveFlashReport {
  public static final String JSON = "results.json";
  public static final String CSV = "results.csv";
  /** Boboila et al.'s figures, for beside ours: about 7 times slower, about 70% less energy. */
  static final double SOURCE_SLOWDOWN = 7;
  static final double SOURCE_SAVING = 0.70;

  private final ActiveFlashRun.Outcome o;

  public ActiveFlashReport(ActiveFlashRun.Outcome outcome) {
    this.o = outcome;
  }

  public List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    return List.of(Files.writeString(dir.resolve(JSON), Json.write(json()), StandardCharsets.UTF_8),
        Files.writeString(dir.resolve(CSV), csv(), StandardCharsets.UTF_8));
  }

  public String table() {
    ActiveFlashRun.Options p = o.options();
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "Active Flash: %s analysis, %s, device %s (profile %s, %,d bytes, pages of"
        + " %,d bytes)%n", p.analysis(), p.schedule(), p.condition(), o.profile(), o.capacityBytes(), o.pageBytes()));
    sb.append(String.format(Locale.ROOT, "producer: %d checkpoints of %,d bytes every %.2f s (%.1f MB/s) of %s%n",
        p.checkpoints(), p.checkpointBytes(), p.periodSeconds(), p.rateBytesPerSecond() / 1e6, p.analysis().data()));
    sb.append(o.exact()
        ? String.format(Locale.ROOT, "exact: every file's results from the device equal the host's (%,d records)%n",
            o.resultRecords())
        : "NOT EXACT: " + String.join("; ", o.disagreements()) + "\n");
    sb.append(String.format(Locale.ROOT, "%n%-52s %12s%n", "modelled (the paced device's clock)", "value"));
    row(sb, "production, s (planned)", o.productionSeconds(), o.plannedSeconds());
    row(sb, "analysis done during production", o.fractionDuringProduction(), Double.NaN);
    row(sb, "analysis ended, s from the production's start", o.analysisEndSeconds(), Double.NaN);
    row(sb, "device compute t_ssd, s (the device's cores)", o.deviceComputeNanos() / 1e9, Double.NaN);
    row(sb, "host compute t_host, s (one host core)", o.hostComputeNanos() / 1e9, Double.NaN);
    row(sb, "slowdown S = t_ssd / t_host (source: about 7)", o.slowdown(), Double.NaN);
    row(sb, "energy saving ΔE (source: about 0.70)", o.energySaving(), Double.NaN);
    sb.append(String.format(Locale.ROOT, "%n%-52s %12s%n", "counted by the device", "value"));
    sb.append(String.format(Locale.ROOT, "%-52s %,12d%n", "bytes written", o.writtenBytes()));
    sb.append(String.format(Locale.ROOT, "%-52s %,12d%n", "bytes analysed during production", o.analysedDuringProduction()));
    sb.append(String.format(Locale.ROOT, "%-52s %,12d%n", "pages read back from flash (deferred)", o.pagesReadBack()));
    sb.append(String.format(Locale.ROOT, "%-52s %,12d%n", "pages programmed (the producer's and GC's)", o.programmedPages()));
    sb.append(String.format(Locale.ROOT, "%-52s %,12d%n", "pages moved by garbage collection", o.gcPagesMoved()));
    sb.append(String.format(Locale.ROOT, "%-52s %,12d%n", "blocks erased", o.blocksErased()));
    sb.append(String.format(Locale.ROOT, "%-52s %12.3f%n", "write amplification", o.writeAmplification()));
    sb.append(String.format(Locale.ROOT, "%-52s %12.5f%n", "data reduction (result bytes / bytes written)",
        o.dataReduction()));
    return sb.toString();
  }

  private static void row(StringBuilder sb, String what, double value, double planned) {
    sb.append(String.format(Locale.ROOT, "%-52s %12s%s%n", what, Double.isNaN(value) ? "-" : String.format(Locale.ROOT,
        "%.3f", value), Double.isNaN(planned) ? "" : String.format(Locale.ROOT, " (%.3f)", planned)));
  }

  Map<String, Object> json() {
    ActiveFlashRun.Options p = o.options();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("analysis", p.analysis().optionName());
    m.put("schedule", p.schedule().optionName());
    m.put("gc", p.condition().toString());
    m.put("overflow", p.schedule() == ActiveFlashRun.Schedule.ON_THE_FLY ? p.overflow() : null);
    m.put("exact", o.exact());
    m.put("disagreements", o.disagreements());
    m.put("fraction_done_during_production", o.fractionDuringProduction());
    m.put("slowdown_s", nullIfNaN(o.slowdown()));
    m.put("energy_saving_delta_e", nullIfNaN(o.energySaving()));
    m.put("source_slowdown_s", SOURCE_SLOWDOWN);
    m.put("source_energy_saving_delta_e", SOURCE_SAVING);
    m.put("write_amplification", nullIfNaN(o.writeAmplification()));
    m.put("production_seconds", o.productionSeconds());
    m.put("production_seconds_planned", o.plannedSeconds());
    m.put("analysis_end_seconds", o.analysisEndSeconds());
    m.put("device_compute_seconds", o.deviceComputeNanos() / 1e9);
    m.put("host_compute_seconds", o.hostComputeNanos() == 0 ? null : o.hostComputeNanos() / 1e9);
    m.put("device_core_watts_above_idle", o.deviceCoreWatts());
    m.put("host_core_watts_above_idle", o.hostCoreWatts());
    m.put("written_bytes", o.writtenBytes());
    m.put("analysed_bytes", o.analysedBytes());
    m.put("analysed_during_production_bytes", o.analysedDuringProduction());
    m.put("pages_read_back", o.pagesReadBack());
    m.put("pages_programmed", o.programmedPages());
    m.put("gc_pages_moved", o.gcPagesMoved());
    m.put("blocks_erased", o.blocksErased());
    m.put("fill_bytes", o.fillBytes());
    m.put("result_records", o.resultRecords());
    m.put("data_reduction", o.dataReduction());
    m.put("checkpoints", p.checkpoints());
    m.put("checkpoint_bytes", p.checkpointBytes());
    m.put("rate_bytes_per_second", p.rateBytesPerSecond());
    m.put("capacity_bytes", o.capacityBytes());
    m.put("page_bytes", o.pageBytes());
    m.put("profile", o.profile());
    m.put("seed", p.seed());
    m.put("total_seconds", o.totalSeconds());
    Map<String, String> d = new LinkedHashMap<>();
    d.put("fraction_done_during_production", "bytes whose analysis had ended by the producer's end, over the bytes "
        + "written: on the paced device's clock (modelled)");
    d.put("slowdown_s", "Active Flash's S = t_ssd / t_host: the device cores' modelled compute for the analysis over "
        + "one host core's, the host's counted work of the same scan of the same bytes priced on the modelled host");
    d.put("energy_saving_delta_e", "Active Flash's ΔE = 1 - S (ΔP_ssd / ΔP_host), ΔP a busy core's power above idle "
        + "on either side (modelled)");
    d.put("write_amplification", "flash pages programmed over the pages the producer wrote, from the attach to the "
        + "analysis's end (garbage collection's moves, in writes and in idle time)");
    d.put("data_reduction", "the results' records (their bytes, without the files' names) over the bytes written: "
        + "what crosses the host interface instead of the data (the source's application-specific data reduction)");
    d.put("analysis_end_seconds", "the analysis's modelled end, from the attach (the production's start)");
    m.put("descriptions", d);
    return m;
  }

  private static Object nullIfNaN(double v) {
    return Double.isNaN(v) ? null : v;
  }

  String csv() {
    Map<String, Object> j = json();
    j.remove("descriptions");
    j.remove("disagreements");
    List<String> keys = List.copyOf(j.keySet());
    List<String> values = j.values().stream().map(v -> v == null ? "" : v.toString()).toList();
    return String.join(",", keys) + "\n" + String.join(",", values) + "\n";
  }
}
