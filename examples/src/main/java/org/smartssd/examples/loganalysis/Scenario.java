package org.smartssd.examples.loganalysis;

import java.util.Locale;

/** The source's two analyses of the World Cup 1998 trace. */
public enum Scenario implements Workload {
  /** Accesses per region: the server byte of each record (region = server &gt;&gt; 5). */
  REGIONS("regions"),
  /** The top 5 file types per region: the server and type bytes, then a sort per region. */
  TOP_TYPES("top-types");

  private final String optionName;

  Scenario(String optionName) {
    this.optionName = optionName;
  }

  /** The name on the command line and in reports: {@code regions}, {@code top-types}. */
  @Override
  public String optionName() {
    return optionName;
  }

  public static Scenario parse(String text) {
    for (Scenario s : values()) {
      if (s.optionName.equals(text.toLowerCase(Locale.ROOT)) || s.name().equalsIgnoreCase(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown scenario '" + text + "': regions or top-types");
  }

  @Override
  public String toString() {
    return optionName;
  }
}
