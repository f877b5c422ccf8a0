package org.smartssd.examples.loganalysis;

import java.util.Locale;

/** How an analysis runs, as in the source's evaluation. */
public enum Mode {
  /** An ordinary job over objfs: one intermediate record per input record, with a combiner. */
  HOST_NORMAL("host-normal"),
  /** The same job with in-mapper combining: counts kept in the mapper, emitted at its end. */
  HOST_OPTIMIZED("host-optimized"),
  /** The host-normal mapper and combiner, pushed into the device by {@code DeviceJobClient}. */
  DEVICE("device");

  private final String optionName;

  Mode(String optionName) {
    this.optionName = optionName;
  }

  /** The name on the command line and in reports. */
  public String optionName() {
    return optionName;
  }

  public static Mode parse(String text) {
    for (Mode m : values()) {
      if (m.optionName.equals(text.toLowerCase(Locale.ROOT)) || m.name().equalsIgnoreCase(text)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown mode '" + text + "': host-normal, host-optimized or device");
  }

  @Override
  public String toString() {
    return optionName;
  }
}
