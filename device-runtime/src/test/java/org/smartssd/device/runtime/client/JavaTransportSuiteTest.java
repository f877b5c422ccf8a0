package org.smartssd.device.runtime.client;

import java.io.IOException;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.DeviceTransports;

/** The client suite over the pure-Java transport. */
class JavaTransportSuiteTest extends DeviceClientSuite {
  @Override
  protected DeviceClient connect(DeviceAddress address, ClientOptions options) throws IOException {
    return DeviceTransports.select(DeviceTransports.JAVA).connect(address, options);
  }
}
