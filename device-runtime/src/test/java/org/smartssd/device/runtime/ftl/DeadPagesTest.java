package org.smartssd.device.runtime.ftl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.runtime.config.TimingParameters;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * Pages that die (rewritten elsewhere, released) give their disk space back, but only once the journal
 * says they are dead: what the backing files take is measured after each step.
 */
class DeadPagesTest {
  // 2 channels x 2 ways x 8 blocks x 4 pages of 4 KiB.
  private static final DeviceGeometry GEOMETRY = new DeviceGeometry(2, 2, 8, 4, 4096, 1);
  /** 2 channels x 2 ways x 8 blocks x 32 pages of 4 KiB: 1024 pages, blocks of 32. */
  private static final DeviceGeometry BATCH_GEOMETRY = new DeviceGeometry(2, 2, 8, 32, 4096, 1);
  private static final int PAGE = GEOMETRY.pageSizeBytes();
  private static final TimingParameters TIMING =
      new TimingParameters(50_000, 1_200_000, 3_000_000, 50e6, 250e6, 20_000, true);

  @TempDir Path dir;
  private TimingModel timing;
  private FlashArray flash;
  private MetadataLog log;

  @BeforeEach
  void needsTheNativeLibrary() {
    assumeTrue(nativeLoaded(), "built without the native library");
  }

  /** Whether libsmartssd-device loaded (a built library that does not load fails the test). */
  static boolean nativeLoaded() {
    java.util.Optional<String> why = FlashArray.nativeLibraryUnavailable();
    if (why.isPresent() && Boolean.parseBoolean(System.getProperty("smartssd.native.required", "false"))) {
      throw new AssertionError("the build made libsmartssd-device, but it does not load: " + why.get());
    }
    return why.isEmpty();
  }

  private FlashTranslationLayer open(boolean reclaim) throws IOException {
    return open(reclaim, GEOMETRY);
  }

  private FlashTranslationLayer open(boolean reclaim, DeviceGeometry geometry) throws IOException {
    timing = new TimingModel(geometry, TIMING, System::nanoTime);
    flash = FlashArray.open(dir, geometry, timing, reclaim);
    FlashTranslationLayer ftl = new FlashTranslationLayer(geometry, 25, 2, flash);
    log = MetadataLog.open(dir, flash.foundData(), ftl::readSnapshot, ftl::replay);
    ftl.attachLog(log);
    return ftl;
  }

  private void closeAll() throws IOException {
    log.close();
    flash.close();
    log = null;
    flash = null;
  }

  @AfterEach
  void close() throws IOException {
    if (log != null) {
      closeAll();
    }
  }

  private static ByteBuffer page(long seed) {
    byte[] b = new byte[PAGE];
    new Random(seed).nextBytes(b);
    return ByteBuffer.wrap(b);
  }

  private static byte[] read(FlashTranslationLayer ftl, int lbn) throws IOException {
    ByteBuffer dst = ByteBuffer.allocate(PAGE);
    ftl.read(lbn, dst, null);
    return dst.array();
  }

  /** The backing files' disk use in pages (4 KiB, the file system's block). */
  private long allocatedPages() {
    long bytes = flash.allocatedBytes();
    assertEquals(0, bytes % PAGE, "whole pages: " + bytes);
    return bytes / PAGE;
  }

  @Test
  void aRewrittenPageGivesItsSpaceBackOnlyOnceItsNewMappingIsDurable() throws IOException {
    FlashTranslationLayer ftl = open(true);
    int lbn = ftl.allocateLbn();
    ftl.write(lbn, 0, page(1), null);
    ftl.syncDurably();
    assertEquals(1, allocatedPages());

    ftl.write(lbn, 0, page(2), null);
    // The new mapping is only appended: a crash now recovers the old page, so it must keep its bytes.
    assertEquals(2, allocatedPages());

    ftl.syncDurably();
    assertEquals(1, allocatedPages());
    assertEquals(1, ftl.livePages());
    assertArrayEquals(page(2).array(), read(ftl, lbn));
  }

  @Test
  void releasedPagesGiveTheirSpaceBackAtTheNextSync() throws IOException {
    FlashTranslationLayer ftl = open(true);
    int[] lbns = new int[10];
    for (int i = 0; i < lbns.length; i++) {
      lbns[i] = ftl.allocateLbn();
      ftl.write(lbns[i], i, page(i), null);
    }
    ftl.syncDurably();
    assertEquals(10, allocatedPages());
    for (int i = 0; i < 7; i++) {
      ftl.releaseLbn(lbns[i]);
    }
    assertEquals(10, allocatedPages(), "nothing is punched before the journal is durable");
    ftl.syncDurably();
    assertEquals(3, allocatedPages());
    assertEquals(3, ftl.livePages());
    for (int i = 7; i < 10; i++) {
      assertArrayEquals(page(i).array(), read(ftl, lbns[i]));
    }
  }

