package org.smartssd.examples.search;

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
import org.smartssd.device.tasklet.builtin.Neighbour;
import org.smartssd.examples.loganalysis.ComparisonReport;
import org.smartssd.examples.loganalysis.Json;
import org.smartssd.examples.loganalysis.RunStatistics;

/**
 * {@code smartssd search}'s report: the table it prints, {@code results.json} (with a top-level
 * {@code exact}) and {@code results.csv} (a row a mode). Wall times, bytes and pages are measured or
 * counted by the device; modelled times and energy come from the model, and say so.
 */
public final class SearchReport {
  public static final String CSV = "results.csv";
  public static final String JSON = "results.json";

  private final SimilaritySearch.Outcome outcome;

  public SearchReport(SimilaritySearch.Outcome outcome) {
    this.outcome = outcome;
  }

  /** Writes the CSV and the JSON into a directory (created if needed); the files written. */
  public List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    return List.of(Files.writeString(dir.resolve(CSV), csv(), StandardCharsets.UTF_8),
        Files.writeString(dir.resolve(JSON), Json.write(json()), StandardCharsets.UTF_8));
  }

  private SimilaritySearch.ModeRun host() {
    return outcome.runs().get(0);
  }

  public String table() {
    SimilaritySearch.Options o = outcome.options();
    StringBuilder sb = new StringBuilder();
    sb.append(outcome.description()).append('\n');
    sb.append(String.format(Locale.ROOT, "layout %s: records of %d bytes (u64 id, %d-bit code)%s; device profile %s, "
        + "pages of %,d bytes%n", o.layout(), org.smartssd.device.tasklet.builtin.HammingSearch.recordBytes(
            o.data().bits()), o.data().bits(), layoutText(), outcome.profile(), outcome.pageBytes()));
    sb.append(outcome.exact()
        ? String.format(Locale.ROOT, "exact: every device answer equals the host's brute force (%d %s, top %d, "
            + "ids and distances in order), and the host's the computation in memory%n", o.data().queries(),
            o.data().queries() == 1 ? "query" : "queries", o.top())
        : "NOT EXACT: " + String.join("; ", outcome.disagreements()) + "\n");
    sb.append(String.format(Locale.ROOT, "precision at %d: %.3f of the items found are of the cluster of the item "
        + "their query copies (the Cognitive SSD's Precision@T, the clusters as classes)%n", o.top(),
        outcome.precision()));
    sb.append('\n');
    String header = String.format(Locale.ROOT, "%-14s %8s %11s %10s %9s %9s %14s %10s %6s %14s %9s  |  %7s %8s %9s %7s%n",
        "mode", "wall s", "modelled s", "device s", "I/O s", "host s", "host-if bytes", "pages read", "rounds",
        "comparisons", "energy J", "wall", "modelled", "bytes", "pages");
    sb.append(String.format(Locale.ROOT, "%-" + (header.indexOf('|') + 3) + "s%s%n",
        "wall, bytes, pages measured; modelled time (device execution + I/O + host compute) and energy modelled",
        "ratio to host"));
    sb.append(header);
    for (SimilaritySearch.ModeRun r : outcome.runs()) {
      RunStatistics s = r.statistics();
      sb.append(String.format(Locale.ROOT, "%-14s %8.3f %11.4f %10.4f %9.4f %9s %,14d %,10d %6d %,14d %9.3f  |  %7s %8s "
          + "%9s %7s%n", r.mode(), s.wallSeconds(), s.modelledSeconds(), s.deviceExecutionNanos() / 1e9,
          s.ioNanos() / 1e9, s.hostComputeKnown() ? String.format(Locale.ROOT, "%.4f", s.hostComputeNanos() / 1e9) : "-",
          s.hostInterfaceBytes(), SimilaritySearch.pagesRead(s), r.rounds(), r.comparisons(), s.energyJoules(),
          ratio(r, x -> x.statistics().wallSeconds()), ratio(r, x -> x.statistics().modelledSeconds()),
          ratio(r, x -> x.statistics().hostInterfaceBytes()), ratio(r, x -> SimilaritySearch.pagesRead(x.statistics()))));
    }
    if (outcome.runs().stream().anyMatch(r -> !r.statistics().hostComputeKnown())) {
      sb.append(String.format(Locale.ROOT, "%nhost compute was not counted (this JVM runs without the counting agent, "
          + "-javaagent:smartssd-opcount.jar; bin/smartssd starts it): the modelled times leave it out.%n"));
    }
    sb.append(String.format(Locale.ROOT, "%nwall: measured, from the first command to the answer (device modes: the "
        + "tasklet installed, executed, polled, removed). modelled: the device's executions and its time serving the "
        + "host's commands (I/O: the host's reads of the items, the tasklet's commands and results), then the host's "
        + "counted work on the modelled host CPU. device s: the executions' modelled time, whose compute is the "
        + "lanes' counted work. pages read: the device's flash pages read, for the host and its executions. "
        + "comparisons: items compared with a query (a brute force: items x queries). energy: modelled, as "
        + "compare's.%n"));
    return sb.toString();
  }

  private String layoutText() {
    SimilaritySearch.Options o = outcome.options();
    return o.layout() == Layout.CLUSTERED
        ? String.format(Locale.ROOT, ", sorted by code; buckets by the first %d bits: %,d hold items",
            o.prefixBits(), outcome.filledBuckets())
        : ", in id order";
  }

  private String ratio(SimilaritySearch.ModeRun r, ToDoubleFunction<SimilaritySearch.ModeRun> f) {
    double base = f.applyAsDouble(host());
    return ComparisonReport.ratioText(base == 0 ? Double.NaN : f.applyAsDouble(r) / base);
  }

  String csv() {
    StringBuilder sb = new StringBuilder("layout,mode,items,bits,queries,top,exact,wall_s,modelled_s,"
        + "modelled_device_execution_s,modelled_io_s,modelled_host_compute_s,modelled_device_compute_s,"
        + "host_interface_bytes,host_bytes_in,host_bytes_out,pages_read,execution_pages_read,executions,rounds,"
        + "items_read,comparisons,host_cpu_s,modelled_energy_j\n");
    SimilaritySearch.Options o = outcome.options();
    for (SimilaritySearch.ModeRun r : outcome.runs()) {
      RunStatistics s = r.statistics();
      sb.append(String.join(",", o.layout().optionName(), r.mode().optionName(), Integer.toString(o.data().items()),
          Integer.toString(o.data().bits()), Integer.toString(o.data().queries()), Integer.toString(o.top()),
          Boolean.toString(outcome.exact()), num(s.wallSeconds()), num(s.modelledSeconds()),
          num(s.deviceExecutionNanos() / 1e9), num(s.ioNanos() / 1e9),
          s.hostComputeKnown() ? num(s.hostComputeNanos() / 1e9) : "", num(s.device().computeNanos() / 1e9),
          Long.toString(s.hostInterfaceBytes()), Long.toString(s.hostBytesIn()), Long.toString(s.hostBytesOut()),
          Long.toString(SimilaritySearch.pagesRead(s)), Long.toString(r.executionPagesRead()),
          Integer.toString(r.executions()), Integer.toString(r.rounds()), Long.toString(r.itemsRead()),
          Long.toString(r.comparisons()), num(s.hostCpuSeconds()), num(s.energyJoules()))).append('\n');
    }
    return sb.toString();
  }

  Map<String, Object> json() {
    SimilaritySearch.Options o = outcome.options();
    SearchData.Parameters p = o.data();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("exact", outcome.exact());
    m.put("disagreements", outcome.disagreements());
    m.put("data", outcome.description());
    m.put("items", p.items());
    m.put("dimensions", p.dimensions());
    m.put("bits", p.bits());
    m.put("queries", p.queries());
    m.put("top", o.top());
    m.put("clusters", p.clusters());
    m.put("spread", p.spread());
    m.put("seed", p.seed());
    m.put("layout", o.layout().optionName());
    m.put("prefix_bits", o.layout() == Layout.CLUSTERED ? o.prefixBits() : null);
    m.put("filled_buckets", o.layout() == Layout.CLUSTERED ? outcome.filledBuckets() : null);
    m.put("record_bytes", org.smartssd.device.tasklet.builtin.HammingSearch.recordBytes(p.bits()));
    m.put("profile", outcome.profile());
    m.put("paced", outcome.paced());
    m.put("page_bytes", outcome.pageBytes());
    m.put("device", o.device() == null ? "a child process, started by search" : o.device());
    Map<String, Object> modes = new LinkedHashMap<>();
    for (SimilaritySearch.ModeRun r : outcome.runs()) {
      RunStatistics s = r.statistics();
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("wall_s", s.wallSeconds());
      e.put("modelled_s", s.modelledSeconds());
      e.put("modelled_device_execution_s", s.deviceExecutionNanos() / 1e9);
      e.put("modelled_io_s", s.ioNanos() / 1e9);
      e.put("modelled_host_compute_s", s.hostComputeKnown() ? s.hostComputeNanos() / 1e9 : null);
      e.put("modelled_device_compute_s", s.device().computeNanos() / 1e9);
      e.put("host_interface_bytes", s.hostInterfaceBytes());
      e.put("pages_read", SimilaritySearch.pagesRead(s));
      e.put("execution_pages_read", r.executionPagesRead());
      e.put("executions", r.executions());
      e.put("rounds", r.rounds());
      e.put("items_read", r.itemsRead());
      e.put("comparisons", r.comparisons());
      e.put("modelled_energy_j", s.energyJoules());
      e.put("wall_vs_host", s.wallSeconds() / host().statistics().wallSeconds());
      e.put("modelled_vs_host", s.modelledSeconds() / host().statistics().modelledSeconds());
      e.put("statistics", s.toMap());
      modes.put(r.mode().optionName(), e);
    }
    m.put("precision", outcome.precision());
    m.put("modes", modes);
    List<Object> answers = new ArrayList<>();
    List<List<Neighbour>> found = host().neighbours();
    for (int q = 0; q < found.size(); q++) {
      Map<String, Object> a = new LinkedHashMap<>();
      a.put("query", q);
      a.put("copies_item", outcome.queryItems().get(q));
      a.put("ids", found.get(q).stream().map(Neighbour::id).toList());
      a.put("distances", found.get(q).stream().map(Neighbour::distance).toList());
      answers.add(a);
    }
    m.put("neighbours", answers);
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("exact", "every device mode's top T of every query (ids and distances, in order) equals the host's brute "
        + "force, and the host's equals the same search in memory over the generated records");
    d.put("wall_s", "measured: from the first command to the answer, on the host");
    d.put("modelled_s", "modelled: the device's executions and its time serving the host's commands, then the host's "
        + "counted work on the modelled host CPU");
    d.put("host_interface_bytes", "measured: bytes across the device's host link, both ways (STATISTICS before and "
        + "after)");
    d.put("pages_read", "counted by the device: flash pages read during the run, for the host's reads and its "
        + "executions (STATISTICS before and after)");
    d.put("execution_pages_read", "counted by the device: the pages its executions read (ExecutionStatistics)");
    d.put("comparisons", "items compared with a query, summed over the scans");
    d.put("modelled_energy_j", "modelled: the host's and the device's, as compare's");
    d.put("neighbours", "each query's top T as the host found them: item ids and Hamming distances, best first; "
        + "copies_item: the item the query is a perturbed copy of");
    d.put("precision", "the share of the items found (the host's top T) of the cluster of the item their query "
        + "copies: the Cognitive SSD's Precision@T with the clusters as classes (how well the codes keep a cluster "
        + "together, not a check of the search)");
    m.put("definitions", d);
    m.put("generate_s", outcome.generateSeconds());
    m.put("total_s", outcome.totalSeconds());
    return m;
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : Double.toString(v);
  }
}
