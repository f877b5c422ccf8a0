package org.smartssd.device.runtime.cli;

import java.io.IOException;
import org.smartssd.device.runtime.config.ConfigException;
import org.smartssd.device.runtime.ftl.DamagedMetadataException;
import picocli.CommandLine;

/**
 * Runs a picocli command with the project's exit codes: 0 done, 1 failed, 2 bad usage or
 * configuration, 3 the data directory is damaged (a device refuses to start on it, or fsck found
 * damage): a supervisor should not just start it again, but run {@code smartssd device fsck}.
 */
public final class Cli {
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;
  public static final int EXIT_DAMAGED = 3;

  private Cli() {}

  public static int execute(Object command, String... args) {
    CommandLine cl = new CommandLine(command);
    cl.setExecutionExceptionHandler((e, line, parsed) -> {
      if (e instanceof ConfigException || e instanceof IllegalArgumentException) {
        line.getErr().println("smartssd: " + e.getMessage());
        return EXIT_USAGE;
      }
      if (e instanceof DamagedMetadataException) {
        line.getErr().println("smartssd: " + e.getMessage());
        return EXIT_DAMAGED;
      }
      if (e instanceof IOException) {
        line.getErr().println("smartssd: " + e.getMessage());
        return EXIT_FAILED;
      }
      throw e;
    });
    cl.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_FAILED);
    return cl.execute(args);
  }
}
