package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import org.smartssd.devicemapper.DeviceMapperConfigKeys;
import org.smartssd.examples.wc98.FileType;
import org.smartssd.examples.wc98.Region;
import org.smartssd.examples.wc98.Wc98FormatException;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * The three modes against a real (small, in-process) device: the same results as a direct count, on
 * a generated trace and on hand-made records; an empty input; bad inputs fail clearly and leave no
 * output. The device's pages are 4 KiB, so 20-byte records straddle pages (and so channels and lanes)
 * all through every file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LogAnalysisTest {
  @TempDir static Path dir;
  SimulatedDevice device;
  Configuration conf;
  FileSystem fs;
  List<Wc98Record> generated;
  org.apache.hadoop.fs.Path generatedInput;

  @BeforeAll
  void start() throws IOException {
    // The device's defaults: it runs MapReduce tasklets out of the box (device mode below never falls back).
    device = TestDevices.start(TestDevices.small(dir.resolve("device")));
    conf = LogAnalysis.configuration(Map.of());
    fs = Traces.objfs(device.address(), conf);
    generated = Traces.generated(50_000);
    generatedInput = Traces.write(fs, "/wc98/generated", Traces.bytes(generated));
  }

  @AfterAll
  void stop() throws IOException {
    fs.close();
    device.close();
  }

  /**
   * The default model counts the work on both sides: the modelled times of the same runs agree with
   * this machine quiet and with two threads spinning on its cores (the done-when of the model's first
   * issue), the host's compute is in host modes' modelled time, and device mode's is on the cores.
   */
  @Test
  void modelledTimesDoNotDependOnThisMachinesLoad() throws Exception {
    assertTrue(HostCounting.start(), "the tests run with the counting agent, as bin/smartssd does");
    for (Mode m : Mode.values()) {
      LogAnalysis.run(conf, Scenario.REGIONS, m, List.of(generatedInput), null); // warm: classes load and count once
      java.util.Set<Thread> jobThreads = HostCounting.localJobThreads();
      RunStatistics quiet = LogAnalysis.run(conf, Scenario.REGIONS, m, List.of(generatedInput), null).statistics();
      assertTrue(jobThreads.containsAll(HostCounting.localJobThreads()),
          "the run returns once its local job thread has ended (its cleanup is the job's counted work)");
      RunStatistics loaded;
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      List<Thread> hogs = new java.util.ArrayList<>();
      for (int i = 0; i < 2; i++) {
        Thread hog = new Thread(() -> {
          org.smartssd.opcount.OpMeter.current().leaveTotal(); // this JVM's load, not the job's work
          double x = 1;
          while (!stop.get()) {
            x = Math.sqrt(x + 1);
          }
        }, "cpu-hog-" + i);
        hog.start();
        hogs.add(hog);
      }
      try {
        loaded = LogAnalysis.run(conf, Scenario.REGIONS, m, List.of(generatedInput), null).statistics();
      } finally {
        stop.set(true);
        for (Thread h : hogs) {
          h.join();
        }
      }
      assertTrue(quiet.hostCounted() != null && quiet.hostComputeNanos() > 0, quiet.toString());
      assertEquals(quiet.modelledNanos(), loaded.modelledNanos(), 0.02 * quiet.modelledNanos(),
          m + ": modelled ns quiet and loaded");
      assertEquals(quiet.deviceBusyNanos() + quiet.hostComputeNanos(), quiet.modelledNanos());
      if (m.inDevice()) {
        assertEquals(quiet.device().countedOps(), loaded.device().countedOps(), 0.001 * quiet.device().countedOps(),
            "the device's counted work");
        assertTrue(quiet.device().computeNanos() > 0, quiet.toString());
      } else {
        assertTrue(quiet.hostComputeNanos() > quiet.linkBusyNanos() / 10, "host compute counts: " + quiet);
        // The host's count follows the job, not this JVM's history (Hadoop's per-thread file system
        // statistics, summed over every thread that ever read, are not counted: HostCounting; they moved
        // it by up to 7%) nor when it is read (the local runner's job thread cleans up after reporting
        // the job done, and is waited for: it moved the count by up to 2%). Seen within 0.01%.
        assertEquals(quiet.hostCounted().ops(), loaded.hostCounted().ops(), 0.002 * quiet.hostCounted().ops(),
            m + ": the host's counted ops quiet and loaded");
      }
    }
  }

  @Test
  void everyModeFindsWhatADirectCountFindsOnAGeneratedTrace() throws Exception {
    assertTrue(50_000 * Wc98Record.BYTES % 4096 != 0, "the file ends inside a page");
    for (Scenario s : Scenario.values()) {
      AnalysisResult expected = AnalysisResult.compute(s, generated);
      for (Mode m : Mode.values()) {
        AnalysisRun run = LogAnalysis.run(conf, s, m, List.of(generatedInput), null);
        assertEquals(expected, run.result(), s + " " + m);
        RunStatistics st = run.statistics();
        assertEquals(50_000, st.records());
        assertEquals(m, st.mode());
        assertEquals(Boolean.FALSE, st.paced());
        assertTrue(st.wallNanos() > 0 && st.energyJoules() > 0, st.toString());
        if (m.inDevice()) {
          assertTrue(st.deviceExecutions() >= 1, st.toString());
          assertEquals(0, st.fallbackSplits(), st.toString());
          assertTrue(st.deviceExecutionNanos() > 0, st.toString());
          // Partial results only: far fewer bytes than the input cross the host interface.
          assertTrue(st.hostBytesOut() < st.inputBytes() / 10, st.toString());
        } else {
          // The raw records cross the host interface.
          assertTrue(st.hostBytesOut() >= st.inputBytes(), st.toString());
        }
      }
    }
  }

  /** The host fallback gives the same answer, and says loudly that the run was not the device's. */
  @Test
  void theHostFallbackFindsTheSameResultAndSaysSo() throws Exception {
    Configuration always = new Configuration(conf);
    always.set(DeviceMapperConfigKeys.FALLBACK, "always");
    List<AnalysisRun> runs = new java.util.ArrayList<>();
    for (Scenario s : Scenario.values()) {
      AnalysisRun run = LogAnalysis.run(always, s, Mode.DEVICE, List.of(generatedInput), null);
      assertEquals(AnalysisResult.compute(s, generated), run.result(), s.toString());
      assertTrue(run.statistics().fallbackSplits() >= 1, run.statistics().toString());
      assertTrue(run.statistics().fellBack());
      java.io.StringWriter printed = new java.io.StringWriter();
      run.statistics().print(new java.io.PrintWriter(printed));
      assertTrue(printed.toString().contains("NOT IN THE DEVICE     " + run.statistics().fallbackSplits()
          + " split(s) of this device-mode run ran on the host"), printed.toString());
      runs.add(run);
    }
    AnalysisRun inDevice = LogAnalysis.run(conf, Scenario.REGIONS, Mode.DEVICE, List.of(generatedInput), null);
    assertFalse(inDevice.statistics().fellBack());
    runs.add(inDevice);
    Comparison.Options options = new Comparison.Options(50_000, "msst13-sata", List.of(), 1, dir, 1, List.of(Scenario.values()),
        List.of(Mode.DEVICE), Map.of(), Map.of(), List.of(), false);
    String table = new ComparisonReport(new Comparison.Outcome(options, "msst13-sata", 50_000, runs, Map.of(), List.of(), 1.0))
        .table();
    assertTrue(table.contains("regions    device!"), table);
    assertTrue(table.contains("top-types  device!"), table);
    assertTrue(table.contains("regions    device   "), table);
    assertTrue(table.contains("! NOT IN THE DEVICE"), table);
  }

  @Test
  void handMadeRecordsCoveringEveryRegionTypeAndTieInTwoFiles() throws Exception {
    List<Wc98Record> records = Traces.handMade();
    // Two files in a directory, plus a hidden one that is not input.
    int half = records.size() / 2;
    Traces.write(fs, "/hand/part-a", Traces.bytes(records.subList(0, half)));
    Traces.write(fs, "/hand/part-b", Traces.bytes(records.subList(half, records.size())));
    Traces.write(fs, "/hand/_ignored", new byte[] {1, 2, 3});
    org.apache.hadoop.fs.Path input = fs.makeQualified(new org.apache.hadoop.fs.Path("/hand"));
    for (Scenario s : Scenario.values()) {
      AnalysisResult expected = AnalysisResult.compute(s, records);
      for (Mode m : Mode.values()) {
        assertEquals(expected, LogAnalysis.run(conf, s, m, List.of(input), null).result(), s + " " + m);
      }
    }
    // Every region, and in top-types five ranks each.
    assertEquals(4, AnalysisResult.compute(Scenario.REGIONS, records).lines().size());
    assertEquals(20, AnalysisResult.compute(Scenario.TOP_TYPES, records).lines().size());
  }

  @Test
  void anEmptyInputGivesAnEmptyResultInEveryMode() throws Exception {
    org.apache.hadoop.fs.Path input = Traces.write(fs, "/empty/trace", new byte[0]);
    for (Scenario s : Scenario.values()) {
      for (Mode m : Mode.values()) {
        AnalysisRun run = LogAnalysis.run(conf, s, m, List.of(input), null);
        assertEquals(List.of(), run.result().lines(), s + " " + m);
        assertEquals(0, run.statistics().records());
      }
    }
  }

  @Test
  void aTruncatedFileIsAClearErrorAndLeavesNoOutput() throws Exception {
    byte[] b = Traces.bytes(Traces.handMade());
    byte[] truncated = java.util.Arrays.copyOf(b, b.length - 7);
    org.apache.hadoop.fs.Path input = Traces.write(fs, "/truncated/trace", truncated);
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(dir.resolve("truncated-out").toUri());
    for (Mode m : Mode.values()) {
      Wc98FormatException e = assertThrows(Wc98FormatException.class,
          () -> LogAnalysis.run(conf, Scenario.REGIONS, m, List.of(input), output));
      assertEquals(b.length - Wc98Record.BYTES, e.offset());
      assertTrue(e.getMessage().contains("truncated record") && e.getMessage().contains("/truncated/trace"),
          e.getMessage());
      assertFalse(output.getFileSystem(conf).exists(output));
    }
  }

  @Test
  void aCorruptRecordIsAClearErrorAndLeavesNoOutput() throws Exception {
    byte[] b = Traces.bytes(Traces.handMade());
    int bad = 7;
    b[bad * Wc98Record.BYTES + 19] = (byte) 0xA3; // region 5
    org.apache.hadoop.fs.Path input = Traces.write(fs, "/corrupt/trace", b);
    byte[] badType = Traces.bytes(Traces.handMade());
    badType[3 * Wc98Record.BYTES + 18] = 13; // no such type
    org.apache.hadoop.fs.Path typeInput = Traces.write(fs, "/corrupt/type", badType);
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(dir.resolve("corrupt-out").toUri());
    for (Mode m : List.of(Mode.HOST_NORMAL, Mode.HOST_OPTIMIZED, Mode.DEVICE)) {
      IOException e = assertThrows(IOException.class,
          () -> LogAnalysis.run(conf, Scenario.REGIONS, m, List.of(input), output));
      assertTrue(e.getMessage().contains("failed") && e.getMessage().contains("byte offset " + bad * Wc98Record.BYTES)
          && e.getMessage().contains("region 5"), m + ": " + e.getMessage());
      assertFalse(output.getFileSystem(conf).exists(output));
    }
    // The built-in tasklet counts by key and cannot say where: the host names the device and the bad key.
    IOException builtIn = assertThrows(IOException.class,
        () -> LogAnalysis.run(conf, Scenario.REGIONS, Mode.DEVICE_BUILTIN, List.of(input), output));
    assertTrue(builtIn.getMessage().contains(device.address()) && builtIn.getMessage().contains("1 record(s)")
        && builtIn.getMessage().contains("region 5"), builtIn.getMessage());
    assertFalse(output.getFileSystem(conf).exists(output));
    IOException badTypes = assertThrows(IOException.class,
        () -> LogAnalysis.run(conf, Scenario.TOP_TYPES, Mode.DEVICE_BUILTIN, List.of(typeInput), output));
    assertTrue(badTypes.getMessage().contains("file type 13"), badTypes.getMessage());
    IOException e = assertThrows(IOException.class,
        () -> LogAnalysis.run(conf, Scenario.TOP_TYPES, Mode.HOST_NORMAL, List.of(typeInput), output));
    assertTrue(e.getMessage().contains("byte offset 60") && e.getMessage().contains("unknown file type 13"),
        e.getMessage());
    // Accesses per region read only the server byte, as in the source: a bad type does not stop them.
    assertEquals(AnalysisResult.compute(Scenario.REGIONS, Traces.handMade()),
        LogAnalysis.run(conf, Scenario.REGIONS, Mode.HOST_OPTIMIZED, List.of(typeInput), null).result());
  }

  @Test
  void widerRecordsGiveTheSameResultAndTheWrongWidthIsAClearError() throws Exception {
    java.nio.file.Path trace = dir.resolve("wide.bin");
    java.nio.file.Files.write(trace, Traces.bytes(generated.subList(0, 5_000)));
    TraceLoader.load(conf, List.of(trace), "objfs://" + device.address() + "/wide/trace-100", false, 100);
    TraceLoader.load(conf, List.of(trace), "objfs://" + device.address() + "/wide/trace-20", false);
    org.apache.hadoop.fs.Path wide = new org.apache.hadoop.fs.Path("objfs://" + device.address() + "/wide/trace-100");
    org.apache.hadoop.fs.Path narrow = new org.apache.hadoop.fs.Path("objfs://" + device.address() + "/wide/trace-20");
    assertEquals(5_000L * 100, fs.getFileStatus(wide).getLen());
    Configuration wideConf = LogAnalysis.configuration(Map.of(LogAnalysis.RECORD_BYTES, "100"));
    AnalysisResult expected = AnalysisResult.compute(Scenario.TOP_TYPES, generated.subList(0, 5_000));
    for (Mode m : Mode.values()) {
      AnalysisRun run = LogAnalysis.run(wideConf, Scenario.TOP_TYPES, m, List.of(wide), null);
      assertEquals(expected, run.result(), m.optionName());
      assertEquals(5_000, run.statistics().records());
      assertEquals(100, run.statistics().recordBytes());
    }
    // Padded records read as 20-byte ones: the padding is no record.
    IOException asNarrow = assertThrows(IOException.class,
        () -> LogAnalysis.run(conf, Scenario.REGIONS, Mode.HOST_NORMAL, List.of(wide), null));
    assertTrue(asNarrow.getMessage().contains("padding read as a record"), asNarrow.getMessage());
    // 20-byte records read as 100-byte ones (5,000 x 20 bytes is a whole number of them).
    IOException asWide = assertThrows(IOException.class,
        () -> LogAnalysis.run(wideConf, Scenario.REGIONS, Mode.DEVICE, List.of(narrow), null));
    assertTrue(asWide.getMessage().contains("not padding") && asWide.getMessage().contains("stored narrower"),
        asWide.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> LogAnalysis.run(
        LogAnalysis.configuration(Map.of(LogAnalysis.RECORD_BYTES, "19")), Scenario.REGIONS, Mode.DEVICE,
        List.of(wide), null));
    assertTrue(bad.getMessage().contains(LogAnalysis.RECORD_BYTES) && bad.getMessage().contains("19"),
        bad.getMessage());
  }

  @Test
  void autoPlacesTwentyByteRecordsOnTheHostAndWideOnesInTheDevice() throws Exception {
    Configuration auto = LogAnalysis.configuration(Map.of(DeviceMode.PLACEMENT, "auto"));
    AnalysisRun narrow = LogAnalysis.run(auto, Scenario.REGIONS, Mode.DEVICE, List.of(generatedInput), null);
    assertEquals(AnalysisResult.compute(Scenario.REGIONS, generated), narrow.result());
    RunStatistics.Placement p = narrow.statistics().placement();
    assertEquals("host", p.chosen(), narrow.statistics().toString());
    assertTrue(p.predictedHostSeconds() < p.predictedDeviceSeconds(), p.toString());
    assertEquals(0, narrow.statistics().fallbackSplits());
    assertChoseTheFaster(Map.of(), Scenario.REGIONS, generatedInput, p);

    java.nio.file.Path trace = dir.resolve("auto-wide.bin");
    java.nio.file.Files.write(trace, Traces.bytes(generated.subList(0, 3_000)));
    TraceLoader.load(conf, List.of(trace), "objfs://" + device.address() + "/auto/wide", false, 4096);
    Configuration wideAuto = LogAnalysis.configuration(Map.of(DeviceMode.PLACEMENT, "auto",
        LogAnalysis.RECORD_BYTES, "4096"));
    AnalysisRun wide = LogAnalysis.run(wideAuto, Scenario.TOP_TYPES, Mode.DEVICE,
        List.of(new org.apache.hadoop.fs.Path("objfs://" + device.address() + "/auto/wide")), null);
    assertEquals(AnalysisResult.compute(Scenario.TOP_TYPES, generated.subList(0, 3_000)), wide.result());
    RunStatistics.Placement q = wide.statistics().placement();
    assertEquals("device", q.chosen(), wide.statistics().toString());
    assertTrue(q.predictedDeviceSeconds() < q.predictedHostSeconds(), q.toString());
    assertTrue(wide.statistics().deviceExecutions() >= 1);
    Map<String, Object> json = wide.statistics().toMap();
    assertEquals("device", json.get("placement"));
    assertEquals(q.predictedDeviceSeconds(), (Double) json.get("predicted_device_s"), 0);
    assertEquals(q.predictedHostSeconds(), (Double) json.get("predicted_host_s"), 0);
    assertChoseTheFaster(Map.of(LogAnalysis.RECORD_BYTES, "4096"), Scenario.TOP_TYPES,
        new org.apache.hadoop.fs.Path("objfs://" + device.address() + "/auto/wide"), q);
    // Without auto, device mode says where it ran and predicts nothing.
    AnalysisRun plain = LogAnalysis.run(conf, Scenario.REGIONS, Mode.DEVICE, List.of(generatedInput), null);
    assertEquals("device", plain.statistics().placement().chosen());
    assertTrue(Double.isNaN(plain.statistics().placement().predictedDeviceSeconds()));
  }

  /**
   * The placement auto chose is the faster one in the simulator too: the job run in each placement,
   * same answer, and the chosen one's modelled time the lower; and each prediction is near the
   * simulator's modelled time of that placement (the host's too: this JVM counts, so the planner
   * counted the job's own run on the host).
   */
  private void assertChoseTheFaster(Map<String, String> settings, Scenario scenario,
      org.apache.hadoop.fs.Path input, RunStatistics.Placement plan) throws Exception {
    String chosen = plan.chosen();
    Map<String, Double> modelled = new java.util.TreeMap<>();
    AnalysisResult answer = null;
    for (String placement : List.of("device", "host")) {
      Map<String, String> s = new java.util.HashMap<>(settings);
      s.put(DeviceMode.PLACEMENT, placement);
      AnalysisRun run = LogAnalysis.run(LogAnalysis.configuration(s), scenario, Mode.DEVICE, List.of(input), null);
      assertEquals(placement, run.statistics().placement().chosen());
      if (answer != null) {
        assertEquals(answer, run.result(), "the same answer in either placement");
      }
      answer = run.result();
      modelled.put(placement, run.statistics().modelledSeconds());
    }
    String other = chosen.equals("device") ? "host" : "device";
    assertTrue(modelled.get(chosen) < modelled.get(other),
        "auto chose " + chosen + "; modelled seconds of each placement: " + modelled);
    assertEquals(modelled.get("device"), plan.predictedDeviceSeconds(), 0.15 * modelled.get("device"),
        "predicted against modelled, device: " + plan + ", " + modelled);
    assertEquals(modelled.get("host"), plan.predictedHostSeconds(), 0.15 * modelled.get("host"),
        "predicted against modelled, host: " + plan + ", " + modelled);
  }

  @Test
  void anOutputDirectoryKeepsThePartFilesAndThePrintedResult() throws Exception {
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(dir.resolve("kept").toUri());
    AnalysisRun run = LogAnalysis.run(conf, Scenario.TOP_TYPES, Mode.HOST_NORMAL, List.of(generatedInput), output);
    FileSystem local = output.getFileSystem(conf);
    assertTrue(local.exists(new org.apache.hadoop.fs.Path(output, "part-r-00000")));
    assertTrue(local.exists(new org.apache.hadoop.fs.Path(output, "_SUCCESS")));
    assertEquals(run.result().text(), java.nio.file.Files.readString(dir.resolve("kept").resolve(LogAnalysis.RESULT_FILE)));
    // Hadoop's rule: an existing output directory is refused, and kept.
    assertThrows(IOException.class,
        () -> LogAnalysis.run(conf, Scenario.TOP_TYPES, Mode.HOST_NORMAL, List.of(generatedInput), output));
    assertTrue(local.exists(new org.apache.hadoop.fs.Path(output, "part-r-00000")));
  }

  @Test
  void theHostModesUseTheirOwnMappers() throws Exception {
    assertEquals(RegionMapper.class, LogAnalysis.mapperClass(Scenario.REGIONS, Mode.HOST_NORMAL));
    assertEquals(RegionMapper.class, LogAnalysis.mapperClass(Scenario.REGIONS, Mode.DEVICE));
    assertEquals(InMapperRegionMapper.class, LogAnalysis.mapperClass(Scenario.REGIONS, Mode.HOST_OPTIMIZED));
    assertEquals(RegionTypeMapper.class, LogAnalysis.mapperClass(Scenario.TOP_TYPES, Mode.DEVICE));
    assertEquals(InMapperRegionTypeMapper.class, LogAnalysis.mapperClass(Scenario.TOP_TYPES, Mode.HOST_OPTIMIZED));
    org.apache.hadoop.mapreduce.Job job = LogAnalysis.createJob(conf, Scenario.REGIONS, Mode.HOST_OPTIMIZED,
        List.of(generatedInput), new org.apache.hadoop.fs.Path(dir.resolve("unused").toUri()));
    assertNull(job.getConfiguration().get("mapreduce.job.combine.class"));
    assertEquals(1, job.getNumReduceTasks());
    assertEquals("local", job.getConfiguration().get("mapreduce.framework.name"));
    assertEquals("50", job.getConfiguration().get(LogAnalysis.POLL_INTERVAL));
  }
}
