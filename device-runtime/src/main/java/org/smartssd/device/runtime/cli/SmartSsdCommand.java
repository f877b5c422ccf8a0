package org.smartssd.device.runtime.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code smartssd}: the one entry point of the command line. */
@Command(
    name = "smartssd",
    mixinStandardHelpOptions = true,
    versionProvider = Versions.class,
    description = "A simulated Smart SSD that runs Hadoop map tasks inside the drive.",
    subcommands = {DeviceCommand.class, SecretCommand.class, CommandLine.HelpCommand.class})
public final class SmartSsdCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a command: device");
  }

  public static void main(String[] args) {
    System.exit(Cli.execute(new SmartSsdCommand(), args));
  }
}
