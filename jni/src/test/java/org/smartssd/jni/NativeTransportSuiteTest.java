package org.smartssd.jni;

import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.runtime.client.DeviceClientSuite;

/** The client suite, the same as the Java transport's, over the C library. */
class NativeTransportSuiteTest extends DeviceClientSuite {
  @BeforeAll
  static void libraryLoads() {
    NativeTests.assumeLibrary();
  }

  @Override
  protected DeviceClient connect(DeviceAddress address, ClientOptions options) throws IOException {
    return NativeDeviceClient.connect(address, options);
  }

  /** The C library speaks versions 1 to 6 (SSD_MAX_VERSION): it does not ask for profiles (version 7). */
  @Override
  protected int highestVersion() {
    return org.smartssd.device.protocol.ProtocolConstants.PROFILE_VERSION - 1;
  }
}
