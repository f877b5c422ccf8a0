package org.smartssd.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.DeviceTransport;
import org.smartssd.device.client.DeviceTransports;
import org.smartssd.device.protocol.ProtocolException;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;

/** Selecting the native transport by name, and its errors read as the Java transport's. */
class NativeTransportTest {
  @TempDir Path dir;

  @BeforeAll
  static void libraryLoads() {
    NativeTests.assumeLibrary();
  }

  @Test
  void nativeIsFoundByNameAndConnects() throws Exception {
    DeviceTransport transport = DeviceTransports.select(DeviceTransports.NATIVE);
    assertThat(transport).isInstanceOf(NativeTransport.class);
    assertThat(transport.unavailable()).isEmpty();
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        DeviceClient client = transport.connect(DeviceAddress.parse(device.address()),
            new ClientOptions(ClientOptions.CONNECT_TIMEOUT_DEFAULT, ClientOptions.REQUEST_TIMEOUT_DEFAULT, 1 << 20))) {
      assertThat(client).isInstanceOf(NativeDeviceClient.class);
      assertThat(client.info().deviceName()).isEqualTo(device.info().deviceName());
    }
    assertThatThrownBy(() -> DeviceTransports.select("carrier-pigeon")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("carrier-pigeon").hasMessageContaining("native");
  }

  @Test
  void theLibrarysFailuresBecomeTheJavaTransportsExceptions() {
    DeviceAddress a = new DeviceAddress("127.0.0.1", 7070);
    assertThat(NativeDeviceClient.translate(a, 1, "/x: no such file", "OPEN"))
        .isInstanceOf(java.io.FileNotFoundException.class).hasMessage("127.0.0.1:7070: /x: no such file");
    assertThat(NativeDeviceClient.translate(a, 14, "/x is open", "APPEND"))
        .isInstanceOf(DeviceException.LeaseConflict.class);
    assertThat(NativeDeviceClient.translate(a, NativeException.E_TIMEOUT, "device 127.0.0.1:7070: no reply", "READ"))
        .isInstanceOf(SocketTimeoutException.class).hasMessage("device 127.0.0.1:7070: no reply");
    assertThat(NativeDeviceClient.translate(a, NativeException.E_PROTOCOL, "bad magic", "READ"))
        .isInstanceOf(ProtocolException.class).hasMessageContaining("127.0.0.1:7070");
    assertThat(NativeDeviceClient.translate(a, NativeException.E_CLOSED, "closed mid-frame", "READ"))
        .isInstanceOf(IOException.class).hasMessageContaining("lost");
    assertThat(NativeConnection.statusName(NativeException.E_TIMEOUT)).isEqualTo("TIMEOUT");
    assertThat(NativeConnection.statusName(15)).isEqualTo("BAD_HANDLE");
  }
}
