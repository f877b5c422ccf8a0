package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

/**
 * {@code loganalysis --work-profile} through the real entry point: the profile adds up to the counted work on
 * both sides, asking for it changes no count, and its folded stacks parse as speedscope and flamegraph.pl read
 * them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkProfileCommandTest {
  @TempDir static Path dir;
  SimulatedDevice device;
  String root;

  @BeforeAll
  void start() throws IOException {
    Map<String, String> o = TestDevices.small(dir.resolve("device"));
    o.put("smartssd.device.isp.shared-packages", org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_SHARED_PACKAGES_DEFAULT);
    device = TestDevices.start(o);
    root = "objfs://" + device.address();
    List<Wc98Record> records = new ArrayList<>();
    Random random = new Random(5);
    for (int i = 0; i < 3000; i++) {
      records.add(Traces.record(Region.values()[random.nextInt(Region.values().length)],
          FileType.values()[random.nextInt(FileType.values().length)], i));
    }
    Path trace = Files.write(dir.resolve("trace"), Traces.bytes(records));
    assertEquals(0, FsCommandTest.smartssd("wc98", "load", trace.toString(), root + "/wc98/trace").code());
  }

  @AfterAll
  void stop() throws IOException {
    device.close();
  }

  @Test
  void aProfiledRunAddsUpToItsCountsChangesNoneAndFoldsAsSpeedscopeReadsIt() throws IOException {
    Path profiles = dir.resolve("profiles");
    Path plainJson = dir.resolve("plain.json");
    Path profiledJson = dir.resolve("profiled.json");
    // Merged on the device, the lanes' work is the same every run (merged on the host, each poll adds an onRead),
    // once the classes the lanes use have been initialized (their static initializers run, counted, once a device).
    FsCommandTest.Run warmUp = FsCommandTest.smartssd("loganalysis", "--scenario", "top-types", "--mode", "device",
        "--input", root + "/wc98/", "-D", "smartssd.mapper.merge=device");
    assertEquals(0, warmUp.code(), warmUp.err());
    FsCommandTest.Run plain = FsCommandTest.smartssd("loganalysis", "--scenario", "top-types", "--mode", "device",
        "--input", root + "/wc98/", "-D", "smartssd.mapper.merge=device", "--stats-json", plainJson.toString());
    assertEquals(0, plain.code(), plain.err());
    FsCommandTest.Run profiled = FsCommandTest.smartssd("loganalysis", "--scenario", "top-types", "--mode", "device",
        "--input", root + "/wc98/", "-D", "smartssd.mapper.merge=device", "--stats-json", profiledJson.toString(),
        "--work-profile", profiles.toString());
    assertEquals(0, profiled.code(), profiled.err());
    assertEquals(plain.out(), profiled.out());

    String plainStats = Files.readString(plainJson);
    String profiledStats = Files.readString(profiledJson);
    // Profiling changes no count (ProfileTest: exactly). Two runs of a job may differ by a few ops in 100,000
    // all the same: a lane's tasklet is called once more or less when the host asks for results (onRead, as
    // the host's polls fall), and the few records that straddle two channels' pages reach their lane's buffer
    // when that lane gets to them (the order a hash table's keys came in, and so their probes, may differ).
    for (String key : List.of("device_counted_ops", "device_counted_memory_accesses", "device_counted_library_calls")) {
      long a = number(plainStats, key);
      assertEquals(a, number(profiledStats, key), Math.max(50, a / 100_000), key + " with and without the profile");
    }
    // The local runner names each job with a random number of its own (job_localNNN_0001), whose digits the
    // lanes copy as they read their task attempt's id: bulk bytes may differ by a few bytes a lane, no more.
    long bulk = Math.abs(number(plainStats, "device_counted_bulk_bytes") - number(profiledStats,
        "device_counted_bulk_bytes"));
    assertTrue(bulk <= 16L * number(profiledStats, "device_lanes"), bulk + " bulk bytes apart");
    assertTrue(profiledStats.contains("\"work_profile\""), profiledStats);
    assertTrue(!profiledStats.contains("\"adds_up\": false") && profiledStats.contains("\"adds_up\": true"),
        profiledStats);

    String table = Files.readString(profiles.resolve("top-types-device.txt"));
    assertEquals(2, count(table, "the profile adds up to the counted work exactly"), table);
    for (String owner : List.of("job", "hadoop", "device mapper runtime")) {
      assertTrue(table.contains("\n  " + owner + " "), owner + " in " + table);
    }
    assertTrue(table.contains("org.smartssd.examples.loganalysis.RegionTypeMapper.map"), table);
    assertTrue(profiled.err().contains("work profile: top-types-device"), profiled.err());
    assertTrue(Files.size(profiles.resolve(WorkProfileOutput.CHART)) > 0);

    // speedscope's bg-flamegraph importer: each line ^(.*) (\d+)$, the stack split on ';'.
    Pattern line = Pattern.compile("^(.*) (\\d+)$");
    for (String side : List.of("device", "host")) {
      List<String> lines = Files.readAllLines(profiles.resolve("top-types-device-" + side + ".folded"),
          StandardCharsets.UTF_8);
      assertTrue(lines.size() > 20, side + ": " + lines.size() + " paths");
      long weight = 0;
      for (String l : lines) {
        Matcher m = line.matcher(l);
        assertTrue(m.matches(), l);
        for (String frame : m.group(1).split(";", -1)) {
          assertTrue(!frame.isEmpty() && !frame.contains(" "), l);
        }
        weight += Long.parseLong(m.group(2));
      }
      assertTrue(weight > 0, side);
    }
    String device = Files.readString(profiles.resolve("top-types-device-device.folded"));
    assertTrue(device.contains("org.smartssd.devicemapper.tasklet.MapReduceTasklet.onDataAvailable;"), device);
  }

  private static long number(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\": (\\d+)").matcher(json);
    assertTrue(m.find(), key + " in " + json);
    return Long.parseLong(m.group(1));
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
      n++;
    }
    return n;
  }
}
