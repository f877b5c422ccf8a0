package org.smartssd.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.smartssd.device.runtime.cli.Cli;
import org.smartssd.examples.loganalysis.Comparison;
import org.smartssd.examples.loganalysis.ComparisonReport;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.wc98.GeneratorParameters;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd compare}: the main job, the source's evaluation end to end. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "The main job: generate a World Cup 1998 trace (7,000,000 records, the source's run), load it into the devices, "
          + "run both analyses (accesses per region, top 5 file types per region) in all three modes "
          + "(host-normal, host-optimized, device) with the device unpaced (the software's own speed) and paced "
          + "(answers held until their modelled completion, the source's comparison), check that every run "
          + "agrees with a direct count, print the table and write the report (CSV, JSON, PNG charts).",
      "Without --device it starts its own devices (--devices, default 1), each in a child JVM of its own (so that "
          + "the host CPU time measured here is the host's alone) on a temporary data directory, deleted at the end. "
          + "With several devices the trace is cut into equal whole-record parts, one a device, and every run reads "
          + "all of them; a run's modelled time is then the slowest device's. Exits 1 if any result disagrees.",
      "--trace runs it over real trace files instead (smartssd compare --trace wc_day46_1.gz --trace wc_day46_2.gz), "
          + "--gzip over the trace stored compressed."})
