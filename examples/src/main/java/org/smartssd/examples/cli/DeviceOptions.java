package org.smartssd.examples.cli;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.smartssd.device.client.DeviceAddress;
import picocli.CommandLine;

/** The {@code --device HOST:PORT} and {@code --devices N} options of the commands that run jobs over objfs. */
final class DeviceOptions {
  /** The most devices a command starts: each is a JVM of its own. */
  static final int MAX_DEVICES = 64;

  private DeviceOptions() {}

  /**
   * Checks the given devices (each a TCP address, none twice) and the count to start (1 to
   * {@value #MAX_DEVICES}, not with given devices), before anything starts.
   *
   * @param command the command's name, for the messages
   * @return how many devices to start when none is given
   * @throws CommandLine.ParameterException naming the option that is wrong
   */
  static int checked(CommandLine cl, String command, List<String> devices, Integer deviceCount) {
    if (!devices.isEmpty() && deviceCount != null) {
      throw new CommandLine.ParameterException(cl, "--devices " + deviceCount + " starts devices of " + command
          + "'s own, --device uses running ones: give one or the other");
    }
    int toStart = deviceCount == null ? 1 : deviceCount;
    if (toStart < 1 || toStart > MAX_DEVICES) {
      throw new CommandLine.ParameterException(cl, "--devices must be between 1 and " + MAX_DEVICES
          + " (each is a JVM of its own), not " + toStart);
    }
    Set<String> seen = new HashSet<>();
    for (String d : devices) {
      DeviceAddress address;
      try {
        address = DeviceAddress.parse(d);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cl, "--device: " + e.getMessage());
      }
      if (address.isUnix()) {
        throw new CommandLine.ParameterException(cl, "--device " + d + ": " + command + " reads through objfs, which "
            + "reaches devices over TCP only (HOST:PORT)");
      }
      if (!seen.add(address.toString())) {
        throw new CommandLine.ParameterException(cl, "--device " + d + " is given twice");
      }
    }
    return toStart;
  }
}
