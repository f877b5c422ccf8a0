package org.smartssd.device.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.smartssd.device.runtime.TestDevices.bytes;
import static org.smartssd.device.runtime.TestDevices.readAll;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.ftl.DamagedMetadataException;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/**
 * Bytes flipped at every kind of place in a stopped device's data directory, and what the real
 * device does then: damaged metadata stops it from starting, changing nothing; a torn journal tail
 * is cut; a damaged page is answered CORRUPT, naming the file and the offset, and never read back.
 */
class CorruptionTest {
  private static final int PAGE = 4096;
  private static final byte[] A = bytes(5 * PAGE + 100, 1);
  private static final byte[] B = bytes(2 * PAGE + 7, 2);
  private static final byte[] C = bytes(3000, 3);

  @TempDir Path dir;

  private Map<String, String> config() {
    return TestDevices.small(dir);
  }

  /**
   * One life of the device whose changes stay in the journal: /data/a.bin and /data/b.bin written
   * and closed, /data/c.bin written and deleted, then /later made.
   */
  private void history() throws IOException {
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/data/a.bin", A);
      write(c, "/data/b.bin", B);
      write(c, "/data/c.bin", C);
      c.delete("/data/c.bin", false);
      c.mkdirs("/later");
    }
  }

  private static void write(SocketDeviceClient c, String path, byte[] content) throws IOException {
    long h = c.create(path, false, true).handle();
    c.write(h, content, 0, content.length);
    c.closeHandle(h);
  }

  /** Starting is refused with damage of this kind, and the metadata is left exactly as it was. */
  private DamagedMetadataException refusedToStart(DamagedMetadataException.Kind kind) throws IOException {
    Map<String, byte[]> before = Damage.metadata(dir);
    DamagedMetadataException e = assertThrows(DamagedMetadataException.class, () -> TestDevices.start(config()));
    assertEquals(kind, e.kind(), e.getMessage());
    assertTrue(Damage.same(before, Damage.metadata(dir)), "refusing to start changed the metadata");
    return e;
  }

  // ---- the journal ----

  @Test
  void aFlipInTheFirstJournalRecordStopsTheDeviceInsteadOfLosingEveryFile() throws Exception {
    history();
    Path journal = Damage.journal(dir);
    List<Long> records = Damage.recordOffsets(journal);
    Damage.flipByte(journal, 10); // the first record's payload
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.JOURNAL_RECORD);
    assertEquals(0, e.offset());
    assertEquals(journal, e.file());
    assertTrue(e.getMessage().startsWith("metadata journal " + journal + " is damaged at byte offset 0 (record 1:"
        + " checksum mismatch"), e.getMessage());
    assertTrue(e.getMessage().contains("hold " + (records.size() - 2) + " intact records"), e.getMessage());
    // Refused again, the same way: nothing was cut or checkpointed.
    assertEquals(0, assertThrows(DamagedMetadataException.class, () -> TestDevices.start(config())).offset());
  }

  @Test
  void aFlipInAMiddleRecordStopsTheDeviceInsteadOfResurrectingADeletedFile() throws Exception {
    history();
    Path journal = Damage.journal(dir);
    List<Long> records = Damage.recordOffsets(journal);
    int middle = (records.size() - 1) / 2;
    Damage.flipByte(journal, records.get(middle) + 6); // its stored checksum
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.JOURNAL_RECORD);
    assertEquals(records.get(middle), e.offset());
    assertTrue(e.getMessage().contains("(record " + (middle + 1) + ": checksum mismatch"), e.getMessage());
    assertTrue(e.getMessage().contains("hold " + (records.size() - 2 - middle) + " intact records (the first at"
        + " offset " + records.get(middle + 1) + "), which recovery would lose"), e.getMessage());
  }

  @Test
  void aFlippedLengthInARecordHeaderStopsTheDevice() throws Exception {
    history();
    Path journal = Damage.journal(dir);
    List<Long> records = Damage.recordOffsets(journal);
    Damage.flipByte(journal, records.get(2) + 3); // the low byte of the third record's length
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.JOURNAL_RECORD);
    assertEquals(records.get(2), e.offset());
  }

  @Test
  void aFlipInTheLastCompleteRecordIsDamageNotATornTail() throws Exception {
    history();
    Path journal = Damage.journal(dir);
    List<Long> records = Damage.recordOffsets(journal);
    Damage.flipByte(journal, records.get(records.size() - 1) - 3);
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.JOURNAL_RECORD);
    assertEquals(records.get(records.size() - 2), e.offset());
    assertTrue(e.getMessage().contains("hold no intact record"), e.getMessage());
  }

  @Test
  void aTornTailIsStillCutAndEverythingBeforeItIsThere() throws Exception {
    history();
    Path journal = Damage.journal(dir);
    List<Long> records = Damage.recordOffsets(journal);
    long lastRecord = records.get(records.size() - 2); // the mkdir of /later
    Damage.truncate(journal, lastRecord + 11); // a kill -9 in the middle of appending it
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertArrayEquals(A, readAll(c, "/data/a.bin"));
      assertArrayEquals(B, readAll(c, "/data/b.bin"));
      assertThrows(FileNotFoundException.class, () -> c.status("/data/c.bin"));
      assertThrows(FileNotFoundException.class, () -> c.status("/later"));
    }
  }

  @Test
  void aDeletedJournalStopsTheDeviceInsteadOfStartingEmpty() throws Exception {
    history();
    Path journal = Damage.journal(dir);
    Files.delete(journal);
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.JOURNAL_MISSING);
    assertTrue(e.getMessage().startsWith("metadata journal " + journal + " is missing, but checkpoint "), e.getMessage());
  }

  @Test
  void aDeletedMetadataAreaBesideFlashWithDataStopsTheDevice() throws Exception {
    history();
    try (var files = Files.list(dir.resolve("meta"))) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.METADATA_MISSING);
    assertTrue(e.getMessage().contains("but the flash files in " + dir.resolve("flash") + " hold data"), e.getMessage());
  }

  @Test
  void aDeletedFlashDirectoryBesideACheckpointStopsTheDevice() throws Exception {
    history();
    try (var files = Files.list(dir.resolve("flash"))) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(dir.resolve("flash"));
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.FLASH_MISSING);
    assertTrue(e.getMessage().startsWith("the flash files in " + dir.resolve("flash") + " are missing or empty, but"
        + " checkpoint "), e.getMessage());
    assertFalse(Files.exists(dir.resolve("flash")), "refusing to start made no flash files");
  }

  @Test
  void aFlipInTheCheckpointStopsTheDevice() throws Exception {
    history();
    TestDevices.start(config()).close(); // the checkpoint now holds every file
    Path checkpoint = Damage.checkpoint(dir);
    Damage.flipByte(checkpoint, Files.size(checkpoint) / 2);
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.CHECKPOINT);
    assertTrue(e.getMessage().startsWith("metadata checkpoint " + checkpoint + " is damaged: its "), e.getMessage());
  }

  @Test
  void aNewDeviceStartsAndItsMetadataIsMadeBeforeItsFlash() throws Exception {
    try (SimulatedDevice device = TestDevices.start(config())) {
      assertTrue(Files.exists(Damage.journal(dir)));
    }
    // A crash between making the journal and the flash files of a new device leaves a device that starts.
    Path fresh = dir.resolve("fresh");
    org.smartssd.device.runtime.ftl.MetadataLog.format(fresh);
    Files.createDirectories(fresh.resolve("flash"));
    try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(fresh.resolve("flash/channel-000.flash").toFile(),
        "rw")) {
      file.setLength(4L * 16 * 32 * PAGE);
    }
    Map<String, String> o = TestDevices.small(fresh);
    try (SimulatedDevice device = TestDevices.start(o)) {
      assertEquals(0, device.info().capacityBytes() - device.info().freeBytes());
    }
  }

  // ---- flash pages ----

  @Test
  void aFlippedDataByteIsAnsweredCorruptNamingTheFileAndOffsetAndOtherDataStaysReadable() throws Exception {
    history();
    Damage.Page page = Damage.locate(dir, A, 1, PAGE);
    Damage.flipByte(page.file(dir), page.offset() + 77);
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      long id = c.open("/data/a.bin").objectId();
      DeviceException.Corrupt e = assertThrows(DeviceException.Corrupt.class, () -> readAll(c, "/data/a.bin"));
      assertTrue(e.getMessage().startsWith(device.address() + ": '/data/a.bin' is corrupt at offset 4096: bytes"
          + " 4096..8191 (page 1 of the file, logical page "), e.getMessage());
      assertTrue(e.getMessage().contains("failed its check: checksum mismatch"), e.getMessage());
      assertEquals(PAGE, e.offset());
      // A read that touches the page fails whole; the pages around it read back.
      assertThrows(DeviceException.Corrupt.class, () -> c.read(id, PAGE + 4000, ByteBuffer.allocate(200)));
      ByteBuffer first = ByteBuffer.allocate(PAGE);
      assertEquals(PAGE, c.read(id, 0, first));
      assertArrayEquals(Arrays.copyOf(A, PAGE), first.array());
      ByteBuffer rest = ByteBuffer.allocate(A.length - 2 * PAGE);
      while (rest.hasRemaining()) {
        c.read(id, 2 * PAGE + rest.position(), rest);
      }
      assertArrayEquals(Arrays.copyOfRange(A, 2 * PAGE, A.length), rest.array());
      assertArrayEquals(B, readAll(c, "/data/b.bin"));

      // An in-storage execution over the file fails with the same status and message.
      long tasklet = c.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
          Map.of("record-length", "1"));
      long exec = c.executeObject(tasklet, List.of(InputRange.whole("/data/a.bin")), Map.of());
      Response.ExecutionProgress end = ExecutionPoller.drain(c, exec, r -> { });
      assertEquals(ExecutionState.FAILED, end.state());
      assertTrue(end.message().startsWith("CORRUPT: '/data/a.bin' is corrupt at offset 4096: bytes 4096..8191"),
          end.message());
      long fine = c.executeObject(tasklet, List.of(InputRange.whole("/data/b.bin")), Map.of());
      Response.ExecutionProgress fineEnd = ExecutionPoller.drain(c, fine, r -> { });
      assertEquals(ExecutionState.DONE, fineEnd.state(), fineEnd.message());

      // Appending goes on from the last page, which is intact; the damaged page still fails.
      long h = c.append("/data/a.bin").handle();
      c.write(h, new byte[] {1, 2, 3}, 0, 3);
      c.closeHandle(h);
      assertThrows(DeviceException.Corrupt.class, () -> readAll(c, "/data/a.bin"));
    }
  }

  @Test
  void aFlippedOutOfBandEntryIsAnsweredCorrupt() throws Exception {
    history();
    Damage.Page page = Damage.locate(dir, B, 0, PAGE);
    Damage.flipByte(page.oob(dir), page.oobOffset() + 2);
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      DeviceException.Corrupt e = assertThrows(DeviceException.Corrupt.class, () -> readAll(c, "/data/b.bin"));
      assertTrue(e.getMessage().contains("'/data/b.bin' is corrupt at offset 0: bytes 0..4095"), e.getMessage());
      assertEquals(0, e.offset());
      assertArrayEquals(A, readAll(c, "/data/a.bin"));
    }
  }

  @Test
  void aDeletedOutOfBandFileStopsTheDevice() throws Exception {
    history();
    Damage.Page page = Damage.locate(dir, A, 0, PAGE);
    Files.delete(page.oob(dir));
    DamagedMetadataException e = refusedToStart(DamagedMetadataException.Kind.CHECKSUMS_MISSING);
    assertTrue(e.getMessage().startsWith("the out-of-band file " + page.oob(dir) + " is missing: the checksums of the "),
        e.getMessage());
    assertTrue(e.getMessage().contains("'/data/a.bin'"), e.getMessage());
    assertFalse(Files.exists(page.oob(dir)), "refusing to start made nothing");
  }

  @Test
  void aDataDirectoryFromBeforePageChecksumsOpensAndGetsThem() throws Exception {
    // Made by the device as it was before pages had checksums (see datadirs/README.md).
    unzip("/datadirs/before-page-checksums.zip", dir);
    Map<String, String> o = TestDevices.small(dir);
    o.put("smartssd.device.flash.channels", "2");
    o.put("smartssd.device.flash.ways-per-channel", "1");
    o.put("smartssd.device.flash.pages-per-block", "8");
    assertFalse(Files.exists(dir.resolve("flash/channel-000.oob")));
    byte[] b = bytes(5000, 2);
    try (SimulatedDevice device = TestDevices.start(o);
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertArrayEquals(bytes(10000, 1), readAll(c, "/data/a-renamed.bin"));
      assertArrayEquals(b, readAll(c, "/data/b.bin"));
      assertThrows(FileNotFoundException.class, () -> c.status("/data/gone.bin"));
    }
    assertTrue(Files.exists(dir.resolve("flash/channel-000.oob")));
    // The checksums recorded at the upgrade are checked from now on.
    Damage.Page page = Damage.locate(dir, b, 1, PAGE);
    Damage.flipByte(page.file(dir), page.offset() + 5);
    try (SimulatedDevice device = TestDevices.start(o);
        SocketDeviceClient c = TestDevices.connect(device)) {
      DeviceException.Corrupt e = assertThrows(DeviceException.Corrupt.class, () -> readAll(c, "/data/b.bin"));
      assertEquals(PAGE, e.offset());
      assertArrayEquals(bytes(10000, 1), readAll(c, "/data/a-renamed.bin"));
    }
  }

  static void unzip(String resource, Path target) throws IOException {
    try (InputStream in = CorruptionTest.class.getResourceAsStream(resource);
        ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        Path file = target.resolve(e.getName());
        Files.createDirectories(file.getParent());
        Files.copy(zip, file);
      }
    }
  }
}
