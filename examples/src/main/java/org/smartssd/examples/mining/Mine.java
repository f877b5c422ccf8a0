package org.smartssd.examples.mining;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.examples.loganalysis.DeviceMode;
import org.smartssd.examples.loganalysis.DeviceProcess;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.objectfs.DeviceClients;
import org.smartssd.objectfs.ObjfsConfigKeys;

/**
 * A data-mining workload end to end ({@code smartssd mine}): make its data set, compute its iterations
 * directly in memory, spread the data over one or more devices, run every iteration host-normal and in
 * the devices, check every iteration of both against the direct computation, and report.
 *
 * <p>Without given devices it starts its own ({@link DeviceProcess}: each a child JVM, so that the host
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
    Path work = Files.createTempDirectory("smartssd-mine-");
    List<DeviceProcess> startedDevices = new ArrayList<>();
    try {
      List<String> addresses;
      String profile;
      Boolean paced;
      if (!options.devices().isEmpty()) {
        List<DeviceInfo> given = new ArrayList<>();
        for (String address : options.devices()) {
          given.add(info(address, DeviceClients.clientOptions(conf)));
        }
        profile = String.join(",", given.stream().map(DeviceInfo::profile).distinct().toList());
        paced = given.stream().allMatch(DeviceInfo::paced) ? Boolean.TRUE
            : given.stream().noneMatch(DeviceInfo::paced) ? Boolean.FALSE : null;
        if (paced == null) {
          throw new IOException("the devices " + options.devices() + " differ in pacing; give devices that are all "
              + "paced or all unpaced");
        }
        addresses = options.devices();
        say("using %d device(s): %s (profile %s, %s)", given.size(), String.join(", ", addresses), profile,
            paced ? "paced" : "unpaced");
      } else {
        profile = options.profile();
        paced = false;
        Map<String, String> deviceProperties = new TreeMap<>(options.deviceProperties());
        deviceProperties.put(DeviceConfigKeys.ISP_SHARED_PACKAGES, DeviceMode.SHARED_PACKAGES);
        Path secret = work.resolve("device-secret");
        HostSecret.generate(secret);
        deviceProperties.put(DeviceConfigKeys.HOST_SECRET_FILE, secret.toString());
        conf.set(ObjfsConfigKeys.SECRET_FILE, secret.toString());
        ClientOptions clientOptions = DeviceClients.clientOptions(conf);
        for (int i = 0; i < options.deviceCount(); i++) {
          String name = options.deviceCount() == 1 ? "device" : "device-" + i;
          startedDevices.add(DeviceProcess.start(work.resolve(name), profile, false, deviceProperties,
              work.resolve(name + ".log"), clientOptions));
        }
        addresses = startedDevices.stream().map(DeviceProcess::address).toList();
        say("%d device(s) started, each in a child JVM (profile %s, unpaced): %s", addresses.size(), profile,
            String.join(", ", addresses));
      }
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
    } finally {
      for (DeviceProcess d : startedDevices) {
        try {
          d.close();
        } catch (IOException | RuntimeException e) {
          say("could not stop device %s: %s", d.address(), e.getMessage());
        }
      }
      deleteRecursively(work);
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

  private void sayLine(String line) {
    say("%s", line);
  }

  private void say(String format, Object... args) {
    log.printf(Locale.ROOT, "mine: " + format + "%n", args);
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
