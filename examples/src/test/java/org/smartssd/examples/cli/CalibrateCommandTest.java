package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The calibration programs, run small. */
class CalibrateCommandTest {

  @Test
  void theHostCalibrationFitsPositiveCostsAndPrintsTheKeys() {
    FsCommandTest.Run run = FsCommandTest.smartssd("calibrate", "host", "--repeat", "1", "--machine-mhz", "2000");
    assertEquals(0, run.code(), run.err() + run.out());
    for (String kernel : List.of("arithmetic", "hadoopSerialization", "hadoopSort", "bulkCopy")) {
      assertTrue(run.out().contains(kernel), run.out());
    }
    Matcher cycles = Pattern.compile("smartssd.device.host-cpu.cycles-per-op=([0-9.]+)").matcher(run.out());
    assertTrue(cycles.find(), run.out());
    assertTrue(Double.parseDouble(cycles.group(1)) > 0, run.out());
    assertTrue(run.out().contains("smartssd.device.isp.library-call-ops="), run.out());
    assertTrue(run.out().contains("2000 MHz, from --machine-mhz"), run.out());
  }

  @Test
  void theTaskletExperimentDrawsItsCurveAndFilters() {
    FsCommandTest.Run run = FsCommandTest.smartssd("calibrate", "tasklets", "--megabytes", "2", "--filter-megabytes",
        "4", "--device-conf", "smartssd.device.isp.cores=1");
    assertEquals(0, run.code(), run.err() + run.out());
    Matcher row = Pattern.compile("(?m)^\\s+(\\d+)\\s+([0-9.]+)\\s").matcher(run.out());
    int rows = 0;
    double first = 0;
    double last = 0;
    while (row.find()) {
      rows++;
      last = Double.parseDouble(row.group(2));
      first = rows == 1 ? last : first;
    }
    assertEquals(9, rows, run.out()); // 1, 2, 4, ... 256 accesses
    assertTrue(last < first, "one core: throughput falls as accesses grow: " + run.out());
    assertTrue(run.out().contains("stop at the first match") && run.out().contains("faster"), run.out());
  }

  @Test
  void badOptionsAreRefused() {
    FsCommandTest.Run run = FsCommandTest.smartssd("calibrate", "tasklets", "--record-bytes", "6");
    assertEquals(2, run.code(), run.out());
    assertTrue(run.err().contains("--record-bytes"), run.err());
    FsCommandTest.Run key = FsCommandTest.smartssd("calibrate", "tasklets", "--device-conf", "mapreduce.x=1");
    assertEquals(2, key.code(), key.out());
  }
}
