package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The comparison's charts, like the source's figures: one bar per mode for each scenario and pacing,
 * drawn headless with XChart into PNG files.
 */
public final class ComparisonCharts {
  static final String ELAPSED = "elapsed-time.png";
  static final String MODELLED = "modelled-time.png";
  static final String BYTES = "host-interface-bytes.png";
  static final String CPU = "host-cpu-time.png";
  static final String ENERGY = "modelled-energy.png";

  private ComparisonCharts() {}

  static List<Path> write(Path dir, List<RunStatistics> runs) throws IOException {
    // Charts need AWT's fonts, never a display.
    System.setProperty("java.awt.headless", "true");
    List<Path> files = new ArrayList<>();
    files.add(chart(dir, ELAPSED, "Elapsed time (measured wall clock)", "seconds", false, runs, RunStatistics::wallSeconds));
    files.add(chart(dir, MODELLED, "Modelled time (slowest device's execution + link, then host compute)",
        "seconds (modelled)", false, runs, RunStatistics::modelledSeconds));
    files.add(chart(dir, BYTES, "Bytes across the host interface", "bytes (log scale)", true, runs,
        s -> Math.max(1, s.hostInterfaceBytes())));
    Map<String, ToDoubleFunction<RunStatistics>> cpu = new LinkedHashMap<>();
    cpu.put("user", s -> s.hostCpu().known() ? s.hostCpu().userNanos() / 1e9 : 0);
    cpu.put("system", s -> s.hostCpu().known() ? s.hostCpu().systemNanos() / 1e9 : 0);
    cpu.put("idle", s -> Math.max(0, s.hostCpu().idleNanos(s.wallNanos(), s.processors()) / 1e9));
    files.add(stacked(dir, CPU, "Host CPU time: user, system, idle (host JVM, measured from /proc)",
        "seconds of the host's processors", runs, cpu));
    Map<String, ToDoubleFunction<RunStatistics>> energy = new LinkedHashMap<>();
    energy.put("host idle", s -> s.energy().hostIdle());
    energy.put("host compute", s -> s.energy().hostCompute());
    energy.put("device idle", s -> s.energy().deviceIdle());
    energy.put("device cores", s -> s.energy().deviceCores());
    energy.put("flash", s -> s.energy().flash());
    energy.put("link", s -> s.energy().link());
    files.add(stacked(dir, ENERGY, "Modelled energy by component", "joules (modelled)", runs, energy));
    return files;
  }

  /** One stacked bar a run, one colour a part. */
  private static Path stacked(Path dir, String file, String title, String yTitle, List<RunStatistics> runs,
      Map<String, ToDoubleFunction<RunStatistics>> parts) throws IOException {
    List<String> categories = new ArrayList<>();
    for (RunStatistics s : runs) {
      categories.add(s.mode().optionName() + ", " + category(s));
    }
    CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 90 * runs.size())).height(640).title(title)
        .xAxisTitle("mode, scenario, device pacing").yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setStacked(true);
    chart.getStyler().setXAxisLabelRotation(45);
    chart.getStyler().setYAxisDecimalPattern("#,##0.##");
    for (Map.Entry<String, ToDoubleFunction<RunStatistics>> part : parts.entrySet()) {
      List<Double> ys = new ArrayList<>();
      for (RunStatistics s : runs) {
        ys.add(part.getValue().applyAsDouble(s));
      }
      chart.addSeries(part.getKey(), categories, ys);
    }
    Path out = dir.resolve(file);
    BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    return out;
  }

  private static Path chart(Path dir, String file, String title, String yTitle, boolean logarithmic,
      List<RunStatistics> runs, ToDoubleFunction<RunStatistics> value) throws IOException {
    List<String> categories = new ArrayList<>();
    for (RunStatistics s : runs) {
      String c = category(s);
      if (!categories.contains(c)) {
        categories.add(c);
      }
    }
    Map<Mode, List<Double>> series = new LinkedHashMap<>();
    for (Mode m : Mode.values()) {
      List<Double> ys = new ArrayList<>();
      boolean any = false;
      for (String c : categories) {
        RunStatistics found = null;
        for (RunStatistics s : runs) {
          if (s.mode() == m && category(s).equals(c)) {
            found = s;
          }
        }
        ys.add(found == null ? (logarithmic ? 1.0 : 0.0) : value.applyAsDouble(found));
        any |= found != null;
      }
      if (any) {
        series.put(m, ys);
      }
    }
    Map<String, List<Double>> named = new LinkedHashMap<>();
    series.forEach((m, ys) -> named.put(m.optionName(), ys));
    return bars(dir, file, title, "scenario, device pacing", yTitle, logarithmic, categories, named);
  }

  /** A stacked bar chart: one bar a category, one colour a series. */
  public static Path stackedBars(Path dir, String file, String title, String xTitle, String yTitle,
      List<String> categories, Map<String, List<Double>> series) throws IOException {
    System.setProperty("java.awt.headless", "true");
    CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 110 * categories.size())).height(640)
        .title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setStacked(true);
    chart.getStyler().setXAxisLabelRotation(45);
    chart.getStyler().setYAxisDecimalPattern("#,##0.##");
    series.forEach((name, ys) -> chart.addSeries(name, categories, ys));
    Path out = dir.resolve(file);
    BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    return out;
  }

  /**
   * A bar chart: one group of bars a category, one bar a series in each, labelled with its value.
   *
   * @param series each series' values, one a category, by the series' name (in the legend)
   */
  public static Path bars(Path dir, String file, String title, String xTitle, String yTitle, boolean logarithmic,
      List<String> categories, Map<String, List<Double>> series) throws IOException {
    // Charts need AWT's fonts, never a display.
    System.setProperty("java.awt.headless", "true");
    CategoryChart chart = new CategoryChartBuilder().width(900).height(520).title(title)
        .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setYAxisLogarithmic(logarithmic);
    if (logarithmic) {
      // XChart draws log-scale bars only above an explicit minimum: the power of ten below the smallest.
      double min = series.values().stream().flatMap(List::stream).mapToDouble(Double::doubleValue).min().orElse(1);
      chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(Math.max(1, min)))));
    }
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsRotation(0);
    chart.getStyler().setYAxisDecimalPattern(logarithmic ? "0.#E0" : "#,##0.##");
    series.forEach((name, ys) -> chart.addSeries(name, categories, ys));
    Path out = dir.resolve(file);
    BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    return out;
  }

  private static String category(RunStatistics s) {
    return s.scenario().optionName() + (Objects.equals(s.paced(), Boolean.TRUE) ? ", paced"
        : Objects.equals(s.paced(), Boolean.FALSE) ? ", unpaced" : "");
  }
}
