package org.smartssd.examples.cli;

import static org.smartssd.examples.cli.Arguments.check;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.smartssd.device.runtime.cli.Cli;
import org.smartssd.examples.activeflash.ActiveFlashReport;
import org.smartssd.examples.activeflash.ActiveFlashRun;
import org.smartssd.examples.activeflash.Analysis;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd activeflash}: one of Active Flash's experiments, analysis while a producer writes. */
@Command(
    name = "activeflash",
    mixinStandardHelpOptions = true,
    description = {
      "Active Flash (Boboila et al.): a producer writes --checkpoints checkpoints of --checkpoint-mb MB at --rate MB/s "
          + "(one every checkpoint / rate seconds) onto a paced device of its own, while the --analysis attached to "
          + "their directory runs on the device's cores --schedule on-the-fly (pages taken from the device's buffer as "
          + "they are written; a full buffer --overflow defers them to idle time or makes the writer wait), idle (every "
          + "page read back from flash in idle time) or idle-gc (idle, and garbage collection in idle time too), on a "
          + "device --gc free (fresh) or full (filled, half its files rewritten: writes need intensive garbage "
          + "collection). Prints and writes to --report results.json and results.csv: the fraction of the analysis "
          + "done while the producer ran (on the paced device's clock), the slowdown S and energy saving ΔE of the "
          + "device's cores against one host core for the same analysis (counted work priced on either side), write "
          + "amplification, and exact: every file's results equal the host's.",
      "Exits 1 if the device's results differ from the host's, 2 for bad arguments."})
