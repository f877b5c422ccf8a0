package org.smartssd.device.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.DiskUse;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.flash.FlashArray;

/**
 * A real device under write and delete load keeps about as much on its host's disk as it holds live
 * data, and says so in its statistics. Disk use is measured on the backing files with stat(1), not
 * only through the device's own report.
 */
class SpaceReclaimDeviceTest {
  private static final int MIB = 1 << 20;
  /** What the files may take beside live pages: their extent trees, once cut in many pieces. */
  private static final long SLACK = MIB;

  @TempDir Path dir;

  /** Whether the device's native library loaded here (a built library that does not load fails the test). */
  static boolean nativeLoaded() {
    Optional<String> why = FlashArray.nativeLibraryUnavailable();
    if (why.isPresent() && Boolean.parseBoolean(System.getProperty("smartssd.native.required", "false"))) {
      throw new AssertionError("the build made libsmartssd-device, but it does not load: " + why.get());
    }
    return why.isEmpty();
  }

  /** Bytes the flash backing files take on disk, as stat(1) counts them. */
  static long statFlashBytes(Path dataDir) throws IOException, InterruptedException {
    long sum = 0;
    try (var files = Files.list(dataDir.resolve("flash"))) {
      for (Path file : (Iterable<Path>) files.filter(f -> f.getFileName().toString().endsWith(".flash"))::iterator) {
        Process p = new ProcessBuilder("stat", "-c", "%b %B", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.waitFor(), "stat " + file + ": " + out);
        String[] parts = out.split(" ");
        sum += Long.parseLong(parts[0]) * Long.parseLong(parts[1]);
      }
    }
    return sum;
  }

  private static void write(SocketDeviceClient c, String path, int bytes, long seed) throws IOException {
    long h = c.create(path, true, true).handle();
    byte[] data = TestDevices.bytes(bytes, seed);
    for (int off = 0; off < bytes; off += MIB) {
      c.write(h, ByteBuffer.wrap(data, off, Math.min(MIB, bytes - off)));
    }
    c.closeHandle(h);
  }

  private static long erased(DeviceStatistics s) {
    return s.channels().stream().mapToLong(ChannelStatistics::blocksErased).sum();
  }

  /**
   * Disk use is the live data, plus at most what the FTL lets wait for a batch (dead pages of blocks that
   * hold live ones: a quarter of the live data, or 1% of the flash), plus the files' extent trees.
   */
  private static void assertFollowsLiveData(Path data, DiskUse d, String when) throws Exception {
    long onDisk = statFlashBytes(data);
    long waiting = Math.max(d.liveBytes() / 4, d.fileBytes() / 100);
    assertTrue(onDisk >= d.liveBytes() && onDisk <= d.liveBytes() + waiting + SLACK,
        when + ": " + onDisk + " bytes on disk for " + d.liveBytes() + " live");
    long reported = d.allocatedBytes();
    assertTrue(Math.abs(reported - onDisk) <= SLACK, when + ": the device reports " + reported + ", stat says " + onDisk);
  }

  @Test
  void diskUseFollowsLiveDataThroughWritesDeletesAndGarbageCollection() throws Exception {
    assumeTrue(nativeLoaded(), "built without the native library");
    Path data = dir.resolve("data");
    // 8 channels x 4 ways x 16 blocks x 32 pages of 4 KiB: 64 MiB of raw flash.
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(data));
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertEquals(org.smartssd.device.protocol.ProtocolConstants.MAX_VERSION, c.protocolVersion());
      DiskUse start = c.statistics().diskUse();
      assertTrue(start.reclaiming(), start.reclaimNote());
      assertEquals(64L * MIB, start.fileBytes());
      assertEquals(0, start.liveBytes());

      for (int i = 0; i < 6; i++) {
        write(c, "/load/f" + i, 2 * MIB, i);
      }
      DiskUse written = c.statistics().diskUse();
      assertEquals(12L * MIB, written.liveBytes());
      assertFollowsLiveData(data, written, "after writing 12 MiB");

