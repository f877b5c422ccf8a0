package org.smartssd.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.DeviceTransports;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;

/**
 * The authentication handshake through the C library, against a real device started with a secret:
 * the same outcomes as the Java transport's, and {@code smartssd-cli} taking its secret from
 * {@code SMARTSSD_SECRET_FILE} or {@code --secret-file}.
 */
class NativeAuthenticationTest {
  private static final ClientOptions OPTIONS =
      new ClientOptions(ClientOptions.CONNECT_TIMEOUT_DEFAULT, ClientOptions.REQUEST_TIMEOUT_DEFAULT, 1 << 20);

  @TempDir Path dir;

  @BeforeAll
  static void libraryLoads() {
    NativeTests.assumeLibrary();
  }

  /** A device that requires hosts to prove they hold the secret in {@code secretFile}. */
  private SimulatedDevice deviceWithSecret(Path secretFile) throws IOException {
    Map<String, String> config = TestDevices.small(dir.resolve("device"));
    config.put("smartssd.device.host.secret-file", secretFile.toString());
    return TestDevices.start(config);
  }

  @Test
  void withTheSecretEveryCommandIsServed() throws Exception {
    Path secretFile = dir.resolve("device.secret");
    ClientOptions options = OPTIONS.withSecret(HostSecret.generate(secretFile));
    byte[] data = TestDevices.bytes(300_000, 7);
    try (SimulatedDevice device = deviceWithSecret(secretFile)) {
      DeviceAddress address = DeviceAddress.parse(device.address());
      try (DeviceClient client = NativeDeviceClient.connect(address, options)) {
        client.mkdirs("/auth/dir");
        assertThat(client.status("/auth/dir").directory()).isTrue();
        Response.Opened opened = client.create("/auth/dir/file", false, false);
        assertThat(client.write(opened.handle(), ByteBuffer.wrap(data))).isEqualTo(data.length);
        assertThat(client.closeHandle(opened.handle())).isEqualTo(data.length);
        assertThat(TestDevices.readAll(client, "/auth/dir/file")).isEqualTo(data);
        assertThat(client.info().deviceName()).isEqualTo(device.info().deviceName());
      }
      // The same options again: connect wipes its copy of the key, not the options' secret.
      try (DeviceClient client = NativeDeviceClient.connect(address, options)) {
        assertThat(TestDevices.readAll(client, "/auth/dir/file")).isEqualTo(data);
      }
    }
  }

  @Test
  void withoutASecretTheConnectFailsWithAuthRequiredInBothTransports() throws Exception {
    String fromEnvironment = System.getenv("SMARTSSD_SECRET_FILE");
    assumeTrue(fromEnvironment == null || fromEnvironment.isEmpty(),
        "SMARTSSD_SECRET_FILE is set: the C library would use it");
    Path secretFile = dir.resolve("device.secret");
    HostSecret.generate(secretFile);
    try (SimulatedDevice device = deviceWithSecret(secretFile)) {
      DeviceAddress address = DeviceAddress.parse(device.address());
      for (String name : List.of(DeviceTransports.JAVA, DeviceTransports.NATIVE)) {
        assertThatThrownBy(() -> DeviceTransports.select(name).connect(address, OPTIONS).close()).as(name)
            .isInstanceOf(DeviceException.AuthRequired.class)
            .hasMessageContaining(address.toString())
            .hasMessageContaining("requires hosts to authenticate")
            .hasMessageContaining("SMARTSSD_SECRET_FILE")
            .satisfies(e -> assertThat(e.getMessage()).as("the address once")
                .containsOnlyOnce(address.toString()));
      }
    }
  }

  @Test
  void withAnotherDevicesSecretTheDeviceRefusesTheProofInBothTransports() throws Exception {
    Path secretFile = dir.resolve("device.secret");
    HostSecret.generate(secretFile);
    Path otherFile = dir.resolve("other.secret");
    HostSecret.generate(otherFile);
    ClientOptions wrong = OPTIONS.withSecret(HostSecret.read(otherFile));
    try (SimulatedDevice device = deviceWithSecret(secretFile)) {
      DeviceAddress address = DeviceAddress.parse(device.address());
      for (String name : List.of(DeviceTransports.JAVA, DeviceTransports.NATIVE)) {
        assertThatThrownBy(() -> DeviceTransports.select(name).connect(address, wrong).close()).as(name)
            .isInstanceOf(DeviceException.AuthRequired.class)
            .hasMessageContaining(address.toString())
            .hasMessageContaining("refused the proof")
            .hasMessageContaining("is not this device's");
      }
      // The refusals cost the device nothing lasting: the right secret still gets in.
      try (DeviceClient client = NativeDeviceClient.connect(address, OPTIONS.withSecret(HostSecret.read(secretFile)))) {
        assertThat(client.status("/").directory()).isTrue();
      }
    }
  }