public final class CompareCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--records", paramLabel = "N", defaultValue = "7000000",
      description = "Records to generate (default: ${DEFAULT-VALUE}, the source's run).")
  long records;

  @Option(names = "--trace", paramLabel = "FILE",
      description = "A trace file (plain or gzip, such as the published wc_day46_1.gz) whose records, with those "
          + "of the other --trace files in the order given, are the trace instead of a generated one "
          + "(repeatable; not with --records).")
  List<Path> traces = new ArrayList<>();

  @Option(names = "--gzip",
      description = "Store the trace gzip-compressed in the devices (one .gz file a device): every mode reads "
          + "it as Hadoop reads gzip, one split a file, and device mode decompresses it inside the device.")
  boolean gzip;

  @Option(names = "--profile", paramLabel = "P", defaultValue = "msst13-sata",
      description = "Profile of the devices compare starts: msst13-sata, issd-current, issd-future, xsd, nvme-gen4, active-flash "
          + "(default: ${DEFAULT-VALUE}). Ignored with --device.")
  String profile;

  @Option(names = "--device", paramLabel = "HOST:PORT",
      description = "Use this running device instead of starting any (repeatable: the trace is spread over all "
          + "given devices; one pass, paced or not as the devices are, which must agree; they need "
          + "smartssd.device.isp.shared-packages for MapReduce tasklets). The trace goes to /smartssd-compare "
          + "on each.")
  List<String> devices = new ArrayList<>();

  @Option(names = "--devices", paramLabel = "N",
      description = "How many devices compare starts, each its own child JVM, data directory and port, with the "
          + "same profile (default: 1). Not with --device.")
  Integer deviceCount;

  @Option(names = "--report", paramLabel = "DIR", defaultValue = "smartssd-report",
      description = "Where to write results.csv, results.json and the charts (default: ./${DEFAULT-VALUE}).")
  Path report;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "" + GeneratorParameters.DEFAULT_SEED,
      description = "Seed of the generated trace (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--scenarios", paramLabel = "SCENARIO", split = ",",
      description = "Scenarios to run, comma-separated (default: regions,top-types).")
  List<String> scenarios = new ArrayList<>();

  @Option(names = "--modes", paramLabel = "MODE", split = ",",
      description = "Modes to run, comma-separated (default: host-normal,host-optimized,device,device-builtin; "
          + "device-builtin, the analysis as the device's built-in GroupedSum tasklet, is left out with --gzip).")
  List<String> modes = new ArrayList<>();

  @Option(names = "--work-profile", paramLabel = "DIR",
      description = "Profile each run's counted work by method and call path, in the devices and on the host, and "
          + "write it to this directory: per run a table (owners' shares, top methods; also printed to standard "
          + "error) and folded stacks for flamegraph.pl and speedscope, and a chart of the owners (also in the report). Counts are "
          + "unchanged; wall times are longer.")
  Path workProfile;

  @Option(names = "-D", paramLabel = "key=value", description = "A Hadoop configuration key for the jobs.")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(names = "--device-conf", paramLabel = "key=value",
      description = "A configuration key of the devices compare starts (smartssd.device.*, see the README), such as "
          + "smartssd.device.isp.compute-model=cycles. Ignored with --device.")
  Map<String, String> deviceProperties = new LinkedHashMap<>();

  @Override
  public Integer call() throws IOException, InterruptedException {
    HadoopLogging.quiet();
    System.setProperty("java.awt.headless", "true");
    CommandLine cl = spec.commandLine();
    if (records < 1) {
      throw new CommandLine.ParameterException(cl, "--records must be 1 or more, not " + records);
    }
    try {
      LogAnalysis.recordBytes(LogAnalysis.configuration(properties));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "-D " + e.getMessage());
    }
    List<Mode> chosen = new ArrayList<>();
    try {
      for (String m : modes) {
        chosen.add(Mode.parse(m.trim()));
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--modes: " + e.getMessage());
    }
    if (chosen.isEmpty()) {
      chosen.addAll(List.of(Mode.values()));
      if (gzip) {
        chosen.remove(Mode.DEVICE_BUILTIN); // the built-in tasklet reads records as stored
      }
    } else if (gzip && chosen.contains(Mode.DEVICE_BUILTIN)) {
      throw new CommandLine.ParameterException(cl, "--modes: " + Mode.DEVICE_BUILTIN.optionName() + " reads the "
          + "records as stored, and --gzip stores them compressed");
    }
    List<Scenario> chosenScenarios = new ArrayList<>();
    try {
      for (String sc : scenarios) {
        Scenario parsed = Scenario.parse(sc.trim());
        if (!chosenScenarios.contains(parsed)) {
          chosenScenarios.add(parsed);
        }
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--scenarios: " + e.getMessage());
    }
    if (chosenScenarios.isEmpty()) {
      chosenScenarios.addAll(List.of(Scenario.values()));
    }
    int toStart = DeviceOptions.checked(cl, "compare", devices, deviceCount);
    DeviceConf.checked(cl, deviceProperties, profile);
    PrintWriter out = cl.getOut();
    PrintWriter err = cl.getErr();
    for (Path t : traces) {
      if (!Files.isRegularFile(t)) {
        throw new CommandLine.ParameterException(cl, "--trace " + t + " is not a file");
      }
    }
    if (!traces.isEmpty() && spec.commandLine().getParseResult().hasMatchedOption("--records")) {
      throw new CommandLine.ParameterException(cl, "--records sizes a generated trace; --trace gives the trace's "
          + "records: give one or the other");
    }
    Comparison.Options options = new Comparison.Options(records, profile, devices, toStart, report, seed,
        chosenScenarios, chosen, properties, deviceProperties, traces, gzip);
    Comparison.Outcome outcome;
    if (workProfile != null) {
      org.smartssd.examples.loganalysis.WorkProfiling.enable();
    }
    try {
      outcome = new Comparison(options, err).run();
    } finally {
      org.smartssd.examples.loganalysis.WorkProfiling.disable();
    }
    ComparisonReport r = new ComparisonReport(outcome);
    out.print(r.table());
    out.flush();
    List<Path> files = new java.util.ArrayList<>(r.write(report));
    if (workProfile != null) {
      java.util.Map<String, org.smartssd.examples.loganalysis.RunStatistics> runs = new java.util.LinkedHashMap<>();
      for (org.smartssd.examples.loganalysis.AnalysisRun run : outcome.runs()) {
        org.smartssd.examples.loganalysis.RunStatistics st = run.statistics();
        runs.put(st.scenario().optionName() + "-" + st.mode().optionName()
            + (Boolean.TRUE.equals(st.paced()) ? "-paced" : ""), st);
      }
      WorkProfileOutput.write(err, workProfile, runs);
      files.add(org.smartssd.examples.loganalysis.ProfileReport.chart(report, WorkProfileOutput.CHART, runs));
    }
    out.printf(Locale.ROOT, "%nreport: %s%n", String.join(", ", files.stream().map(Path::toString).toList()));
    out.printf(Locale.ROOT, "compare took %.1f s (all of it: generating, loading, warm-up, %d runs)%n",
        outcome.totalSeconds(), outcome.runs().size());
    out.flush();
    if (!outcome.agree()) {
      err.println("smartssd: the modes' results disagree: " + String.join("; ", outcome.disagreements()));
      err.flush();
      return Cli.EXIT_FAILED;
    }
    return 0;
  }
}
