package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.objectfs.DeviceClients;
import org.smartssd.objectfs.ObjfsConfigKeys;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.examples.wc98.GeneratorParameters;
import org.smartssd.examples.wc98.TraceFormat;
import org.smartssd.examples.wc98.TraceWriter;
import org.smartssd.examples.wc98.Wc98Generator;
import org.smartssd.examples.wc98.Wc98Reader;

/**
 * The source's evaluation end to end ({@code smartssd compare}): generate a trace, spread it over one
 * or more devices, run the scenarios in every mode with the devices unpaced (the software's own speed)
 * and paced (answers held until their modelled completion: the comparison the source made), check that
 * every run found what a direct count of the trace finds, and report.
 *
 * <p>The trace is cut into equal whole-record parts, one a device ({@link TraceLoader#spread}), and
 * every run reads all of them, so each device holds and scans its share; the run's modelled time is
 * the slowest device's ({@link RunStatistics}).
 *
 * <p>Without given devices, compare starts its own ({@link DeviceProcess}): each in a child JVM of its
 * own, with its own data directory and port, the same profile; first unpaced, then restarted paced on
 * the same data. A device in this JVM would add its own work (serving reads, running tasklets) to the
 * host CPU time measured here. Before each pass, every job runs once on a small trace (not reported;
 * 200,000 records a device, spread as the trace is), so that neither side is measured cold.
 */
public final class Comparison {
  /** Where the trace goes on each device. */
  static final String DEVICE_DIRECTORY = "/smartssd-compare";
  /** Records of the warm-up trace for each device (it is spread as the trace is, so each device warms up alike). */
  static final long WARMUP_RECORDS = 200_000;

  /**
   * What to compare.
   *
   * @param profile the profile of the devices compare starts (not of given ones)
   * @param devices running devices to use ({@code host:port}), or none to start {@code deviceCount} of its own
   * @param deviceCount how many devices to start when none is given
   * @param scenarios the scenarios to run (both by default)
   * @param modes the modes to run (all three by default)
   * @param hadoopProperties keys for the jobs
   * @param deviceProperties keys for the devices compare starts (not given ones)
   * @param traces trace files (plain or gzip) whose records, in order, are the trace instead of a
   *     generated one of {@code records} records; none to generate
   * @param gzip whether the trace is stored gzip-compressed in the devices (and so read, and in device
   *     mode decompressed in the device, as Hadoop reads a {@code .gz} file)
   */
  public record Options(long records, String profile, List<String> devices, int deviceCount, Path reportDir, long seed,
      List<Scenario> scenarios, List<Mode> modes, Map<String, String> hadoopProperties,
      Map<String, String> deviceProperties, List<Path> traces, boolean gzip) {
    public Options {
      devices = List.copyOf(devices);
      traces = List.copyOf(traces);
      scenarios = List.copyOf(scenarios);
      modes = List.copyOf(modes);
      if (devices.isEmpty() && deviceCount < 1) {
        throw new IllegalArgumentException("devices to start must be 1 or more, not " + deviceCount);
      }
    }

    /** The number of devices the trace is spread over. */
    public int deviceTotal() {
      return devices.isEmpty() ? deviceCount : devices.size();
    }
  }

  /**
   * What was compared: every run, the direct count, and the runs whose result differs from it.
   *
   * @param profile the devices' profile (distinct ones joined by commas when given devices differ)
   * @param records the trace's records (as asked, or those of the given trace files)
   */
  public record Outcome(Options options, String profile, long records, List<AnalysisRun> runs,
      Map<Scenario, AnalysisResult> expected, List<String> disagreements, double totalSeconds) {
    public boolean agree() {
      return disagreements.isEmpty();
    }
  }

  private final Options options;
  private final PrintWriter log;
  /** The trace's records: as asked, or those of the given trace files. */
  private long records;

  public Comparison(Options options, PrintWriter log) {
    this.options = options;
    this.log = log;
  }