  @Test
  void underGarbageCollectionDiskUseFollowsLiveData() throws IOException {
    FlashTranslationLayer ftl = open(true);
    int[] lbns = new int[40];
    Map<Integer, Long> content = new HashMap<>();
    for (int i = 0; i < lbns.length; i++) {
      lbns[i] = ftl.allocateLbn();
    }
    Random random = new Random(11);
    for (int round = 0; round < 1000; round++) {
      int lbn = lbns[random.nextInt(lbns.length)];
      long seed = round * 1000L + lbn;
      ftl.write(lbn, random.nextInt(2), page(seed), null);
      content.put(lbn, seed);
      if (round % 10 == 9) {
        ftl.syncDurably();
        // Every dead page is punched at the sync, and GC erased blocks are punched whole. Beside the
        // live pages a file may take a block or two for its extent tree, once it is cut in many pieces.
        // Dead pages of blocks that still hold live ones wait for a batch, up to the threshold.
        long allocated = allocatedPages();
        assertTrue(ftl.deadPagesWaiting() < ftl.discardThreshold(), "round " + round);
        assertTrue(allocated >= ftl.livePages()
            && allocated <= ftl.livePages() + ftl.deadPagesWaiting() + 2L * GEOMETRY.channels(),
            "round " + round + ": " + allocated + " pages allocated for " + ftl.livePages() + " live and "
                + ftl.deadPagesWaiting() + " dead waiting");
      }
    }
    assertTrue(ftl.gcPagesMoved() > 0, "garbage collection ran");
    for (Map.Entry<Integer, Long> e : content.entrySet()) {
      assertArrayEquals(page(e.getValue()).array(), read(ftl, e.getKey()), "logical page " + e.getKey());
    }
  }

  @Test
  void aWholeDeadBlockIsOneHoleAtOnceDeadPagesOfLiveBlocksWaitForABatch() throws IOException {
    FlashTranslationLayer ftl = open(true, BATCH_GEOMETRY);
    // 64 pages on channel 0: its ways take them in turn, so that way 0's block gets the even ones.
    int[] lbns = new int[64];
    for (int i = 0; i < lbns.length; i++) {
      lbns[i] = ftl.allocateLbn();
      ftl.write(lbns[i], 0, page(i), null);
    }
    ftl.syncDurably();
    assertEquals(64, allocatedPages());
    for (int i = 0; i < 64; i += 2) {
      ftl.releaseLbn(lbns[i]);
    }
    ftl.syncDurably();
    assertEquals(32, allocatedPages(), "the dead block is punched at the sync");
    assertEquals(1, flash.holesPunched(), "in one hole");
    assertEquals(0, ftl.deadPagesWaiting());

    // 1% of 1024 pages: 10 dead pages of a live block may wait.
    assertEquals(10, ftl.discardThreshold());
    for (int i = 1; i < 10; i += 2) {
      ftl.releaseLbn(lbns[i]);
    }
    ftl.syncDurably();
    assertEquals(5, ftl.deadPagesWaiting());
    assertEquals(32, allocatedPages(), "5 dead pages of a live block wait");
    for (int i = 11; i < 22; i += 2) {
      ftl.releaseLbn(lbns[i]);
    }
    ftl.syncDurably();
    assertEquals(0, ftl.deadPagesWaiting());
    assertEquals(21, allocatedPages(), "11 waited: punched");
    ftl.releaseLbn(lbns[63]);
    ftl.syncDurably();
    assertEquals(21, allocatedPages());
    ftl.syncAndDiscard();
    assertEquals(20, allocatedPages(), "at close every dead page goes");
    for (int i = 23; i < 63; i += 2) {
      assertArrayEquals(page(i).array(), read(ftl, lbns[i]));
    }
  }

  @Test
  void aStartWithReclaimOnGivesBackWhatARunWithoutItKept() throws IOException {
    FlashTranslationLayer ftl = open(false);
    int kept = ftl.allocateLbn();
    ftl.write(kept, 0, page(1), null);
    for (int i = 0; i < 12; i++) {
      int lbn = ftl.allocateLbn();
      ftl.write(lbn, i, page(100 + i), null);
      ftl.write(lbn, i, page(200 + i), null);
      ftl.releaseLbn(lbn);
    }
    ftl.syncDurably();
    assertEquals(25, allocatedPages(), "switched off, every page written keeps its bytes");
    closeAll();

    FlashTranslationLayer again = open(true);
    BitSet owned = new BitSet();
    owned.set(kept);
    again.finishRecovery(owned);
    assertEquals(25, allocatedPages(), "recovery itself punches nothing");
    // Only the pages that hold bytes are looked at (SEEK_DATA): the 24 dead ones are punched.
    assertEquals(24, again.discardUnmappedPages());
    assertEquals(1, allocatedPages());
    assertArrayEquals(page(1).array(), read(again, kept));
  }

  @Test
  void switchedOffNothingIsPunched() throws IOException {
    FlashTranslationLayer ftl = open(false);
    int lbn = ftl.allocateLbn();
    ftl.write(lbn, 0, page(1), null);
    ftl.write(lbn, 0, page(2), null);
    ftl.releaseLbn(lbn);
    ftl.syncDurably();
    assertEquals(2, allocatedPages());
    assertEquals(0, ftl.discardUnmappedPages());
    assertEquals(2, allocatedPages());
  }
}
