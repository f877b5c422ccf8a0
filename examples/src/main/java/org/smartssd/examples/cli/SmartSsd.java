package org.smartssd.examples.cli;

import org.smartssd.device.runtime.cli.Cli;
import org.smartssd.device.runtime.cli.DeviceCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code smartssd}: the one entry point of the command line. */
@Command(
    name = "smartssd",
    mixinStandardHelpOptions = true,
    versionProvider = Versions.class,
    description = "In-storage processing for Hadoop on a simulated Smart SSD.",
    subcommands = {DeviceCommand.class, org.smartssd.device.runtime.cli.SecretCommand.class, FsCommand.class, org.smartssd.examples.wc98.Wc98Command.class,
        LogAnalysisCommand.class, CompareCommand.class, MineCommand.class, SearchCommand.class, ActiveFlashCommand.class,
        ModelCommand.class, JobCommand.class, ProfileCommand.class,
        SweepCommand.class, CalibrateCommand.class, CommandLine.HelpCommand.class})
public final class SmartSsd implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a command: device, secret, fs, wc98, loganalysis, compare, mine, search, activeflash, model, job, profile, sweep or calibrate");
  }

  public static void main(String[] args) {
    System.exit(Cli.execute(new SmartSsd(), args));
  }
}
