package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code smartssd compare} on a small trace: its own device processes, every mode, paced and unpaced, the report. */
class CompareCommandTest {
  @TempDir Path dir;

  @Test
  void aSmallComparisonWritesTheReportAndExitsZero() throws IOException {
    Path report = dir.resolve("report");
    FsCommandTest.Run run = FsCommandTest.smartssd("compare", "--records", "20000", "--report", report.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    assertTrue(run.out().contains("every run found these results"), run.out());
    for (String file : List.of("results.csv", "results.json", "elapsed-time.png", "modelled-time.png",
        "host-interface-bytes.png", "host-cpu-time.png", "modelled-energy.png")) {
      assertTrue(Files.size(report.resolve(file)) > 0, file);
    }
    List<String> csv = Files.readAllLines(report.resolve("results.csv"));
    assertEquals(1 + 2 * 4 * 2, csv.size(), String.join("\n", csv)); // 2 scenarios x 4 modes x paced and unpaced
    assertTrue(csv.get(0).startsWith("scenario,mode,paced,records,"), csv.get(0));
    assertTrue(csv.stream().skip(1).allMatch(l -> l.contains(",20000,400000,")), String.join("\n", csv));
    String json = Files.readString(report.resolve("results.json"));
    assertTrue(json.contains("\"results_agree\": true") && json.contains("\"records\": 20000"), json);
    byte[] png = Files.readAllBytes(report.resolve("elapsed-time.png"));
    assertEquals((byte) 0x89, png[0]);
    assertEquals('P', png[1]);
    for (String mode : List.of("host-normal", "host-optimized", "device", "device-builtin")) {
      assertTrue(run.out().contains(mode), run.out());
    }
  }

  /**
   * A trace given as a gzip file (as the real ones are published), stored gzip-compressed: every mode
   * agrees with the direct count, and device mode decompresses in the device (no split fell back).
   */
  @Test
  void aGivenGzipTraceStoredCompressedIsComparedInEveryMode() throws IOException {
    Path trace = dir.resolve("wc_day1_1.gz");
    FsCommandTest.Run generated = FsCommandTest.smartssd("wc98", "generate", "--records", "15000", "--out",
        trace.toString());
    assertEquals(0, generated.code(), generated.err());
    Path report = dir.resolve("gzip-report");
    FsCommandTest.Run run = FsCommandTest.smartssd("compare", "--trace", trace.toString(), "--gzip", "--scenarios",
        "regions", "--report", report.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    assertTrue(run.err().contains("read 15,000 records from 1 trace file(s)"), run.err());
    assertTrue(run.err().contains("gzip-compressed"), run.err());
    assertFalse(run.out().contains("device!"), "no split fell back: " + run.out());
    List<String> csv = Files.readAllLines(report.resolve("results.csv"));
    assertEquals(1 + 3 * 2, csv.size(), String.join("\n", csv)); // device-builtin reads no gzip: left out
    assertFalse(csv.stream().anyMatch(l -> l.contains(",device-builtin,")), String.join("\n", csv));
    assertTrue(csv.stream().skip(1).allMatch(l -> l.contains(",15000,300000,")), String.join("\n", csv));
    String json = Files.readString(report.resolve("results.json"));
    assertTrue(json.contains("\"records\": 15000") && json.contains("\"stored\": \"gzip\""), json);

    FsCommandTest.Run both = FsCommandTest.smartssd("compare", "--trace", trace.toString(), "--records", "10");
    assertEquals(2, both.code(), both.err());
    assertTrue(both.err().contains("give one or the other"), both.err());
  }

  @Test
  void deviceKeysReachTheDeviceCompareStarts() throws IOException {
    Path report = dir.resolve("cycles");
    // 20,000 records are 400,000 bytes; at 1,000 cycles a byte on one 400 MHz core that is 1 s of compute.
    FsCommandTest.Run run = FsCommandTest.smartssd("compare", "--records", "20000", "--modes", "device", "--report",
        report.toString(), "--device-conf", "smartssd.device.isp.compute-model=cycles", "--device-conf",
        "smartssd.device.isp.cycles-per-byte=1000", "--device-conf", "smartssd.device.isp.cores=1");
    assertEquals(0, run.code(), run.err() + run.out());
    List<String> csv = Files.readAllLines(report.resolve("results.csv"));
    int column = List.of(csv.get(0).split(",")).indexOf("modelled_device_execution_s");
    assertEquals(1 + 2 * 2, csv.size(), String.join("\n", csv));
    for (String line : csv.subList(1, csv.size())) {
      double modelled = Double.parseDouble(line.split(",")[column]);
      assertTrue(modelled >= 1.0 && modelled < 2.0, line);
    }
  }

  @Test
  void aBadDeviceKeyIsRefusedBeforeAnythingStarts() {
    FsCommandTest.Run unknown = FsCommandTest.smartssd("compare", "--device-conf", "smartssd.device.isp.corez=2");
    assertEquals(2, unknown.code(), unknown.out());
    assertTrue(unknown.err().contains("smartssd.device.isp.corez"), unknown.err());
    FsCommandTest.Run hadoop = FsCommandTest.smartssd("compare", "--device-conf", "mapreduce.job.reduces=2");
    assertEquals(2, hadoop.code(), hadoop.out());
    assertTrue(hadoop.err().contains("-D"), hadoop.err());
    FsCommandTest.Run bad = FsCommandTest.smartssd("compare", "--device-conf", "smartssd.device.isp.cores=zero");
    assertEquals(2, bad.code(), bad.out());
    assertTrue(bad.err().contains("smartssd.device.isp.cores") && bad.err().contains("zero"), bad.err());
  }
}
