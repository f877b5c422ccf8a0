package org.smartssd.device.runtime.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Frame;
import org.smartssd.device.protocol.FrameHeader;
import org.smartssd.device.protocol.FrameReader;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.Opcode;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;

/** Frames a well-behaved client never sends: the device answers or hangs up, and keeps serving others. */
class ProtocolRobustnessTest {
  @TempDir Path dir;
  private SimulatedDevice device;
  private Socket socket;
  private OutputStream out;
  private FrameReader in;
  private InputStream raw;

  @BeforeEach
  void start() throws IOException {
    var overrides = TestDevices.small(dir);
    overrides.put("smartssd.device.host.max-frame-bytes", "65536");
    device = TestDevices.start(overrides);
    socket = new Socket("127.0.0.1", device.port());
    socket.setSoTimeout(30_000);
    out = socket.getOutputStream();
    raw = socket.getInputStream();
    in = new FrameReader(raw);
  }

  @AfterEach
  void stop() throws IOException {
    socket.close();
    device.close();
  }

  private void send(ByteBuffer frame) throws IOException {
    byte[] b = new byte[frame.remaining()];
    frame.get(b);
    out.write(b);
    out.flush();
  }

  private static ByteBuffer header(int version, int opcode, int flags, int payloadLength, long requestId) {
    ByteBuffer b = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES);
    new FrameHeader(version, opcode, flags, 0, payloadLength, requestId, 0).writeTo(b);
    return b.flip();
  }

  private Response answer(long expectedRequestId, Opcode opcode) throws IOException {
    Frame f = in.read(1 << 20);
    assertEquals(expectedRequestId, f.header().requestId());
    assertTrue(f.header().isResponse());
    return Messages.decodeResponse(f.header().version(), opcode, Status.fromCode(f.header().status()), f.payload());
  }

  /** The device still serves a fresh connection. */
  private void assertDeviceServes() throws IOException {
    try (SocketDeviceClient c = TestDevices.connect(device)) {
      c.mkdirs("/still-alive");
      assertTrue(c.status("/still-alive").directory());
    }
  }

  private void assertClosedByDevice() throws IOException {
    assertEquals(-1, raw.read(), "the device closed the connection");
  }

  @Test
  void anUnknownOpcodeIsAnsweredAndTheConnectionGoesOn() throws IOException {
    ByteBuffer frame = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES + 3);
    frame.put(header(1, 0x7777, 0, 3, 5)).put(new byte[] {1, 2, 3}).flip();
    send(frame);
    Response r = answer(5, Opcode.API_VERSIONS);
    assertEquals(Status.UNKNOWN_OPCODE, ((Response.Error) r).status());
    assertTrue(((Response.Error) r).message().contains("0x7777"));
    send(Messages.requestFrame(1, 6, new Request.ApiVersions()));
    assertEquals(new Response.Versions(1, ProtocolConstants.MAX_VERSION), answer(6, Opcode.API_VERSIONS));
  }

  @Test
  void aMalformedPayloadIsABadRequestAndTheConnectionGoesOn() throws IOException {
    // MKDIRS whose string claims 200 bytes but carries 2.
    ByteBuffer frame = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES + 4);
    frame.put(header(1, Opcode.MKDIRS.code(), 0, 4, 9)).putShort((short) 200).put((byte) '/').put((byte) 'a').flip();
    send(frame);
    Response.Error e = (Response.Error) answer(9, Opcode.MKDIRS);
    assertEquals(Status.BAD_REQUEST, e.status());
    send(Messages.requestFrame(1, 10, new Request.Mkdirs("/ok")));
    assertEquals(new Response.Empty(), answer(10, Opcode.MKDIRS));
  }

  @Test
  void anUnsupportedVersionIsRefusedButVersionDiscoveryAlwaysWorks() throws IOException {
    ByteBuffer mkdirs = Messages.requestFrame(1, 1, new Request.Mkdirs("/v"));
    mkdirs.putShort(4, (short) 9);
    send(mkdirs);
    assertEquals(Status.UNSUPPORTED_VERSION, ((Response.Error) answer(1, Opcode.MKDIRS)).status());
    ByteBuffer versions = Messages.requestFrame(1, 2, new Request.ApiVersions());
    versions.putShort(4, (short) 9);
    send(versions);
    assertEquals(new Response.Versions(1, ProtocolConstants.MAX_VERSION), answer(2, Opcode.API_VERSIONS));
  }

  @Test
  void statisticsAreAnsweredInTheVersionOfTheRequest() throws IOException {
    send(Messages.requestFrame(1, 11, new Request.Statistics()));
    Frame v1 = in.read(1 << 20);
    assertEquals(1, v1.header().version());
    DeviceStatistics old = ((Response.Statistics) Messages.decodeResponse(1, Opcode.STATISTICS, Status.OK,
        v1.payload())).statistics();
    assertNull(old.diskUse(), "a version 1 client gets the version 1 layout");
    send(Messages.requestFrame(2, 12, new Request.Statistics()));
    Frame v2 = in.read(1 << 20);
    assertEquals(2, v2.header().version());
    DeviceStatistics now = ((Response.Statistics) Messages.decodeResponse(2, Opcode.STATISTICS, Status.OK,
        v2.payload())).statistics();
    assertEquals(device.diskUse().reclaimNote(), now.diskUse().reclaimNote());
    assertEquals(0, now.diskUse().liveBytes());
    assertNull(now.energy(), "a version 2 client gets the version 2 layout");
    send(Messages.requestFrame(3, 13, new Request.Statistics()));
    Frame v3 = in.read(1 << 20);
    assertEquals(3, v3.header().version());
    DeviceStatistics newest = ((Response.Statistics) Messages.decodeResponse(3, Opcode.STATISTICS, Status.OK,
        v3.payload())).statistics();
    assertEquals(0, newest.diskUse().liveBytes());
    assertTrue(newest.energy().linkNanojoules() > 0, "the frames so far crossed the link: " + newest.energy());
  }

  @Test
  void anOversizedFrameIsAnsweredThenTheConnectionCloses() throws IOException {
    send(header(1, Opcode.WRITE.code(), 0, 10_000_000, 77));
    Frame f = in.read(1 << 20);
    assertEquals(77, f.header().requestId());
    assertEquals(Status.FRAME_TOO_LARGE.code(), f.header().status());
    assertClosedByDevice();
    assertDeviceServes();
  }

  @Test
  void garbageClosesTheConnectionOnly() throws IOException {
    out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(3).getBytes());
    out.flush();
    assertClosedByDevice();
    assertDeviceServes();
  }

  @Test
  void aRequestFlaggedAsAResponseClosesTheConnection() throws IOException {
    send(header(1, Opcode.API_VERSIONS.code(), ProtocolConstants.FLAG_RESPONSE, 0, 1));
    assertClosedByDevice();
    assertDeviceServes();
  }

  @Test
  void aClientThatHangsUpMidFrameDoesNotHurtTheDevice() throws IOException {
    ByteBuffer frame = Messages.requestFrame(1, 1, new Request.Mkdirs("/half"));
    byte[] b = new byte[frame.remaining() - 3];
    frame.get(b);
    out.write(b);
    out.flush();
    socket.close();
    assertDeviceServes();
    try (SocketDeviceClient c = TestDevices.connect(device)) {
      assertNull(c.listAll("/").stream().filter(s -> s.name().equals("half")).findAny().orElse(null));
    }
  }
}
