package org.smartssd.device.runtime.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.runtime.config.TimingParameters;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.NanoClock;
import org.smartssd.device.runtime.timing.TimingModel;

class FlashArrayTest {

  private static final DeviceGeometry GEOMETRY = new DeviceGeometry(3, 2, 4, 4, 512, 1);
  private static final long CHANNEL_FILE_BYTES = 2 * 4 * 4 * 512;
  private static final TimingParameters TIMING = new TimingParameters(50_000, 1_200_000, 3_000_000, 50e6, 250e6, 20_000, true);

  @TempDir
  Path dataDir;

  private TimingModel timing;
  private FlashArray flash;

  @BeforeEach
  void open() throws IOException {
    timing = model(GEOMETRY);
    flash = FlashArray.open(dataDir, GEOMETRY, timing);
  }

  @AfterEach
  void close() throws IOException {
    flash.close();
  }

  private static TimingModel model(DeviceGeometry geometry) {
    NanoClock frozen = () -> 0;
    return new TimingModel(geometry, TIMING, frozen);
  }

  @Test
  void createsOneSparseFilePerChannel() throws IOException {
    for (int c = 0; c < 3; c++) {
      Path file = dataDir.resolve("flash").resolve(String.format("channel-%03d.flash", c));
      assertEquals(CHANNEL_FILE_BYTES, Files.size(file));
    }
    assertEquals("channel-1234.flash", FlashArray.fileName(1234));
  }

