package org.smartssd.device.runtime;

import static org.smartssd.device.runtime.TestDevices.bytes;
import static org.smartssd.device.runtime.TestDevices.readAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.config.DeviceConfig;

/** The whole device, over a real socket, through the Java client. */
class SimulatedDeviceTest {
  @TempDir Path dir;



  @Test
  void everyDataPlaneCommandWorksOverTheSocket() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient c = TestDevices.connect(device)) {
      c.mkdirs("/logs/1998");
      Response.Opened f = c.create("/logs/1998/day1", false, false);
      byte[] data = bytes(300_000, 1);
      c.write(f.handle(), data, 0, 100_000);
      assertEquals(100_000, c.flush(f.handle()));
      assertEquals(100_000, c.sync(f.handle()));
      c.write(f.handle(), ByteBuffer.wrap(data, 100_000, 200_000));
      assertEquals(300_000, c.closeHandle(f.handle()));
      assertArrayEquals(data, readAll(c, "/logs/1998/day1"));

      Response.Opened more = c.append("/logs/1998/day1");
      assertEquals(300_000, more.length());
      c.write(more.handle(), data, 0, 10);
      c.closeHandle(more.handle());
      assertEquals(300_010, c.status("/logs/1998/day1").length());

      c.rename("/logs/1998", "/logs/wc98");
      assertEquals(List.of("day1"), c.listAll("/logs/wc98").stream().map(ObjectStatus::name).toList());
      assertThrows(FileNotFoundException.class, () -> c.status("/logs/1998/day1"));
      assertThrows(FileAlreadyExistsException.class, () -> c.create("/logs/wc98/day1", false, false));
      assertThrows(DirectoryNotEmptyException.class, () -> c.delete("/logs", false));
      assertThrows(DeviceException.IsDirectory.class, () -> c.open("/logs"));
      long id = c.status("/logs/wc98/day1").objectId();
      assertThrows(EOFException.class, () -> c.read(id, 300_011, ByteBuffer.allocate(1)));
      assertEquals(-1, c.read(id, 300_010, ByteBuffer.allocate(1)));
      c.delete("/logs", true);
      assertTrue(c.listAll("/").isEmpty());
    }
  }

  @Test
  void aWriteToAClosedHandleIsRefused() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient c = TestDevices.connect(device)) {
      long h = c.create("/f", false, false).handle();
      c.closeHandle(h);
      DeviceException.BadHandle e = assertThrows(DeviceException.BadHandle.class, () -> c.write(h, new byte[1], 0, 1));
      assertTrue(e.getMessage().contains("handle " + h), e.getMessage());
      assertTrue(e.getMessage().contains(device.address()), "names the device: " + e.getMessage());
    }
  }

  /**
   * DEVICE_INFO carries every effective parameter, a lane's memory and the profile's powers among them,
   * and a host loads them back into the device's configuration (as the planner does for the model).
   */
  @Test
  void infoCarriesTheProfilesParametersAndALanesMemory() throws Exception {
    java.util.Map<String, String> o = TestDevices.small(dir);
    o.put("smartssd.device.profile", "xsd");
    o.put("smartssd.device.isp.lane-memory-bytes", "16384");
    try (SimulatedDevice device = TestDevices.start(o);
        SocketDeviceClient c = TestDevices.connect(device)) {
      DeviceInfo info = c.info();
      assertEquals("xsd", info.profile());
      assertEquals("16384", info.parameters().get("smartssd.device.isp.lane-memory-bytes"));
      assertEquals("200", info.parameters().get("smartssd.device.link.mb-per-s"));
      assertEquals("3200", info.parameters().get("smartssd.device.isp.dram-mb-per-s"));
      assertEquals("0.9", info.parameters().get("smartssd.device.energy.device-idle-w"));
      DeviceConfig reported = DeviceConfig.load(info.parameters());
      assertEquals(16384, reported.isp().laneMemoryBytes());
      assertEquals(device.config().effective(), reported.effective());
    }
  }

  @Test
  void infoAndStatisticsDescribeTheDevice() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient c = TestDevices.connect(device)) {
      DeviceInfo info = c.info();
      assertEquals("test-device", info.deviceName());
      assertEquals("msst13-sata", info.profile());
      assertEquals(8, info.geometry().channels());
      assertEquals(info.capacityBytes(), info.freeBytes());
      assertEquals("4096", info.parameters().get("smartssd.device.flash.page-size-bytes"));

      long h = c.create("/f", false, false).handle();
      c.write(h, new byte[8 * 4096], 0, 8 * 4096);
      c.closeHandle(h);
      readAll(c, "/f");
      DeviceStatistics s = c.statistics();
      // Eight pages striped over eight channels: one page programmed and read on each.
      s.channels().forEach(ch -> assertEquals(1, ch.pagesProgrammed()));
      s.channels().forEach(ch -> assertEquals(1, ch.pagesRead()));
      assertTrue(s.hostBytesIn() > 8 * 4096);
      assertTrue(s.hostBytesOut() > 8 * 4096);
      assertTrue(s.linkBusyNanos() > 0);
      assertEquals(info.capacityBytes() - 8 * 4096, c.info().freeBytes());
    }
  }

  @Test
  void twoDevicesInOneJvmAreIndependent() throws Exception {
    try (SimulatedDevice a = TestDevices.start(TestDevices.small(dir.resolve("a")));
        SimulatedDevice b = TestDevices.start(TestDevices.small(dir.resolve("b")));
        SocketDeviceClient ca = TestDevices.connect(a);
        SocketDeviceClient cb = TestDevices.connect(b)) {
      ca.mkdirs("/only-on-a");
      assertThrows(FileNotFoundException.class, () -> cb.status("/only-on-a"));
      assertEquals(0, cb.statistics().totalPagesProgrammed());
    }
  }

  @Test
  void aDataDirectoryServesOneDeviceAtATime() throws Exception {
    try (SimulatedDevice a = TestDevices.start(TestDevices.small(dir))) {
      IOException e = assertThrows(IOException.class, () -> TestDevices.start(TestDevices.small(dir)));
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
    }
  }

  @Test
  void concurrentClientsEachGetTheirOwnBytesBack() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir))) {
      ExecutorService pool = Executors.newFixedThreadPool(6);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
          int client = t;
          done.add(pool.submit(() -> {
            try (SocketDeviceClient c = TestDevices.connect(device)) {
              for (int i = 0; i < 5; i++) {
                String path = "/c" + client + "/f" + i;
                byte[] data = bytes(20_000 + 3_001 * i, client * 100L + i);
                long h = c.create(path, false, true).handle();
                for (int off = 0; off < data.length; off += 4_999) {
                  c.write(h, data, off, Math.min(4_999, data.length - off));
                }
                c.closeHandle(h);
                assertArrayEquals(data, readAll(c, path), path);
              }
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void pipelinedReadsFromManyThreadsOnOneConnection() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient c = TestDevices.connect(device)) {
      byte[] data = bytes(500_000, 3);
      long h = c.create("/f", false, false).handle();
      c.write(h, data, 0, data.length);
      c.closeHandle(h);
      long id = c.open("/f").objectId();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          long seed = t;
          done.add(pool.submit(() -> {
            Random r = new Random(seed);
            for (int i = 0; i < 100; i++) {
              int off = r.nextInt(data.length);
              ByteBuffer buf = ByteBuffer.allocate(r.nextInt(10_000) + 1);
              int n = c.read(id, off, buf);
              byte[] expected = java.util.Arrays.copyOfRange(data, off, off + n);
              byte[] got = java.util.Arrays.copyOf(buf.array(), n);
              assertArrayEquals(expected, got);
              assertEquals(Math.min(buf.capacity(), data.length - off), n);
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void dataSurvivesARestart() throws Exception {
    byte[] data = bytes(123_457, 4);
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient c = TestDevices.connect(device)) {
      long h = c.create("/keep/f", false, true).handle();
      c.write(h, data, 0, data.length);
      c.closeHandle(h);
    }
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertArrayEquals(data, readAll(c, "/keep/f"));
    }
  }

  @Test
  void theShutdownCommandStopsTheDevice() throws Exception {
    SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
    try (SocketDeviceClient c = TestDevices.connect(device)) {
      c.shutdown();
    }
    assertTrue(device.awaitStop(30, TimeUnit.SECONDS));
    // The data directory is free again.
    TestDevices.start(TestDevices.small(dir)).close();
  }
}
