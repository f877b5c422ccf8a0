package org.smartssd.examples.loganalysis;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.runtime.config.ConfigException;
import org.smartssd.device.runtime.config.DeviceConfig;

/**
 * Reads the STATISTICS of the devices that hold a job's input, before and after the job: bytes across
 * each device's host interface and its modelled link busy time, its flash operations, the delay its
 * internal reads caused host commands, and its modelled energy by component (the device's own account),
 * device by device. Its own STATISTICS requests are a few hundred bytes, counted with the rest.
 */
final class HostInterfaceMeter implements Closeable {
  private final List<String> addresses = new ArrayList<>();
  private final List<DeviceClient> clients = new ArrayList<>();
  private final List<DeviceInfo> infos = new ArrayList<>();

  private HostInterfaceMeter() {}

  /**
   * The devices among the inputs' file systems (objfs), each once, as {@code host:port} (the
   * authority of its objfs URI), in the order the inputs name them.
   */
  static List<String> devices(Configuration conf, List<Path> inputs) throws IOException {
    Set<String> authorities = new LinkedHashSet<>();
    for (Path input : inputs) {
      FileSystem fs = input.getFileSystem(conf);
      if ("objfs".equals(fs.getScheme())) {
        authorities.add(fs.getUri().getAuthority());
      }
    }
    return List.copyOf(authorities);
  }

  /** Connects to every device among the inputs' file systems (objfs); none for other file systems. */
  static HostInterfaceMeter forInputs(Configuration conf, List<Path> inputs) throws IOException {
    HostInterfaceMeter meter = new HostInterfaceMeter();
    try {
      for (String authority : devices(conf, inputs)) {
        SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(authority),
            org.smartssd.objectfs.DeviceClients.clientOptions(conf));
        meter.addresses.add(authority);
        meter.clients.add(c);
        meter.infos.add(c.info());
      }
    } catch (IOException | RuntimeException e) {
      meter.close();
      throw e;
    }
    return meter;
  }

  /** The devices metered, as {@code host:port}. */
  List<String> addresses() {
    return List.copyOf(addresses);
  }

  /** Whether the devices are paced (all of them), or null without a device. */
  Boolean paced() {
    if (infos.isEmpty()) {
      return null;
    }
    return infos.stream().allMatch(DeviceInfo::paced);
  }

  /**
   * The modelled host's CPU and the energy model's powers, from the first device's effective configuration
   * (every device of a run is meant to model the same system); the defaults without a device.
   *
   * @throws IOException if the device's configuration does not load here (a device of another version)
   */
  RunStatistics.ModelParameters parameters() throws IOException {
    DeviceConfig config;
    try {
      config = infos.isEmpty() ? DeviceConfig.defaults() : DeviceConfig.load(infos.get(0).parameters());
    } catch (ConfigException e) {
      throw new IOException("device " + addresses.get(0) + " reports a configuration this host cannot read: "
          + e.getMessage(), e);
    }
    return new RunStatistics.ModelParameters(config.isp().computeModel(), config.isp().host(), config.isp().hostCores(),
        config.energy(), config.isp().core());
  }

  /**
   * Every device's counters now, by address.
   *
   * @throws IOException if a device does not report its energy (protocol version 2 or older): the host
   *     does not model a device's energy in its place
   */
  Map<String, Snapshot> snapshot() throws IOException {
    Map<String, Snapshot> m = new LinkedHashMap<>();
    for (int i = 0; i < clients.size(); i++) {
      DeviceStatistics s = clients.get(i).statistics();
      if (s.energy() == null) {
        throw new IOException("device " + addresses.get(i) + " does not report its modelled energy (it speaks protocol "
            + "version " + clients.get(i).protocolVersion() + "; the energy account came with version "
            + ProtocolConstants.ENERGY_VERSION + "): run a device of this version");
      }
      m.put(addresses.get(i), new Snapshot(s.hostBytesIn(), s.hostBytesOut(), s.linkBusyNanos(), s.totalPagesRead(),
          s.totalPagesProgrammed(), s.totalBlocksErased(), s.modelledInternalDelayNanos(), s.answersBehindModelNanos(),
          s.modelledCommandNanos(), s.modelledExecutionNanos(), s.energy()));
    }
    return m;
  }

  /** Each device's counters in {@code after} less those in {@code before}. */
  static Map<String, Snapshot> used(Map<String, Snapshot> before, Map<String, Snapshot> after) {
    Map<String, Snapshot> m = new LinkedHashMap<>();
    after.forEach((device, s) -> m.put(device, s.minus(before.getOrDefault(device, Snapshot.ZERO))));
    return m;
  }

  @Override
  public void close() {
    for (DeviceClient c : clients) {
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        // a statistics connection: nothing to keep
      }
    }
    clients.clear();
  }

  /**
   * One device's counters: its host interface, its flash, the delay its internal reads caused, and its
   * modelled energy.
   */
  record Snapshot(long hostBytesIn, long hostBytesOut, long linkBusyNanos, long pagesRead, long pagesProgrammed,
      long blocksErased, long internalDelayNanos, long answersBehindNanos, long commandNanos, long executionNanos,
      DeviceEnergy energy) {
    static final Snapshot ZERO = new Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, DeviceEnergy.NONE);

    Snapshot minus(Snapshot before) {
      return new Snapshot(hostBytesIn - before.hostBytesIn, hostBytesOut - before.hostBytesOut,
          linkBusyNanos - before.linkBusyNanos, pagesRead - before.pagesRead, pagesProgrammed - before.pagesProgrammed,
          blocksErased - before.blocksErased, internalDelayNanos - before.internalDelayNanos,
          answersBehindNanos - before.answersBehindNanos, commandNanos - before.commandNanos,
          executionNanos - before.executionNanos, energy.minus(before.energy));
    }

    RunStatistics.FlashWork flash() {
      return new RunStatistics.FlashWork(pagesRead, pagesProgrammed, blocksErased);
    }
  }
}
