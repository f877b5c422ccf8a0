package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code smartssd mine}: a small run end to end with its own device process, and its argument errors. */
class MineCommandTest {
  @TempDir Path dir;

  @Test
  void aSmallKMeansRunWritesTheReportWithResultsAgreeing() throws IOException {
    Path report = dir.resolve("report");
    FsCommandTest.Run run = FsCommandTest.smartssd("mine", "--algorithm", "kmeans", "--size", "4000", "--k", "3",
        "--dimensions", "4", "--iterations", "3", "--seed", "5", "--report", report.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    assertTrue(run.out().contains("found what the direct computation (in memory) found, bit for bit"), run.out());
    for (String file : List.of("results.csv", "results.json", "wall-time-by-iteration.png",
        "modelled-time-by-iteration.png", "host-interface-bytes-by-iteration.png")) {
      assertTrue(Files.size(report.resolve(file)) > 0, file);
    }
    String json = Files.readString(report.resolve("results.json"));
    assertTrue(json.contains("\"results_agree\": true") && json.contains("\"algorithm\": \"kmeans\"")
        && json.contains("\"records\": 4000"), json);
    List<String> csv = Files.readAllLines(report.resolve("results.csv"));
    assertTrue(csv.get(0).startsWith("algorithm,mode,iteration,"), csv.get(0));
    int iterations = (int) csv.stream().filter(l -> l.matches("kmeans,device,[0-9]+,.*")).count();
    assertTrue(iterations >= 1 && iterations <= 3, String.join("\n", csv));
    assertEquals(iterations, csv.stream().filter(l -> l.matches("kmeans,host-normal,[0-9]+,.*")).count(),
        String.join("\n", csv));
    assertEquals(2, csv.stream().filter(l -> l.contains(",total,")).count(), String.join("\n", csv));
    // After the last iteration, each mode wrote each point's cluster on the device: a row each.
    assertEquals(2, csv.stream().filter(l -> l.matches("kmeans,(host-normal|device),assignments,.*")).count(),
        String.join("\n", csv));
    assertTrue(json.contains("\"job\": \"assignments\"") && json.contains("\"state_file_bytes\""), json);
    assertTrue(run.out().contains("host-normal") && run.out().contains("device"), run.out());
    assertTrue(run.out().contains("assignments, device:") && run.out().contains("by the device itself"), run.out());
    assertTrue(!run.out().contains("device!"), "no split fell back: " + run.out());
  }

  @Test
  void badArgumentsAreRefusedNamingTheOption() {
    expectRefusal(List.of("mine"), "--algorithm");
    expectRefusal(List.of("mine", "--algorithm", "svm"), "--algorithm");
    expectRefusal(List.of("mine", "--algorithm", "pagerank", "--k", "3"), "--k");
    expectRefusal(List.of("mine", "--algorithm", "kmeans", "--support", "0.1"), "--support");
    expectRefusal(List.of("mine", "--algorithm", "kmeans", "--size", "0"), "--size");
    expectRefusal(List.of("mine", "--algorithm", "kmeans", "--size", "10", "--k", "11"), "--k");
    expectRefusal(List.of("mine", "--algorithm", "apriori", "--support", "1.5"), "--support");
    expectRefusal(List.of("mine", "--algorithm", "pagerank", "--damping", "2"), "--damping");
    expectRefusal(List.of("mine", "--algorithm", "pagerank", "--graph", dir.resolve("none.gt").toString()),
        "--graph");
    expectRefusal(List.of("mine", "--algorithm", "kmeans", "--iterations", "0"), "--iterations");
    expectRefusal(List.of("mine", "--algorithm", "kmeans", "--devices", "2", "--device", "127.0.0.1:1"), "--device");
    expectRefusal(List.of("mine", "--algorithm", "kmeans", "--device-conf", "smartssd.device.isp.corez=2"),
        "smartssd.device.isp.corez");
  }

  @Test
  void aGraphFileThatIsNotAGraphIsRefusedNamingIt() throws IOException {
    Path bad = Files.writeString(dir.resolve("bad.gt"), "not a graph");
    FsCommandTest.Run run = FsCommandTest.smartssd("mine", "--algorithm", "pagerank", "--graph", bad.toString());
    assertEquals(2, run.code(), run.out());
    assertTrue(run.err().contains("--graph") && run.err().contains("bad.gt") && run.err().contains("not a graph-tool"),
        run.err());
  }

  private static void expectRefusal(List<String> args, String named) {
    FsCommandTest.Run run = FsCommandTest.smartssd(args.toArray(new String[0]));
    assertEquals(2, run.code(), args + ": " + run.out() + run.err());
    assertTrue(run.err().contains(named), args + ": " + run.err());
  }
}