  /**
   * Runs the comparison.
   *
   * @throws IOException naming the device when a given device does not answer, or given devices differ in
   *     pacing; when a device compare starts does not start; when loading or a job fails
   */
  public Outcome run() throws IOException, InterruptedException {
    long started = System.nanoTime();
    Configuration conf = LogAnalysis.configuration(options.hadoopProperties());
    List<DeviceInfo> given = new ArrayList<>();
    for (String address : options.devices()) {
      given.add(info(address, DeviceClients.clientOptions(conf)));
    }
    checkSamePacing(given);
    Path work = Files.createTempDirectory("smartssd-compare-");
    try {
      Path warmupTrace = work.resolve("wc98-warmup.bin");
      Wc98Generator generator = new Wc98Generator(GeneratorParameters.defaults().withSeed(options.seed()));
      Path trace;
      if (options.traces().isEmpty()) {
        records = options.records();
        trace = work.resolve("wc98-" + records + ".bin");
        say("generating %,d records (seed %d)", records, options.seed());
        generate(generator, records, trace);
      } else {
        Path joined = work.resolve("wc98-given.bin");
        records = join(options.traces(), joined);
        say("read %,d records from %d trace file(s)", records, options.traces().size());
        if (records == 0) {
          throw new IOException("the trace files hold no record: " + options.traces());
        }
        trace = work.resolve("wc98-" + records + ".bin");
        Files.move(joined, trace);
      }
      generate(generator, warmupRecords(), warmupTrace);
      say("counting them directly (no Hadoop), to check every run against");
      DirectCount direct = DirectCount.of(trace);
      DirectCount directWarmup = DirectCount.of(warmupTrace);
      Map<Scenario, AnalysisResult> expected = new EnumMap<>(Scenario.class);
      for (Scenario s : options.scenarios()) {
        expected.put(s, direct.result(s));
      }

      List<AnalysisRun> runs = new ArrayList<>();
      List<String> disagreements = new ArrayList<>();
      String profile;
      if (!given.isEmpty()) {
        profile = String.join(",", given.stream().map(DeviceInfo::profile).distinct().toList());
        boolean paced = given.get(0).paced();
        say("using %d device(s): %s (profile %s, %s)", given.size(), String.join(", ", options.devices()), profile,
            paced ? "paced" : "unpaced");
        List<String> bases = bases(options.devices());
        load(conf, trace, warmupTrace, bases, true);
        pass(conf, bases, paced, directWarmup, expected, runs, disagreements);
      } else {
        profile = options.profile();
        Map<String, String> deviceProperties = new TreeMap<>(options.deviceProperties());
        deviceProperties.put("smartssd.device.isp.shared-packages", DeviceMode.SHARED_PACKAGES);
        // The devices compare starts serve only its own runs: a secret made for them, given to its clients.
        Path secret = work.resolve("device-secret");
        HostSecret.generate(secret);
        deviceProperties.put(DeviceConfigKeys.HOST_SECRET_FILE, secret.toString());
        conf.set(ObjfsConfigKeys.SECRET_FILE, secret.toString());
        ClientOptions clientOptions = DeviceClients.clientOptions(conf);
        for (boolean paced : new boolean[] {false, true}) {
          List<DeviceProcess> devices = new ArrayList<>();
          try {
            for (int i = 0; i < options.deviceCount(); i++) {
              String name = options.deviceCount() == 1 ? "device" : "device-" + i;
              devices.add(DeviceProcess.start(work.resolve(name), profile, paced, deviceProperties,
                  work.resolve(name + ".log"), clientOptions));
            }
            List<String> addresses = devices.stream().map(DeviceProcess::address).toList();
            say("%d device(s) started, each in a child JVM (profile %s, %s): %s", devices.size(), profile,
                paced ? "paced" : "unpaced", String.join(", ", addresses));
            List<String> bases = bases(addresses);
            if (!paced) {
              load(conf, trace, warmupTrace, bases, false);
            }
            pass(conf, bases, paced, directWarmup, expected, runs, disagreements);
          } finally {
            closeAll(devices);
          }
        }
      }
      double total = (System.nanoTime() - started) / 1e9;
      return new Outcome(options, profile, records, runs, expected, disagreements, total);
    } finally {
      WorkDirectory.delete(work);
    }
  }

  /** The warm-up trace: {@link #WARMUP_RECORDS} a device, no more than the trace. */
  private long warmupRecords() {
    return Math.min(WARMUP_RECORDS * options.deviceTotal(), records);
  }

  private static List<String> bases(List<String> addresses) {
    return addresses.stream().map(a -> "objfs://" + a + DEVICE_DIRECTORY).toList();
  }

  /** Warm-up, then every scenario in every mode, on the devices in one pacing; every run reads every device. */
  private void pass(Configuration conf, List<String> bases, boolean paced, DirectCount warmup,
      Map<Scenario, AnalysisResult> expected, List<AnalysisRun> runs, List<String> disagreements)
      throws IOException, InterruptedException {
    String pacing = paced ? "paced" : "unpaced";
    List<org.apache.hadoop.fs.Path> warmupInputs = new ArrayList<>();
    List<org.apache.hadoop.fs.Path> inputs = new ArrayList<>();
    for (String base : bases) {
      warmupInputs.add(new org.apache.hadoop.fs.Path(stored(warmupPath(base))));
      inputs.add(new org.apache.hadoop.fs.Path(stored(tracePath(base))));
    }
    say("%s: warming up (every job once on %,d records)", pacing, warmupRecords());
    for (Scenario s : options.scenarios()) {
      for (Mode m : options.modes()) {
        AnalysisRun run = LogAnalysis.run(conf, s, m, warmupInputs, null);
        check(run, warmup.result(s), "warm-up " + pacing, disagreements);
      }
    }
    for (Scenario s : options.scenarios()) {
      for (Mode m : options.modes()) {
        System.gc(); // not inside the measurement: each run starts with a clean heap
        AnalysisRun run = LogAnalysis.run(conf, s, m, inputs, null);
        RunStatistics st = run.statistics();
        say("%s: %-9s %-14s wall %7.3f s, modelled %7.3f s, %,d bytes across the host interface, host CPU %.3f s",
            pacing, s.optionName(), m.optionName(), st.wallSeconds(), st.modelledSeconds(), st.hostInterfaceBytes(),
            st.hostCpuSeconds());
        check(run, expected.get(s), pacing, disagreements);
        runs.add(run);
      }
    }
  }

