package org.smartssd.device.runtime.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Frame;
import org.smartssd.device.protocol.FrameReader;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.Opcode;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.config.ConfigException;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;

/**
 * A device with a secret serves a connection only once it has proved it holds it: the Java client
 * with the secret works as before; without it, with a wrong one, or speaking raw frames, nothing but
 * the version and the handshake is served, the connection is closed, and the data stays.
 */
class AuthenticationTest {
  @TempDir Path dir;
  private SimulatedDevice device;
  private Path secretFile;
  private HostSecret secret;

  @BeforeEach
  void start() throws IOException {
    secretFile = dir.resolve("secret");
    secret = HostSecret.generate(secretFile);
    Map<String, String> o = TestDevices.small(dir.resolve("device"));
    o.put(DeviceConfigKeys.HOST_SECRET_FILE, secretFile.toString());
    device = TestDevices.start(o);
    try (SocketDeviceClient c = connect(secret)) {
      c.mkdirs("/kept");
    }
  }

  @AfterEach
  void stop() throws IOException {
    device.close();
  }

  private SocketDeviceClient connect(HostSecret s) throws IOException {
    return SocketDeviceClient.connect(DeviceAddress.parse(device.address()), ClientOptions.defaults().withSecret(s));
  }

  private void assertKeptAndServing() throws IOException {
    try (SocketDeviceClient c = connect(secret)) {
      assertTrue(c.status("/kept").directory(), "the data is still there, and the device serves");
    }
  }

  @Test
  void aClientWithTheSecretIsServedAndTheDeviceProvesItHoldsItToo() throws IOException {
    try (SocketDeviceClient c = connect(HostSecret.read(secretFile))) {
      c.mkdirs("/a/b");
      assertTrue(c.status("/a/b").directory());
      assertEquals("test-device", c.info().deviceName());
    }
  }

  @Test
  void aClientWithoutTheSecretIsToldWhatToGive() {
    DeviceException.AuthRequired e = assertThrows(DeviceException.AuthRequired.class, () -> connect(null));
    assertTrue(e.getMessage().contains("fs.objfs.secret-file") && e.getMessage().contains(device.address()),
        e.getMessage());
  }

  @Test
  void aWrongSecretIsRefusedSlowlyAndNamed() throws IOException {
    HostSecret wrong = HostSecret.generate(dir.resolve("other"));
    long start = System.nanoTime();
    DeviceException.AuthRequired e = assertThrows(DeviceException.AuthRequired.class, () -> connect(wrong));
    long waitedMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(e.getMessage().contains("refused the proof") && e.getMessage().contains(dir.resolve("other").toString()),
        e.getMessage());
    assertTrue(waitedMs >= DeviceServer.AUTH_FAILURE_DELAY_MS - 50, "a failed attempt is answered late: " + waitedMs);
    assertKeptAndServing();
  }

  /** A raw connection: its frames, and the device's answers. */
  private static final class Raw implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final InputStream in;
    final FrameReader frames;
    long nextId = 1;

    Raw(int port) throws IOException {
      socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(30_000);
      out = socket.getOutputStream();
      in = socket.getInputStream();
      frames = new FrameReader(in);
    }

    Frame call(Request r) throws IOException {
      ByteBuffer f = Messages.requestFrame(ProtocolConstants.CURRENT_VERSION, nextId++, r);
      byte[] b = new byte[f.remaining()];
      f.get(b);
      out.write(b);
      out.flush();
      return frames.read(1 << 20);
    }

    static Response decode(Frame f, Opcode op) throws IOException {
      return Messages.decodeResponse(op, Status.fromCode(f.header().status()), f.payload());
    }

