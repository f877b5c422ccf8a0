package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.examples.wc98.GeneratorParameters;
import org.smartssd.examples.wc98.TraceFormat;
import org.smartssd.examples.wc98.TraceWriter;
import org.smartssd.examples.wc98.Wc98Generator;

/**
 * The source's evaluation end to end ({@code smartssd compare}): generate a trace, load it into a
 * device, run both scenarios in every mode with the device unpaced (the software's own speed) and
 * paced (answers held until their modelled completion: the comparison the source made), check that
 * every run found what a direct count of the trace finds, and report.
 *
 * <p>Without {@code --device}, the device runs in a child JVM ({@link DeviceProcess}) on a temporary
 * data directory, first unpaced, then restarted paced on the same data: a device in this JVM would
 * add its own work (serving reads, running tasklets) to the host CPU time measured here. Before each
 * pass, every job runs once on a small trace (not reported), so that neither JVM is measured cold.
 */
public final class Comparison {
  /** Where the trace goes on the device. */
  static final String DEVICE_DIRECTORY = "/smartssd-compare";
  static final long WARMUP_RECORDS = 200_000;

  /**
   * What to compare.
   *
   * @param device a running device to use ({@code host:port}), or null to start one
   * @param modes the modes to run (all three by default)
   */
  /**
   * @param hadoopProperties keys for the jobs
   * @param deviceProperties keys for the device compare starts (not one given with {@code device})
   */
  public record Options(long records, String profile, String device, Path reportDir, long seed, List<Mode> modes,
      Map<String, String> hadoopProperties, Map<String, String> deviceProperties) {}

  /** What was compared: every run, the direct count, and the runs whose result differs from it. */
  public record Outcome(Options options, String profile, List<AnalysisRun> runs, Map<Scenario, AnalysisResult> expected,
      List<String> disagreements, double totalSeconds) {
    public boolean agree() {
      return disagreements.isEmpty();
    }
  }

  private final Options options;
  private final PrintWriter log;

  public Comparison(Options options, PrintWriter log) {
    this.options = options;
    this.log = log;
  }

  public Outcome run() throws IOException, InterruptedException {
    long started = System.nanoTime();
    Path work = Files.createTempDirectory("smartssd-compare-");
    try {
      Configuration conf = LogAnalysis.configuration(options.hadoopProperties());
      Path trace = work.resolve("wc98-" + options.records() + ".bin");
      Path warmupTrace = work.resolve("wc98-warmup.bin");
      Wc98Generator generator = new Wc98Generator(GeneratorParameters.defaults().withSeed(options.seed()));
      say("generating %,d records (seed %d)", options.records(), options.seed());
      generate(generator, options.records(), trace);
      generate(generator, Math.min(WARMUP_RECORDS, options.records()), warmupTrace);
      say("counting them directly (no Hadoop), to check every run against");
      DirectCount direct = DirectCount.of(trace);
      DirectCount directWarmup = DirectCount.of(warmupTrace);
      Map<Scenario, AnalysisResult> expected = new EnumMap<>(Scenario.class);
      for (Scenario s : Scenario.values()) {
        expected.put(s, direct.result(s));
      }

      List<AnalysisRun> runs = new ArrayList<>();
      List<String> disagreements = new ArrayList<>();
      String profile;
      if (options.device() != null) {
        String address = options.device();
        DeviceInfo info = info(address);
        profile = info.profile();
        say("using device %s (profile %s, %s)", address, profile, info.paced() ? "paced" : "unpaced");
        String base = "objfs://" + address + DEVICE_DIRECTORY;
        load(conf, trace, warmupTrace, base, true);
        pass(conf, base, info.paced(), directWarmup, expected, runs, disagreements);
      } else {
        profile = options.profile();
        Path dataDir = work.resolve("device");
        Path deviceLog = work.resolve("device.log");
        Map<String, String> deviceProperties = new TreeMap<>(options.deviceProperties());
        deviceProperties.put("smartssd.device.isp.shared-packages", DeviceMode.SHARED_PACKAGES);
        for (boolean paced : new boolean[] {false, true}) {
          try (DeviceProcess device = DeviceProcess.start(dataDir, profile, paced, deviceProperties, deviceLog)) {
            say("device %s started in a child JVM (profile %s, %s)", device.address(), profile,
                paced ? "paced" : "unpaced");
            String base = "objfs://" + device.address() + DEVICE_DIRECTORY;
            if (!paced) {
              load(conf, trace, warmupTrace, base, false);
            }
            pass(conf, base, paced, directWarmup, expected, runs, disagreements);
          }
        }
      }
      double total = (System.nanoTime() - started) / 1e9;
      return new Outcome(options, profile, runs, expected, disagreements, total);
    } finally {
      deleteRecursively(work);
    }
  }

