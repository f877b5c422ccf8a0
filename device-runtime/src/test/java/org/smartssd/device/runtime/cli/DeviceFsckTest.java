package org.smartssd.device.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.smartssd.device.runtime.TestDevices.bytes;
import static org.smartssd.device.runtime.TestDevices.readAll;
import static org.smartssd.device.runtime.cli.DeviceCommandTest.smartssd;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.Damage;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.cli.DeviceCommandTest.Run;

/** {@code smartssd device fsck [--salvage]} on real data directories, damaged byte by byte. */
class DeviceFsckTest {
  private static final int PAGE = 4096;
  private static final byte[] A = bytes(5 * PAGE + 100, 1);
  private static final byte[] B = bytes(2 * PAGE + 7, 2);
  private static final byte[] D = bytes(PAGE, 4);

  @TempDir Path dir;

  /**
   * Space reclaim off: salvage goes back to a state before the damage, in which b.bin is not yet
   * deleted; with reclaim on, its pages are given back once its delete is durable, and salvage finds
   * them gone ({@link #aFileDeletedAfterTheStateSalvageKeepsIsLostWhenItsSpaceWasGivenBack}).
   */
  private Map<String, String> config() {
    Map<String, String> o = TestDevices.small(dir);
    o.put("smartssd.device.flash.reclaim-space", "false");
    return o;
  }