    boolean closedByDevice() throws IOException {
      return in.read() == -1;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void deleteAndShutdownWithoutAuthenticatingAreRefusedAndTheConnectionClosed() throws IOException {
    try (Raw raw = new Raw(device.port())) {
      assertInstanceOf(Response.Versions.class, Raw.decode(raw.call(new Request.ApiVersions()), Opcode.API_VERSIONS),
          "the version handshake needs no authentication");
      Frame answer = raw.call(new Request.Delete("/", true));
      assertEquals(Status.AUTH_REQUIRED.code(), answer.header().status());
      Response.Error error = (Response.Error) Raw.decode(answer, Opcode.DELETE);
      assertTrue(error.message().startsWith("DELETE: device test-device requires hosts to authenticate"), error.message());
      assertTrue(raw.closedByDevice());
    }
    try (Raw raw = new Raw(device.port())) {
      assertEquals(Status.AUTH_REQUIRED.code(), raw.call(new Request.Shutdown()).header().status());
      assertTrue(raw.closedByDevice());
    }
    assertKeptAndServing();
  }

  @Test
  void aRecordedProofIsWorthNothingOnAnotherConnection() throws IOException {
    byte[] hostNonce = HostSecret.nonce();
    byte[] recorded;
    try (Raw raw = new Raw(device.port())) {
      Response.AuthChallenge c = (Response.AuthChallenge) Raw.decode(
          raw.call(new Request.AuthChallenge(ByteBuffer.wrap(hostNonce))), Opcode.AUTH_CHALLENGE);
      assertTrue(c.required());
      recorded = secret.hostProof(c.deviceNonce(), ByteBuffer.wrap(hostNonce));
      Response.Authenticated a = (Response.Authenticated) Raw.decode(
          raw.call(new Request.Authenticate(ByteBuffer.wrap(recorded))), Opcode.AUTHENTICATE);
      assertArrayEquals(secret.deviceProof(c.deviceNonce(), ByteBuffer.wrap(hostNonce)), bytes(a.proof()));
      assertInstanceOf(Response.Empty.class, Raw.decode(raw.call(new Request.Mkdirs("/raw")), Opcode.MKDIRS),
          "authenticated: served");
    }
    try (Raw replay = new Raw(device.port())) {
      Response.AuthChallenge c = (Response.AuthChallenge) Raw.decode(
          replay.call(new Request.AuthChallenge(ByteBuffer.wrap(hostNonce))), Opcode.AUTH_CHALLENGE);
      assertFalse(ByteBuffer.wrap(recorded).equals(ByteBuffer.wrap(secret.hostProof(c.deviceNonce(),
          ByteBuffer.wrap(hostNonce)))), "a fresh device nonce");
      Frame answer = replay.call(new Request.Authenticate(ByteBuffer.wrap(recorded)));
      assertEquals(Status.AUTH_REQUIRED.code(), answer.header().status());
      assertTrue(replay.closedByDevice());
    }
    try (Raw noChallenge = new Raw(device.port())) {
      Frame answer = noChallenge.call(new Request.Authenticate(ByteBuffer.wrap(recorded)));
      assertEquals(Status.AUTH_REQUIRED.code(), answer.header().status());
      assertTrue(((Response.Error) Raw.decode(answer, Opcode.AUTHENTICATE)).message().contains("without an AUTH_CHALLENGE"));
    }
    assertKeptAndServing();
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return a;
  }

  @Test
  void aDeviceWithoutASecretServesEveryClientAndSaysItDoesNotAuthenticate() throws IOException {
    try (SimulatedDevice open = TestDevices.start(TestDevices.small(dir.resolve("open")));
        Raw raw = new Raw(open.port());
        SocketDeviceClient withSecret = SocketDeviceClient.connect(DeviceAddress.parse(open.address()),
            ClientOptions.defaults().withSecret(secret))) {
      Response.AuthChallenge c = (Response.AuthChallenge) Raw.decode(
          raw.call(new Request.AuthChallenge(ByteBuffer.wrap(HostSecret.nonce()))), Opcode.AUTH_CHALLENGE);
      assertFalse(c.required());
      assertEquals(0, c.deviceNonce().remaining());
      withSecret.mkdirs("/x");
      assertTrue(withSecret.status("/x").directory());
    }
  }

  @Test
  void aDeviceOtherHostsCanReachRefusesToStartWithoutASecret() {
    Map<String, String> o = TestDevices.small(dir.resolve("wide"));
    o.put(DeviceConfigKeys.HOST_BIND_ADDRESS, "0.0.0.0");
    ConfigException e = assertThrows(ConfigException.class, () -> DeviceConfig.load(o));
    assertEquals(DeviceConfigKeys.HOST_SECRET_FILE, e.key());
    assertTrue(e.getMessage().contains("0.0.0.0"), e.getMessage());
    o.put(DeviceConfigKeys.HOST_SECRET_FILE, secretFile.toString());
    assertEquals("0.0.0.0", DeviceConfig.load(o).bindAddress(), "with a secret it may");
  }

  @Test
  void aSecretFileOthersCanReadOrTooShortIsRefusedNamingIt() throws IOException {
    Path open = dir.resolve("open-secret");
    Files.writeString(open, "0123456789abcdef0123456789abcdef\n");
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    Map<String, String> o = TestDevices.small(dir.resolve("d"));
    o.put(DeviceConfigKeys.HOST_SECRET_FILE, open.toString());
    ConfigException e = assertThrows(ConfigException.class, () -> DeviceConfig.load(o));
    assertTrue(e.getMessage().contains(open + " is open to others than its owner (rw-r--r--)"), e.getMessage());
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-------"));
    Files.writeString(open, "short\n");
    e = assertThrows(ConfigException.class, () -> DeviceConfig.load(o));
    assertTrue(e.getMessage().contains("holds 5 bytes"), e.getMessage());
    o.put(DeviceConfigKeys.HOST_SECRET_FILE, dir.resolve("missing").toString());
    e = assertThrows(ConfigException.class, () -> DeviceConfig.load(o));
    assertTrue(e.getMessage().contains("missing not found (make one with `smartssd secret"), e.getMessage());
    assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> HostSecret.generate(secretFile),
        "a secret is never overwritten");
  }
}
