package org.smartssd.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.smartssd.examples.loganalysis.AnalysisRun;
import org.smartssd.examples.loganalysis.DeviceMode;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.Scenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd loganalysis}: one analysis of the World Cup 1998 trace, in one mode. */
@Command(
    name = "loganalysis",
    mixinStandardHelpOptions = true,
    description = {
      "Analyse World Cup 1998 trace records (20-byte binary, e.g. loaded with 'smartssd wc98 load') with a Hadoop "
          + "job: accesses per region, or the top 5 file types per region; on the host (an ordinary job over objfs, "
          + "or with in-mapper combining) or with the map phase inside the device.",
      "The result goes to standard output as tab-separated lines sorted by region name (then rank): "
          + "REGION<TAB>COUNT, or REGION<TAB>RANK<TAB>TYPE<TAB>COUNT (ties by type code). Run statistics "
          + "(wall, modelled time, host-interface bytes, host CPU, modelled energy) go to standard error.",
      "Jobs run on Hadoop's local runner unless -D mapreduce.framework.name=yarn (with the cluster's keys) says otherwise."})
public final class LogAnalysisCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--scenario", required = true, paramLabel = "regions|top-types", converter = ScenarioConverter.class,
      description = "regions: accesses per region; top-types: the top 5 file types per region.")
  Scenario scenario;

  @Option(names = "--mode", required = true, paramLabel = "host-normal|host-optimized|device|device-builtin|auto",
      description = "host-normal: an ordinary job with a combiner; host-optimized: in-mapper combining; "
          + "device: the host-normal mapper and combiner run inside the device (DeviceJobClient); device-builtin: no "
          + "Hadoop job, the device's built-in GroupedSum tasklet counts by the key field (the firmware-like bound; "
          + "--output gets only the result file); auto: the same "
          + "job through DeviceJobClient with smartssd.mapper.placement=auto, in the devices or on the host, "
          + "wherever the analytic model predicts it runs faster (from a sample run in a device first).")
  String mode;

  @Option(names = "--input", required = true, paramLabel = "PATH",
      description = "Trace files or directories, e.g. objfs://127.0.0.1:7070/wc98/ (repeatable, also with inputs "
          + "on several devices, e.g. a trace loaded with 'wc98 load --spread-over': device mode then runs a map task "
          + "per device at once, and the modelled time is the slowest device's).")
  List<String> inputs = new ArrayList<>();

  @Option(names = "--output", paramLabel = "PATH",
      description = "Keep the job's output in this directory (it must not exist): the reducer's part files and "
          + "_result.tsv, the printed result. Default: a temporary directory, deleted.")
  String output;

  @Option(names = "--stats-json", paramLabel = "FILE", description = "Also write the run statistics to this file, as JSON.")
  java.nio.file.Path statsJson;

  @Option(names = "--work-profile", paramLabel = "DIR",
      description = "Profile the run's counted work by method and call path, in the device and on the host, and write "
          + "it to this directory: a table (owners' shares, top methods per record and in all; also printed to "
          + "standard error), folded stacks for flamegraph.pl and speedscope, and a chart. Counts are unchanged.")
  java.nio.file.Path workProfile;

  @Option(names = "-D", paramLabel = "key=value", description = "A Hadoop configuration key for the job.")
  Map<String, String> properties = new LinkedHashMap<>();

  @Override
  public Integer call() throws IOException, InterruptedException {
    HadoopLogging.quiet();
    Configuration conf = LogAnalysis.configuration(properties);
    try {
      LogAnalysis.recordBytes(conf);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "-D " + e.getMessage());
    }
    Mode mode;
    if (this.mode.equals("auto")) {
      mode = Mode.DEVICE;
      conf.set(DeviceMode.PLACEMENT, "auto");
    } else {
      try {
        mode = Mode.parse(this.mode);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--mode: " + e.getMessage()
            + " (or auto)");
      }
    }
    List<Path> paths = inputs.stream().map(Path::new).toList();
    AnalysisRun run;
    if (workProfile != null) {
      org.smartssd.examples.loganalysis.WorkProfiling.enable();
    }
    try {
      run = LogAnalysis.run(conf, scenario, mode, paths, output == null ? null : new Path(output));
    } finally {
      org.smartssd.examples.loganalysis.WorkProfiling.disable();
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(run.result().text());
    out.flush();
    run.statistics().print(spec.commandLine().getErr());
    if (statsJson != null) {
      Files.writeString(statsJson, run.statistics().toJson(), StandardCharsets.UTF_8);
    }
    if (workProfile != null) {
      WorkProfileOutput.write(spec.commandLine().getErr(), workProfile,
          java.util.Map.of(scenario.optionName() + "-" + mode.optionName(), run.statistics()));
    }
    return 0;
  }

  static final class ScenarioConverter implements CommandLine.ITypeConverter<Scenario> {
    @Override
    public Scenario convert(String value) {
      try {
        return Scenario.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

}
