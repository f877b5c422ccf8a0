package org.smartssd.examples.loganalysis;

/**
 * What a measured run ran, by name: one of the log analysis's {@link Scenario}s, or another workload
 * measured the same way (the data-mining jobs of {@code smartssd mine}).
 */
public interface Workload {
  /** The name on the command line and in reports. */
  String optionName();
}
