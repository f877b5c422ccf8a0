package org.smartssd.examples.cli;

/**
 * Keeps Hadoop's per-job INFO chatter (task progress, counters, spills) off standard error, where the
 * commands print their own statistics; warnings and errors still show. Must run before Hadoop's
 * loggers are created (slf4j-simple reads a logger's level when it is made); a level set by the user
 * ({@code -Dorg.slf4j.simpleLogger.log.org.apache.hadoop=info}) wins.
 */
final class HadoopLogging {
  private HadoopLogging() {}

  static void quiet() {
    setIfUnset("org.slf4j.simpleLogger.log.org.apache.hadoop", "warn");
    // Repeated jobs in one JVM re-initialise the local runner's metrics; the warning says nothing useful.
    setIfUnset("org.slf4j.simpleLogger.log.org.apache.hadoop.metrics2", "error");
  }

  /**
   * As {@link #quiet}, and the device mapper's line a split (the commands that run many jobs print a line
   * a job of their own); its warnings (a split that ran on the host, and why) still show.
   */
  static void quietWithoutSplitLines() {
    quiet();
    setIfUnset("org.slf4j.simpleLogger.log.org.smartssd.devicemapper.DeviceRecordReader", "warn");
  }

  /** As {@link #quiet}, and the embedded devices' starts and stops too (the model's commands start many). */
  static void quietWithDevices() {
    quiet();
    setIfUnset("org.slf4j.simpleLogger.log.org.smartssd.device.runtime", "warn");
    setIfUnset("org.slf4j.simpleLogger.log.org.smartssd.devicemapper", "warn");
  }

  private static void setIfUnset(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
