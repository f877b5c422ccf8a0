package org.smartssd.examples.loganalysis;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.objectfs.DeviceClients;
import org.smartssd.objectfs.ObjfsConfigKeys;

/**
 * The devices a command runs on ({@code smartssd mine}, {@code smartssd search}): running devices given
 * by address, each of which must answer, all paced or all unpaced; or devices of its own, each a child
 * JVM ({@link DeviceProcess}, so that the host CPU time measured here is the host's alone) on a data
 * directory of its own, unpaced, sharing the packages MapReduce tasklets need, and serving only this
 * command: a secret is made for them and set in the configuration its clients read. Closing stops the
 * devices it started.
 */
public final class CommandDevices implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(CommandDevices.class);

  private final List<String> addresses;
  private final String profile;
  private final boolean paced;
  private final List<DeviceProcess> started;

  private CommandDevices(List<String> addresses, String profile, boolean paced, List<DeviceProcess> started) {
    this.addresses = List.copyOf(addresses);
    this.profile = profile;
    this.paced = paced;
    this.started = started;
  }

  /**
   * Running devices.
   *
   * @throws IOException naming a device that does not answer, or devices that differ in pacing
   */
  public static CommandDevices given(Configuration conf, List<String> addresses) throws IOException {
    ClientOptions clientOptions = DeviceClients.clientOptions(conf);
    List<DeviceInfo> given = new ArrayList<>();
    for (String address : addresses) {
      try (SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(address), clientOptions)) {
        given.add(c.info());
      } catch (IOException e) {
        throw new IOException("device " + address + " (--device) does not answer: " + e.getMessage(), e);
      }
    }
    if (given.stream().map(DeviceInfo::paced).distinct().count() > 1) {
      throw new IOException("the devices " + addresses + " differ in pacing; give devices that are all paced or all "
          + "unpaced");
    }
    String profile = String.join(",", given.stream().map(DeviceInfo::profile).distinct().toList());
    return new CommandDevices(addresses, profile, !given.isEmpty() && given.get(0).paced(), List.of());
  }

  /**
   * Starts {@code count} devices of the profile, unpaced, each with its data directory and log in
   * {@code work}, and sets their secret in {@code conf}.
   *
   * @param deviceProperties more {@code smartssd.device.*} keys for them
   */
  public static CommandDevices start(Configuration conf, Path work, String profile, int count,
      Map<String, String> deviceProperties) throws IOException {
    return start(conf, work, profile, count, false, deviceProperties);
  }

  /** As {@link #start(Configuration, Path, String, int, Map)}, paced or not. */
  public static CommandDevices start(Configuration conf, Path work, String profile, int count, boolean paced,
      Map<String, String> deviceProperties) throws IOException {
    Map<String, String> properties = new TreeMap<>(deviceProperties);
    properties.put(DeviceConfigKeys.ISP_SHARED_PACKAGES, DeviceMode.SHARED_PACKAGES);
    Path secret = work.resolve("device-secret");
    HostSecret.generate(secret);
    properties.put(DeviceConfigKeys.HOST_SECRET_FILE, secret.toString());
    conf.set(ObjfsConfigKeys.SECRET_FILE, secret.toString());
    ClientOptions clientOptions = DeviceClients.clientOptions(conf);
    List<DeviceProcess> started = new ArrayList<>();
    CommandDevices devices = new CommandDevices(List.of(), profile, paced, started);
    try {
      for (int i = 0; i < count; i++) {
        String name = count == 1 ? "device" : "device-" + i;
        started.add(DeviceProcess.start(work.resolve(name), profile, paced, properties, work.resolve(name + ".log"),
            clientOptions));
      }
    } catch (IOException | RuntimeException e) {
      devices.close();
      throw e;
    }
    return new CommandDevices(started.stream().map(DeviceProcess::address).toList(), profile, paced, started);
  }

  /** The devices, {@code host:port}. */
  public List<String> addresses() {
    return addresses;
  }

  /** Their profile (distinct ones joined by commas when given devices differ). */
  public String profile() {
    return profile;
  }

  public boolean paced() {
    return paced;
  }

  /** Whether the command started them. */
  public boolean own() {
    return !started.isEmpty();
  }

  /** What they are, in a line: started or given, their profile, pacing and addresses. */
  public String description() {
    return own()
        ? String.format(Locale.ROOT, "%d device(s) started, each in a child JVM (profile %s, %s): %s",
            addresses.size(), profile, paced ? "paced" : "unpaced", String.join(", ", addresses))
        : String.format(Locale.ROOT, "using %d device(s): %s (profile %s, %s)", addresses.size(),
            String.join(", ", addresses), profile, paced ? "paced" : "unpaced");
  }

  /** Stops the devices the command started; one that does not stop is logged, and the others are still stopped. */
  @Override
  public void close() {
    for (DeviceProcess d : started) {
      try {
        d.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("could not stop device {}: {}", d.address(), e.getMessage());
      }
    }
  }
}
