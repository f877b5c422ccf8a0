package org.smartssd.examples.wc98;

import java.util.Locale;

/** How a trace is written: the trace's own binary records, or its text form. */
public enum TraceFormat {
  /** 20-byte big-endian records, as the trace's {@code wc_dayD_N} files. */
  BINARY,
  /** Common Log Format lines, as the trace's {@code recreate} tool prints them (synthetic URLs). */
  CLF;

  /** The name on the command line: {@code binary} or {@code clf}. */
  public String optionName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code binary} or {@code clf}, in any case. */
  public static TraceFormat parse(String text) {
    for (TraceFormat f : values()) {
      if (f.optionName().equalsIgnoreCase(text)) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown trace format '" + text + "' (binary or clf)");
  }
}
