package org.smartssd.jni;

import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.smartssd.device.runtime.DeviceProcess;
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
        .isExactlyInstanceOf(IOException.class).hasMessageContaining("lost"); // as the Java transport: objfs reconnects
    assertThat(NativeDeviceClient.translate(a, NativeException.E_INTERRUPTED, "given up", "READ"))
        .isInstanceOf(InterruptedIOException.class);
    assertThat(NativeConnection.statusName(NativeException.E_AGAIN)).isEqualTo("AGAIN");
    assertThat(NativeConnection.statusName(NativeException.E_TIMEOUT)).isEqualTo("TIMEOUT");
    assertThat(NativeConnection.statusName(15)).isEqualTo("BAD_HANDLE");
    // AUTH_REQUIRED: the device's message gets the address; the library's own names it already.
    assertThat(NativeDeviceClient.translate(a, 16, "DELETE: device d requires hosts to authenticate first", "DELETE"))
        .isInstanceOf(DeviceException.AuthRequired.class)
        .hasMessage("127.0.0.1:7070: DELETE: device d requires hosts to authenticate first");
    assertThat(NativeDeviceClient.translate(a, 16, "device 127.0.0.1:7070: the device requires hosts to authenticate",
        "connect")).isInstanceOf(DeviceException.AuthRequired.class)
        .hasMessage("device 127.0.0.1:7070: the device requires hosts to authenticate");
    assertThat(NativeDeviceClient.translate(a, NativeException.E_SECRET, "secret file /s not found", "connect"))
        .isExactlyInstanceOf(IOException.class).hasMessage("secret file /s not found"); // as HostSecret.read's
    assertThat(NativeConnection.statusName(16)).isEqualTo("AUTH_REQUIRED");
  }

  /**
   * A call waiting on a device that stopped answering (SIGSTOP) ends when its thread is interrupted,
   * with {@link InterruptedIOException} and the interrupt status kept, in both transports alike; the
   * request is given up, and once the device answers again the same client goes on.
   */
  @Test
  void anInterruptEndsAWaitForAFrozenDeviceAndTheClientGoesOn() throws Exception {
    try (DeviceProcess device = DeviceProcess.start(dir.resolve("frozen"), TestDevices.small(dir.resolve("frozen")))) {
      DeviceAddress address = DeviceAddress.parse(device.address());
      ClientOptions options = new ClientOptions(ClientOptions.CONNECT_TIMEOUT_DEFAULT, java.time.Duration.ofSeconds(60),
          1 << 20);
      for (String name : List.of(DeviceTransports.JAVA, DeviceTransports.NATIVE)) {
        try (DeviceClient client = DeviceTransports.select(name).connect(address, options)) {
          assertThat(client.status("/").directory()).isTrue();
          signal("STOP", device.pid());
          try {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread caller = new Thread(() -> {
              try {
                client.status("/");
              } catch (Throwable t) {
                failure.set(t);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
              }
            }, "caller-" + name);
            caller.start();
            Thread.sleep(300); // the request is out, its answer cannot come
            assertThat(caller.isAlive()).as(name + ": waiting for the frozen device").isTrue();
            caller.interrupt();
            caller.join(10_000);
            assertThat(caller.isAlive()).as(name + ": the interrupt ended the wait").isFalse();
            assertThat(failure.get()).as(name).isInstanceOf(InterruptedIOException.class)
                .hasMessageContaining(address.toString());
            assertThat(stillInterrupted.get()).as(name + ": the interrupt status is kept").isTrue();
          } finally {
            signal("CONT", device.pid());
          }
          assertThat(client.status("/").directory()).as(name + ": the client goes on").isTrue();
        }
      }
    }
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor()).isZero();
  }
}
