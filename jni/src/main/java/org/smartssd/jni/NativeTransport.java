package org.smartssd.jni;

import java.io.IOException;
import java.util.Optional;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.DeviceTransport;
import org.smartssd.device.client.DeviceTransports;

/** The native transport, found through {@code META-INF/services}: {@code smartssd.transport=native}. */
public final class NativeTransport implements DeviceTransport {
  @Override
  public String name() {
    return DeviceTransports.NATIVE;
  }

  @Override
  public Optional<String> unavailable() {
    return NativeLibrary.unavailable();
  }

  @Override
  public DeviceClient connect(DeviceAddress address, ClientOptions options) throws IOException {
    return NativeDeviceClient.connect(address, options);
  }

  @Override
  public String toString() {
    return "transport native";
  }
}
