package org.smartssd.device.runtime.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.FrameReader;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.config.DeviceConfigKeys;

/**
 * Idle connections cannot take every thread and descriptor of the device: past
 * {@code smartssd.device.host.max-connections} a new connection is closed as soon as it is accepted,
 * and once one of the open ones goes, a new client is served again.
 */
class ConnectionLimitTest {
  @TempDir Path dir;

  @Test
  @Timeout(60)
  void pastTheLimitANewConnectionIsClosedAndTheOpenOnesAreServed() throws IOException {
    Map<String, String> o = TestDevices.small(dir);
    o.put(DeviceConfigKeys.HOST_MAX_CONNECTIONS, "3");
    try (SimulatedDevice device = TestDevices.start(o)) {
      List<Socket> idle = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          Socket s = new Socket("127.0.0.1", device.port());
          assertTrue(answers(s), "connection " + i + " within the limit is served");
          idle.add(s);
        }
        try (Socket over = new Socket("127.0.0.1", device.port())) {
          over.setSoTimeout(30_000);
          assertEquals(-1, over.getInputStream().read(), "the device closes a connection past the limit");
        }
        assertTrue(answers(idle.get(2)), "the open ones are still served");
        idle.remove(0).close();
        // The device notices the closed connection when its reading thread sees the end of the stream.
        long deadline = System.nanoTime() + 20_000_000_000L;
        boolean served = false;
        while (!served && System.nanoTime() < deadline) {
          try (SocketDeviceClient c = TestDevices.connect(device)) {
            served = c.info().deviceName().equals("test-device");
          } catch (IOException e) {
            Thread.onSpinWait();
          }
        }
        assertTrue(served, "once one goes, a new client is served");
      } finally {
        for (Socket s : idle) {
          s.close();
        }
      }
    }
  }

  /** Sends API_VERSIONS on the socket and reads the answer. */
  private static boolean answers(Socket s) throws IOException {
    s.setSoTimeout(30_000);
    ByteBuffer frame = Messages.requestFrame(ProtocolConstants.CURRENT_VERSION, 1, new Request.ApiVersions());
    byte[] b = new byte[frame.remaining()];
    frame.get(b);
    s.getOutputStream().write(b);
    s.getOutputStream().flush();
    return new FrameReader(s.getInputStream()).read(1 << 16) != null;
  }
}