  /** Where a device's part of the trace is stored (the loader adds {@code .gz} to gzip parts). */
  private String tracePath(String base) {
    return base + "/trace/wc98-" + records + ".bin";
  }

  private static String warmupPath(String base) {
    return base + "/warmup/wc98-warmup.bin";
  }

  /** What the jobs read of a stored path. */
  private String stored(String path) {
    return options.gzip() ? path + ".gz" : path;
  }

  /** Writes the records of the trace files, in order, to {@code to}; their number. */
  private static long join(List<Path> traces, Path to) throws IOException {
    long n = 0;
    try (TraceWriter writer = TraceWriter.create(to, TraceFormat.BINARY, false)) {
      for (Path t : traces) {
        try (Wc98Reader reader = Wc98Reader.open(t)) {
          n += reader.forEach(writer);
        }
      }
    }
    return n;
  }

  private static void check(AnalysisRun run, AnalysisResult expected, String what, List<String> disagreements) {
    if (!run.result().equals(expected)) {
      RunStatistics st = run.statistics();
      disagreements.add(String.format(Locale.ROOT, "%s %s %s: %s, but a direct count of the trace gives %s", what,
          st.scenario().optionName(), st.mode().optionName(), run.result().lines(), expected.lines()));
    }
  }

  /** Spreads the trace and the warm-up trace over the devices, a part each. */
  private void load(Configuration conf, Path trace, Path warmupTrace, List<String> bases, boolean overwrite)
      throws IOException {
    long started = System.nanoTime();
    int recordBytes = LogAnalysis.recordBytes(conf);
    List<TraceLoader.Part> parts = TraceLoader.spread(conf, List.of(trace), bases.stream().map(this::tracePath).toList(),
        overwrite, recordBytes, options.gzip());
    TraceLoader.spread(conf, List.of(warmupTrace), bases.stream().map(Comparison::warmupPath).toList(), overwrite,
        recordBytes, options.gzip());
    say("loaded the trace into %d device(s), %s records each%s, in %.1f s", bases.size(),
        String.join(" / ", parts.stream().map(p -> String.format(Locale.ROOT, "%,d", p.records())).toList()),
        options.gzip() ? String.format(Locale.ROOT, ", gzip-compressed (%s bytes)", String.join(" / ",
            parts.stream().map(p -> String.format(Locale.ROOT, "%,d", p.bytes())).toList())) : "",
        (System.nanoTime() - started) / 1e9);
  }

  private static void generate(Wc98Generator generator, long records, Path file) throws IOException {
    try (TraceWriter writer = TraceWriter.create(file, TraceFormat.BINARY, false)) {
      generator.generate(records, writer);
    }
  }

  /** A given device's DEVICE_INFO; an error naming it when it does not answer. */
  private static DeviceInfo info(String address, ClientOptions clientOptions) throws IOException {
    try (SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(address), clientOptions)) {
      return c.info();
    } catch (IOException e) {
      throw new IOException("device " + address + " (--device) does not answer: " + e.getMessage(), e);
    }
  }

  /** Given devices must all be paced or all unpaced: a pass is one or the other. */
  private void checkSamePacing(List<DeviceInfo> infos) throws IOException {
    for (int i = 1; i < infos.size(); i++) {
      if (infos.get(i).paced() != infos.get(0).paced()) {
        throw new IOException("devices " + options.devices().get(0) + " (" + pacing(infos.get(0)) + ") and "
            + options.devices().get(i) + " (" + pacing(infos.get(i)) + ") differ in pacing; give devices that are all "
            + "paced or all unpaced");
      }
    }
  }

  private static String pacing(DeviceInfo info) {
    return info.paced() ? "paced" : "unpaced";
  }

  /** Stops the devices; one that fails to stop is reported and the others are stopped still. */
  private void closeAll(List<DeviceProcess> devices) {
    for (DeviceProcess d : devices) {
      try {
        d.close();
      } catch (IOException | RuntimeException e) {
        say("could not stop device %s: %s", d.address(), e.getMessage());
      }
    }
  }

  private void say(String format, Object... args) {
    log.printf(Locale.ROOT, "compare: " + format + "%n", args);
    log.flush();
  }

}
