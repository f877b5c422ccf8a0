package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.examples.loganalysis.Traces;
import org.smartssd.examples.wc98.FileType;
import org.smartssd.examples.wc98.Region;
import org.smartssd.examples.wc98.Wc98Record;

/** {@code smartssd wc98 load} and {@code smartssd loganalysis} through the real entry point: formats and exit codes. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LogAnalysisCommandTest {
  @TempDir static Path dir;
  SimulatedDevice device;
  String root;

  @BeforeAll
  void start() throws IOException {
    Map<String, String> o = TestDevices.small(dir.resolve("device"));
    o.put("smartssd.device.isp.shared-packages", org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_SHARED_PACKAGES_DEFAULT);
    device = TestDevices.start(o);
    root = "objfs://" + device.address();
  }

  @AfterAll
  void stop() throws IOException {
    device.close();
  }

  /** Three PARIS HTML, two SANTA_CLARA IMAGE, one HERNDON VIDEO, one HERNDON AUDIO; no PLANO. */
  static List<Wc98Record> small() {
    return List.of(Traces.record(Region.PARIS, FileType.HTML, 0), Traces.record(Region.SANTA_CLARA, FileType.IMAGE, 1),
        Traces.record(Region.HERNDON, FileType.VIDEO, 2), Traces.record(Region.PARIS, FileType.HTML, 3),
        Traces.record(Region.HERNDON, FileType.AUDIO, 4), Traces.record(Region.SANTA_CLARA, FileType.IMAGE, 5),
        Traces.record(Region.PARIS, FileType.HTML, 6));
  }

  private static Path gzipped(Path file, byte[] bytes) throws IOException {
    try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(bytes);
    }
    return file;
  }

  @Test
  void loadThenAnalyseInEveryModePrintsExactlyTheResult() throws IOException {
    Path plain = Files.write(dir.resolve("day1"), Traces.bytes(small()));
    Path gz = gzipped(dir.resolve("day2.gz"), Traces.bytes(small()));
    FsCommandTest.Run load = FsCommandTest.smartssd("wc98", "load", plain.toString(), gz.toString(), root + "/wc98/");
    assertEquals(0, load.code(), load.err());
    assertTrue(load.out().contains("loaded 2 file(s), 14 records"), load.out());
    try (FileSystem fs = Traces.objfs(device.address(), new Configuration())) {
      // The gzip file is stored decompressed, under its name without .gz.
      assertEquals(7 * Wc98Record.BYTES, fs.getFileStatus(new org.apache.hadoop.fs.Path("/wc98/day2")).getLen());
    }

    for (String mode : List.of("host-normal", "host-optimized", "device")) {
      FsCommandTest.Run regions = FsCommandTest.smartssd("loganalysis", "--scenario", "regions", "--mode", mode,
          "--input", root + "/wc98/");
      assertEquals(0, regions.code(), regions.err());
      assertEquals("HERNDON\t4\nPARIS\t6\nSANTA_CLARA\t4\n", regions.out(), mode);
      assertTrue(regions.err().contains("mode                  " + mode), regions.err());
      for (String label : List.of("wall time", "modelled time", "host-interface bytes", "host CPU time",
          "modelled energy")) {
        assertTrue(regions.err().contains(label), label + " in " + regions.err());
      }

      FsCommandTest.Run top = FsCommandTest.smartssd("loganalysis", "--scenario", "top-types", "--mode", mode,
          "--input", root + "/wc98/day1", "--input", root + "/wc98/day2");
      assertEquals(0, top.code(), top.err());
      assertEquals("HERNDON\t1\tAUDIO\t2\nHERNDON\t2\tVIDEO\t2\nPARIS\t1\tHTML\t6\nSANTA_CLARA\t1\tIMAGE\t4\n",
          top.out(), mode);
    }
  }

  /** Loaded with --gzip, the trace stays compressed, and every mode reads it so; the device decompresses it. */
  @Test
  void aTraceStoredGzipCompressedIsAnalysedInEveryMode() throws IOException {
    Path plain = Files.write(dir.resolve("gzday1"), Traces.bytes(small()));
    Path gz = gzipped(dir.resolve("wc_day2_1.gz"), Traces.bytes(small()));
    FsCommandTest.Run load = FsCommandTest.smartssd("wc98", "load", "--gzip", plain.toString(), gz.toString(),
        root + "/wc98gz/");
    assertEquals(0, load.code(), load.err());
    try (FileSystem fs = Traces.objfs(device.address(), new Configuration())) {
      assertTrue(fs.exists(new org.apache.hadoop.fs.Path("/wc98gz/gzday1.gz")));
      assertTrue(fs.exists(new org.apache.hadoop.fs.Path("/wc98gz/wc_day2_1.gz")));
    }
    for (String mode : List.of("host-normal", "host-optimized", "device")) {
      FsCommandTest.Run regions = FsCommandTest.smartssd("loganalysis", "--scenario", "regions", "--mode", mode,
          "--input", root + "/wc98gz/");
      assertEquals(0, regions.code(), regions.err());
      assertEquals("HERNDON\t4\nPARIS\t6\nSANTA_CLARA\t4\n", regions.out(), mode);
      assertFalse(regions.err().contains("NOT IN THE DEVICE"), regions.err());
    }
  }

  @Test
  void statisticsGoToAJsonFileAndTheOutputDirectoryIsKept() throws IOException {
    assertEquals(0, FsCommandTest.smartssd("wc98", "load", Files.write(dir.resolve("j"), Traces.bytes(small())).toString(),
        root + "/json/trace").code());
    Path json = dir.resolve("stats.json");
    Path output = dir.resolve("out");
    FsCommandTest.Run run = FsCommandTest.smartssd("loganalysis", "--scenario", "regions", "--mode", "host-optimized",
        "--input", root + "/json/trace", "--output", output.toUri().toString(), "--stats-json", json.toString());
    assertEquals(0, run.code(), run.err());
    String text = Files.readString(json);
    for (String key : List.of("\"mode\": \"host-optimized\"", "\"scenario\": \"regions\"", "\"records\": 7",
        "\"wall_s\"", "\"modelled_s\"", "\"host_interface_bytes\"", "\"host_cpu_s\"", "\"modelled_energy_j\"",
        "\"paced\": false")) {
      assertTrue(text.contains(key), key + " in " + text);
    }
    assertEquals(run.out(), Files.readString(output.resolve("_result.tsv")));
    assertTrue(Files.exists(output.resolve("part-r-00000")));
  }

  @Test
  void aBadFileLoadsNothingAndACorruptTraceFailsWithNothingOnStandardOutput() throws IOException {
    Path good = Files.write(dir.resolve("good"), Traces.bytes(small()));
    byte[] b = Traces.bytes(small());
    b[2 * Wc98Record.BYTES + 19] = (byte) 0xE0; // region 7
    Path bad = Files.write(dir.resolve("bad"), b);
    FsCommandTest.Run load = FsCommandTest.smartssd("wc98", "load", good.toString(), bad.toString(), root + "/bad/");
    assertEquals(1, load.code());
    assertTrue(load.err().contains("byte offset 40") && load.err().contains(bad.toString()), load.err());
    FsCommandTest.Run ls = FsCommandTest.smartssd("fs", "-ls", root + "/bad");
    assertTrue(ls.code() != 0 || ls.out().isBlank(), "nothing loaded: " + ls.out());

    // The same bytes put in raw (no check) fail the analysis: a clear error, no result printed.
    try (FileSystem fs = Traces.objfs(device.address(), new Configuration())) {
      Traces.write(fs, "/raw/bad", b);
      Traces.write(fs, "/raw/short", java.util.Arrays.copyOf(Traces.bytes(small()), 7 * Wc98Record.BYTES - 3));
    }
    FsCommandTest.Run analysis = FsCommandTest.smartssd("loganalysis", "--scenario", "regions", "--mode",
        "host-normal", "--input", root + "/raw/bad");
    assertEquals(1, analysis.code());
    assertEquals("", analysis.out());
    assertTrue(analysis.err().contains("smartssd: job 'wc98 regions host-normal'")
        && analysis.err().contains("byte offset 40") && analysis.err().contains("region 7"), analysis.err());
    // Issue 15, finding 7: one clear line, not the local job runner's 16-line trace before it.
    String before = analysis.err().substring(0, analysis.err().indexOf("smartssd: job"));
    assertFalse(before.contains("\tat ") || before.contains("Exception"), analysis.err());
    FsCommandTest.Run truncated = FsCommandTest.smartssd("loganalysis", "--scenario", "top-types", "--mode",
        "device", "--input", root + "/raw/short");
    assertEquals(1, truncated.code());
    assertEquals("", truncated.out());
    assertTrue(truncated.err().contains("byte offset 120: truncated record"), truncated.err());
  }

  @Test
  void loadRefusesToReplaceWithoutForce() throws IOException {
    Path f = Files.write(dir.resolve("once"), Traces.bytes(small()));
    assertEquals(0, FsCommandTest.smartssd("wc98", "load", f.toString(), root + "/once/trace").code());
    FsCommandTest.Run again = FsCommandTest.smartssd("wc98", "load", f.toString(), root + "/once/trace");
    assertEquals(1, again.code());
    assertTrue(again.err().contains("already exists"), again.err());
    assertEquals(0, FsCommandTest.smartssd("wc98", "load", "--force", f.toString(), root + "/once/trace").code());
  }

  @Test
  void badOptionsAreUsageErrors() {
    FsCommandTest.Run run = FsCommandTest.smartssd("loganalysis", "--scenario", "sideways", "--mode", "device",
        "--input", root + "/x");
    assertEquals(2, run.code());
    assertTrue(run.err().contains("unknown scenario 'sideways'"), run.err());
    assertFalse(run.err().isEmpty());
  }

}
