package org.smartssd.device.runtime.ftl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.runtime.config.TimingParameters;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.flash.PageAddressing;
import org.smartssd.device.runtime.flash.PageCorruptException;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.TimingModel;

class FlashTranslationLayerTest {
  // 2 channels x 2 ways x 8 blocks x 4 pages of 512 bytes: 128 physical pages.
  private static final DeviceGeometry GEOMETRY = new DeviceGeometry(2, 2, 8, 4, 512, 1);
  private static final TimingParameters TIMING = new TimingParameters(50_000, 1_200_000, 3_000_000, 50e6, 250e6, 20_000, true);

  @TempDir Path dir;
  private TimingModel timing;
  private FlashArray flash;
  private MetadataLog log;

  private FlashTranslationLayer open(int overprovisioningPercent) throws IOException {
    timing = new TimingModel(GEOMETRY, TIMING, System::nanoTime);
    flash = FlashArray.open(dir, GEOMETRY, timing);
    FlashTranslationLayer ftl = new FlashTranslationLayer(GEOMETRY, overprovisioningPercent, 2, flash);
    log = MetadataLog.open(dir, false, ftl::readSnapshot, ftl::replay);
    ftl.attachLog(log);
    return ftl;
  }

  @AfterEach
  void close() throws IOException {
    if (log != null) {
      log.close();
    }
    if (flash != null) {
      flash.close();
    }
  }

  private static ByteBuffer page(long seed) {
    byte[] b = new byte[GEOMETRY.pageSizeBytes()];
    new Random(seed).nextBytes(b);
    return ByteBuffer.wrap(b);
  }

  private static byte[] read(FlashTranslationLayer ftl, int lbn) throws IOException {
    ByteBuffer dst = ByteBuffer.allocate(GEOMETRY.pageSizeBytes());
    ftl.read(lbn, dst, null);
    return dst.array();
  }

  @Test
  void logicalCapacityLeavesTheOverProvisionedPagesOut() throws IOException {
    FlashTranslationLayer ftl = open(25);
    assertEquals(96, ftl.logicalPages());
    assertEquals(96, ftl.freeLogicalPages());
  }

  @Test
  void aWrittenPageReadsBackAndGoesToItsChannel() throws IOException {
    FlashTranslationLayer ftl = open(25);
    int a = ftl.allocateLbn();
    int b = ftl.allocateLbn();
    Command cmd = timing.begin();
    ftl.write(a, 0, page(1), cmd);
    ftl.write(b, 1, page(2), cmd);
    cmd.complete();
    assertArrayEquals(page(1).array(), read(ftl, a));
    assertArrayEquals(page(2).array(), read(ftl, b));
    DeviceStatistics stats = timing.statistics(0);
    assertEquals(1, stats.channels().get(0).pagesProgrammed());
    assertEquals(1, stats.channels().get(1).pagesProgrammed());
  }

  @Test
  void aRewriteGoesOutOfPlaceAndKeepsOnlyTheNewContent() throws IOException {
    FlashTranslationLayer ftl = open(25);
    int lbn = ftl.allocateLbn();
    ftl.write(lbn, 0, page(1), null);
    ftl.write(lbn, 0, page(2), null);
    assertArrayEquals(page(2).array(), read(ftl, lbn));
    assertEquals(95, ftl.freeLogicalPages());
  }

  @Test
  void garbageCollectionReclaimsRewrittenPagesWithoutLosingData() throws IOException {
    FlashTranslationLayer ftl = open(25);
    int[] lbns = new int[80];
    Map<Integer, Long> content = new HashMap<>();
    for (int i = 0; i < lbns.length; i++) {
      lbns[i] = ftl.allocateLbn();
    }
    // Ten times more programs than there are physical pages: only GC can make room.
    Random random = new Random(7);
    for (int round = 0; round < 1300; round++) {
      int lbn = lbns[random.nextInt(lbns.length)];
      long seed = round * 1000L + lbn;
      Command cmd = timing.begin();
      ftl.write(lbn, random.nextInt(2), page(seed), cmd);
      cmd.complete();
      content.put(lbn, seed);
    }
    assertTrue(ftl.gcPagesMoved() > 0, "garbage collection moved pages");
    for (Map.Entry<Integer, Long> e : content.entrySet()) {
      assertArrayEquals(page(e.getValue()).array(), read(ftl, e.getKey()), "logical page " + e.getKey());
    }
    assertTrue(timing.statistics(ftl.gcPagesMoved()).channels().stream().mapToLong(c -> c.blocksErased()).sum() > 0);
  }

