package org.smartssd.device.runtime.flash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
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
  void neverWrittenPageReadsAsZeros() throws IOException {
    assertArrayEquals(new byte[512], read(flash.addressing().totalPages() - 1));
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
    flash.readPage(addressing.ppa(1, 1, 0, 0), ByteBuffer.allocate(512), null); // not accounted
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
