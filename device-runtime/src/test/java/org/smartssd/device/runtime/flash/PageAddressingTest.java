package org.smartssd.device.runtime.flash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.smartssd.device.DeviceGeometry;

class PageAddressingTest {

  private final PageAddressing addressing = new PageAddressing(new DeviceGeometry(2, 3, 4, 5, 512, 1));

  @Test
  void everyCoordinateRoundTripsAndAddressesAreDense() {
    int expected = 0;
    for (int c = 0; c < 2; c++) {
      for (int w = 0; w < 3; w++) {
        for (int b = 0; b < 4; b++) {
          int blockId = addressing.blockId(c, w, b);
          assertEquals(c, addressing.channelOfBlock(blockId));
          assertEquals(w, addressing.wayOfBlock(blockId));
          for (int p = 0; p < 5; p++) {
            int ppa = addressing.ppa(c, w, b, p);
            assertEquals(expected++, ppa, "channel-major, then way, block, page");
            assertEquals(c, addressing.channel(ppa));
            assertEquals(w, addressing.way(ppa));
            assertEquals(b, addressing.block(ppa));
            assertEquals(p, addressing.page(ppa));
            assertEquals(blockId, addressing.blockId(ppa));
            assertEquals(ppa - p, addressing.firstPpa(blockId));
            assertEquals(ppa - c * 60, addressing.pageInChannel(ppa));
          }
        }
      }
    }
    assertEquals(addressing.totalPages(), expected);
    assertEquals(60, addressing.pagesPerChannel());
    assertEquals(24, addressing.totalBlocks());
  }

  @Test
  void outOfRangeValuesAreNamed() {
    refused(() -> addressing.ppa(2, 0, 0, 0), "channel 2 out of range 0..1");
    refused(() -> addressing.ppa(0, 3, 0, 0), "way 3 out of range 0..2");
    refused(() -> addressing.ppa(0, 0, 4, 0), "block 4 out of range 0..3");
    refused(() -> addressing.ppa(0, 0, 0, 5), "page 5 out of range 0..4");
    refused(() -> addressing.ppa(-1, 0, 0, 0), "channel -1 out of range 0..1");
    refused(() -> addressing.channel(120), "ppa 120 out of range 0..119");
    refused(() -> addressing.page(-1), "ppa -1 out of range 0..119");
    refused(() -> addressing.firstPpa(24), "block id 24 out of range 0..23");
    refused(() -> addressing.wayOfBlock(-3), "block id -3 out of range 0..23");
  }

  private static void refused(Executable call, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertEquals(message, e.getMessage());
  }

  @Test
  void largestGeometryDoesNotOverflow() {
    PageAddressing large = new PageAddressing(new DeviceGeometry(4, 4, 4096, 32767, 16384, 1));
    int last = large.ppa(3, 3, 4095, 32766);
    assertEquals(large.totalPages() - 1, last);
    assertEquals(3, large.channel(last));
    assertEquals(3, large.way(last));
    assertEquals(4095, large.block(last));
    assertEquals(32766, large.page(last));
    assertEquals(large.totalBlocks() - 1, large.blockId(last));
    assertTrue(large.firstPpa(large.totalBlocks() - 1) > 0);
  }
}
