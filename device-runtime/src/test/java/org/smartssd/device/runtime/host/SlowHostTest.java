package org.smartssd.device.runtime.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.FrameReader;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.config.DeviceConfigKeys;

/**
 * Hosts that stop reading, stop half-way through a frame, or just stay connected cannot stall the
 * device or hold its memory: the attacks of issue 15 (finding 2 and the idle connections of
 * finding 3), each against a real device over real sockets.
 */
class SlowHostTest {
  private static final int FILE_BYTES = 8 << 20;
  private static final int MAX_FRAME_BYTES = 16 << 20;
  private static final int IO_TIMEOUT_MS = 2000;
  private static final int PIPELINED = 64;

  @TempDir Path dir;

  private Map<String, String> device() {
    Map<String, String> o = TestDevices.small(dir);
    o.put("smartssd.device.flash.blocks-per-way", "64");
    o.put(DeviceConfigKeys.HOST_MAX_FRAME_BYTES, Integer.toString(MAX_FRAME_BYTES));
    o.put(DeviceConfigKeys.HOST_IO_TIMEOUT_MS, Integer.toString(IO_TIMEOUT_MS));
    return o;
  }

  /**
   * As many connections as the device has workers each pipeline 64 reads of 8 MiB and read none of
   * the answers. Before, every worker blocked writing to them and any other client's DEVICE_INFO
   * waited for as long as they stayed connected. Now another client is answered at once, the
   * stalled connections' unread answers stay bounded (their next commands wait), and each stalled
   * connection is closed after the I/O timeout.
   */
  @Test
  @Timeout(180)
  void hostsThatReadNoAnswersStallOnlyThemselves() throws IOException, InterruptedException {
    Map<String, String> o = device();
    int workers = Integer.parseInt(DeviceConfigKeys.HOST_WORKER_THREADS_DEFAULT);
    try (SimulatedDevice device = TestDevices.start(o)) {
      long objectId;
      try (SocketDeviceClient c = TestDevices.connect(device)) {
        Response.Opened f = c.create("/big", true, true);
        c.write(f.handle(), ByteBuffer.wrap(TestDevices.bytes(FILE_BYTES, 1)));
        c.closeHandle(f.handle());
        objectId = c.open("/big").objectId();
      }
      long before;
      try (SocketDeviceClient c = TestDevices.connect(device)) {
        before = c.statistics().hostBytesOut();
      }
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < workers; i++) {
          Socket s = new Socket("127.0.0.1", device.port());
          s.getOutputStream().write(frames(PIPELINED, objectId));
          s.getOutputStream().flush();
          stalled.add(s);
        }
        try (SocketDeviceClient c = TestDevices.connect(device)) {
          assertEquals("test-device", c.info().deviceName(), "another client is served while they stall");
          DeviceStatistics stats = c.statistics();
          long readsDone = (stats.hostBytesOut() - before) / FILE_BYTES;
          // Each stalled connection runs reads until 4 MiB of answers are unsent (one 8 MiB answer
          // crosses it), plus what the kernel's socket buffers took: a few, never its 64.
          assertTrue(readsDone < (long) workers * PIPELINED / 4,
              readsDone + " reads of 8 MiB were carried out for hosts that read none of them");
        }
        // Reading would be progress: the answers are left unread well past the I/O timeout first.
        Thread.sleep(5L * IO_TIMEOUT_MS);
        for (Socket s : stalled) {
          long read = drainUntilClosed(s);
          assertTrue(read < (long) PIPELINED * FILE_BYTES,
              "the device closed the stalled connection after " + read + " bytes");
        }
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
      }
      try (SocketDeviceClient c = TestDevices.connect(device)) {
        assertEquals(FILE_BYTES, TestDevices.readAll(c, "/big").length, "the device is unharmed");
      }
    }
  }

  /**
   * A host that sends part of a frame, header or payload, and then nothing, is closed after the I/O
   * timeout; the memory its frame announced goes back to the others.
   */
  @Test
  @Timeout(120)
  void aFrameLeftUnfinishedClosesItsConnection() throws IOException, InterruptedException {
    Map<String, String> o = device();
    // Room for one largest frame only: the stalled frame holds all of it until it is closed.
    o.put(DeviceConfigKeys.HOST_FRAME_MEMORY_BYTES, Integer.toString(MAX_FRAME_BYTES));
    try (SimulatedDevice device = TestDevices.start(o)) {
      try (Socket halfHeader = new Socket("127.0.0.1", device.port());
          Socket halfPayload = new Socket("127.0.0.1", device.port())) {
        byte[] write = writeFrame(MAX_FRAME_BYTES - 1024);
        halfHeader.getOutputStream().write(write, 0, 10);
        halfPayload.getOutputStream().write(write, 0, ProtocolConstants.HEADER_BYTES + 100);
        halfHeader.getOutputStream().flush();
        halfPayload.getOutputStream().flush();
        // A client needs frame memory for its requests too: it is served once the stalled frame's goes back.
        try (SocketDeviceClient c = TestDevices.connect(device)) {
          Response.Opened f = c.create("/small", true, true);
          c.write(f.handle(), ByteBuffer.wrap(TestDevices.bytes(1000, 2)));
          assertEquals(1000, c.closeHandle(f.handle()));
        }
        assertEquals(0, drainUntilClosed(halfHeader), "a connection stalled inside a header is closed");
        assertEquals(0, drainUntilClosed(halfPayload), "a connection stalled inside a payload is closed");
      }
    }
  }

  /**
   * Issue 15, finding 4: headers announcing the largest payload, with nothing after them, took the
   * device's memory. A payload's memory is reserved as its bytes arrive: fifteen such headers, against
   * a device memory of one largest frame, leave room for a client that sends real frames, served long
   * before the stalled ones are closed.
   */
  @Test
  @Timeout(120)
  void headersAnnouncingLargePayloadsHoldNoMemory() throws IOException {
    Map<String, String> o = device();
    o.put(DeviceConfigKeys.HOST_FRAME_MEMORY_BYTES, Integer.toString(MAX_FRAME_BYTES));
    o.put(DeviceConfigKeys.HOST_IO_TIMEOUT_MS, "60000");
    try (SimulatedDevice device = TestDevices.start(o)) {
      List<Socket> announcing = new ArrayList<>();
      try {
        byte[] write = writeFrame(MAX_FRAME_BYTES - 1024);
        for (int i = 0; i < 15; i++) {
          Socket s = new Socket("127.0.0.1", device.port());
          s.getOutputStream().write(write, 0, ProtocolConstants.HEADER_BYTES);
          s.getOutputStream().flush();
          announcing.add(s);
        }
        ClientOptions quick = new ClientOptions(java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(10),
            MAX_FRAME_BYTES);
        try (SocketDeviceClient c = SocketDeviceClient.connect(
            org.smartssd.device.client.DeviceAddress.parse(device.address()), quick)) {
          Response.Opened f = c.create("/real", true, true);
          c.write(f.handle(), ByteBuffer.wrap(TestDevices.bytes(4 << 20, 5)));
          assertEquals(4 << 20, c.closeHandle(f.handle()), "served within its 10 s, not after the 60 s timeout");
        }
      } finally {
        for (Socket s : announcing) {
          s.close();
        }
      }
    }
  }

  /**
   * A connection holding nothing is closed once idle for {@code host.idle-timeout-ms}; one with a
   * file open for writing is kept, and its file can be finished.
   */
  @Test
  @Timeout(120)
  void idleConnectionsHoldingNothingAreClosed() throws IOException, InterruptedException {
    Map<String, String> o = device();
    o.put(DeviceConfigKeys.HOST_IDLE_TIMEOUT_MS, "1000");
    try (SimulatedDevice device = TestDevices.start(o);
        Socket idle = new Socket("127.0.0.1", device.port());
        SocketDeviceClient writer = TestDevices.connect(device)) {
      idle.getOutputStream().write(versionsFrame());
      idle.getOutputStream().flush();
      assertTrue(new FrameReader(idle.getInputStream()).read(1 << 16) != null, "served first");
      Response.Opened f = writer.create("/open", true, true);
      writer.write(f.handle(), ByteBuffer.wrap(TestDevices.bytes(100, 3)));
      assertEquals(0, drainUntilClosed(idle), "the idle connection holding nothing is closed");
      // The writer has been idle as long, but holds an open file: it is kept.
      writer.write(f.handle(), ByteBuffer.wrap(TestDevices.bytes(100, 4)));
      assertEquals(200, writer.closeHandle(f.handle()));
    }
  }

  /** Reads what the device still sends until it closes the connection; fails if it never does. */
  private static long drainUntilClosed(Socket s) throws IOException {
    s.setSoTimeout(60_000);
    InputStream in = s.getInputStream();
    byte[] buf = new byte[1 << 16];
    long total = 0;
    try {
      for (int n; (n = in.read(buf)) >= 0; ) {
        total += n;
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the device kept the connection open for 60 s after " + total + " bytes", e);
    } catch (IOException reset) {
      // A connection closed with unread data in it is reset: closed all the same.
    }
    return total;
  }

  private static byte[] frames(int n, long objectId) {
    ByteBuffer all = ByteBuffer.allocate(n * 64);
    for (int i = 0; i < n; i++) {
      all.put(Messages.requestFrame(ProtocolConstants.CURRENT_VERSION, i + 1, new Request.Read(objectId, 0, FILE_BYTES)));
    }
    return java.util.Arrays.copyOf(all.array(), all.position());
  }

  private static byte[] writeFrame(int dataBytes) {
    ByteBuffer frame = Messages.requestFrame(ProtocolConstants.CURRENT_VERSION, 1,
        new Request.Write(1, ByteBuffer.allocate(dataBytes)));
    byte[] b = new byte[frame.remaining()];
    frame.get(b);
    return b;
  }

  private static byte[] versionsFrame() {
    ByteBuffer frame = Messages.requestFrame(ProtocolConstants.CURRENT_VERSION, 1, new Request.ApiVersions());
    byte[] b = new byte[frame.remaining()];
    frame.get(b);
    return b;
  }
}
