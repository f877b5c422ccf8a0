package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code smartssd search}: a small run end to end with its own device process, and its argument errors. */
class SearchCommandTest {
  @TempDir Path dir;

  @Test
  void aSmallClusteredSearchIsExactAndWritesTheReport() throws IOException {
    Path report = dir.resolve("report");
    FsCommandTest.Run run = FsCommandTest.smartssd("search", "--items", "5000", "--dims", "8", "--bits", "48",
        "--top", "5", "--queries", "4", "--clusters", "10", "--layout", "clustered", "--seed", "3", "--report",
        report.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    assertTrue(run.out().contains("exact: every device answer equals the host's brute force"), run.out());
    assertTrue(run.out().contains("device-pruned"), run.out());
    String json = Files.readString(report.resolve("results.json"));
    assertTrue(json.startsWith("{\n  \"exact\": true,"), json);
    assertTrue(json.contains("\"layout\": \"clustered\"") && json.contains("\"prefix_bits\": 15")
        && json.contains("\"device-pruned\": {"), json);
    List<String> csv = Files.readAllLines(report.resolve("results.csv"));
    assertEquals(4, csv.size(), String.join("\n", csv));
    assertTrue(csv.get(1).startsWith("clustered,host,5000,48,4,5,true,"), csv.get(1));
  }

  @Test
  void badArgumentsAreRefusedNamingTheOption() {
    expectRefusal(List.of("search", "--items", "0"), "--items");
    expectRefusal(List.of("search", "--bits", "4097"), "--bits");
    expectRefusal(List.of("search", "--items", "100", "--top", "101"), "--top");
    expectRefusal(List.of("search", "--items", "100", "--queries", "101"), "--queries");
    expectRefusal(List.of("search", "--queries", "2000", "--top", "1000"), "--queries x --top");
    expectRefusal(List.of("search", "--queries", "4000", "--bits", "4096"), "one tasklet parameter");
    expectRefusal(List.of("search", "--layout", "sorted"), "--layout");
    expectRefusal(List.of("search", "--prefix-bits", "8"), "--layout clustered");
    expectRefusal(List.of("search", "--layout", "clustered", "--bits", "16", "--prefix-bits", "17"),
        "--prefix-bits");
    expectRefusal(List.of("search", "--device", "unix:/tmp/x.sock"), "--device");
    expectRefusal(List.of("search", "--device-conf", "smartssd.device.isp.corez=2"), "smartssd.device.isp.corez");
  }

  private static void expectRefusal(List<String> args, String named) {
    FsCommandTest.Run run = FsCommandTest.smartssd(args.toArray(new String[0]));
    assertEquals(2, run.code(), args + ": " + run.out() + run.err());
    assertTrue(run.err().contains(named), args + ": " + run.err());
  }
}
