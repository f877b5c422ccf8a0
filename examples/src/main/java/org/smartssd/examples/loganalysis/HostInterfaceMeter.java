package org.smartssd.examples.loganalysis;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.SocketDeviceClient;

/**
 * Reads the STATISTICS of the devices that hold a job's input, before and after the job: bytes across
 * each device's host interface and its modelled link busy time. Its own STATISTICS requests are a few
 * hundred bytes, counted with the rest.
 */
final class HostInterfaceMeter implements Closeable {
  private final List<DeviceClient> clients = new ArrayList<>();
  private final List<DeviceInfo> infos = new ArrayList<>();

  private HostInterfaceMeter() {}

  /** Connects to every device among the inputs' file systems (objfs); none for other file systems. */
  static HostInterfaceMeter forInputs(Configuration conf, List<Path> inputs) throws IOException {
    Set<String> authorities = new LinkedHashSet<>();
    for (Path input : inputs) {
      FileSystem fs = input.getFileSystem(conf);
      if ("objfs".equals(fs.getScheme())) {
        authorities.add(fs.getUri().getAuthority());
      }
    }
    HostInterfaceMeter meter = new HostInterfaceMeter();
    try {
      for (String authority : authorities) {
        SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(authority), ClientOptions.defaults());
        meter.clients.add(c);
        meter.infos.add(c.info());
      }
    } catch (IOException | RuntimeException e) {
      meter.close();
      throw e;
    }
    return meter;
  }

  boolean hasDevices() {
    return !clients.isEmpty();
  }

  /** Whether the devices are paced (all of them), or null without a device. */
  Boolean paced() {
    if (infos.isEmpty()) {
      return null;
    }
    return infos.stream().allMatch(DeviceInfo::paced);
  }

  /** The first device's effective configuration (its energy parameters), empty without a device. */
  Map<String, String> configuration() {
    return infos.isEmpty() ? Map.of() : infos.get(0).parameters();
  }

  Snapshot snapshot() throws IOException {
    long in = 0;
    long out = 0;
    long link = 0;
    for (DeviceClient c : clients) {
      DeviceStatistics s = c.statistics();
      in += s.hostBytesIn();
      out += s.hostBytesOut();
      link += s.linkBusyNanos();
    }
    return new Snapshot(in, out, link);
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

  /** Sums over the devices. */
  record Snapshot(long hostBytesIn, long hostBytesOut, long linkBusyNanos) {
    Snapshot minus(Snapshot before) {
      return new Snapshot(hostBytesIn - before.hostBytesIn, hostBytesOut - before.hostBytesOut,
          linkBusyNanos - before.linkBusyNanos);
    }
  }
}
