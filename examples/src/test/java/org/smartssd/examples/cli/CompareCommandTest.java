package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    assertEquals(1 + 2 * 3 * 2, csv.size(), String.join("\n", csv)); // 2 scenarios x 3 modes x paced and unpaced
    assertTrue(csv.get(0).startsWith("scenario,mode,paced,records,"), csv.get(0));
    assertTrue(csv.stream().skip(1).allMatch(l -> l.contains(",20000,400000,")), String.join("\n", csv));
    String json = Files.readString(report.resolve("results.json"));
    assertTrue(json.contains("\"results_agree\": true") && json.contains("\"records\": 20000"), json);
    byte[] png = Files.readAllBytes(report.resolve("elapsed-time.png"));
    assertEquals((byte) 0x89, png[0]);
    assertEquals('P', png[1]);
    for (String mode : List.of("host-normal", "host-optimized", "device")) {
      assertTrue(run.out().contains(mode), run.out());
    }
  }
}