  @Test
  void aDamagedPageFailsItsReadAndGarbageCollectionDoesNotLaunderIt() throws IOException {
    FlashTranslationLayer ftl = open(25);
    int damaged = ftl.allocateLbn();
    ftl.write(damaged, 0, page(99), null);
    int ppa = ftl.ppaOf(damaged);
    PageAddressing a = flash.addressing();
    Path file = dir.resolve("flash").resolve(FlashArray.fileName(a.channel(ppa)));
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {(byte) ~page(99).get(300)}), (long) a.pageInChannel(ppa) * 512 + 300);
    }
    PageCorruptException before = assertThrows(PageCorruptException.class, () -> read(ftl, damaged));
    assertTrue(before.reason().startsWith("checksum mismatch"), before.getMessage());

    int[] lbns = new int[70];
    for (int i = 0; i < lbns.length; i++) {
      lbns[i] = ftl.allocateLbn();
    }
    Random random = new Random(3);
    Map<Integer, Long> content = new HashMap<>();
    for (int round = 0; round < 1300 && ftl.ppaOf(damaged) == ppa; round++) {
      int lbn = lbns[random.nextInt(lbns.length)];
      ftl.write(lbn, 0, page(round * 1000L + lbn), null);
      content.put(lbn, round * 1000L + lbn);
    }
    assertTrue(ftl.ppaOf(damaged) != ppa, "garbage collection moved the damaged page");
    PageCorruptException after = assertThrows(PageCorruptException.class, () -> read(ftl, damaged));
    assertTrue(after.reason().startsWith("checksum mismatch"), after.getMessage());
    for (Map.Entry<Integer, Long> e : content.entrySet()) {
      assertArrayEquals(page(e.getValue()).array(), read(ftl, e.getKey()), "logical page " + e.getKey());
    }
  }

  @Test
  void releasedPagesBecomeFreeForOthers() throws IOException {
    FlashTranslationLayer ftl = open(25);
    for (int round = 0; round < 20; round++) {
      int[] lbns = new int[90];
      for (int i = 0; i < lbns.length; i++) {
        lbns[i] = ftl.allocateLbn();
        ftl.write(lbns[i], i, page(i), null);
      }
      for (int lbn : lbns) {
        ftl.releaseLbn(lbn);
      }
    }
    assertEquals(96, ftl.freeLogicalPages());
  }

  @Test
  void runningOutOfLogicalPagesIsAClearError() throws IOException {
    FlashTranslationLayer ftl = open(25);
    for (int i = 0; i < 96; i++) {
      ftl.allocateLbn();
    }
    OutOfSpaceException e = assertThrows(OutOfSpaceException.class, ftl::allocateLbn);
    assertTrue(e.getMessage().contains("96 logical pages"), e.getMessage());
  }

  @Test
  void recoveryKeepsOwnedPagesAndDropsTheRest() throws IOException {
    FlashTranslationLayer ftl = open(25);
    int kept = ftl.allocateLbn();
    int orphan = ftl.allocateLbn();
    ftl.write(kept, 0, page(10), null);
    ftl.write(orphan, 1, page(11), null);
    ftl.syncDurably();
    log.close();
    flash.close();

    FlashTranslationLayer again = open(25);
    BitSet owned = new BitSet();
    owned.set(kept);
    again.finishRecovery(owned);
    assertTrue(again.isMapped(kept));
    assertFalse(again.isMapped(orphan));
    assertArrayEquals(page(10).array(), read(again, kept));
    assertEquals(95, again.freeLogicalPages());
  }

  @Test
  void recoveryRefusesAnOwnedPageThatWasNeverMapped() throws IOException {
    FlashTranslationLayer ftl = open(25);
    BitSet owned = new BitSet();
    owned.set(3);
    IOException e = assertThrows(IOException.class, () -> ftl.finishRecovery(owned));
    assertTrue(e.getMessage().contains("logical page 3"), e.getMessage());
  }
}
