package org.smartssd.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.smartssd.examples.loganalysis.Json;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.model.ScenarioRunner;
import org.smartssd.examples.model.Setting;
import org.smartssd.examples.model.WorkloadSampler;
import org.smartssd.model.AnalyticModel;
import org.smartssd.model.Mode;
import org.smartssd.model.Prediction;
import org.smartssd.model.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd model}: the analytic model's predictions for a scenario. */
@Command(
    name = "model",
    mixinStandardHelpOptions = true,
    description = {
      "Predicts the time of a scenario of the log analysis in each mode with the analytic model (the iSSD's equations "
          + "and the XSD's streaming bound), with its breakdown: data access, processing, swap, merge, link and the "
          + "host's compute. The scenario's work per record is counted first on a sample (40,000 and 120,000 "
          + "records, every mode, on a simulated device of this JVM with the same settings: a few seconds); the "
          + "prediction itself runs no device and no Hadoop. All figures are modelled."})
public final class ModelCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin
  ScenarioOptions options;

  @Option(names = "--json", description = "Print JSON instead of a table.")
  boolean json;

  @Override
  public Integer call() throws IOException, InterruptedException {
    HadoopLogging.quietWithDevices();
    CommandLine cl = spec.commandLine();
    Scenario s = options.scenario(cl);
    long records = options.records;
    String profile = options.profile;
    Map<String, String> settings = options.settings;
    Setting setting;
    try {
      setting = Setting.of(profile, settings);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    Workload w = WorkloadSampler.sample(ScenarioRunner.job(s), setting.deviceKeys(), setting.hadoopKeys(), cl.getErr());
    Map<Mode, Prediction> p = AnalyticModel.predict(w, setting.config(), setting.job(records));
    PrintWriter out = cl.getOut();
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("scenario", s.optionName());
      m.put("records", records);
      m.put("profile", profile);
      m.put("settings", settings);
      m.put("workload", workload(w));
      Map<String, Object> modes = new LinkedHashMap<>();
      p.forEach((mode, pr) -> {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("predicted_s", pr.seconds());
        e.putAll(pr.breakdown());
        modes.put(mode.optionName(), e);
      });
      m.put("predictions", modes);
      out.println(Json.write(m));
    } else {
      out.printf(Locale.ROOT, "%s, %,d records, %s, %d device%s%s (all modelled)%n", s.optionName(), records, profile,
          setting.devices(), setting.devices() == 1 ? "" : "s", settings.isEmpty() ? "" : ", " + settings);
      out.printf(Locale.ROOT, "%-15s %12s %14s %13s %8s %8s %8s %8s %13s %17s%n", "mode", "predicted s",
          "data access s", "processing s", "swap s", "merge s", "link s", "host s", "execution s", "iSSD execution s");
      for (Prediction pr : p.values()) {
        Map<String, Double> b = pr.breakdown();
        out.printf(Locale.ROOT, "%-15s %12.3f %14.3f %13.3f %8.3f %8.3f %8.3f %8.3f %13.3f %17.3f%n",
            pr.mode().optionName(), pr.seconds(), b.get("data_access_s"), b.get("processing_s"), b.get("swap_s"),
            b.get("merge_s"), b.get("link_s"), b.get("host_s"), b.get("execution_s"), b.get("issd_execution_s"));
      }
      out.printf(Locale.ROOT, "device mode against host-normal: %.2f times the time%n",
          p.get(Mode.DEVICE).totalNanos() / p.get(Mode.HOST_NORMAL).totalNanos());
    }
    out.flush();
    return 0;
  }

  static Map<String, Object> workload(Workload w) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("record_bytes", w.recordBytes());
    m.put("device_lane_ops_per_record", w.deviceLane().perRecord().ops());
    m.put("device_lane_memory_accesses_per_record", w.deviceLane().perRecord().memory());
    m.put("device_lane_library_calls_per_record", w.deviceLane().perRecord().calls());
    m.put("device_lane_bulk_bytes_per_record", w.deviceLane().perRecord().bulk());
    m.put("device_lane_library_reads_per_record", w.deviceLane().perRecord().reads());
    m.put("device_lane_fixed_ops", w.deviceLane().fixed().ops());
    m.put("device_lane_tail_ops_per_buffered_record", w.laneTail().perRecord().ops());
    m.put("device_lane_tail_fixed_ops", w.laneTail().fixed().ops());
    m.put("merge_ops_per_result_byte", w.merge().perRecord().ops());
    m.put("merge_fixed_ops", w.merge().fixed().ops());
    Map<String, Object> results = new LinkedHashMap<>();
    double[] laneRecords = w.laneResults().records();
    double[] laneBytes = w.laneResults().bytes();
    for (int i = 0; i < laneRecords.length; i++) {
      results.put(String.format(Locale.ROOT, "%.0f", laneRecords[i]), laneBytes[i]);
    }
    m.put("lane_result_bytes_by_records", results);
    w.host().forEach((mode, work) -> {
      m.put("host_" + mode.optionName().replace('-', '_') + "_ops_per_record", work.perRecord().ops());
      m.put("host_" + mode.optionName().replace('-', '_') + "_fixed_ops", work.fixed().ops());
    });
    return m;
  }
}
