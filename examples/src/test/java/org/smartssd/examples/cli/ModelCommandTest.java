package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code smartssd model} and {@code smartssd sweep}, run small on real devices of the test's JVM. */
class ModelCommandTest {

  @Test
  void theModelPredictsEveryModeWithItsBreakdownAndFollowsTheCoreClock() throws Exception {
    JsonNode slow = predict("smartssd.device.isp.core-mhz=400");
    JsonNode fast = predict("smartssd.device.isp.core-mhz=1600");
    for (String mode : List.of("host-normal", "host-optimized", "device")) {
      JsonNode p = slow.path("predictions").path(mode);
      assertTrue(p.path("predicted_s").asDouble() > 0, mode + ": " + slow);
      for (String part : List.of("data_access_s", "processing_s", "swap_s", "merge_s", "link_s")) {
        assertTrue(p.has(part), mode + " has " + part + ": " + p);
      }
    }
    assertTrue(slow.path("workload").path("device_lane_ops_per_record").asDouble() > 0, slow.toString());
    // Four times the clock: the device's cores do the same counted work in about a quarter of the
    // instruction time (the DRAM's accesses do not speed up), and the host modes do not change.
    double slowDevice = slow.path("predictions").path("device").path("processing_s").asDouble();
    double fastDevice = fast.path("predictions").path("device").path("processing_s").asDouble();
    assertTrue(fastDevice < 0.9 * slowDevice && fastDevice > slowDevice / 4.01, slowDevice + " then " + fastDevice);
    assertEquals(slow.path("predictions").path("host-normal").path("data_access_s").asDouble(),
        fast.path("predictions").path("host-normal").path("data_access_s").asDouble(), 1e-12);
  }

  private static JsonNode predict(String setting) throws Exception {
    FsCommandTest.Run run = FsCommandTest.smartssd("model", "--scenario", "regions", "--records", "2000000", "--set",
        setting, "--json");
    assertEquals(0, run.code(), run.err() + run.out());
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertEquals(2_000_000, json.path("records").asLong());
    return json;
  }

