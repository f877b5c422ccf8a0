package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.examples.loganalysis.AnalysisResult;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.loganalysis.Traces;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * Several devices through the real entry point: {@code wc98 load --spread-over}, {@code loganalysis}
 * with an input on each device, {@code compare --device} repeated (two running devices) and {@code
 * compare --devices 2} (two child JVMs of its own); every result equal to a direct count of the trace;
 * bad combinations refused with a message naming what was wrong.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeveralDevicesCommandTest {
  @TempDir static Path dir;
  SimulatedDevice a;
  SimulatedDevice b;

  @BeforeAll
  void start() throws IOException {
    a = TestDevices.start(device("a"));
    b = TestDevices.start(device("b"));
  }

  private static Map<String, String> device(String name) {
    Map<String, String> o = TestDevices.small(dir.resolve(name));
    o.put("smartssd.device.isp.shared-packages", org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_SHARED_PACKAGES_DEFAULT);
    return o;
  }

  @AfterAll
  void stop() throws IOException {
    a.close();
    b.close();
  }

  @Test
  void loadSpreadOverTwoDevicesThenAnalyseBothInEveryMode() throws IOException {
    List<org.smartssd.examples.wc98.Wc98Record> records = Traces.generated(4_001);
    Path trace = Files.write(dir.resolve("spread.bin"), Traces.bytes(records));
    String first = "objfs://" + a.address() + "/spread/trace";
    String second = "objfs://" + b.address() + "/spread/trace";
    FsCommandTest.Run load = FsCommandTest.smartssd("wc98", "load", trace.toString(), "--spread-over", first,
        "--spread-over", second);
    assertEquals(0, load.code(), load.err());
    assertTrue(load.out().contains("2,001 records") && load.out().contains("2,000 records")
        && load.out().contains("spread 1 file(s), 4,001 records over 2 target(s)"), load.out());
    try (FileSystem fa = Traces.objfs(a.address(), new Configuration());
        FileSystem fb = Traces.objfs(b.address(), new Configuration())) {
      assertEquals(2_001L * Wc98Record.BYTES, fa.getFileStatus(new org.apache.hadoop.fs.Path("/spread/trace")).getLen());
      assertEquals(2_000L * Wc98Record.BYTES, fb.getFileStatus(new org.apache.hadoop.fs.Path("/spread/trace")).getLen());
    }
    for (Scenario s : Scenario.values()) {
      String expected = AnalysisResult.compute(s, records).text();
      for (String mode : List.of("host-normal", "host-optimized", "device")) {
        FsCommandTest.Run run = FsCommandTest.smartssd("loganalysis", "--scenario", s.optionName(), "--mode", mode,
            "--input", first, "--input", second);
        assertEquals(0, run.code(), run.err());
        assertEquals(expected, run.out(), s + " " + mode);
        if (mode.equals("device")) {
          assertTrue(run.err().contains("the slowest of 2 devices") && run.err().contains(a.address())
              && run.err().contains(b.address()), run.err());
        }
      }
    }
  }

  @Test
  void loadSpreadRefusesATargetTwiceAndNeedsATarget() throws IOException {
    Path x = Files.write(dir.resolve("x.bin"), Traces.bytes(Traces.generated(10)));
    String target = "objfs://" + a.address() + "/twice/t";
    FsCommandTest.Run twice = FsCommandTest.smartssd("wc98", "load", x.toString(), "--spread-over", target,
        "--spread-over", target);
    assertEquals(2, twice.code(), twice.err());
    assertTrue(twice.err().contains("--spread-over") && twice.err().contains("/twice/t"), twice.err());
    FsCommandTest.Run noTarget = FsCommandTest.smartssd("wc98", "load", x.toString());
    assertEquals(2, noTarget.code(), noTarget.err());
    assertTrue(noTarget.err().contains("target"), noTarget.err());
  }

  @Test
  void compareOverTwoRunningDevicesFindsTheDirectCount() throws IOException {
    Path report = dir.resolve("given");
    FsCommandTest.Run run = FsCommandTest.smartssd("compare", "--records", "20000", "--device", a.address(),
        "--device", b.address(), "--modes", "host-optimized,device", "--report", report.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    assertDirectCount(run, 20_000, List.of(Scenario.REGIONS, Scenario.TOP_TYPES));
    assertTrue(run.out().contains("spread over 2 devices"), run.out());
    List<String> csv = Files.readAllLines(report.resolve("results.csv"));
    assertEquals(1 + 2 * 2, csv.size(), String.join("\n", csv)); // 2 scenarios x 2 modes, one pass
    assertTrue(csv.get(0).endsWith(",devices"), csv.get(0));
    assertTrue(csv.stream().skip(1).allMatch(l -> l.endsWith(",2")), String.join("\n", csv));
    String json = Files.readString(report.resolve("results.json"));
    assertTrue(json.contains(a.address()) && json.contains(b.address()) && json.contains("\"per_device\""), json);
  }

  @Test
  void compareStartsTwoDevicesOfItsOwn() throws IOException {
    Path report = dir.resolve("own");
    FsCommandTest.Run run = FsCommandTest.smartssd("compare", "--records", "20000", "--devices", "2", "--modes",
        "device", "--scenarios", "regions", "--report", report.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    assertDirectCount(run, 20_000, List.of(Scenario.REGIONS));
    assertTrue(run.err().contains("2 device(s) started"), run.err());
    List<String> csv = Files.readAllLines(report.resolve("results.csv"));
    assertEquals(1 + 2, csv.size(), String.join("\n", csv)); // regions, device mode, unpaced and paced
    assertTrue(csv.stream().skip(1).allMatch(l -> l.startsWith("regions,device,") && l.endsWith(",2")),
        String.join("\n", csv));
  }

  @Test
  void badDeviceOptionsAreClearErrors() {
    FsCommandTest.Run zero = FsCommandTest.smartssd("compare", "--devices", "0");
    assertEquals(2, zero.code(), zero.out());
    assertTrue(zero.err().contains("--devices must be between 1 and") && zero.err().contains("not 0"), zero.err());

    FsCommandTest.Run both = FsCommandTest.smartssd("compare", "--devices", "2", "--device", a.address());
    assertEquals(2, both.code(), both.out());
    assertTrue(both.err().contains("--devices") && both.err().contains("--device")
        && both.err().contains("one or the other"), both.err());

    FsCommandTest.Run twice = FsCommandTest.smartssd("compare", "--device", a.address(), "--device", a.address());
    assertEquals(2, twice.code(), twice.out());
    assertTrue(twice.err().contains("given twice"), twice.err());

    FsCommandTest.Run malformed = FsCommandTest.smartssd("compare", "--device", "nohost");
    assertEquals(2, malformed.code(), malformed.out());
    assertTrue(malformed.err().contains("--device") && malformed.err().contains("nohost"), malformed.err());

    FsCommandTest.Run unix = FsCommandTest.smartssd("compare", "--device", "unix:/tmp/smartssd.sock");
    assertEquals(2, unix.code(), unix.out());
    assertTrue(unix.err().contains("TCP"), unix.err());

    FsCommandTest.Run scenario = FsCommandTest.smartssd("compare", "--scenarios", "sideways");
    assertEquals(2, scenario.code(), scenario.out());
    assertTrue(scenario.err().contains("--scenarios") && scenario.err().contains("sideways"), scenario.err());

    // A device that does not answer: named, before anything is generated or loaded.
    FsCommandTest.Run silent = FsCommandTest.smartssd("compare", "--records", "1000", "--device", a.address(),
        "--device", "127.0.0.1:1", "--report", dir.resolve("silent").toString());
    assertEquals(1, silent.code(), silent.out());
    assertTrue(silent.err().contains("device 127.0.0.1:1 (--device) does not answer"), silent.err());
    assertTrue(!silent.err().contains("generating"), silent.err());
    assertTrue(!Files.exists(dir.resolve("silent")), "no report");
  }

  /** The printed results are a direct count's, scenario by scenario, and compare says every run found them. */
  private static void assertDirectCount(FsCommandTest.Run run, long n, List<Scenario> scenarios) throws IOException {
    List<org.smartssd.examples.wc98.Wc98Record> records = Traces.generated(n);
    for (Scenario s : scenarios) {
      assertTrue(run.out().contains(s.optionName() + "\n" + AnalysisResult.compute(s, records).text()), run.out());
    }
    assertTrue(run.out().contains("every run found these results"), run.out());
  }
}
