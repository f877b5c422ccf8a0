package org.smartssd.examples.loganalysis;

import java.util.Locale;

/** How an analysis runs, as in the source's evaluation. */
public enum Mode {
  /** An ordinary job over objfs: one intermediate record per input record, with a combiner. */
  HOST_NORMAL("host-normal"),
  /** The same job with in-mapper combining: counts kept in the mapper, emitted at its end. */
  HOST_OPTIMIZED("host-optimized"),
  /** The host-normal mapper and combiner, pushed into the device by {@code DeviceJobClient}. */
  DEVICE("device"),
  /**
   * The same analysis as the device's built-in {@code GroupedSum} tasklet, no Hadoop job: the firmware-like
   * bound the unchanged job in device mode is measured against ({@link BuiltInAnalysis}).
   */
  DEVICE_BUILTIN("device-builtin");

  /** The modes that run the analysis as a Hadoop job. */
  public static final java.util.List<Mode> JOBS = java.util.List.of(HOST_NORMAL, HOST_OPTIMIZED, DEVICE);

  private final String optionName;

  Mode(String optionName) {
    this.optionName = optionName;
  }

  /** Whether the analysis's records are read and computed in the devices. */
  public boolean inDevice() {
    return this == DEVICE || this == DEVICE_BUILTIN;
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
    throw new IllegalArgumentException("unknown mode '" + text + "': host-normal, host-optimized, device or device-builtin");
  }

  @Override
  public String toString() {
    return optionName;
  }
}
