package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;

/**
 * {@code smartssd job} runs the shipped word count (Hadoop's own mapper and reducer) with its map phase in a
 * device, exactly as Hadoop counts the words, and {@code smartssd profile} reads the profile its split wrote.
 */
class JobCommandTest {
  @TempDir Path dir;

  @Test
  void theShippedWordCountRunsInTheDeviceAndItsProfileReads() throws IOException {
    Map<String, String> o = TestDevices.small(dir.resolve("device"));
    o.put("smartssd.device.isp.shared-packages",
        org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_SHARED_PACKAGES_DEFAULT);
    try (SimulatedDevice device = TestDevices.start(o)) {
      StringBuilder text = new StringBuilder();
      Map<String, Integer> expected = new TreeMap<>();
      String[] words = {"GET", "/index.html", "HTTP/1.1", "200", "\"-\"", "Mozilla/5.0", "a", "été"};
      java.util.Random random = new java.util.Random(3);
      for (int line = 0; line < 4000; line++) {
        int n = 1 + random.nextInt(12);
        for (int i = 0; i < n; i++) {
          String w = words[random.nextInt(words.length)] + (random.nextInt(50) == 0 ? Integer.toString(line) : "");
          text.append(w).append(random.nextBoolean() ? " " : "\t");
          expected.merge(w, 1, Integer::sum);
        }
        text.append('\n');
      }
      Path local = Files.writeString(dir.resolve("log.txt"), text.toString(), StandardCharsets.UTF_8);
      String root = "objfs://" + device.address();
      assertEquals(0, FsCommandTest.smartssd("fs", "-put", local.toString(), root + "/log.txt").code());
      Path out = dir.resolve("out");
      Path profiles = dir.resolve("profiles");
      FsCommandTest.Run run = FsCommandTest.smartssd("job", "-D", "smartssd.mapper.profile-dir=" + profiles.toUri(),
          "org.smartssd.examples.jobs.WordCount", root + "/log.txt", out.toUri().toString());
      assertEquals(0, run.code(), run.err() + run.out());
      String counters = run.out();
      assertTrue(counters.contains("DEVICE_EXECUTIONS=1") && counters.contains("DEVICE_PROFILES=1"), counters);
      Map<String, Integer> counted = new TreeMap<>();
      for (String line : Files.readAllLines(out.resolve("part-r-00000"), StandardCharsets.UTF_8)) {
        String[] f = line.split("\t");
        counted.put(f[0], Integer.parseInt(f[1]));
      }
      assertEquals(expected, counted);

      FsCommandTest.Run table = FsCommandTest.smartssd("profile", profiles.toString(), "--records", "4000");
      assertEquals(0, table.code(), table.err());
      Matcher ops = Pattern.compile("DEVICE_COUNTED_OPS=(\\d+)").matcher(counters);
      assertTrue(ops.find(), counters);
      assertTrue(table.out().contains(String.format(java.util.Locale.ROOT, "device: %,d ops",
          Long.parseLong(ops.group(1)))), "the profile is the execution's counted work: " + table.out());
      assertTrue(table.out().contains("hadoop") && table.out().contains("device mapper runtime")
          && table.out().contains("org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper.map"), table.out());

      FsCommandTest.Run none = FsCommandTest.smartssd("profile", dir.resolve("nothing").toString());
      assertEquals(1, none.code());
      assertTrue(none.err().contains("no directory"), none.err());
      FsCommandTest.Run bad = FsCommandTest.smartssd("job", "org.smartssd.examples.jobs.NoSuchFactory");
      assertEquals(2, bad.code());
      assertTrue(bad.err().contains("no class org.smartssd.examples.jobs.NoSuchFactory"), bad.err());
    }
  }
}