public final class ActiveFlashCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--analysis", paramLabel = "local-extrema|heartbeat|compression", defaultValue = "local-extrema",
      description = "The analysis (default: ${DEFAULT-VALUE}).")
  String analysis;

  @Option(names = "--schedule", paramLabel = "on-the-fly|idle|idle-gc", defaultValue = "on-the-fly",
      description = "When the device analyses (default: ${DEFAULT-VALUE}).")
  String schedule;

  @Option(names = "--rate", paramLabel = "MB/s", defaultValue = "8",
      description = "The producer's mean rate, MB (10^6 bytes) a second (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(names = "--gc", paramLabel = "free|full", defaultValue = "free",
      description = "The device's condition (default: ${DEFAULT-VALUE}).")
  String gc;

  @Option(names = "--checkpoint-mb", paramLabel = "MB", defaultValue = "16",
      description = "A checkpoint's size, MB (10^6 bytes) (default: ${DEFAULT-VALUE}).")
  double checkpointMb;

  @Option(names = "--checkpoints", paramLabel = "N", defaultValue = "8",
      description = "Checkpoints the producer writes (default: ${DEFAULT-VALUE}).")
  int checkpoints;

  @Option(names = "--overflow", paramLabel = "defer|wait", defaultValue = "defer",
      description = "on-the-fly: when the buffer is full, leave pages for idle time or make the writer wait "
          + "(default: ${DEFAULT-VALUE}).")
  String overflow;

  @Option(names = "--capacity-mb", paramLabel = "MB", defaultValue = "1024",
      description = "The device's capacity, MB (10^6 bytes): its blocks per way are set to give about this "
          + "(default: ${DEFAULT-VALUE}).")
  double capacityMb;

  @Option(names = "--profile", paramLabel = "P", defaultValue = "active-flash",
      description = "Profile of the device (default: ${DEFAULT-VALUE}: the source's controller, two 1 GHz cores).")
  String profile;

  @Option(names = "--report", paramLabel = "DIR", defaultValue = "smartssd-activeflash-report",
      description = "Where to write results.json and results.csv (default: ./${DEFAULT-VALUE}).")
  Path report;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "2011",
      description = "Seed of the generated data (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--work-profile", paramLabel = "DIR",
      description = "Profile the attached analysis's counted work on the device by method and call path, and write "
          + "it to this directory: a table (owners' shares, top methods; also printed to standard error) and folded "
          + "stacks for flamegraph.pl and speedscope. Counts are unchanged.")
  Path workProfile;

  @Option(names = "-D", paramLabel = "key=value", description = "A Hadoop configuration key.")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(names = "--device-conf", paramLabel = "key=value",
      description = "A configuration key of the device (smartssd.device.*), such as smartssd.device.active.buffer-bytes.")
  Map<String, String> deviceProperties = new LinkedHashMap<>();

  @Override
  public Integer call() throws IOException, InterruptedException {
    HadoopLogging.quiet();
    CommandLine cl = spec.commandLine();
    Analysis a;
    ActiveFlashRun.Schedule s;
    ActiveFlashRun.Condition c;
    try {
      a = Analysis.parse(analysis);
      s = ActiveFlashRun.Schedule.parse(schedule);
      c = ActiveFlashRun.Condition.parse(gc);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
    check(cl, rate > 0 && rate <= 100_000, "--rate must be above 0 and at most 100000 MB/s, not %s", rate);
    check(cl, checkpointMb >= 0.01 && checkpointMb <= 1024, "--checkpoint-mb must be from 0.01 to 1024, not %s",
        checkpointMb);
    check(cl, checkpoints >= 1 && checkpoints <= 10_000, "--checkpoints must be from 1 to 10000, not %d", checkpoints);
    check(cl, overflow.equals("defer") || overflow.equals("wait"), "--overflow must be defer or wait, not %s",
        overflow);
    check(cl, s == ActiveFlashRun.Schedule.ON_THE_FLY || !spec.commandLine().getParseResult().hasMatchedOption(
        "--overflow"), "--overflow is a choice of --schedule on-the-fly, not of %s", s);
    check(cl, capacityMb >= 16 && capacityMb <= 1 << 20, "--capacity-mb must be from 16 to 1048576, not %s",
        capacityMb);
    long checkpointBytes = Math.round(checkpointMb * 1e6);
    check(cl, checkpointBytes * checkpoints <= 8L << 30, "the checkpoints (%d x %s MB) are held in memory: at most "
        + "8 GiB in all", checkpoints, checkpointMb);
    check(cl, checkpointBytes * checkpoints <= capacityMb * 1e6 * (1 - ActiveFlashRun.FULL_MARGIN), "the production "
        + "(%d x %s MB) does not fit the device's --capacity-mb %s with room to work", checkpoints, checkpointMb,
        capacityMb);
    DeviceConf.checked(cl, deviceProperties, profile);
    PrintWriter out = cl.getOut();
    ActiveFlashRun.Options options = new ActiveFlashRun.Options(a, s, c, rate * 1e6, (int) checkpointBytes,
        checkpoints, overflow, Math.round(capacityMb * 1e6), profile, seed, properties, deviceProperties);
    ActiveFlashRun.Outcome outcome;
    if (workProfile != null) {
      org.smartssd.examples.loganalysis.WorkProfiling.enable();
    }
    try {
      outcome = new ActiveFlashRun(options, cl.getErr()).run();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    } finally {
      org.smartssd.examples.loganalysis.WorkProfiling.disable();
    }
    ActiveFlashReport r = new ActiveFlashReport(outcome);
    out.print(r.table());
    if (workProfile != null) {
      writeProfile(cl.getErr(), outcome);
    }
    out.printf(Locale.ROOT, "%nreport: %s%n", String.join(", ", r.write(report).stream().map(Path::toString)
        .toList()));
    out.printf(Locale.ROOT, "activeflash took %.1f s%n", outcome.totalSeconds());
    out.flush();
    if (!outcome.exact()) {
      cl.getErr().println("smartssd: the device's results differ from the host's: "
          + String.join("; ", outcome.disagreements()));
      cl.getErr().flush();
      return Cli.EXIT_FAILED;
    }
    return 0;
  }

  /** The attached analysis's device profile: a table ({@code activeflash-device.txt}) and folded stacks. */
  private void writeProfile(PrintWriter err, ActiveFlashRun.Outcome outcome) throws IOException {
    org.smartssd.device.WorkProfile p = outcome.deviceProfile();
    if (p == null) {
      throw new IOException("the device sent no work profile for the attached analysis");
    }
    org.smartssd.opcount.CoreCost core = outcome.deviceCore();
    String table = org.smartssd.examples.loganalysis.ProfileReport.table("activeflash " + outcome.options().analysis()
        + " " + outcome.options().schedule() + ", " + String.format(Locale.ROOT, "%,d", outcome.analysedBytes())
        + " bytes analysed", p, outcome.deviceCounted(), core, 0);
    java.nio.file.Files.createDirectories(workProfile);
    Path tableFile = workProfile.resolve("activeflash-device.txt");
    Path folded = workProfile.resolve("activeflash-device.folded");
    java.nio.file.Files.writeString(tableFile, table, java.nio.charset.StandardCharsets.UTF_8);
    java.nio.file.Files.writeString(folded, org.smartssd.examples.loganalysis.ProfileReport.folded(p, core),
        java.nio.charset.StandardCharsets.UTF_8);
    err.print(table);
    err.println("work profile: " + tableFile + ", " + folded);
    err.flush();
  }
}