  @Test
  void aSecretTooShortForTheCLibraryIsRefusedBeforeConnecting() {
    // HostSecret.of accepts 16 bytes and more; a shorter key can only come from elsewhere, so this
    // goes to the binding directly.
    assertThatThrownBy(() -> NativeConnection.connect("127.0.0.1:1", 1000, 1000, 1 << 20, new byte[5]))
        .isInstanceOf(NativeException.class)
        .satisfies(e -> assertThat(((NativeException) e).code()).isEqualTo(NativeException.E_SECRET))
        .hasMessageContaining("at least 16");
    assertThat(NativeConnection.statusName(16)).isEqualTo("AUTH_REQUIRED");
    assertThat(NativeConnection.statusName(NativeException.E_SECRET)).isEqualTo("BAD_SECRET");
  }

  @Test
  void aDeviceWithoutASecretServesAClientThatHasOne() throws Exception {
    Path secretFile = dir.resolve("unused.secret");
    HostSecret.generate(secretFile);
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir.resolve("open")));
        DeviceClient client = NativeDeviceClient.connect(DeviceAddress.parse(device.address()),
            OPTIONS.withSecret(HostSecret.read(secretFile)))) {
      client.mkdirs("/open");
      assertThat(client.status("/open").directory()).isTrue();
    }
  }

  // ---- smartssd-cli ----

  private record Run(int exit, String out, String err) {}

  /** Runs the tool built with the library, with SMARTSSD_SECRET_FILE set to {@code secretFile} (null: unset). */
  private Run cli(Path secretFile, String... args) throws Exception {
    Path tool = Path.of("target", "native", "smartssd-cli").toAbsolutePath();
    assumeTrue(Files.isExecutable(tool), "smartssd-cli was not built (-DskipNative)");
    List<String> command = new ArrayList<>();
    command.add(tool.toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().remove("SMARTSSD_SECRET_FILE");
    pb.environment().remove("SMARTSSD_DEVICE");
    if (secretFile != null) {
      pb.environment().put("SMARTSSD_SECRET_FILE", secretFile.toString());
    }
    Path out = dir.resolve("cli.out");
    Path err = dir.resolve("cli.err");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("smartssd-cli ends").isTrue();
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void theCliTakesTheSecretFromTheEnvironmentOrItsOption() throws Exception {
    Path secretFile = dir.resolve("device.secret");
    HostSecret.generate(secretFile);
    try (SimulatedDevice device = deviceWithSecret(secretFile)) {
      String address = device.address();

      Run fromEnvironment = cli(secretFile, "--device", address, "stat", "/");
      assertThat(fromEnvironment.exit()).as(fromEnvironment.err()).isZero();
      assertThat(fromEnvironment.out()).contains("kind:     directory");

      Run fromOption = cli(null, "--device", address, "--secret-file", secretFile.toString(), "stat", "/");
      assertThat(fromOption.exit()).as(fromOption.err()).isZero();

      Run without = cli(null, "--device", address, "stat", "/");
      assertThat(without.exit()).isEqualTo(1);
      assertThat(without.err()).startsWith("smartssd-cli: ").contains("requires hosts to authenticate")
          .contains("SMARTSSD_SECRET_FILE");

      Path open = dir.resolve("open.secret");
      Files.copy(secretFile, open);
      Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
      Run openToOthers = cli(open, "--device", address, "stat", "/");
      assertThat(openToOthers.exit()).isEqualTo(1);
      assertThat(openToOthers.err()).contains(open.toString()).contains("open to others than its owner")
          .contains("SMARTSSD_SECRET_FILE");
    }
    Run help = cli(null, "--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).contains("--secret-file FILE").contains("SMARTSSD_SECRET_FILE");
  }
}