  /** fsck and device start with the geometry of {@link TestDevices#small}. */
  private List<String> args(String... command) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(List.of("--data-dir", dir.toString()));
    config().forEach((k, v) -> {
      if (k.startsWith("smartssd.device.flash.")) {
        args.add("-D");
        args.add(k + "=" + v);
      }
    });
    return args;
  }

  private Run fsck(String... extra) {
    List<String> args = args("device", "fsck");
    args.addAll(List.of(extra));
    return smartssd(args.toArray(String[]::new));
  }

  /** a.bin and b.bin, checkpointed by a restart; then d.bin written and b.bin deleted, in the journal. */
  private void history() throws IOException {
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/data/a.bin", A);
      write(c, "/data/b.bin", B);
    }
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/data/d.bin", D);
      c.delete("/data/b.bin", false);
    }
  }

  private static void write(SocketDeviceClient c, String path, byte[] content) throws IOException {
    long h = c.create(path, false, true).handle();
    c.write(h, content, 0, content.length);
    c.closeHandle(h);
  }

  /** The offset of the journal record that holds {@code text}. */
  private long recordHolding(String text) throws IOException {
    Path journal = Damage.journal(dir);
    String bytes = new String(Files.readAllBytes(journal), StandardCharsets.ISO_8859_1);
    int at = bytes.indexOf(text);
    assertTrue(at > 0, text + " is in the journal");
    long record = 0;
    for (long offset : Damage.recordOffsets(journal)) {
      if (offset > at) {
        break;
      }
      record = offset;
    }
    return record;
  }

  @Test
  void aCleanDirectoryIsReportedCleanAndLeftAsItWas() throws Exception {
    history();
    Map<String, byte[]> before = Damage.metadata(dir);
    Run run = fsck();
    assertEquals(0, run.code(), run.out() + run.err());
    assertTrue(run.out().contains("metadata: intact: "), run.out());
    assertTrue(run.out().contains("pages: 7 committed pages of 2 files checked, all intact"), run.out());
    assertTrue(run.out().strip().endsWith("result: clean"), run.out());
    assertTrue(Damage.same(before, Damage.metadata(dir)));
  }

  @Test
  void aDamagedJournalIsReportedAndSalvagedUpToTheDamage() throws Exception {
    history();
    long record = recordHolding("d.bin");
    Path journal = Damage.journal(dir);
    Damage.flipByte(journal, record + 30); // in the name of the file the record creates
    byte[] damaged = Files.readAllBytes(journal);

    Run start = smartssd(args("device", "start", "--port", "0").toArray(String[]::new));
    assertEquals(Cli.EXIT_DAMAGED, start.code());
    assertTrue(start.err().contains("smartssd: metadata journal " + journal + " is damaged at byte offset " + record),
        start.err());

    Map<String, byte[]> before = Damage.metadata(dir);
    Run check = fsck();
    assertEquals(Cli.EXIT_DAMAGED, check.code(), check.out() + check.err());
    assertTrue(check.out().contains("metadata: DAMAGED: metadata journal " + journal + " is damaged at byte offset "
        + record + " (record "), check.out());
    assertTrue(check.out().contains("the intact records after the damage: "), check.out());
    assertTrue(check.out().contains("delete object "), check.out()); // the lost delete of b.bin, named
    assertTrue(check.out().contains("result: DAMAGED (damaged metadata); `--salvage` keeps what is intact"),
        check.out());
    assertTrue(Damage.same(before, Damage.metadata(dir)), "fsck changed nothing");

    Run salvage = fsck("--salvage");
    assertEquals(0, salvage.code(), salvage.out() + salvage.err());
    assertTrue(salvage.out().contains("salvage: cut " + journal + " at byte offset " + record), salvage.out());
    assertTrue(salvage.out().strip().endsWith("result: SALVAGED; the device starts"), salvage.out());
    Path evidence;
    try (Stream<Path> dirs = Files.list(dir.resolve("meta"))) {
      evidence = dirs.filter(p -> p.getFileName().toString().startsWith("damaged-")).findFirst().orElseThrow();
    }
    assertArrayEquals(damaged, Files.readAllBytes(evidence.resolve(journal.getFileName())), "the evidence is kept");
    assertTrue(Files.readString(evidence.resolve("fsck-report.txt")).contains("is damaged at byte offset " + record));

    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertArrayEquals(A, readAll(c, "/data/a.bin"));
      // The state before the damage: b.bin not yet deleted, d.bin not yet made.
      assertArrayEquals(B, readAll(c, "/data/b.bin"));
      assertThrows(FileNotFoundException.class, () -> c.status("/data/d.bin"));
    }
    Run after = fsck();
    assertEquals(0, after.code(), after.out());
  }

  @Test
  void aDamagedPageIsReportedAndItsFileMovedToLostAndFound() throws Exception {
    history();
    Damage.Page page = Damage.locate(dir, A, 1, PAGE);
    Damage.flipByte(page.file(dir), page.offset() + 1000);

    Run check = fsck();
    assertEquals(Cli.EXIT_DAMAGED, check.code(), check.out() + check.err());
    assertTrue(check.out().contains("pages: 7 committed pages of 2 files checked, 1 fail their check, in 1 files"),
        check.out());
    assertTrue(check.out().contains("  '/data/a.bin': offset 4096, bytes 4096..8191 (page 1): physical page "),
        check.out());
    assertTrue(check.out().contains("checksum mismatch"), check.out());

    Run salvage = fsck("--salvage");
    assertEquals(0, salvage.code(), salvage.out() + salvage.err());
    assertTrue(salvage.out().contains("  '/data/a.bin' -> '/lost+found/data/a.bin'"), salvage.out());
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertThrows(FileNotFoundException.class, () -> c.status("/data/a.bin"));
      long id = c.open("/lost+found/data/a.bin").objectId();
      ByteBuffer first = ByteBuffer.allocate(PAGE);
      c.read(id, 0, first);
      assertArrayEquals(java.util.Arrays.copyOf(A, PAGE), first.array(), "its intact pages stay readable");
      DeviceException.Corrupt e = assertThrows(DeviceException.Corrupt.class,
          () -> c.read(id, PAGE, ByteBuffer.allocate(10)));
      assertTrue(e.getMessage().contains("'/lost+found/data/a.bin' is corrupt at offset 4096"), e.getMessage());
      assertArrayEquals(D, readAll(c, "/data/d.bin"));
    }
    Run after = fsck();
    assertEquals(0, after.code(), after.out());
    assertTrue(after.out().contains("known: 1 damaged pages in files an earlier salvage set aside under /lost+found/"),
        after.out());
  }

  @Test
  void aDeletedJournalIsSalvagedToTheCheckpointsState() throws Exception {
    history();
    Path journal = Damage.journal(dir);
    Files.delete(journal);
    Run check = fsck();
    assertEquals(Cli.EXIT_DAMAGED, check.code(), check.out());
    assertTrue(check.out().contains("metadata: DAMAGED: metadata journal " + journal + " is missing"), check.out());
    Run salvage = fsck("--salvage");
    assertEquals(0, salvage.code(), salvage.out() + salvage.err());
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertArrayEquals(A, readAll(c, "/data/a.bin"));
      assertArrayEquals(B, readAll(c, "/data/b.bin"));
      assertThrows(FileNotFoundException.class, () -> c.status("/data/d.bin"));
    }
  }

  /**
   * With space reclaim on, a file deleted after the state salvage goes back to had its pages given
   * back to the file system: salvage cannot bring its bytes back, and says so (the pages are erased),
   * moving it to /lost+found instead of handing out zeros.
   */
  @Test
  void aFileDeletedAfterTheStateSalvageKeepsIsLostWhenItsSpaceWasGivenBack() throws Exception {
    Map<String, String> reclaiming = TestDevices.small(dir);
    reclaiming.put("smartssd.device.flash.reclaim-space", "true");
    try (SimulatedDevice device = TestDevices.start(reclaiming);
        SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/data/a.bin", A);
      write(c, "/data/b.bin", B);
    }
    try (SimulatedDevice device = TestDevices.start(reclaiming);
        SocketDeviceClient c = TestDevices.connect(device)) {
      org.smartssd.device.DiskUse use = c.statistics().diskUse();
      org.junit.jupiter.api.Assumptions.assumeTrue(use != null && use.reclaiming(),
          "space reclaim works here (native library, file system): " + (use == null ? "no disk use" : use.reclaimNote()));
      write(c, "/data/d.bin", D);
      c.delete("/data/b.bin", false);
    }
    Files.delete(Damage.journal(dir));
    List<String> salvageArgs = new ArrayList<>(List.of("device", "fsck", "--data-dir", dir.toString(), "--salvage"));
    reclaiming.forEach((k, v) -> {
      if (k.startsWith("smartssd.device.flash.")) {
        salvageArgs.add("-D");
        salvageArgs.add(k + "=" + v);
      }
    });
    Run salvage = smartssd(salvageArgs.toArray(String[]::new));
    assertEquals(0, salvage.code(), salvage.out() + salvage.err());
    assertTrue(salvage.out().contains("'/data/b.bin' -> '/lost+found/data/b.bin'"), salvage.out());
    try (SimulatedDevice device = TestDevices.start(reclaiming);
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertArrayEquals(A, readAll(c, "/data/a.bin"));
      assertThrows(DeviceException.Corrupt.class, () -> readAll(c, "/lost+found/data/b.bin"));
    }
  }

  @Test
  void aDeletedOutOfBandFileIsSalvagedByMovingItsFilesAside() throws Exception {
    history();
    Damage.Page page = Damage.locate(dir, D, 0, PAGE);
    Files.delete(page.oob(dir));
    assertEquals(Cli.EXIT_DAMAGED, smartssd(args("device", "start", "--port", "0").toArray(String[]::new)).code());
    Run check = fsck();
    assertEquals(Cli.EXIT_DAMAGED, check.code(), check.out());
    assertTrue(check.out().contains("its checksum is missing: the out-of-band file " + page.oob(dir)
        + " does not exist"), check.out());
    Run salvage = fsck("--salvage");
    assertEquals(0, salvage.code(), salvage.out() + salvage.err());
    assertTrue(salvage.out().contains("'/data/d.bin' -> '/lost+found/data/d.bin'"), salvage.out());
    try (SimulatedDevice device = TestDevices.start(config());
        SocketDeviceClient c = TestDevices.connect(device)) {
      assertThrows(DeviceException.Corrupt.class, () -> readAll(c, "/lost+found/data/d.bin"));
    }
  }

  @Test
  void aDamagedCheckpointCannotBeSalvagedAndIsLeftAsItWas() throws Exception {
    history();
    Path checkpoint = Damage.checkpoint(dir);
    Damage.flipByte(checkpoint, 20);
    Map<String, byte[]> before = Damage.metadata(dir);
    Run check = fsck();
    assertEquals(Cli.EXIT_DAMAGED, check.code(), check.out());
    assertTrue(check.out().contains("metadata: DAMAGED: metadata checkpoint " + checkpoint + " is damaged"),
        check.out());
    assertTrue(check.out().contains("pages: not checked"), check.out());
    Run salvage = fsck("--salvage");
    assertEquals(Cli.EXIT_DAMAGED, salvage.code(), salvage.out());
    assertTrue(salvage.out().contains("cannot salvage: the checkpoint is damaged, and every journal record applies to"
        + " what it holds; nothing was changed"), salvage.out());
    assertTrue(Damage.same(before, Damage.metadata(dir)));
  }

  @Test
  void missingFlashFilesCannotBeSalvaged() throws Exception {
    history();
    try (Stream<Path> files = Files.list(dir.resolve("flash"))) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Run check = fsck();
    assertEquals(Cli.EXIT_DAMAGED, check.code(), check.out());
    assertTrue(check.out().contains("metadata: DAMAGED: the flash files in " + dir.resolve("flash")
        + " are missing or empty"), check.out());
    Run salvage = fsck("--salvage");
    assertEquals(Cli.EXIT_DAMAGED, salvage.code(), salvage.out());
    assertTrue(salvage.out().contains("cannot salvage: the flash files are gone; nothing was changed"), salvage.out());
    try (Stream<Path> files = Files.list(dir.resolve("flash"))) {
      assertEquals(0, files.count(), "fsck made no flash files");
    }
  }

  @Test
  void fsckRefusesADataDirectoryInUseOrMissing() throws Exception {
    history();
    try (SimulatedDevice device = TestDevices.start(config())) {
      Run run = fsck();
      assertEquals(Cli.EXIT_FAILED, run.code());
      assertTrue(run.err().contains("data directory " + dir + " is in use by another device (or by fsck)"), run.err());
    }
    Run missing = smartssd("device", "fsck", "--data-dir", dir.resolve("nothing").toString());
    assertEquals(Cli.EXIT_FAILED, missing.code());
    assertTrue(missing.err().contains("no data directory to check"), missing.err());
    assertFalse(Files.exists(dir.resolve("nothing")));
  }
}
