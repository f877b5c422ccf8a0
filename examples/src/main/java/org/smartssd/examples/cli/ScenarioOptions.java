package org.smartssd.examples.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.smartssd.examples.loganalysis.Scenario;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options {@code model} and {@code sweep} share: which scenario, how many records, on what devices
 * ({@code model} needs a scenario; {@code sweep} takes one or a data-mining workload).
 */
final class ScenarioOptions {
  @Option(names = "--scenario", paramLabel = "S", description = "The log analysis's scenario: regions or top-types.")
  String scenario;

  @Option(names = "--records", paramLabel = "N", required = true, description = "Input records.")
  long records;

  @Option(names = "--profile", paramLabel = "P", defaultValue = "msst13-sata",
      description = "The devices' profile (default: ${DEFAULT-VALUE}).")
  String profile;

  @Option(names = "--set", paramLabel = "key=value",
      description = "A device key (smartssd.device.*), devices=N (devices holding equal parts of the input) or "
          + "record-bytes=N (each record stored in N bytes, padded past its 20).")
  Map<String, String> settings = new LinkedHashMap<>();

  /**
   * The scenario, once the records are checked.
   *
   * @throws CommandLine.ParameterException naming what is wrong
   */
  Scenario scenario(CommandLine cl) {
    checkRecords(cl);
    if (scenario == null) {
      throw new CommandLine.ParameterException(cl, "Missing required option: '--scenario=S'");
    }
    try {
      return Scenario.parse(scenario);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, e.getMessage());
    }
  }

  void checkRecords(CommandLine cl) {
    if (records < 1) {
      throw new CommandLine.ParameterException(cl, "--records must be 1 or more, not " + records);
    }
  }
}