  @Test
  void theSweepRunsSimulatorAndModelAtEveryPointAndTheyAgree(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("sweep");
    FsCommandTest.Run run = FsCommandTest.smartssd("sweep", "--scenario", "top-types", "--records", "60000",
        "--vary", "smartssd.device.flash.channels=2,8", "--vary", "smartssd.device.isp.core-mhz=400,3200",
        "--out", out.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    assertTrue(run.err().contains("sweep: point 4 of 4"), run.err());
    List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
    String header = csv.get(0);
    assertTrue(header.startsWith("smartssd.device.flash.channels,smartssd.device.isp.core-mhz,mode,simulated_s,"
        + "analytic_s,analytic_data_access_s"), header);
    assertEquals(1 + 4 * 3, csv.size(), String.join("\n", csv));
    for (String row : csv.subList(1, csv.size())) {
      String[] f = row.split(",");
      double simulated = Double.parseDouble(f[3]);
      double analytic = Double.parseDouble(f[4]);
      assertTrue(simulated > 0 && Math.abs(analytic - simulated) <= 0.15 * simulated, row);
    }
    List<String> simulated = Files.readAllLines(out.resolve("simulated.jsonl"));
    assertEquals(4 * 3, simulated.size());
    JsonNode first = new ObjectMapper().readTree(simulated.get(0));
    assertEquals("2", first.path("varied").path("smartssd.device.flash.channels").asText());
    assertEquals("host-normal", first.path("mode").asText());
    assertEquals(60_000, first.path("records").asLong());
    assertTrue(Files.size(out.resolve("smartssd.device.flash.channels.png")) > 0);
    assertTrue(Files.size(out.resolve("smartssd.device.isp.core-mhz.png")) > 0);
    // The device mode varies over this grid: its correlation is printed and high.
    Matcher device = Pattern.compile("(?m)^device\\s+4\\s+([0-9.]+)\\s+([0-9.]+)%").matcher(run.out());
    assertTrue(device.find(), run.out());
    assertTrue(Double.parseDouble(device.group(1)) >= 0.99, run.out());
  }

  /**
   * A data-mining workload's job (k-means' first iteration): host-normal and device mode only, simulated and
   * analytic at every point, the two close, and the device's time falling with a faster clock in both.
   */
  @Test
  void aMiningSweepPutsTheModelBesideEverySimulatedPoint(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("sweep");
    FsCommandTest.Run run = FsCommandTest.smartssd("sweep", "--algorithm", "kmeans", "--records", "20000",
        "--vary", "smartssd.device.isp.core-mhz=200,800", "--out", out.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
    assertTrue(csv.get(0).startsWith("smartssd.device.isp.core-mhz,mode,simulated_s,analytic_s,"), csv.get(0));
    assertEquals(1 + 2 * 2, csv.size(), String.join("\n", csv));
    Map<String, double[]> times = new HashMap<>(); // "MHZ MODE" -> simulated, analytic
    for (String row : csv.subList(1, csv.size())) {
      String[] f = row.split(",");
      double simulated = Double.parseDouble(f[2]);
      double analytic = Double.parseDouble(f[3]);
      assertTrue(simulated > 0 && analytic > 0 && Math.abs(analytic - simulated) <= 0.25 * simulated, row);
      times.put(f[0] + " " + f[1], new double[] {simulated, analytic});
    }
    assertEquals(java.util.Set.of("200 host-normal", "200 device", "800 host-normal", "800 device"), times.keySet());
    // A quarter of the clock: the lanes' compute takes longer, in the simulator and in the model alike.
    for (int i = 0; i < 2; i++) {
      assertTrue(times.get("200 device")[i] > 1.2 * times.get("800 device")[i], csv.toString());
    }
    // The host-normal job does not run on the device's cores.
    assertEquals(times.get("200 host-normal")[1], times.get("800 host-normal")[1], 1e-12);
    JsonNode first = new ObjectMapper().readTree(Files.readAllLines(out.resolve("simulated.jsonl")).get(0));
    assertEquals("kmeans", first.path("scenario").asText());
    assertEquals(20_000, first.path("records").asLong());
    assertTrue(Files.size(out.resolve("smartssd.device.isp.core-mhz.png")) > 0);
    assertTrue(run.out().contains("device "), run.out());
    assertTrue(!run.out().contains("host-optimized"), run.out());
  }

  @Test
  void badMiningSweepsAreRefusedBeforeAnythingRuns(@TempDir Path dir) {
    String out = dir.resolve("x").toString();
    String both = refused("--scenario", "regions", "--algorithm", "kmeans", "--records", "1000",
        "--vary", "smartssd.device.flash.channels=1,2", "--out", out);
    assertTrue(both.contains("--scenario") && both.contains("--algorithm") && both.contains("not both"), both);
    String neither = refused("--records", "1000", "--vary", "smartssd.device.flash.channels=1,2", "--out", out);
    assertTrue(neither.contains("one of the two"), neither);
    String recordBytes = refused("--algorithm", "pagerank", "--records", "1000", "--vary", "record-bytes=20,100",
        "--out", out);
    assertTrue(recordBytes.contains("record-bytes") && recordBytes.contains("--algorithm"), recordBytes);
    String recordBytesSet = refused("--algorithm", "apriori", "--records", "1000", "--set", "record-bytes=100",
        "--vary", "devices=1,2", "--out", out);
    assertTrue(recordBytesSet.contains("record-bytes"), recordBytesSet);
    String unknown = refused("--algorithm", "kmedoids", "--records", "1000", "--vary", "devices=1,2", "--out", out);
    assertTrue(unknown.contains("kmedoids"), unknown);
    String tooFew = refused("--algorithm", "kmeans", "--records", "3", "--vary", "devices=1,2", "--out", out);
    assertTrue(tooFew.contains("kmeans takes 8 to"), tooFew);
    assertTrue(Files.notExists(dir.resolve("x")));
  }

  /** A sweep refused as a usage error (exit 2, nothing on standard output): what it said on standard error. */
  private static String refused(String... arguments) {
    String[] command = new String[arguments.length + 1];
    command[0] = "sweep";
    System.arraycopy(arguments, 0, command, 1, arguments.length);
    FsCommandTest.Run run = FsCommandTest.smartssd(command);
    assertEquals(2, run.code(), run.out());
    return run.err();
  }

  @Test
  void aDeviceRunThatFellBackToTheHostIsNotTakenForTheDevices() {
    // An output budget no execution keeps: every split of device mode falls back to the host.
    FsCommandTest.Run run = FsCommandTest.smartssd("model", "--scenario", "regions", "--records", "1000", "--set",
        "smartssd.device.isp.output-budget-bytes=16");
    assertEquals(1, run.code(), run.out());
    assertTrue(run.err().contains("ran on the host, not in the device"), run.err());
    assertTrue(run.err().contains("output budget"), run.err());
    assertTrue(run.out().isEmpty(), run.out());
  }

  @Test
  void badSweepsAreRefusedBeforeAnythingRuns(@TempDir Path dir) {
    String out = dir.resolve("x").toString();
    FsCommandTest.Run noValues = FsCommandTest.smartssd("sweep", "--scenario", "regions", "--records", "10",
        "--vary", "smartssd.device.flash.channels", "--out", out);
    assertEquals(2, noValues.code(), noValues.out());
    assertTrue(noValues.err().contains("KEY=V1,V2"), noValues.err());
    FsCommandTest.Run unknown = FsCommandTest.smartssd("sweep", "--scenario", "regions", "--records", "10",
        "--vary", "smartssd.device.flash.chanels=1,2", "--out", out);
    assertEquals(2, unknown.code(), unknown.out());
    assertTrue(unknown.err().contains("smartssd.device.flash.chanels"), unknown.err());
    FsCommandTest.Run badValue = FsCommandTest.smartssd("sweep", "--scenario", "regions", "--records", "10",
        "--vary", "smartssd.device.flash.channels=2,zero", "--out", out);
    assertEquals(2, badValue.code(), badValue.out());
    assertTrue(badValue.err().contains("zero"), badValue.err());
    FsCommandTest.Run notAKey = FsCommandTest.smartssd("model", "--scenario", "regions", "--records", "10",
        "--set", "mapreduce.job.maps=3");
    assertEquals(2, notAKey.code(), notAKey.out());
    assertTrue(notAKey.err().contains("mapreduce.job.maps"), notAKey.err());
    FsCommandTest.Run noRecords = FsCommandTest.smartssd("sweep", "--scenario", "regions", "--records", "0",
        "--vary", "smartssd.device.flash.channels=1,2", "--out", out);
    assertEquals(2, noRecords.code(), noRecords.out());
    assertTrue(noRecords.err().contains("--records must be 1 or more, not 0"), noRecords.err());
    FsCommandTest.Run noScenario = FsCommandTest.smartssd("model", "--scenario", "hourly", "--records", "10");
    assertEquals(2, noScenario.code(), noScenario.out());
    assertTrue(noScenario.err().contains("hourly"), noScenario.err());
    assertTrue(Files.notExists(dir.resolve("x")));
  }
}
