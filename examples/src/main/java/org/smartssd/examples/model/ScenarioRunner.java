package org.smartssd.examples.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.smartssd.examples.loganalysis.AnalysisResult;
import org.smartssd.examples.loganalysis.AnalysisRun;
import org.smartssd.examples.loganalysis.DirectCount;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.loganalysis.TraceLoader;
import org.smartssd.examples.wc98.GeneratorParameters;
import org.smartssd.examples.wc98.TraceFormat;
import org.smartssd.examples.wc98.TraceWriter;
import org.smartssd.examples.wc98.Wc98Generator;

/**
 * Runs a scenario of the log analysis in the simulator: a generated trace spread over devices of its own,
 * the three modes, each checked against a direct count.
 */
public final class ScenarioRunner implements Runner {
  private final Scenario scenario;
  private final SimulatedDevices devices;

  /** The scenario as the sampler and the sweep take it: every mode that runs it as a job. */
  public static SampledJob job(Scenario scenario) {
    return new SampledJob(scenario.optionName(), Mode.JOBS, true,
        (deviceKeys, devices, hadoopKeys) -> new ScenarioRunner(scenario, deviceKeys, devices, hadoopKeys));
  }

  /**
   * Starts {@code count} devices with the given keys ({@code smartssd.device.*}).
   *
   * @param hadoopKeys keys for the jobs (such as {@code smartssd.mapper.merge}, and the stored record's size)
   */
  public ScenarioRunner(Scenario scenario, Map<String, String> deviceKeys, int count, Map<String, String> hadoopKeys)
      throws IOException {
    this.scenario = scenario;
    this.devices = new SimulatedDevices(deviceKeys, count, hadoopKeys);
  }

  /** Runs the modes on a generated trace of {@code records} records (seeded), spread over the devices. */
  @Override
  public Map<Mode, RunStatistics> run(long records, long seed, List<Mode> modes)
      throws IOException, InterruptedException {
    Path trace = devices.work().resolve("trace-" + records + "-" + seed + ".bin");
    try (TraceWriter writer = TraceWriter.create(trace, TraceFormat.BINARY, false)) {
      new Wc98Generator(GeneratorParameters.defaults().withSeed(seed)).generate(records, writer);
    }
    AnalysisResult expected = DirectCount.of(trace).result(scenario);
    List<String> targets = devices.paths("/model/trace-" + records + "-" + seed + ".bin");
    TraceLoader.spread(devices.conf(), List.of(trace), targets, true, LogAnalysis.recordBytes(devices.conf()));
    Files.delete(trace);
    devices.awaitIdle();
    List<org.apache.hadoop.fs.Path> inputs = targets.stream().map(org.apache.hadoop.fs.Path::new).toList();
    Map<Mode, RunStatistics> runs = new EnumMap<>(Mode.class);
    for (Mode m : modes) {
      AnalysisRun run = LogAnalysis.run(devices.conf(), scenario, m, inputs, null);
      if (!run.result().equals(expected)) {
        throw new IOException(scenario.optionName() + " " + m.optionName() + " found " + run.result().lines()
            + ", a direct count " + expected.lines());
      }
      runs.put(m, Runner.ranInTheDevice(scenario.optionName(), m, run.statistics()));
    }
    return runs;
  }

  @Override
  public void close() throws IOException {
    devices.close();
  }
}
