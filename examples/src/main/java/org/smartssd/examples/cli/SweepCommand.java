package org.smartssd.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.smartssd.examples.mining.Algorithm;
import org.smartssd.examples.mining.Graph;
import org.smartssd.examples.model.MiningRunner;
import org.smartssd.examples.model.SampledJob;
import org.smartssd.examples.model.ScenarioRunner;
import org.smartssd.examples.model.Setting;
import org.smartssd.examples.model.Sweep;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd sweep}: the simulator and the analytic model over a grid of settings. */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a job in the simulator (devices of this JVM, unpaced: modelled times) and predicts it with the analytic "
          + "model at every point of a grid, every combination of the --vary values. The job is the log analysis's "
          + "--scenario in its three modes, or one job of a data-mining --algorithm in host-normal and device mode "
          + "(k-means' and PageRank's first iteration, Apriori's second pass: its candidates' merge), its data set "
          + "generated as smartssd mine generates it. Writes "
          + "DIR/sweep.csv (a row a point and mode: the varied keys, mode, simulated_s, analytic_s and the "
          + "analytic breakdown), DIR/simulated.jsonl (the simulator's run statistics, a line a row) and a chart "
          + "a --vary (DIR/<key>.png), and prints the Pearson correlation and "
          + "the worst relative error of the model against the simulator, per mode. Progress goes to standard "
          + "error. All times are modelled."})
public final class SweepCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  ScenarioOptions options;

  @Option(names = "--algorithm", paramLabel = "kmeans|pagerank|apriori",
      description = "A data-mining workload instead of a --scenario; --records is then its size: points "
          + "(kmeans), edges (pagerank: a generated graph of a node for every " + (int) Graph.MEAN_OUT_DEGREE
          + " edges) or transactions (apriori).")
  String algorithm;

  @Option(names = "--vary", paramLabel = "KEY[,KEY...]=V1,V2,...", required = true,
      description = "A key and its values (a device key, devices, or with --scenario record-bytes); repeat to vary "
          + "several, the grid is every combination. Keys joined by commas take the same value at each point (the "
          + "iSSD's channels with a core each: smartssd.device.flash.channels,smartssd.device.isp.cores=8,16,32).")
  List<String> vary = new ArrayList<>();

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where sweep.csv and the charts go.")
  Path out;

  @Override
  public Integer call() throws IOException, InterruptedException {
    HadoopLogging.quietWithDevices();
    CommandLine cl = spec.commandLine();
    SampledJob job = job(cl);
    long records = options.records;
    String profile = options.profile;
    Map<String, String> settings = options.settings;
    Map<String, List<String>> grid = new LinkedHashMap<>();
    try {
      for (String v : vary) {
        int eq = v.indexOf('=');
        if (eq <= 0 || eq == v.length() - 1) {
          throw new IllegalArgumentException("--vary takes KEY=V1,V2,...: '" + v + "'");
        }
        List<String> keys = new ArrayList<>();
        for (String key : v.substring(0, eq).split(",", -1)) {
          if (key.isBlank()) {
            throw new IllegalArgumentException("--vary has an empty key: '" + v + "'");
          }
          key = key.trim();
          if (keys.contains(key) || Sweep.keys(List.copyOf(grid.keySet())).contains(key)
              || settings.containsKey(key)) {
            throw new IllegalArgumentException(key + " is given twice (--vary or --set)");
          }
          keys.add(key);
        }
        String key = String.join(",", keys);
        List<String> values = new ArrayList<>();
        for (String value : v.substring(eq + 1).split(",", -1)) {
          if (value.isBlank()) {
            throw new IllegalArgumentException("--vary " + key + " has an empty value: '" + v + "'");
          }
          values.add(value.trim());
        }
        grid.put(key, values);
      }
      Setting.of(profile, settings, job.storesTraceRecords()); // the fixed settings checked before the grid's points are
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    List<Sweep.Row> rows;
    try {
      rows = Sweep.run(job, records, profile, settings, grid, cl.getErr());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    List<String> axes = List.copyOf(grid.keySet());
    Path csv = Sweep.writeCsv(out, Sweep.keys(axes), rows);
    Path simulated = Sweep.writeSimulated(out, rows);
    List<Path> charts = Sweep.writeCharts(out, axes, rows);
    PrintWriter o = cl.getOut();
    o.printf(Locale.ROOT, "%s, %,d records, %s: %d points (all times modelled)%n", job.name(), records, profile,
        rows.size() / job.modes().size());
    o.printf(Locale.ROOT, "%-15s %7s %9s %20s%n", "mode", "points", "PCC", "worst relative error");
    for (Sweep.Agreement a : Sweep.agreement(rows).values()) {
      o.printf(Locale.ROOT, "%-15s %7d %9s %19.1f%%%n", a.mode().optionName(), a.points(),
          Double.isNaN(a.pearson()) ? "-" : String.format(Locale.ROOT, "%.4f", a.pearson()),
          100 * a.worstRelativeError());
      if (Double.isNaN(a.pearson())) {
        o.printf(Locale.ROOT, "  (%s: the analytic time varies by less than %.0f%% over this grid: no correlation to "
            + "measure)%n", a.mode().optionName(), 100 * Sweep.MIN_SPREAD);
      }
    }
    o.println("wrote " + csv);
    o.println("wrote " + simulated);
    for (Path c : charts) {
      o.println("wrote " + c);
    }
    o.flush();
    return 0;
  }

  /** The job: a scenario of the log analysis or a data-mining workload's, one of the two. */
  private SampledJob job(CommandLine cl) {
    if ((options.scenario == null) == (algorithm == null)) {
      throw new CommandLine.ParameterException(cl, "sweep takes --scenario (a log analysis scenario) or --algorithm "
          + "(a data-mining workload), " + (algorithm == null ? "one of the two" : "not both"));
    }
    if (algorithm == null) {
      return ScenarioRunner.job(options.scenario(cl));
    }
    options.checkRecords(cl);
    try {
      Algorithm a = Algorithm.parse(algorithm.trim());
      MiningRunner.check(a, options.records);
      return MiningRunner.job(a);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--algorithm: " + e.getMessage());
    }
  }
}
