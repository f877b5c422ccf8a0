package org.smartssd.device.runtime.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.DeviceProcess;
import org.smartssd.device.runtime.TestDevices;

/**
 * A device out of file descriptors (a low {@code ulimit -n} and many idle connections) neither spins
 * its accept loop nor floods its log (3.46 million "accept failed" lines in 20 s before), and serves
 * new clients again once connections go.
 */
class AcceptBackoffIT {
  @TempDir Path dir;

  @Test
  @Timeout(120)
  void outOfDescriptorsTheAcceptLoopWaitsAndLogsOnceASecond() throws Exception {
    Path data = dir.resolve("data");
    try (DeviceProcess device = DeviceProcess.start(data, TestDevices.small(data), List.of(), 200)) {
      List<Socket> idle = new ArrayList<>();
      try {
        for (int i = 0; i < 260; i++) {
          idle.add(new Socket("127.0.0.1", Integer.parseInt(device.address().split(":")[1])));
        }
        TimeUnit.SECONDS.sleep(3); // out of descriptors, the accept loop fails for these seconds
        long failures = device.output().lines().filter(l -> l.contains("accept on TCP failed")).count();
        assertTrue(failures >= 1, "the device ran out of descriptors and said so:\n" + tail(device.output()));
        assertTrue(failures <= 6, failures + " warnings in about 3 s: at most one a second\n" + tail(device.output()));
      } finally {
        for (Socket s : idle) {
          s.close();
        }
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      String served = null;
      while (served == null && System.nanoTime() < deadline) {
        try (SocketDeviceClient c = TestDevices.connect(device.address())) {
          served = c.info().deviceName();
        } catch (IOException e) {
          TimeUnit.MILLISECONDS.sleep(200);
        }
      }
      assertEquals("test-device", served, "served again once the idle connections went");
    }
  }

  private static String tail(String output) {
    List<String> lines = output.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
  }
}