  @Test
  void programAndReadBackOnEveryChannelAndWay() throws IOException {
    PageAddressing addressing = flash.addressing();
    List<Integer> ppas = new ArrayList<>();
    for (int c = 0; c < 3; c++) {
      for (int w = 0; w < 2; w++) {
        int ppa = addressing.ppa(c, w, (c + w) % 4, (c * 2 + w) % 4);
        ppas.add(ppa);
        flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), null);
      }
    }
    for (int ppa : ppas) {
      assertArrayEquals(pattern(ppa, 512), read(ppa), "ppa " + ppa);
    }
  }

  /** Reads come through a memory mapping made at the first read: later writes must show through it. */
  @Test
  void readsSeeEveryLaterProgramOfTheSamePage() throws IOException {
    int ppa = flash.addressing().ppa(2, 1, 3, 2);
    flash.readRaw(ppa, ByteBuffer.allocate(512), null); // maps the region
    for (int round = 0; round < 3; round++) {
      byte[] data = pattern(ppa + round * 1000, 512);
      flash.programPage(ppa, ByteBuffer.wrap(data), null);
      assertArrayEquals(data, read(ppa), "round " + round);
      flash.eraseBlock(flash.addressing().blockId(ppa), null);
      ByteBuffer raw = ByteBuffer.allocate(512);
      flash.readRaw(ppa, raw, null);
      assertArrayEquals(new byte[512], raw.array(), "erased, round " + round);
    }
  }

  /** A channel file that shrinks under the device is an I/O error naming it, not a crash of the JVM. */
  @Test
  void aChannelFileCutShortUnderTheMappingIsAnIoError() throws IOException {
    int ppa = flash.addressing().ppa(1, 1, 3, 3); // the channel's last page
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), null);
    assertArrayEquals(pattern(ppa, 512), read(ppa));
    try (FileChannel file = FileChannel.open(dataDir.resolve("flash/channel-001.flash"), StandardOpenOption.WRITE)) {
      file.truncate(4096);
    }
    IOException e = assertThrows(IOException.class, () -> read(ppa));
    assertTrue(e.getMessage().contains("channel-001.flash"), e.getMessage());
  }

  @Test
  void pageLandsAtItsDocumentedOffset() throws IOException {
    int ppa = flash.addressing().ppa(1, 1, 2, 3);
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), null);
    flash.force();
    byte[] file = Files.readAllBytes(dataDir.resolve("flash/channel-001.flash"));
    int offset = ((1 * 4 + 2) * 4 + 3) * 512;
    assertArrayEquals(pattern(ppa, 512), Arrays.copyOfRange(file, offset, offset + 512));
  }

  @Test
  void shortProgramIsPaddedWithZeros() throws IOException {
    byte[] full = new byte[512];
    Arrays.fill(full, (byte) 0xff);
    flash.programPage(7, ByteBuffer.wrap(full), null);
    ByteBuffer src = ByteBuffer.wrap(pattern(7, 100));
    flash.programPage(7, src, null);
    assertEquals(0, src.remaining(), "the source is consumed");

    byte[] expected = new byte[512];
    System.arraycopy(pattern(7, 100), 0, expected, 0, 100);
    assertArrayEquals(expected, read(7));
  }

  @Test
  void aNeverWrittenPageReadsAsErasedNotAsAChecksumMismatch() throws IOException {
    PageCorruptException e = assertThrows(PageCorruptException.class,
        () -> read(flash.addressing().totalPages() - 1));
    assertTrue(e.reason().startsWith("its out-of-band entry says it is erased"), e.getMessage());
  }

  @Test
  void readFillsExactlyOnePageOfALargerBuffer() throws IOException {
    flash.programPage(3, ByteBuffer.wrap(pattern(3, 512)), null);
    ByteBuffer dst = ByteBuffer.allocateDirect(1000);
    dst.position(10);
    flash.readPage(3, dst, null);
    assertEquals(522, dst.position());
    assertEquals(1000, dst.limit());
    byte[] got = new byte[512];
    dst.position(10);
    dst.get(got);
    assertArrayEquals(pattern(3, 512), got);
  }

  @Test
  void badBuffersAndAddressesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> flash.readPage(0, ByteBuffer.allocate(511), null));
    assertThrows(IllegalArgumentException.class, () -> flash.programPage(0, ByteBuffer.allocate(513), null));
    IllegalArgumentException ppa = assertThrows(IllegalArgumentException.class,
        () -> flash.readPage(96, ByteBuffer.allocate(512), null));
    assertTrue(ppa.getMessage().contains("ppa 96"), ppa.getMessage());
    IllegalArgumentException block = assertThrows(IllegalArgumentException.class, () -> flash.eraseBlock(24, null));
    assertTrue(block.getMessage().contains("block id 24"), block.getMessage());
  }

  @Test
  void reopenWithTheSameGeometryKeepsTheData() throws IOException {
    int ppa = flash.addressing().ppa(2, 1, 3, 3);
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), null);
    flash.force();
    flash.close();
    flash = FlashArray.open(dataDir, GEOMETRY, timing);
    assertArrayEquals(pattern(ppa, 512), read(ppa));
  }

  @Test
  void reopenWithAnotherPageLayoutFailsClearly() throws IOException {
    flash.close();
    DeviceGeometry bigger = new DeviceGeometry(3, 2, 8, 4, 512, 1);
    IOException e = assertThrows(IOException.class, () -> FlashArray.open(dataDir, bigger, model(bigger)));
    assertTrue(e.getMessage().startsWith("flash geometry changed?"), e.getMessage());
    assertTrue(e.getMessage().contains("channel-000.flash"), e.getMessage());
    assertTrue(e.getMessage().contains(CHANNEL_FILE_BYTES + " bytes"), e.getMessage());
    assertTrue(e.getMessage().contains(2 * CHANNEL_FILE_BYTES + " bytes"), e.getMessage());
  }

  @Test
  void reopenWithFewerChannelsFailsClearly() throws IOException {
    flash.close();
    DeviceGeometry fewer = new DeviceGeometry(2, 2, 4, 4, 512, 1);
    IOException e = assertThrows(IOException.class, () -> FlashArray.open(dataDir, fewer, model(fewer)));
    assertTrue(e.getMessage().startsWith("flash geometry changed?"), e.getMessage());
    assertTrue(e.getMessage().contains("channel-002.flash"), e.getMessage());
  }

  @Test
  void emptyFileLeftByACrashIsSized() throws IOException {
    flash.close();
    Path file = dataDir.resolve("flash/channel-001.flash");
    Files.write(file, new byte[0]);
    flash = FlashArray.open(dataDir, GEOMETRY, timing);
    assertEquals(CHANNEL_FILE_BYTES, Files.size(file));
  }

  @Test
  void timingModelMustMatchTheGeometry() {
    DeviceGeometry other = new DeviceGeometry(1, 1, 4, 4, 512, 1);
    assertThrows(IllegalArgumentException.class, () -> FlashArray.open(dataDir, GEOMETRY, model(other)));
  }

  @Test
  void operationsAreAccountedOnTheCommand() throws IOException {
    PageAddressing addressing = flash.addressing();
    Command write = timing.begin();
    write.transferIn(512);
    flash.programPage(addressing.ppa(1, 0, 0, 0), ByteBuffer.wrap(pattern(1, 512)), write);
    flash.programPage(addressing.ppa(2, 1, 0, 0), ByteBuffer.wrap(pattern(2, 512)), write);
    write.complete();

    Command read = timing.begin();
    flash.readPage(addressing.ppa(1, 0, 0, 0), ByteBuffer.allocate(512), read);
    flash.readPage(addressing.ppa(2, 1, 0, 0), ByteBuffer.allocate(512), null); // not accounted
    read.transferOut(512);
    read.complete();

    Command gc = timing.begin();
    flash.eraseBlock(addressing.blockId(2, 1, 3), gc);
    gc.complete();

    DeviceStatistics stats = timing.statistics(0);
    long bus = timing.pageBusNanos();
    assertEquals(List.of(
        new ChannelStatistics(0, 0, 0, 0),
        new ChannelStatistics(1, 1, 0, 2 * bus),
        new ChannelStatistics(0, 1, 1, bus)), stats.channels());
    assertEquals(3, stats.commands());
  }

  @Test
  void commandOfAnotherDeviceIsRefused() {
    Command foreign = model(GEOMETRY).begin();
    assertThrows(IllegalArgumentException.class, () -> flash.readPage(0, ByteBuffer.allocate(512), foreign));
  }

  @Test
  void closedArrayRefusesWorkAndClosesOnce() throws IOException {
    flash.close();
    flash.close();
    IOException e = assertThrows(IOException.class, () -> flash.readPage(0, ByteBuffer.allocate(512), null));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
  }

  @Test
  void concurrentProgramsAndReadsOfDistinctPages() throws Exception {
    int pages = flash.addressing().totalPages();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          for (int ppa = thread; ppa < pages; ppa += 6) {
            Command cmd = timing.begin();
            flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), cmd);
            cmd.complete();
            assertArrayEquals(pattern(ppa, 512), read(ppa));
          }
          return null;
        }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
    for (int ppa = 0; ppa < pages; ppa++) {
      assertArrayEquals(pattern(ppa, 512), read(ppa));
    }
    assertEquals(pages, timing.statistics(0).totalPagesProgrammed());
  }

  @Test
  void anInterruptedReaderDoesNotTakeTheFlashAwayFromOthers() throws Exception {
    flash.programPage(5, ByteBuffer.wrap(pattern(5, 512)), null);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      Thread.currentThread().interrupt();
      try {
        read(5);
      } catch (Throwable t) {
        thrown.set(t);
      }
    });
    reader.start();
    reader.join();
    assertTrue(thrown.get() instanceof InterruptedIOException, String.valueOf(thrown.get()));
    assertArrayEquals(pattern(5, 512), read(5));
    flash.programPage(6, ByteBuffer.wrap(pattern(6, 512)), null);
    assertArrayEquals(pattern(6, 512), read(6));
  }

  // ---- out-of-band checksums ----

  @Test
  void everyProgramLeavesAnOutOfBandFileBesideItsChannel() throws IOException {
    for (int c = 0; c < 3; c++) {
      assertEquals(2 * 4 * 4 * 8, Files.size(dataDir.resolve("flash").resolve(String.format("channel-%03d.oob", c))));
    }
    int ppa = flash.addressing().ppa(1, 0, 2, 1);
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), 41, null);
    byte[] oob = Files.readAllBytes(dataDir.resolve("flash/channel-001.oob"));
    int entry = flash.addressing().pageInChannel(ppa) * 8;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(pattern(ppa, 512));
    crc.update(new byte[] {0, 0, 0, 41});
    ByteBuffer e = ByteBuffer.wrap(oob, entry, 8);
    assertEquals((int) crc.getValue(), e.getInt(), "crc32c of the data and the owner");
    assertEquals(42, e.getInt(), "owner + 1");
  }

  @Test
  void aFlippedDataByteFailsTheReadAndNeverHandsOutTheBytes() throws IOException {
    int ppa = flash.addressing().ppa(2, 1, 1, 2);
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), 7, null);
    flash.force();
    flipByte(dataDir.resolve("flash/channel-002.flash"), (long) flash.addressing().pageInChannel(ppa) * 512 + 100);

    ByteBuffer dst = ByteBuffer.allocate(512);
    PageCorruptException e = assertThrows(PageCorruptException.class, () -> flash.readPage(ppa, dst, 7, null));
    assertEquals(ppa, e.ppa());
    assertTrue(e.getMessage().startsWith("physical page " + ppa + " (channel 2, way 1, block 1, page 2) failed its"
        + " check: checksum mismatch"), e.getMessage());
    assertArrayEquals(new byte[512], dst.array(), "the damaged bytes are not handed out");
    // The other pages of the channel are not affected.
    int other = flash.addressing().ppa(2, 1, 1, 3);
    flash.programPage(other, ByteBuffer.wrap(pattern(other, 512)), 8, null);
    ByteBuffer fine = ByteBuffer.allocate(512);
    flash.readPage(other, fine, 8, null);
    assertArrayEquals(pattern(other, 512), fine.array());
  }

  @Test
  void aFlippedOutOfBandByteFailsTheRead() throws IOException {
    int ppa = flash.addressing().ppa(0, 1, 3, 0);
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), 3, null);
    flash.force();
    long entry = (long) flash.addressing().pageInChannel(ppa) * 8;
    flash.close();
    flipByte(dataDir.resolve("flash/channel-000.oob"), entry + 1); // in the crc
    flash = FlashArray.open(dataDir, GEOMETRY, timing);
    PageCorruptException crc = assertThrows(PageCorruptException.class,
        () -> flash.readPage(ppa, ByteBuffer.allocate(512), 3, null));
    assertTrue(crc.reason().startsWith("checksum mismatch"), crc.getMessage());

    int second = flash.addressing().ppa(0, 1, 3, 1);
    flash.programPage(second, ByteBuffer.wrap(pattern(second, 512)), 4, null);
    flash.force();
    flash.close();
    flipByte(dataDir.resolve("flash/channel-000.oob"), (long) flash.addressing().pageInChannel(second) * 8 + 7);
    flash = FlashArray.open(dataDir, GEOMETRY, timing);
    PageCorruptException tag = assertThrows(PageCorruptException.class,
        () -> flash.readPage(second, ByteBuffer.allocate(512), 4, null));
    assertTrue(tag.reason().startsWith("checksum mismatch"), "a damaged owner tag fails the checksum: " + tag);
  }

  @Test
  void aPageProgrammedForAnotherOwnerIsRefused() throws IOException {
    flash.programPage(9, ByteBuffer.wrap(pattern(9, 512)), 100, null);
    PageCorruptException e = assertThrows(PageCorruptException.class,
        () -> flash.readPage(9, ByteBuffer.allocate(512), 101, null));
    assertTrue(e.reason().startsWith("it holds logical page 100, not 101"), e.getMessage());
  }

  @Test
  void anEraseMarksTheBlocksEntriesErased() throws IOException {
    PageAddressing a = flash.addressing();
    int ppa = a.ppa(1, 1, 2, 0);
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), 5, null);
    flash.eraseBlock(a.blockId(ppa), null);
    PageCorruptException e = assertThrows(PageCorruptException.class,
        () -> flash.readPage(ppa, ByteBuffer.allocate(512), 5, null));
    assertTrue(e.reason().startsWith("its out-of-band entry says it is erased"), e.getMessage());
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa + 1, 512)), 6, null);
    ByteBuffer dst = ByteBuffer.allocate(512);
    flash.readPage(ppa, dst, 6, null);
    assertArrayEquals(pattern(ppa + 1, 512), dst.array());
  }

  @Test
  void movingADamagedPageKeepsItDamagedAndAnIntactOneIntact() throws IOException {
    PageAddressing a = flash.addressing();
    int good = a.ppa(1, 0, 0, 0);
    int bad = a.ppa(1, 0, 0, 1);
    flash.programPage(good, ByteBuffer.wrap(pattern(good, 512)), 1, null);
    flash.programPage(bad, ByteBuffer.wrap(pattern(bad, 512)), 2, null);
    flash.force();
    flipByte(dataDir.resolve("flash/channel-001.flash"), (long) a.pageInChannel(bad) * 512);
    ByteBuffer buffer = ByteBuffer.allocate(512);
    assertTrue(flash.movePage(good, a.ppa(1, 1, 0, 0), 1, buffer, null));
    assertFalse(flash.movePage(bad, a.ppa(1, 1, 0, 1), 2, buffer, null));
    ByteBuffer dst = ByteBuffer.allocate(512);
    flash.readPage(a.ppa(1, 1, 0, 0), dst, 1, null);
    assertArrayEquals(pattern(good, 512), dst.array());
    assertThrows(PageCorruptException.class, () -> flash.readPage(a.ppa(1, 1, 0, 1), ByteBuffer.allocate(512), 2,
        null));
  }

  @Test
  void aChannelWithDataButNoOutOfBandFileIsOpenedWithoutChecksums() throws IOException {
    int ppa = flash.addressing().ppa(2, 0, 0, 0);
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), 12, null);
    flash.force();
    flash.close();
    Path oob = dataDir.resolve("flash/channel-002.oob");
    Files.delete(oob);
    flash = FlashArray.open(dataDir, GEOMETRY, timing);
    assertEquals(List.of(2), flash.channelsWithoutOob());
    assertFalse(Files.exists(oob), "opening creates nothing the store has not decided on");
    PageCorruptException e = assertThrows(PageCorruptException.class,
        () -> flash.readPage(ppa, ByteBuffer.allocate(512), 12, null));
    assertTrue(e.reason().contains("checksum is missing"), e.getMessage());

    flash.createMissingOob();
    assertEquals(List.of(), flash.channelsWithoutOob());
    flash.recordChecksum(ppa, 12, ByteBuffer.allocate(512));
    ByteBuffer dst = ByteBuffer.allocate(512);
    flash.readPage(ppa, dst, 12, null);
    assertArrayEquals(pattern(ppa, 512), dst.array());
  }

  @Test
  void openedForCheckingItCreatesAndChangesNothing() throws IOException {
    int ppa = flash.addressing().ppa(0, 0, 0, 0);
    flash.programPage(ppa, ByteBuffer.wrap(pattern(ppa, 512)), 0, null);
    flash.force();
    flash.close();
    Files.delete(dataDir.resolve("flash/channel-001.flash"));
    Files.delete(dataDir.resolve("flash/channel-002.oob"));
    flash = FlashArray.openForCheck(dataDir, GEOMETRY, timing);
    assertFalse(Files.exists(dataDir.resolve("flash/channel-001.flash")));
    assertFalse(Files.exists(dataDir.resolve("flash/channel-002.oob")));
    assertArrayEquals(pattern(ppa, 512), read(ppa));
    PageCorruptException missing = assertThrows(PageCorruptException.class, () -> read(flash.addressing().ppa(1, 0, 0, 0)));
    assertTrue(missing.reason().contains("backing file"), missing.getMessage());
    assertThrows(IllegalStateException.class, () -> flash.programPage(ppa, ByteBuffer.allocate(512), null));
    assertThrows(IllegalStateException.class, () -> flash.eraseBlock(0, null));
  }

  private static void flipByte(Path file, long offset) throws IOException {
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
        java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) (b.get(0) ^ 0x20)).rewind();
      ch.write(b, offset);
    }
  }

  private byte[] read(int ppa) throws IOException {
    ByteBuffer dst = ByteBuffer.allocate(512);
    flash.readPage(ppa, dst, null);
    assertEquals(512, dst.position());
    return dst.array();
  }

  /** Bytes that differ from page to page, so that a misplaced page shows. */
  private static byte[] pattern(int seed, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (seed * 31 + i * 7 + 1);
    }
    return bytes;
  }
}