  /** Warm-up, then every scenario in every mode, on a device in one pacing. */
  private void pass(Configuration conf, String base, boolean paced, DirectCount warmup,
      Map<Scenario, AnalysisResult> expected, List<AnalysisRun> runs, List<String> disagreements)
      throws IOException, InterruptedException {
    String pacing = paced ? "paced" : "unpaced";
    org.apache.hadoop.fs.Path warmupInput = new org.apache.hadoop.fs.Path(base + "/warmup/wc98-warmup.bin");
    org.apache.hadoop.fs.Path input = new org.apache.hadoop.fs.Path(base + "/trace/wc98-" + options.records() + ".bin");
    say("%s: warming up (every job once on %,d records)", pacing, Math.min(WARMUP_RECORDS, options.records()));
    for (Scenario s : Scenario.values()) {
      for (Mode m : options.modes()) {
        AnalysisRun run = LogAnalysis.run(conf, s, m, List.of(warmupInput), null);
        check(run, warmup.result(s), "warm-up " + pacing, disagreements);
      }
    }
    for (Scenario s : Scenario.values()) {
      for (Mode m : options.modes()) {
        System.gc(); // not inside the measurement: each run starts with a clean heap
        AnalysisRun run = LogAnalysis.run(conf, s, m, List.of(input), null);
        RunStatistics st = run.statistics();
        say("%s: %-9s %-14s wall %7.3f s, modelled %7.3f s, %,d bytes across the host interface, host CPU %.3f s",
            pacing, s.optionName(), m.optionName(), st.wallSeconds(), st.modelledSeconds(), st.hostInterfaceBytes(),
            st.hostCpuSeconds());
        check(run, expected.get(s), pacing, disagreements);
        runs.add(run);
      }
    }
  }

  private static void check(AnalysisRun run, AnalysisResult expected, String what, List<String> disagreements) {
    if (!run.result().equals(expected)) {
      RunStatistics st = run.statistics();
      disagreements.add(String.format(Locale.ROOT, "%s %s %s: %s, but a direct count of the trace gives %s", what,
          st.scenario().optionName(), st.mode().optionName(), run.result().lines(), expected.lines()));
    }
  }

  private void load(Configuration conf, Path trace, Path warmupTrace, String base, boolean overwrite) throws IOException {
    long started = System.nanoTime();
    TraceLoader.load(conf, List.of(trace), base + "/trace/", overwrite);
    TraceLoader.load(conf, List.of(warmupTrace), base + "/warmup/", overwrite);
    say("loaded the trace into %s in %.1f s", base, (System.nanoTime() - started) / 1e9);
  }

  private static void generate(Wc98Generator generator, long records, Path file) throws IOException {
    try (TraceWriter writer = TraceWriter.create(file, TraceFormat.BINARY, false)) {
      generator.generate(records, writer);
    }
  }

  private static DeviceInfo info(String address) throws IOException {
    try (SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(address), ClientOptions.defaults())) {
      return c.info();
    }
  }

  private void say(String format, Object... args) {
    log.printf(Locale.ROOT, "compare: " + format + "%n", args);
    log.flush();
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
