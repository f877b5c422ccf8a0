package org.smartssd.examples.cli;

import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.examples.loganalysis.ProfileReport;
import org.smartssd.examples.loganalysis.WorkProfiling;
import org.smartssd.opcount.CoreCost;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code smartssd profile DIR}: the work profiles a job's splits wrote ({@code smartssd.mapper.profile-dir}),
 * added up and printed as {@code --work-profile} prints a run's: the owners' shares and the top methods, priced
 * on a device profile's core.
 */
@Command(
    name = "profile",
    mixinStandardHelpOptions = true,
    description = {"Print the device work profiles a job's splits wrote into DIR (-D smartssd.mapper.profile-dir=DIR "
        + "of smartssd job or DeviceJobClient), added up: the owners' shares and the top methods, each priced as "
        + "the model prices it on one device core (modelled)."})
public final class ProfileCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "DIR", description = "The directory the splits wrote ATTEMPT.profile files into (any Hadoop path).")
  String dir;

  @Option(names = "--records", paramLabel = "N", defaultValue = "0",
      description = "The job's input records, for figures per record (default: none, totals only).")
  long records;

  @Option(names = "--folded", paramLabel = "FILE",
      description = "Also write the folded stacks (modelled nanoseconds a call path) for flamegraph.pl and speedscope.")
  java.nio.file.Path folded;

  @Option(names = "-D", paramLabel = "key=value",
      description = "A device configuration key for the pricing, e.g. -D smartssd.device.profile=nvme-gen4 (default: "
          + "the device's defaults).")
  Map<String, String> device = new LinkedHashMap<>();

  @Override
  public Integer call() throws Exception {
    if (records < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--records must be 0 or more, not " + records);
    }
    CoreCost core;
    try {
      core = DeviceConfig.load(device).isp().core();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "-D " + e.getMessage());
    }
    WorkProfiling.Devices devices;
    try {
      devices = WorkProfiling.readDirectory(new Configuration(), new Path(dir));
    } catch (FileNotFoundException e) {
      spec.commandLine().getErr().println("smartssd profile: no directory " + dir);
      return 1;
    }
    if (devices.executions() == 0) {
      spec.commandLine().getErr().println("smartssd profile: no *.profile file in " + dir);
      return 1;
    }
    String title = dir + ", " + devices.executions() + " split" + (devices.executions() == 1 ? "" : "s");
    java.io.PrintWriter out = spec.commandLine().getOut();
    out.print(ProfileReport.table(title, devices.profile(), core, records));
    out.flush();
    if (folded != null) {
      Files.writeString(folded, ProfileReport.folded(devices.profile(), core), StandardCharsets.UTF_8);
    }
    return 0;
  }
}
