package org.smartssd.model;

import java.util.Locale;

/** The three ways a job runs, as the source compares them. */
public enum Mode {
  /** An ordinary MapReduce job reading every record over the host link. */
  HOST_NORMAL,
  /** The same, combining inside the mapper. */
  HOST_OPTIMIZED,
  /** The mapper and combiner in the devices; partial results to the host. */
  DEVICE;

  public String optionName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Mode parse(String name) {
    for (Mode m : values()) {
      if (m.optionName().equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown mode '" + name + "' (host-normal, host-optimized or device)");
  }
}
