package org.smartssd.examples.mining;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.examples.loganalysis.CommandDevices;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.WorkDirectory;

/**
 * A data-mining workload end to end ({@code smartssd mine}): make its data set, compute its iterations
 * directly in memory, spread the data over one or more devices, run every iteration host-normal and in
 * the devices, check every iteration of both against the direct computation, and report.
 *
 * <p>Without given devices it starts its own ({@link CommandDevices}: each a child JVM, so that the host
 * CPU time measured here is the host's alone), unpaced. Before the measured runs each mode runs the
 * first iteration once (not reported, but checked), so that neither side is measured cold.
 */
public final class Mine {
  /** Where the data set goes on each device. */
  static final String DEVICE_DIRECTORY = "/smartssd-mine";
  /** The modes the workloads run in. */
  public static final List<Mode> MODES = List.of(Mode.HOST_NORMAL, Mode.DEVICE);

  /** Where a workload's data set goes on each device, a part a device: the path after {@code objfs://ADDRESS}. */
  public static String devicePath(Algorithm algorithm) {
    return DEVICE_DIRECTORY + "/" + algorithm.optionName() + "/part-00000";
  }

  /**
   * What to run.
   *
   * @param devices running devices to use ({@code host:port}), or none to start {@code deviceCount} of its own
   * @param deviceProperties keys for the devices it starts (not given ones)
   */
  public record Options(IterativeMining<?> workload, String profile, List<String> devices, int deviceCount,
      Map<String, String> hadoopProperties, Map<String, String> deviceProperties) {
    public Options {
      devices = List.copyOf(devices);
      if (devices.isEmpty() && deviceCount < 1) {
        throw new IllegalArgumentException("devices to start must be 1 or more, not " + deviceCount);
      }
    }

    public int deviceTotal() {
      return devices.isEmpty() ? deviceCount : devices.size();
    }
  }

  /**
   * What ran: each mode's iterations, and where any differed from the direct computation.
   *
   * @param profile the devices' profile (distinct ones joined by commas when given devices differ)
   * @param summary what the direct computation found, in a few lines
   * @param directIterations how many iterations the direct computation ran
   * @param directSeconds how long the direct computation took (measured wall time, in memory)
   */
  public record Outcome(Options options, String profile, Boolean paced, List<MiningRun.ModeRun> modes,
      List<String> summary, int directIterations, double directSeconds, List<String> disagreements,
      double totalSeconds) {
    public boolean agree() {
      return disagreements.isEmpty();
    }
  }

  private final Options options;
  private final PrintWriter log;

  public Mine(Options options, PrintWriter log) {
    this.options = options;
    this.log = log;
  }

  public Outcome run() throws IOException, InterruptedException {
    return run(options.workload());
  }

  private <S> Outcome run(IterativeMining<S> workload) throws IOException, InterruptedException {
    long started = System.nanoTime();
    Configuration conf = LogAnalysis.configuration(options.hadoopProperties());
    say("%s", workload.description());
    long directStarted = System.nanoTime();
    List<S> expected = workload.direct();
    double directSeconds = (System.nanoTime() - directStarted) / 1e9;
    say("computed directly (in memory, no Hadoop) in %.2f s: %d iteration(s), to check every run against",
        directSeconds, expected.size());
    List<MiningRun.ModeRun> modes = new ArrayList<>();
    List<String> disagreements = new ArrayList<>();
    try (WorkDirectory work = WorkDirectory.create("smartssd-mine-");
        CommandDevices devices = options.devices().isEmpty()
            ? CommandDevices.start(conf, work.path(), options.profile(), options.deviceCount(),
                options.deviceProperties())
            : CommandDevices.given(conf, options.devices())) {
      List<String> addresses = devices.addresses();
      String profile = devices.profile();
      Boolean paced = devices.paced();
      say("%s", devices.description());
      List<org.apache.hadoop.fs.Path> inputs = new ArrayList<>();
      for (String address : addresses) {
        inputs.add(new org.apache.hadoop.fs.Path("objfs://" + address + devicePath(workload.algorithm())));
      }
      long loadStarted = System.nanoTime();
      workload.load(conf, inputs);
      say("loaded %,d records (%,d bytes) into %d device(s) in %.1f s", workload.records(), workload.bytes(),
          inputs.size(), (System.nanoTime() - loadStarted) / 1e9);
      say("warming up (the first iteration once in each mode, not reported)");
      for (Mode mode : MODES) {
        MiningRun.ModeRun warm = MiningRun.run(conf, workload, mode, inputs, 1, expected, s -> {});
        for (String d : warm.disagreements()) {
          disagreements.add("warm-up " + d);
        }
      }
      for (Mode mode : MODES) {
        System.gc(); // not inside the measurement: each mode starts with a clean heap
        MiningRun.ModeRun run = MiningRun.run(conf, workload, mode, inputs, Integer.MAX_VALUE, expected, this::sayLine);
        modes.add(run);
        disagreements.addAll(run.disagreements());
      }
      List<String> summary = workload.summary(expected.get(expected.size() - 1));
      return new Outcome(options, profile, paced, modes, summary, expected.size(), directSeconds, disagreements,
          (System.nanoTime() - started) / 1e9);
    }
  }

  private void sayLine(String line) {
    say("%s", line);
  }

  private void say(String format, Object... args) {
    log.printf(Locale.ROOT, "mine: " + format + "%n", args);
    log.flush();
  }
}
