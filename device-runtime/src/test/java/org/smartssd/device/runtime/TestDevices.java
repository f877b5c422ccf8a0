package org.smartssd.device.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.config.DeviceConfig;

/** Small real devices for tests: any free port, a temporary data directory, a few MiB of flash. */
public final class TestDevices {
  private TestDevices() {}

  /** Overrides for a small device in {@code dataDir}; callers add their own. */
  public static Map<String, String> small(Path dataDir) {
    Map<String, String> o = new HashMap<>();
    o.put("smartssd.device.data-dir", dataDir.toString());
    o.put("smartssd.device.host.port", "0");
    o.put("smartssd.device.name", "test-device");
    o.put("smartssd.device.flash.blocks-per-way", "16");
    o.put("smartssd.device.flash.pages-per-block", "32");
    o.put("smartssd.device.flash.page-size-bytes", "4096");
    o.put("smartssd.device.flash.overprovisioning-percent", "20");
    return o;
  }

  public static SimulatedDevice start(Map<String, String> overrides) throws IOException {
    return SimulatedDevice.start(DeviceConfig.load(overrides));
  }

  public static SocketDeviceClient connect(SimulatedDevice device) throws IOException {
    return connect(device.address());
  }

  public static SocketDeviceClient connect(String address) throws IOException {
    return SocketDeviceClient.connect(DeviceAddress.parse(address), ClientOptions.defaults());
  }

  /** Connects to the device's Unix domain socket (it must have one). */
  public static SocketDeviceClient connectUnix(SimulatedDevice device) throws IOException {
    return SocketDeviceClient.connect(device.unixAddress().orElseThrow(), ClientOptions.defaults());
  }

  /** {@code n} pseudo-random bytes, the same for the same seed. */
  public static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** The whole content of a file, read through OPEN and READ. */
  public static byte[] readAll(DeviceClient c, String path) throws IOException {
    ObjectStatus st = c.open(path);
    ByteBuffer buf = ByteBuffer.allocate((int) st.length());
    long offset = 0;
    while (buf.hasRemaining()) {
      int n = c.read(st.objectId(), offset, buf);
      if (n < 0) {
        break;
      }
      offset += n;
    }
    return buf.array();
  }
}
