package org.smartssd.device.runtime.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.runtime.config.TimingParameters;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * Erased and discarded flash gives its bytes back to the file system (punch-hole), measured on the real
 * backing files. Needs the native library, which the build makes (the tests fail without it unless the
 * build skipped it: -DskipNative, where {@link #withoutTheNativeLibraryReclaimIsOffAndSaysWhy} runs).
 */
class SpaceReclaimTest {
  // 2 channels x 2 ways x 4 blocks x 8 pages of 4 KiB: a block is 32 KiB, whole file-system blocks.
  private static final DeviceGeometry GEOMETRY = new DeviceGeometry(2, 2, 4, 8, 4096, 1);
  private static final int PAGE = GEOMETRY.pageSizeBytes();
  private static final long BLOCK_BYTES = (long) GEOMETRY.pagesPerBlock() * PAGE;
  private static final TimingParameters TIMING =
      new TimingParameters(50_000, 1_200_000, 3_000_000, 50e6, 250e6, 20_000, true);

  @TempDir Path dataDir;

  static boolean nativeLoaded() {
    boolean loaded = NativeFiles.unavailable().isEmpty();
    if (!loaded && Boolean.parseBoolean(System.getProperty("smartssd.native.required", "false"))) {
      throw new AssertionError("the build made libsmartssd-device, but it does not load: "
          + NativeFiles.unavailable().get());
    }
    return loaded;
  }

  private FlashArray open(boolean reclaim) throws IOException {
    return FlashArray.open(dataDir, GEOMETRY, new TimingModel(GEOMETRY, TIMING, () -> 0), reclaim);
  }

  private static byte[] random(long seed) {
    byte[] b = new byte[PAGE];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Programs every page of the block with random bytes. */
  private static void fill(FlashArray flash, int blockId) throws IOException {
    int first = flash.addressing().firstPpa(blockId);
    for (int p = 0; p < GEOMETRY.pagesPerBlock(); p++) {
      flash.programPage(first + p, ByteBuffer.wrap(random(first + p)), null);
    }
    flash.force();
  }

  /** A page's bytes as they are on disk: unchecked, since erased and punched pages fail their check by design. */
  private static byte[] read(FlashArray flash, int ppa) throws IOException {
    ByteBuffer dst = ByteBuffer.allocate(PAGE);
    flash.readRaw(ppa, dst, null);
    return dst.array();
  }

  /** Blocks the file takes on disk, as stat(1) counts them (512-byte units): not through our own library. */
  static long statBytes(Path file) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("stat", "-c", "%b %B", file.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    assertEquals(0, p.waitFor(), "stat " + file + ": " + out);
    String[] parts = out.split(" ");
    return Long.parseLong(parts[0]) * Long.parseLong(parts[1]);
  }

  private long statFlashBytes() throws IOException, InterruptedException {
    long sum = 0;
    for (int c = 0; c < GEOMETRY.channels(); c++) {
      sum += statBytes(dataDir.resolve("flash").resolve(FlashArray.fileName(c)));
    }
    return sum;
  }

  @Test
  void anErasedBlockGivesItsBytesBackAndReadsAsZeros() throws Exception {
    assumeTrue(nativeLoaded(), "built without the native library");
    try (FlashArray flash = open(true)) {
      assertTrue(flash.reclaimingSpace(), flash.reclaimNote());
      assertEquals("", flash.reclaimNote());
      int keep = flash.addressing().blockId(0, 1, 2);
      int erase = flash.addressing().blockId(1, 0, 3);
      fill(flash, keep);
      fill(flash, erase);
      assertEquals(2 * BLOCK_BYTES, flash.allocatedBytes());
      assertEquals(flash.allocatedBytes(), statFlashBytes(), "our fstat and stat(1) agree");

      flash.eraseBlock(erase, null);

      assertEquals(BLOCK_BYTES, flash.allocatedBytes());
      assertEquals(BLOCK_BYTES, statFlashBytes());
      assertEquals(BLOCK_BYTES, flash.punchedBytes());
      int first = flash.addressing().firstPpa(erase);
      for (int p = 0; p < GEOMETRY.pagesPerBlock(); p++) {
        assertArrayEquals(new byte[PAGE], read(flash, first + p), "erased page " + p + " reads as zeros");
      }
      int kept = flash.addressing().firstPpa(keep);
      for (int p = 0; p < GEOMETRY.pagesPerBlock(); p++) {
        assertArrayEquals(random(kept + p), read(flash, kept + p), "the other block keeps page " + p);
      }
      // An erased block is programmed again as any other, and erasing it twice does no harm.
      flash.programPage(first, ByteBuffer.wrap(random(7)), null);
      assertArrayEquals(random(7), read(flash, first));
      flash.eraseBlock(erase, null);
      flash.eraseBlock(erase, null);
      assertArrayEquals(new byte[PAGE], read(flash, first));
      assertEquals(GEOMETRY.channels() * GEOMETRY.waysPerChannel() * GEOMETRY.blocksPerWay() * BLOCK_BYTES,
          flash.fileBytes());
      assertEquals(flash.fileBytes() / GEOMETRY.channels(), Files.size(dataDir.resolve("flash").resolve(
          FlashArray.fileName(0))), "a punch keeps the file's size");
    }
  }

  @Test
  void discardedPagesAcrossAChannelEndGiveTheirBytesBack() throws Exception {
    assumeTrue(nativeLoaded(), "built without the native library");
    try (FlashArray flash = open(true)) {
      int lastOfChannel0 = flash.addressing().blockId(0, 1, 3);
      int firstOfChannel1 = flash.addressing().blockId(1, 0, 0);
      fill(flash, lastOfChannel0);
      fill(flash, firstOfChannel1);
      // The last 3 pages of channel 0 and the first 5 of channel 1: neighbours as ppas, two files.
      int from = flash.addressing().firstPpa(firstOfChannel1) - 3;
      flash.discardPages(from, 8);

      assertEquals(2 * BLOCK_BYTES - 8L * PAGE, flash.allocatedBytes());
      assertEquals(flash.allocatedBytes(), statFlashBytes());
      for (int ppa = from - 1; ppa <= from + 8; ppa++) {
        boolean discarded = ppa >= from && ppa < from + 8;
        assertArrayEquals(discarded ? new byte[PAGE] : random(ppa), read(flash, ppa), "ppa " + ppa);
      }
      assertThrows(IllegalArgumentException.class, () -> flash.discardPages(GEOMETRY.totalPages() - 1, 2));
    }
  }

  @Test
  void theAllocatedRunsAreThePagesThatHoldBytes() throws Exception {
    assumeTrue(nativeLoaded(), "built without the native library");
    try (FlashArray flash = open(true)) {
      java.util.List<int[]> none = new java.util.ArrayList<>();
      flash.forEachAllocatedRun((first, count) -> none.add(new int[] {first, count}));
      assertEquals(0, none.size(), "a new array holds no bytes");
      int a = flash.addressing().blockId(0, 1, 1);
      int b = flash.addressing().blockId(1, 0, 2);
      fill(flash, a);
      fill(flash, b);
      flash.discardPages(flash.addressing().firstPpa(b) + 2, 3);
      java.util.List<String> runs = new java.util.ArrayList<>();
      flash.forEachAllocatedRun((first, count) -> runs.add(first + "+" + count));
      int fa = flash.addressing().firstPpa(a);
      int fb = flash.addressing().firstPpa(b);
      assertEquals(java.util.List.of(fa + "+8", fb + "+2", (fb + 5) + "+3"), runs);
    }
  }

  @Test
  void switchedOffEveryByteStaysAndTheReasonIsKept() throws Exception {
    try (FlashArray flash = open(false)) {
      assertFalse(flash.reclaimingSpace());
      assertTrue(flash.reclaimNote().contains("smartssd.device.flash.reclaim-space=false"), flash.reclaimNote());
      int block = flash.addressing().blockId(0, 0, 0);
      fill(flash, block);
      flash.eraseBlock(block, null);
      flash.discardPages(flash.addressing().firstPpa(block), 4);
      // Accounted only, as before space reclaim: the old bytes are still there.
      int first = flash.addressing().firstPpa(block);
      assertArrayEquals(random(first), read(flash, first));
      assertEquals(0, flash.punchedBytes());
      if (nativeLoaded()) {
        assertEquals(BLOCK_BYTES, flash.allocatedBytes(), "disk use is still measured");
      }
    }
  }

  @Test
  void withoutTheNativeLibraryReclaimIsOffAndSaysWhy() throws Exception {
    try (FlashArray flash = open(true)) {
      if (nativeLoaded()) {
        assertTrue(flash.reclaimingSpace(), flash.reclaimNote());
        assertTrue(flash.allocatedBytes() >= 0);
      } else {
        assertFalse(flash.reclaimingSpace());
        assertEquals(NativeFiles.unavailable().get(), flash.reclaimNote());
        assertTrue(flash.reclaimNote().contains("libsmartssd-device"), flash.reclaimNote());
        assertEquals(-1, flash.allocatedBytes(), "disk use cannot be told without the library");
        int block = flash.addressing().blockId(1, 1, 1);
        fill(flash, block);
        flash.eraseBlock(block, null); // accounted only, no failure
        assertArrayEquals(random(flash.addressing().firstPpa(block)), read(flash, flash.addressing().firstPpa(block)));
      }
    }
  }

  /** Runs chattr(1); false where it cannot (not root, a file system without the flag). */
  private static boolean chattr(String flag, Path file) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("chattr", flag, file.toString()).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor() == 0;
  }

  /**
   * A punch the file system refuses while the device runs (here: the channel file made append-only,
   * which forbids punching) turns reclaim off with the reason, and the device goes on with its data.
   */
  @Test
  void aPunchRefusedLaterTurnsReclaimOffAndNothingElse() throws Exception {
    assumeTrue(nativeLoaded(), "built without the native library");
    try (FlashArray flash = open(true)) {
      int block = flash.addressing().blockId(0, 0, 1);
      fill(flash, block);
      Path file = dataDir.resolve("flash").resolve(FlashArray.fileName(0));
      assumeTrue(chattr("+a", file), "chattr +a needs root and a file system with the flag");
      try {
        int first = flash.addressing().firstPpa(block);
        flash.discardPages(first, 2);
        assertFalse(flash.reclaimingSpace());
        assertTrue(flash.reclaimNote().startsWith("punching a hole failed in " + file + " (fallocate at "),
            flash.reclaimNote());
        assertEquals(0, flash.punchedBytes());
        flash.discardPages(first + 2, 2); // off now: not tried again
        flash.eraseBlock(block, null);
        assertArrayEquals(random(first), read(flash, first), "the bytes stay, as without reclaim");
        assertEquals(BLOCK_BYTES, flash.allocatedBytes());
      } finally {
        chattr("-a", file);
      }
    }
  }

  /**
   * The probe at start is what finds a file system that cannot punch holes; one where the probe cannot
   * even be written (here: the flash directory made immutable) is reported the same way, at start.
   */
  @Test
  void aProbeThatFailsAtStartTurnsReclaimOffAndSaysWhy() throws Exception {
    assumeTrue(nativeLoaded(), "built without the native library");
    int block;
    try (FlashArray flash = open(true)) {
      block = flash.addressing().blockId(1, 1, 0);
      fill(flash, block);
    }
    Path flashDir = dataDir.resolve("flash");
    assumeTrue(chattr("+i", flashDir), "chattr +i needs root and a file system with the flag");
    try (FlashArray flash = open(true)) {
      assertFalse(flash.reclaimingSpace());
      assertTrue(flash.reclaimNote().startsWith("probing " + flashDir.resolve(FlashArray.PROBE_FILE) + " failed: "),
          flash.reclaimNote());
      int first = flash.addressing().firstPpa(block);
      assertArrayEquals(random(first), read(flash, first));
      flash.eraseBlock(block, null);
      assertEquals(BLOCK_BYTES, flash.allocatedBytes(), "disk use is still measured");
    } finally {
      chattr("-i", flashDir);
    }
  }

  @Test
  void theProbeLeavesNothingBehind() throws Exception {
    try (FlashArray flash = open(true)) {
      assertFalse(Files.exists(flash.directory().resolve(FlashArray.PROBE_FILE)));
    }
  }

  @Test
  void aClosedArrayRefusesToDiscard() throws Exception {
    FlashArray flash = open(true);
    flash.close();
    assertThrows(IOException.class, () -> flash.discardPages(0, 1));
    assertEquals(-1, flash.allocatedBytes());
  }
}