      c.delete("/load", true);
      DiskUse deleted = c.statistics().diskUse();
      assertEquals(0, deleted.liveBytes());
      assertFollowsLiveData(data, deleted, "after deleting it");
      assertTrue(deleted.punchedBytes() >= 12L * MIB, "punched " + deleted.punchedBytes());
      assertEquals(0, erased(c.statistics()), "no block was erased yet: the pages were given back at the delete");

      // 4 MiB stay; 80 MiB more are written and deleted, over 64 MiB of flash: garbage collection must erase.
      write(c, "/keep", 4 * MIB, 99);
      for (int round = 0; round < 10; round++) {
        write(c, "/churn/a", 5 * MIB, 100 + round);
        write(c, "/churn/b", 3 * MIB, 200 + round);
        c.delete("/churn", true);
      }
      DeviceStatistics s = c.statistics();
      assertTrue(erased(s) > 0, "garbage collection erased blocks");
      assertEquals(4L * MIB, s.diskUse().liveBytes());
      assertFollowsLiveData(data, s.diskUse(), "after 92 MiB written and 88 MiB deleted");
      assertArrayEquals(TestDevices.bytes(4 * MIB, 99), TestDevices.readAll(c, "/keep"));
    }
  }

  @Test
  void switchedOffTheDeviceSaysWhyAndANextStartWithItOnGivesTheSpaceBack() throws Exception {
    Path data = dir.resolve("data");
    Map<String, String> off = TestDevices.small(data);
    off.put("smartssd.device.flash.reclaim-space", "false");
    long keptOnDisk;
    try (SimulatedDevice device = TestDevices.start(off); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/gone", 8 * MIB, 1);
      write(c, "/kept", MIB, 2);
      c.delete("/gone", false);
      DiskUse d = c.statistics().diskUse();
      assertFalse(d.reclaiming());
      assertEquals("switched off (smartssd.device.flash.reclaim-space=false)", d.reclaimNote());
      assertEquals(0, d.punchedBytes());
      assertEquals(MIB, d.liveBytes());
      if (!nativeLoaded()) {
        assertEquals(DiskUse.UNKNOWN, d.allocatedBytes());
        return;
      }
      keptOnDisk = statFlashBytes(data);
      assertTrue(keptOnDisk >= 9L * MIB, "switched off, the deleted file keeps its disk space: " + keptOnDisk);
      assertEquals(keptOnDisk, d.allocatedBytes());
    }
    // A data directory written without reclaim (or before it existed) gives its space back at the next start.
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(data));
        SocketDeviceClient c = TestDevices.connect(device)) {
      DiskUse d = c.statistics().diskUse();
      assertTrue(d.reclaiming(), d.reclaimNote());
      assertEquals(MIB, d.liveBytes());
      assertFollowsLiveData(data, d, "after a start with reclaim on");
      assertArrayEquals(TestDevices.bytes(MIB, 2), TestDevices.readAll(c, "/kept"));
    }
  }

  @Test
  void withoutTheNativeLibraryTheDeviceRunsAndSaysWhy() throws Exception {
    Path data = dir.resolve("data");
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(data));
        SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/f", MIB, 3);
      c.delete("/f", false);
      DiskUse d = c.statistics().diskUse();
      if (nativeLoaded()) {
        assertTrue(d.reclaiming(), d.reclaimNote());
        assertTrue(d.allocatedKnown());
      } else {
        // -DskipNative: the device works, keeps the bytes, and says why in its statistics.
        assertFalse(d.reclaiming());
        assertEquals(FlashArray.nativeLibraryUnavailable().orElseThrow(), d.reclaimNote());
        assertTrue(d.reclaimNote().contains("libsmartssd-device"), d.reclaimNote());
        assertEquals(DiskUse.UNKNOWN, d.allocatedBytes());
        assertEquals(0, d.punchedBytes());
      }
    }
  }
}
