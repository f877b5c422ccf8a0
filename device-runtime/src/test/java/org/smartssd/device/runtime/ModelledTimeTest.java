package org.smartssd.device.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;

/** The modelled duration a device reports follows its flash channels and its host link. */
class ModelledTimeTest {
  private static final int SCAN_BYTES = 1 << 20;

  @TempDir Path dir;

  /** Modelled nanoseconds of one READ of a whole 1 MiB object, on a fresh device, idle in the model. */
  private long scanNanos(String name, int channels, String linkMbPerS) throws Exception {
    Map<String, String> o = TestDevices.small(dir.resolve(name));
    o.put("smartssd.device.flash.channels", Integer.toString(channels));
    o.put("smartssd.device.link.mb-per-s", linkMbPerS);
    try (SimulatedDevice device = TestDevices.start(o); SocketDeviceClient c = TestDevices.connect(device)) {
      long h = c.create("/scan", false, false).handle();
      c.write(h, new byte[SCAN_BYTES], 0, SCAN_BYTES);
      // The modelled clock follows the wall clock: a READ sent before the CLOSE's programs end on it
      // would wait for them. Wait as long as the CLOSE's modelled duration, after which they have.
      DeviceClient.Reply closed = c.submit(new Request.Close(h)).get();
      Thread.sleep(closed.modelledNanos() / 1_000_000 + 1);
      long id = c.open("/scan").objectId();
      DeviceClient.Reply reply = c.submit(new Request.Read(id, 0, SCAN_BYTES)).get();
      assertEquals(SCAN_BYTES, ((Response.Data) reply.response()).data().remaining());
      return reply.modelledNanos();
    }
  }

  @Test
  void aFullScanGetsFasterAsChannelsAreAdded() throws Exception {
    long one = scanNanos("c1", 1, "100000");
    long two = scanNanos("c2", 2, "100000");
    long four = scanNanos("c4", 4, "100000");
    long eight = scanNanos("c8", 8, "100000");
    assertTrue(one > two && two > four && four > eight,
        "modelled scan ns by channels 1,2,4,8: " + one + ", " + two + ", " + four + ", " + eight);
  }

  @Test
  void aSlowHostLinkBoundsTheScan() throws Exception {
    long fast = scanNanos("fast", 8, "100000");
    long slow = scanNanos("slow", 8, "10");
    // 1 MiB over 10 MB/s takes about 105 ms whatever the flash does.
    double linkBound = SCAN_BYTES / 10e6 * 1e9;
    assertTrue(slow > fast, "slow link " + slow + " ns vs fast link " + fast + " ns");
    assertTrue(slow >= linkBound, "slow link " + slow + " ns vs its bound " + linkBound + " ns");
  }

  @Test
  void paceHoldsEachAnswerUntilItsModelledCompletion() throws Exception {
    Map<String, String> o = TestDevices.small(dir);
    o.put("smartssd.device.link.mb-per-s", "20");
    o.put("smartssd.device.pace", "true");
    try (SimulatedDevice device = TestDevices.start(o); SocketDeviceClient c = TestDevices.connect(device)) {
      long h = c.create("/f", false, false).handle();
      c.write(h, new byte[SCAN_BYTES], 0, SCAN_BYTES);
      c.closeHandle(h);
      long id = c.open("/f").objectId();
      long start = System.nanoTime();
      DeviceClient.Reply reply = c.submit(new Request.Read(id, 0, SCAN_BYTES)).get();
      long wall = System.nanoTime() - start;
      // A lower bound, not a timing measurement: pacing never answers before the model does.
      assertTrue(wall >= reply.modelledNanos(), "answered after " + wall + " ns, modelled " + reply.modelledNanos());
      assertTrue(reply.modelledNanos() >= SCAN_BYTES / 20e6 * 1e9);
    }
  }
}
