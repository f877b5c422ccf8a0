package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code smartssd activeflash}: small runs end to end with their own paced device process, and argument errors. */
class ActiveFlashCommandTest {
  @TempDir Path dir;

  private static double number(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\": ([-0-9.eE]+)").matcher(json);
    assertTrue(m.find(), key + " in " + json);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void onTheFlyOnAFreeDeviceAnalysesEverythingExactlyWithoutGarbageCollection() throws IOException {
    Path report = dir.resolve("fly");
    Path profile = dir.resolve("profile");
    FsCommandTest.Run run = FsCommandTest.smartssd("activeflash", "--analysis", "local-extrema", "--schedule",
        "on-the-fly", "--checkpoints", "3", "--checkpoint-mb", "0.5", "--rate", "2", "--capacity-mb", "64",
        "--report", report.toString(), "--work-profile", profile.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    assertTrue(run.out().contains("exact: every file's results from the device equal the host's"), run.out());
    String json = Files.readString(report.resolve("results.json"));
    assertTrue(json.contains("\"exact\": true") && json.contains("\"schedule\": \"on-the-fly\""), json);
    double fraction = number(json, "fraction_done_during_production");
    assertTrue(fraction > 0 && fraction <= 1, json);
    assertEquals(number(json, "written_bytes"), number(json, "analysed_bytes"), json);
    assertEquals(0, number(json, "pages_read_back"), "a buffer of 16 MiB holds every checkpoint: " + json);
    assertEquals(0, number(json, "gc_pages_moved"), json);
    assertEquals(1, number(json, "write_amplification"), json);
    double reduction = number(json, "data_reduction");
    assertEquals(number(json, "result_records") * 17 / number(json, "written_bytes"), reduction, 1e-12, json);
    assertTrue(reduction > 0 && reduction < 0.2, "extrema are a small part of a series: " + json);
    // The device's cores are slower than the host's for the same counted work, and spend less energy on it.
    assertTrue(number(json, "slowdown_s") > 1, json);
    assertTrue(number(json, "energy_saving_delta_e") < 1, json);
    List<String> csv = Files.readAllLines(report.resolve("results.csv"));
    assertEquals(2, csv.size(), String.join("\n", csv));
    assertTrue(csv.get(1).startsWith("local-extrema,on-the-fly,free,defer,true,"), csv.get(1));
    // The attached analysis's profile adds up to its counted work, and its work is the built-in tasklet's.
    String table = Files.readString(profile.resolve("activeflash-device.txt"));
    assertTrue(table.contains("the profile adds up to the counted work exactly"), table);
    assertTrue(table.contains("org.smartssd.device.tasklet.builtin.ExtremaScan"), table);
    assertTrue(Files.readString(profile.resolve("activeflash-device.folded"))
        .contains("org.smartssd.device.tasklet.builtin.FileScanTasklet.onDataAvailable"), "folded stacks");
  }

  @Test
  void idleTimeWithGarbageCollectionOnAFullDeviceReadsEveryPageBack() throws IOException {
    Path report = dir.resolve("idle");
    FsCommandTest.Run run = FsCommandTest.smartssd("activeflash", "--analysis", "heartbeat", "--schedule", "idle-gc",
        "--gc", "full", "--checkpoints", "2", "--checkpoint-mb", "2", "--rate", "8", "--capacity-mb", "256",
        "--report", report.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    String json = Files.readString(report.resolve("results.json"));
    assertTrue(json.contains("\"exact\": true") && json.contains("\"gc\": \"full\""), json);
    assertTrue(number(json, "result_records") > 1000, "two checkpoints of 45 minutes of heartbeats: " + json);
    // Idle time only: every page written is read back from flash.
    double pages = Math.ceil(2e6 / number(json, "page_bytes"));
    assertEquals(2 * pages, number(json, "pages_read_back"), json);
    assertTrue(number(json, "gc_pages_moved") > 0 && number(json, "write_amplification") > 1, json);
  }

  @Test
  void compressionInIdleTimeGivesEveryCheckpointBackAndReducesIt() throws IOException {
    Path report = dir.resolve("lz");
    FsCommandTest.Run run = FsCommandTest.smartssd("activeflash", "--analysis", "compression", "--schedule", "idle",
        "--checkpoints", "2", "--checkpoint-mb", "1", "--rate", "4", "--capacity-mb", "64", "--report",
        report.toString());
    assertEquals(0, run.code(), run.err() + run.out());
    String json = Files.readString(report.resolve("results.json"));
    // exact: the device's blocks equal the host's and decompress to the checkpoints' bytes.
    assertTrue(json.contains("\"exact\": true") && json.contains("\"analysis\": \"compression\""), json);
    assertEquals(2 * Math.ceil(1e6 / 65536), number(json, "result_records"), "blocks of 64 KiB: " + json);
    double reduction = number(json, "data_reduction");
    assertTrue(reduction > 0.2 && reduction < 0.9, "text compresses, not to nothing: " + json);
  }

  @Test
  void badArgumentsAreRefusedNamingTheOption() {
    expectRefusal(List.of("activeflash", "--analysis", "lzo"), "local-extrema, heartbeat or compression");
    expectRefusal(List.of("activeflash", "--schedule", "sometimes"), "on-the-fly, idle or idle-gc");
    expectRefusal(List.of("activeflash", "--gc", "half"), "free or full");
    expectRefusal(List.of("activeflash", "--rate", "0"), "--rate");
    expectRefusal(List.of("activeflash", "--checkpoints", "0"), "--checkpoints");
    expectRefusal(List.of("activeflash", "--overflow", "drop"), "--overflow");
    expectRefusal(List.of("activeflash", "--schedule", "idle", "--overflow", "wait"), "--schedule on-the-fly");
    expectRefusal(List.of("activeflash", "--checkpoints", "10", "--checkpoint-mb", "10", "--capacity-mb", "64"),
        "does not fit");
  }

  private static void expectRefusal(List<String> args, String named) {
    FsCommandTest.Run run = FsCommandTest.smartssd(args.toArray(new String[0]));
    assertEquals(2, run.code(), args + ": " + run.out() + run.err());
    assertTrue(run.err().contains(named), args + ": " + run.err());
  }
}
