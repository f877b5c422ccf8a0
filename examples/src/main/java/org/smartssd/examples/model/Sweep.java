package org.smartssd.examples.model;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.smartssd.examples.loganalysis.Json;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;
import org.smartssd.model.AnalyticModel;
import org.smartssd.model.Prediction;
import org.smartssd.model.Workload;

/**
 * Runs the simulator and the analytic model at every point of a grid of settings, and compares them
 * as the iSSD validated its model: the Pearson correlation of the two times and the worst relative
 * error, per mode the job runs in. The workload is counted once, at the grid's first point.
 */
public final class Sweep {
  private static final long SEED = 1998;

  /**
   * One point and mode: its varied values, the simulator's modelled time and the analytic prediction,
   * and the simulator's run statistics (null where a row was not simulated here).
   */
  public record Row(Map<String, String> varied, Mode mode, double simulatedSeconds, Prediction analytic,
      RunStatistics simulated) {
    public double analyticSeconds() {
      return analytic.seconds();
    }

    public double relativeError() {
      return (analyticSeconds() - simulatedSeconds) / simulatedSeconds;
    }
  }

  /** How the model and the simulator agree in one mode. */
  public record Agreement(Mode mode, int points, double pearson, double worstRelativeError) {}

  private Sweep() {}

  /**
   * Runs the grid.
   *
   * @param fixed settings every point has ({@code model --set}'s)
   * @param vary each axis with its values, in order; the grid is every combination. An axis is a key, or
   *     keys joined by commas that take the same value at each point ({@link #keys})
   */
  public static List<Row> run(SampledJob job, long records, String profile, Map<String, String> fixed,
      Map<String, List<String>> vary, PrintWriter log) throws IOException, InterruptedException {
    List<Map<String, String>> grid = grid(vary);
    List<Setting> settings = new ArrayList<>();
    for (Map<String, String> point : grid) {
      Map<String, String> keys = new LinkedHashMap<>(fixed);
      keys.putAll(point);
      settings.add(Setting.of(profile, keys, job.storesTraceRecords())); // every value checked before anything runs
    }
    // The work per record depends on the record's size only: counted once a size, on the first point's device.
    Map<Integer, Workload> workloads = new java.util.HashMap<>();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < grid.size(); i++) {
      Setting s = settings.get(i);
      log.printf(Locale.ROOT, "sweep: point %d of %d: %s%n", i + 1, grid.size(), grid.get(i));
      log.flush();
      Workload w = workloads.get(s.recordBytes());
      if (w == null) {
        w = WorkloadSampler.sample(job, settings.get(0).deviceKeys(), s.hadoopKeys(), log);
        workloads.put(s.recordBytes(), w);
      }
      Map<Mode, RunStatistics> simulated;
      try (Runner runner = job.open(s.deviceKeys(), s.devices(), s.hadoopKeys())) {
        simulated = runner.run(records, SEED, job.modes());
      }
      // The model's records are the run's, as its statistics count them (a mining data set's edges, or bytes
      // of text, need not be the records asked for); every mode read the same.
      long modelRecords = simulated.get(job.modes().get(0)).records();
      Map<org.smartssd.model.Mode, Prediction> analytic = AnalyticModel.predict(w, s.config(), s.job(modelRecords));
      for (Mode m : job.modes()) {
        Row r = new Row(grid.get(i), m, simulated.get(m).modelledSeconds(),
            analytic.get(WorkloadSampler.modelMode(m)), simulated.get(m));
        rows.add(r);
        log.printf(Locale.ROOT, "sweep:   %-14s simulated %9.3f s, analytic %9.3f s (%+.1f%%)%n", m.optionName(),
            r.simulatedSeconds(), r.analyticSeconds(), 100 * r.relativeError());
      }
      log.flush();
    }
    return rows;
  }

  /** Every combination of the varied values, the first axis varying slowest; an axis's keys all take its value. */
  static List<Map<String, String>> grid(Map<String, List<String>> vary) {
    List<Map<String, String>> points = new ArrayList<>();
    points.add(new LinkedHashMap<>());
    for (Map.Entry<String, List<String>> e : vary.entrySet()) {
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> p : points) {
        for (String v : e.getValue()) {
          Map<String, String> q = new LinkedHashMap<>(p);
          for (String key : keys(e.getKey())) {
            q.put(key, v);
          }
          next.add(q);
        }
      }
      points = next;
    }
    return points;
  }

  /**
   * The keys of an axis: one, or several joined by commas that vary together (the iSSD's channels, each with
   * its core: {@code smartssd.device.flash.channels,smartssd.device.isp.cores}).
   */
  public static List<String> keys(String axis) {
    return List.of(axis.split(","));
  }

  /** The keys of all the axes, in order. */
  public static List<String> keys(List<String> axes) {
    return axes.stream().flatMap(a -> keys(a).stream()).toList();
  }

  /** Pearson's correlation and the worst relative error of analytic against simulated, per mode. */
  public static Map<Mode, Agreement> agreement(List<Row> rows) {
    Map<Mode, Agreement> m = new EnumMap<>(Mode.class);
    for (Mode mode : Mode.values()) {
      List<Row> mine = rows.stream().filter(r -> r.mode() == mode).toList();
      if (mine.isEmpty()) {
        continue;
      }
      double[] x = mine.stream().mapToDouble(Row::simulatedSeconds).toArray();
      double[] y = mine.stream().mapToDouble(Row::analyticSeconds).toArray();
      double worst = mine.stream().mapToDouble(r -> Math.abs(r.relativeError())).max().orElse(0);
      m.put(mode, new Agreement(mode, mine.size(), pearson(x, y, MIN_SPREAD), worst));
    }
    return m;
  }

  /**
   * The least spread of a mode's analytic times over a grid, as a fraction of their mean, for a
   * correlation to say anything: below it the varied keys hardly touch the mode, and the simulator's
   * run-to-run noise (up to about 1% in the host modes, whose counted work moves a little after a
   * garbage collection) is all a correlation would measure. The worst relative error is reported
   * either way.
   */
  public static final double MIN_SPREAD = 0.01;

  /**
   * Pearson's correlation coefficient; NaN when the model's times {@code y} vary by less than
   * {@code minSpread} of their mean (see {@link #MIN_SPREAD}).
   */
  static double pearson(double[] x, double[] y, double minSpread) {
    int n = x.length;
    double lo = Double.MAX_VALUE;
    double hi = -Double.MAX_VALUE;
    double mean = 0;
    for (double v : y) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      mean += v / n;
    }
    if (n < 2 || hi - lo <= minSpread * Math.abs(mean) || hi == lo) {
      return Double.NaN;
    }
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i] / n;
      my += y[i] / n;
    }
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < n; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
      syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / Math.sqrt(sxx * syy);
  }

  /** {@code sweep.csv}: the varied keys, the mode, both times and the analytic breakdown. */
  public static Path writeCsv(Path dir, List<String> keys, List<Row> rows) throws IOException {
    StringBuilder sb = new StringBuilder(String.join(",", keys)).append(keys.isEmpty() ? "" : ",")
        .append("mode,simulated_s,analytic_s");
    List<String> parts = new ArrayList<>(rows.get(0).analytic().breakdown().keySet());
    for (String p : parts) {
      sb.append(",analytic_").append(p);
    }
    sb.append('\n');
    for (Row r : rows) {
      for (String k : keys) {
        sb.append(r.varied().get(k)).append(',');
      }
      sb.append(r.mode().optionName()).append(',').append(r.simulatedSeconds()).append(',').append(r.analyticSeconds());
      for (String p : parts) {
        sb.append(',').append(r.analytic().breakdown().get(p));
      }
      sb.append('\n');
    }
    Files.createDirectories(dir);
    return Files.writeString(dir.resolve("sweep.csv"), sb.toString(), StandardCharsets.UTF_8);
  }

  /**
   * {@code simulated.jsonl}: a line a point and mode, its varied keys and the simulator's run statistics
   * (as {@code loganalysis --stats-json} writes them), for looking into a disagreement.
   */
  public static Path writeSimulated(Path dir, List<Row> rows) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (Row r : rows) {
      if (r.simulated() == null) {
        continue;
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("varied", r.varied());
      m.putAll(r.simulated().toMap());
      sb.append(Json.writeLine(m)).append('\n');
    }
    Files.createDirectories(dir);
    return Files.writeString(dir.resolve("simulated.jsonl"), sb.toString(), StandardCharsets.UTF_8);
  }

  /**
   * One chart a varied axis: time against its values, simulated and analytic, a series each per mode (and
   * combination of the other axes' values).
   */
  public static List<Path> writeCharts(Path dir, List<String> axes, List<Row> rows) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<Path> files = new ArrayList<>();
    for (String axis : axes) {
      String key = keys(axis).get(0); // the axis's keys all have its value
      String label = String.join(", ", keys(axis));
      // A title of several keys by their last name parts ("channels = cores"), to fit.
      String named = keys(axis).size() == 1 ? key
          : String.join(" = ", keys(axis).stream().map(k -> k.substring(k.lastIndexOf('.') + 1)).toList());
      boolean numeric = rows.stream().allMatch(r -> isNumber(r.varied().get(key)));
      String file = axis.replaceAll("[^A-Za-z0-9.-]", "_") + ".png";
      String title = "Time against " + named + " (modelled: simulated dots, analytic lines)";
      Path out = dir.resolve(file);
      // One series a mode and combination of the other varied axes' values (a context).
      Map<String, List<Row>> series = new LinkedHashMap<>();
      for (Mode m : Mode.values()) {
        for (Row r : rows) {
          if (r.mode() == m) {
            series.computeIfAbsent(seriesName(m, r, axes, axis), k -> new ArrayList<>()).add(r);
          }
        }
      }
      int colour = 0;
      if (numeric) {
        XYChart chart = new XYChartBuilder().width(1000).height(600).title(title).xAxisTitle(label)
            .yAxisTitle("seconds (modelled)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        double lo = rows.stream().mapToDouble(r -> Double.parseDouble(r.varied().get(key))).min().orElse(1);
        double hi = rows.stream().mapToDouble(r -> Double.parseDouble(r.varied().get(key))).max().orElse(1);
        chart.getStyler().setXAxisLogarithmic(lo > 0 && hi >= 16 * lo);
        for (Map.Entry<String, List<Row>> e : series.entrySet()) {
          List<Row> mine = e.getValue().stream()
              .sorted(Comparator.comparingDouble(r -> Double.parseDouble(r.varied().get(key)))).toList();
          List<Double> xs = mine.stream().map(r -> Double.parseDouble(r.varied().get(key))).toList();
          Color c = PALETTE[colour++ % PALETTE.length];
          XYSeries sim = chart.addSeries(e.getKey() + " simulated", xs, mine.stream().map(Row::simulatedSeconds).toList());
          sim.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
          sim.setMarker(SeriesMarkers.CIRCLE);
          sim.setMarkerColor(c);
          XYSeries an = chart.addSeries(e.getKey() + " analytic", xs, mine.stream().map(Row::analyticSeconds).toList());
          an.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
          an.setMarker(SeriesMarkers.NONE);
          an.setLineColor(c);
        }
        BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
      } else {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(600)
            .title("Time against " + named + " (modelled)").xAxisTitle(label).yAxisTitle("seconds (modelled)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        List<String> values = rows.stream().map(r -> r.varied().get(key)).distinct().toList();
        for (Map.Entry<String, List<Row>> e : series.entrySet()) {
          Color c = PALETTE[colour++ % PALETTE.length];
          for (boolean sim : new boolean[] {true, false}) {
            List<Double> ys = new ArrayList<>();
            for (String v : values) {
              ys.add(e.getValue().stream().filter(r -> r.varied().get(key).equals(v))
                  .mapToDouble(r -> sim ? r.simulatedSeconds() : r.analyticSeconds()).average().orElse(0));
            }
            chart.addSeries(e.getKey() + (sim ? " simulated" : " analytic"), values, ys)
                .setFillColor(sim ? c : c.brighter());
          }
        }
        BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
      }
      files.add(out);
    }
    return files;
  }

  /** Distinct colours for the series (a mode and context each), simulated and analytic alike. */
  private static final Color[] PALETTE = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
    new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b),
    new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22),
    new Color(0x17becf)
  };

  /**
   * A series' name: the mode, and the other varied axes' values by their first key's last name part
   * ("merge=host").
   */
  static String seriesName(Mode m, Row r, List<String> axes, String axis) {
    StringBuilder sb = new StringBuilder(m.optionName());
    for (String other : axes) {
      if (!other.equals(axis)) {
        String k = keys(other).get(0);
        sb.append(", ").append(k.substring(k.lastIndexOf('.') + 1)).append('=').append(r.varied().get(k));
      }
    }
    return sb.toString();
  }

  private static boolean isNumber(String s) {
    try {
      Double.parseDouble(s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
