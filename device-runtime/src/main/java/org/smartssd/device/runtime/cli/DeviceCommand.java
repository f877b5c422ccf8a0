package org.smartssd.device.runtime.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.DiskUse;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.runtime.DeviceCheck;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd device start|info|stats|fsck}. */
@Command(
    name = "device",
    mixinStandardHelpOptions = true,
    description = "Run a simulated Smart SSD, ask one what it is and what it did, or check its data directory.",
    subcommands = {DeviceCommand.Start.class, DeviceCommand.Info.class, DeviceCommand.Stats.class,
        DeviceCommand.Fsck.class})
public final class DeviceCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand: start, info, stats or fsck");
  }

  @Command(name = "start", mixinStandardHelpOptions = true,
      description = "Start a device and serve it until it is shut down (SHUTDOWN command, Ctrl-C or SIGTERM).")
  static final class Start implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--profile", paramLabel = "P",
        description = "Named parameter set: msst13-sata, issd-current, issd-future, xsd, nvme-gen4, active-flash (default: msst13-sata).")
    String profile;

    @Option(names = "--data-dir", paramLabel = "D", description = "Where the flash and metadata files live (default: ./smartssd-data).")
    Path dataDir;

    @Option(names = "--port", paramLabel = "N", description = "TCP port; 0 picks a free one (default: 7070).")
    Integer port;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to listen on (default: 127.0.0.1).")
    String bind;

    @Option(names = "--unix-socket", paramLabel = "PATH",
        description = "Also listen on a Unix domain socket at this absolute path (created, and removed at stop).")
    Path unixSocket;

    @Option(names = "--secret-file", paramLabel = "FILE",
        description = "Serve only hosts that prove they hold the secret in FILE (readable by its owner only; make one"
            + " with `smartssd secret FILE`). Required unless the device listens on a loopback address.")
    Path secretFile;

    @Option(names = "--pace", description = "Hold each answer until its modelled completion.")
    boolean pace;

    @Option(names = "-D", paramLabel = "key=value", description = "Any configuration key (see the README).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
      Map<String, String> overrides = new LinkedHashMap<>(properties);
      putIfSet(overrides, DeviceConfigKeys.PROFILE, profile);
      putIfSet(overrides, DeviceConfigKeys.DATA_DIR, dataDir == null ? null : dataDir.toString());
      putIfSet(overrides, DeviceConfigKeys.HOST_PORT, port == null ? null : port.toString());
      putIfSet(overrides, DeviceConfigKeys.HOST_BIND_ADDRESS, bind);
      putIfSet(overrides, DeviceConfigKeys.HOST_UNIX_SOCKET, unixSocket == null ? null : unixSocket.toString());
      putIfSet(overrides, DeviceConfigKeys.HOST_SECRET_FILE, secretFile == null ? null : secretFile.toString());
      if (pace) {
        overrides.put(DeviceConfigKeys.PACE, "true");
      }
      DeviceConfig config = DeviceConfig.load(overrides);
      SimulatedDevice device = SimulatedDevice.start(config);
      Thread hook = new Thread(() -> {
        try {
          device.close();
        } catch (IOException e) {
          System.err.println("smartssd: stopping the device failed: " + e.getMessage());
        }
      }, "smartssd-shutdown-hook");
      Runtime.getRuntime().addShutdownHook(hook);
      PrintWriter out = spec.commandLine().getOut();
      out.printf("smartssd device %s listening on %s%s (profile %s%s; %s), data in %s%n", config.deviceName(),
          device.listeningAddress(), device.unixAddress().map(a -> " and " + a).orElse(""), config.profile(),
          config.paced() ? ", paced" : "", config.secret().map(s -> "hosts must prove they hold the " + s)
              .orElse("no authentication: whoever can reach the address is served"), config.dataDir().toAbsolutePath());
      out.flush();
      device.awaitStop();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down: the hook is what stopped the device.
      }
      return 0;
    }

    private static void putIfSet(Map<String, String> map, String key, String value) {
      if (value != null) {
        map.put(key, value);
      }
    }
  }

  @Command(name = "fsck", mixinStandardHelpOptions = true,
      description = {"Check a device's data directory while no device runs on it: the metadata journal and checkpoint,"
          + " and every page of every file against its checksum. Changes nothing; exit code 0 when clean, 3 when"
          + " damaged.",
          "With --salvage, keep what is intact: cut the journal at its damage, move files with damaged pages to"
              + " /lost+found/, keep a copy of the damaged metadata and the report in meta/damaged-TIME/; exit code"
              + " 0 when the device can start, 3 when salvage cannot repair around the damage (nothing changed)."})
  static final class Fsck implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data-dir", paramLabel = "D", description = "The data directory (default: ./smartssd-data).")
    Path dataDir;

    @Option(names = "--profile", paramLabel = "P",
        description = "The profile the device was started with (its flash geometry; default: msst13-sata).")
    String profile;

    @Option(names = "--salvage", description = "Keep what is intact and move damaged files aside, so the device starts.")
    boolean salvage;

    @Option(names = "-D", paramLabel = "key=value",
        description = "Configuration keys the device was started with (the flash geometry keys matter).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Override
    public Integer call() throws IOException {
      Map<String, String> overrides = new LinkedHashMap<>(properties);
      Start.putIfSet(overrides, DeviceConfigKeys.PROFILE, profile);
      Start.putIfSet(overrides, DeviceConfigKeys.DATA_DIR, dataDir == null ? null : dataDir.toString());
      DeviceConfig config = DeviceConfig.load(overrides);
      DeviceCheck.Result result = salvage ? DeviceCheck.salvage(config) : DeviceCheck.check(config);
      PrintWriter out = spec.commandLine().getOut();
      result.lines().forEach(out::println);
      out.flush();
      switch (result.outcome()) {
        case CLEAN:
        case SALVAGED:
          return 0;
        default:
          return Cli.EXIT_DAMAGED;
      }
    }
  }

  /** Options of the commands that talk to a running device. */
  static class DeviceOption {
    @Option(names = "--device", paramLabel = "ADDRESS", required = true,
        description = "The device to ask: HOST:PORT, or unix:PATH for its Unix domain socket.")
    String device;

    @Option(names = "--secret-file", paramLabel = "FILE",
        description = "The device's secret, for a device that requires hosts to authenticate (default: the file named"
            + " by SMARTSSD_SECRET_FILE, if set).")
    Path secretFile;

    SocketDeviceClient connect() throws IOException {
      Path file = secretFile;
      String fromEnvironment = System.getenv("SMARTSSD_SECRET_FILE");
      if (file == null && fromEnvironment != null && !fromEnvironment.isEmpty()) {
        file = Path.of(fromEnvironment);
      }
      ClientOptions options = ClientOptions.defaults();
      if (file != null) {
        options = options.withSecret(HostSecret.read(file));
      }
      return SocketDeviceClient.connect(DeviceAddress.parse(device), options);
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true, description = "Print a device's profile, geometry, space and parameters.")
  static final class Info implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DeviceOption target = new DeviceOption();

    @Override
    public Integer call() throws IOException {
      DeviceInfo info;
      try (SocketDeviceClient client = target.connect()) {
        info = client.info();
      }
      PrintWriter out = spec.commandLine().getOut();
      DeviceGeometry g = info.geometry();
      out.printf("device      %s%n", info.deviceName());
      out.printf("profile     %s%n", info.profile());
      out.printf("geometry    %d channels x %d ways x %d blocks x %d pages x %d bytes, stripe unit %d page(s)%n",
          g.channels(), g.waysPerChannel(), g.blocksPerWay(), g.pagesPerBlock(), g.pageSizeBytes(), g.stripeUnitPages());
      out.printf("capacity    %s%n", bytes(info.capacityBytes()));
      out.printf("free        %s%n", bytes(info.freeBytes()));
      out.printf("paced       %s%n", info.paced());
      out.println("parameters");
      info.parameters().forEach((k, v) -> out.printf("  %s = %s%n", k, v));
      out.flush();
      return 0;
    }
  }

  @Command(name = "stats", mixinStandardHelpOptions = true,
      description = "Print a device's counters: commands, host-link bytes, flash pages per channel; times marked (modelled) come from the timing model.")
  static final class Stats implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DeviceOption target = new DeviceOption();

    @Override
    public Integer call() throws IOException {
      DeviceStatistics s;
      try (SocketDeviceClient client = target.connect()) {
        s = client.statistics();
      }
      PrintWriter out = spec.commandLine().getOut();
      out.printf("uptime                %.3f s (wall)%n", s.uptimeNanos() / 1e9);
      out.printf("commands              %d%n", s.commands());
      out.printf("host bytes in         %s%n", bytes(s.hostBytesIn()));
      out.printf("host bytes out        %s%n", bytes(s.hostBytesOut()));
      out.printf("link busy             %.3f ms (modelled)%n", s.linkBusyNanos() / 1e6);
      out.printf("modelled horizon      %.3f ms (modelled)%n", s.modelledHorizonNanos() / 1e6);
      out.printf("command time          %.3f ms (modelled: while a host command was in progress)%n",
          s.modelledCommandNanos() / 1e6);
      out.printf("execution time        %.3f ms (modelled: while an execution was in progress)%n",
          s.modelledExecutionNanos() / 1e6);
      out.printf("internal delay        %.3f ms (modelled: host commands delayed by internal reads, %d of them)%n",
          s.modelledInternalDelayNanos() / 1e6, s.commandsDelayedByInternal());
      out.printf("gc pages moved        %d%n", s.gcPagesMoved());
      long programmed = s.channels().stream().mapToLong(ChannelStatistics::pagesProgrammed).sum();
      out.printf("write amplification   %s%n", programmed > s.gcPagesMoved()
          ? String.format(java.util.Locale.ROOT, "%.3f (pages programmed over those written: garbage collection's"
              + " moves added, in writes and in idle time)", (double) programmed / (programmed - s.gcPagesMoved()))
          : "- (nothing written yet)");
      printDiskUse(out, s.diskUse());
      printEnergy(out, s.energy());
      out.printf("%-8s %12s %16s %13s %22s%n", "channel", "pages read", "pages programmed", "blocks erased",
          "busy ms (modelled)");
      List<ChannelStatistics> channels = s.channels();
      for (int c = 0; c < channels.size(); c++) {
        ChannelStatistics ch = channels.get(c);
        out.printf("%-8d %12d %16d %13d %22.3f%n", c, ch.pagesRead(), ch.pagesProgrammed(), ch.blocksErased(),
            ch.busyNanos() / 1e6);
      }
      out.flush();
      return 0;
    }
  }

  /** The flash files' disk use against live data, and space reclaim; a version 1 device reports neither. */
  static void printDiskUse(PrintWriter out, DiskUse d) {
    if (d == null) {
      out.printf("disk use              not reported (the device speaks protocol version 1)%n");
      return;
    }
    out.printf("live data             %s (flash pages in use)%n", bytes(d.liveBytes()));
    if (d.allocatedKnown()) {
      out.printf("disk use              %s (what the flash files take on disk; their size is %s, sparse)%n",
          bytes(d.allocatedBytes()), bytes(d.fileBytes()));
    } else {
      out.printf("disk use              unknown (the device cannot measure it without its native library)%n");
    }
    if (d.reclaiming()) {
      out.printf("space reclaim         on: erased flash gives its disk space back (%s in %d holes punched since"
          + " start)%n", bytes(d.punchedBytes()), d.holesPunched());
    } else {
      out.printf("space reclaim         off: %s%n", d.reclaimNote());
    }
  }

  /** The device's energy account since it started; a device of protocol version 2 or older reports none. */
  static void printEnergy(PrintWriter out, DeviceEnergy e) {
    if (e == null) {
      out.printf("energy                not reported (the device speaks protocol version 2 or older)%n");
      return;
    }
    out.printf("energy                %.6f J (modelled, above idle power: cores %.6f J over %.3f ms busy, flash reads"
        + " %.6f J, programs %.6f J, erases %.6f J, host link %.6f J)%n", DeviceEnergy.joules(e.totalNanojoules()),
        DeviceEnergy.joules(e.coreNanojoules()), e.coreBusyNanos() / 1e6, DeviceEnergy.joules(e.flashReadNanojoules()),
        DeviceEnergy.joules(e.flashProgramNanojoules()), DeviceEnergy.joules(e.flashEraseNanojoules()),
        DeviceEnergy.joules(e.linkNanojoules()));
  }

  static String bytes(long n) {
    if (n < 1024) {
      return n + " bytes";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format("%d bytes (%.1f %s)", n, v, units[u]);
  }
}
