package org.smartssd.examples.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.GenericOptionsParser;
import org.smartssd.device.runtime.cli.Cli;
import org.smartssd.devicemapper.DeviceJobClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code smartssd job [-D key=value ...] FACTORY_CLASS [arguments ...]}: what {@code hadoop jar ...
 * DeviceJobClient} runs, with this checkout's jars on the class path: the factory makes the job, {@link
 * DeviceJobClient#configure} sends its map phase into the devices that hold its input, and the job's
 * counters are printed when it ends.
 */
@Command(
    name = "job",
    description = {"Run a Hadoop job with its map phase in the devices: smartssd job [-D key=value ...] FACTORY_CLASS "
        + "[arguments ...], FACTORY_CLASS implementing org.smartssd.devicemapper.JobFactory (e.g. "
        + "org.smartssd.examples.jobs.WordCount INPUT... OUTPUT). Prints the job's counters (DeviceCounters among "
        + "them). -D smartssd.mapper.profile-dir=DIR profiles each split's device work (read it with smartssd "
        + "profile DIR). Exit code 0 when the job succeeded, 1 when it failed, 2 for bad arguments."})
public final class JobCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** Hadoop's generic options (-D, -conf, -files, ...), then the factory and its arguments. */
  @Unmatched
  List<String> arguments = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    Configuration conf = new Configuration();
    String[] rest = new GenericOptionsParser(conf, arguments.toArray(String[]::new)).getRemainingArgs();
    PrintWriter err = spec.commandLine().getErr();
    Job job;
    try {
      job = DeviceJobClient.job(conf, rest);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    boolean succeeded = job.waitForCompletion(false);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "job %s (%s) %s%n", job.getJobName(), job.getJobID(), succeeded ? "succeeded" : "FAILED");
    if (job.getCounters() != null) {
      for (CounterGroup group : job.getCounters()) {
        out.printf(Locale.ROOT, "  %s%n", group.getDisplayName());
        for (Counter c : group) {
          out.printf(Locale.ROOT, "    %s=%d%n", c.getName(), c.getValue());
        }
      }
    }
    out.flush();
    if (!succeeded) {
      err.println("smartssd: job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
      err.flush();
      return Cli.EXIT_FAILED;
    }
    return 0;
  }
}
