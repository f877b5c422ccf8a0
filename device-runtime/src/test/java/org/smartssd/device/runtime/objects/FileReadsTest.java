package org.smartssd.device.runtime.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.Damage;

/** Reads of file data: at any offset, page by page for a scan, and every page for fsck; damage is CORRUPT. */
class FileReadsTest {
  private static final int PAGE = StoreParts.PAGE;
  private static final Object OWNER = new Object();
  private static final byte[] DATA = StoreParts.bytes(3 * PAGE + 100, 1);

  @TempDir Path dir;
  private StoreParts parts;

  @BeforeEach
  void start() throws Exception {
    parts = StoreParts.open(dir);
  }

  @AfterEach
  void stop() throws Exception {
    parts.close();
  }

  private static StoreException assertStatus(Status expected, Executable call) {
    StoreException e = assertThrows(StoreException.class, call);
    assertEquals(expected, e.status(), e.getMessage());
    return e;
  }

  private static byte[] array(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  private Inode file(String path) throws StoreException {
    return parts.namespace.resolve(path, PathNames.split(path), TestCallers.DEVICE);
  }

  @Test
  void readsAtAnyOffsetComeFromFlashAndTheLastPageFromTheWritersBuffer() throws Exception {
    Inode f = parts.namespace.create("/f", PathNames.split("/f"), false, 0644, TestCallers.DEVICE, parts.journal);
    long h = parts.openFiles.openNew(f, OWNER);
    parts.openFiles.write(h, ByteBuffer.wrap(DATA), OWNER, null);
    assertEquals(3, f.lbns.size(), "the last 100 bytes are only in the buffer");
    for (int off : new int[] {0, 1, PAGE - 1, PAGE, 2 * PAGE + 5, 3 * PAGE + 50, DATA.length - 1, DATA.length}) {
      ByteBuffer got = parts.reads.read(f.id, off, 1500, null);
      assertArrayEquals(Arrays.copyOfRange(DATA, off, Math.min(DATA.length, off + 1500)), array(got), "offset " + off);
    }
    assertEquals(0, parts.reads.read(f.id, DATA.length, 5, null).remaining());
    assertStatus(Status.PAST_END, () -> parts.reads.read(f.id, DATA.length + 1, 1, null));
  }

  @Test
  void readsOfADirectoryOrADeletedObjectAreRefused() throws Exception {
    Inode f = parts.writeFile("/f", new byte[5]);
    parts.namespace.mkdirs("/d", PathNames.split("/d"), 0755, TestCallers.DEVICE, parts.journal);
    long d = file("/d").id;
    assertStatus(Status.IS_DIRECTORY, () -> parts.reads.read(d, 0, 1, null));
    parts.namespace.delete("/f", PathNames.split("/f"), false, TestCallers.DEVICE, parts.journal);
    assertStatus(Status.NOT_FOUND, () -> parts.reads.read(f.id, 0, 1, null));
  }

  @Test
  void aScanSeesWhereEachPageIsAndReadsThemWholeTheLastFromTheBuffer() throws Exception {
    Inode f = parts.namespace.create("/f", PathNames.split("/f"), false, 0644, TestCallers.DEVICE, parts.journal);
    long h = parts.openFiles.openNew(f, OWNER);
    parts.openFiles.write(h, ByteBuffer.wrap(DATA), OWNER, null);
    ScanTarget target = parts.reads.openScan("/f", parts.namespace.resolveForRead("/f", PathNames.split("/f"), TestCallers.DEVICE));
    assertEquals(f.id, target.objectId());
    assertEquals(DATA.length, target.length());
    assertEquals(PAGE, target.pageSize());
    assertEquals(4, target.channelOfPage().length);
    for (int i = 0; i < 3; i++) {
      assertEquals(parts.ftl.channelOf(f.lbns.get(i)), target.channelOfPage()[i], "page " + i);
    }
    assertEquals(OpenFiles.channelOf(StoreFixture.GEOMETRY, f, 3), target.channelOfPage()[3], "where it will go");

    ByteBuffer page = ByteBuffer.allocate(PAGE);
    parts.reads.readPageForScan(f.id, 1, page, null);
    assertArrayEquals(Arrays.copyOfRange(DATA, PAGE, 2 * PAGE), page.array());
    page.clear();
    parts.reads.readPageForScan(f.id, 3, page, null);
    assertEquals(100, page.position());
    assertArrayEquals(Arrays.copyOfRange(DATA, 3 * PAGE, DATA.length), Arrays.copyOf(page.array(), 100));
    assertStatus(Status.PAST_END, () -> parts.reads.readPageForScan(f.id, 4, ByteBuffer.allocate(PAGE), null));

    parts.namespace.mkdirs("/d", PathNames.split("/d"), 0755, TestCallers.DEVICE, parts.journal);
    assertStatus(Status.IS_DIRECTORY, () -> parts.reads.openScan("/d", parts.namespace.resolveForRead("/d", PathNames.split("/d"), TestCallers.DEVICE)));
    assertStatus(Status.NOT_FOUND, () -> parts.reads.openScan("/nope", parts.namespace.resolveForRead("/nope", PathNames.split("/nope"), TestCallers.DEVICE)));
    parts.namespace.delete("/f", PathNames.split("/f"), false, TestCallers.DEVICE, parts.journal);
    StoreException gone = assertStatus(Status.NOT_FOUND,
        () -> parts.reads.readPageForScan(f.id, 0, ByteBuffer.allocate(PAGE), null));
    assertTrue(gone.getMessage().contains("deleted during the execution"), gone.getMessage());
  }

  @Test
  void aPageThatFailsItsCheckIsCorruptNamingTheFileAndOffsetAndItsNeighboursStillRead() throws Exception {
    parts.namespace.mkdirs("/data", PathNames.split("/data"), 0755, TestCallers.DEVICE, parts.journal);
    parts.writeFile("/data/a", DATA);
    parts.writeFile("/data/b", StoreParts.bytes(PAGE, 2));
    parts.close();
    Damage.Page damaged = Damage.locate(dir, DATA, 1, PAGE);
    Damage.flipByte(damaged.file(dir), damaged.offset() + 77);
    parts = StoreParts.open(dir);
    Inode a = file("/data/a");
    String expected = "'/data/a' is corrupt at offset " + PAGE + ": bytes " + PAGE + ".." + (2 * PAGE - 1)
        + " (page 1 of the file, logical page " + a.lbns.get(1) + ") are lost: ";

    StoreException read = assertStatus(Status.CORRUPT, () -> parts.reads.read(a.id, PAGE + 10, 20, null));
    assertTrue(read.getMessage().startsWith(expected), read.getMessage());
    StoreException scan = assertStatus(Status.CORRUPT,
        () -> parts.reads.readPageForScan(a.id, 1, ByteBuffer.allocate(PAGE), null));
    assertEquals(read.getMessage(), scan.getMessage());
    assertArrayEquals(Arrays.copyOf(DATA, PAGE), array(parts.reads.read(a.id, 0, PAGE, null)));
    assertArrayEquals(Arrays.copyOfRange(DATA, 2 * PAGE, DATA.length),
        array(parts.reads.read(a.id, 2 * PAGE, DATA.length, null)));

    List<CorruptPage> corrupt = parts.reads.verifyPages();
    assertEquals(1, corrupt.size(), corrupt.toString());
    CorruptPage p = corrupt.get(0);
    assertEquals(List.of("/data/a", a.id, 1, (long) PAGE, (long) PAGE),
        List.of(p.path(), p.objectId(), p.pageIndex(), p.offset(), p.length()));
    assertTrue(read.getMessage().endsWith(p.reason()), p.reason());
  }

  @Test
  void aCommittedPageThatIsNotOnFlashIsReportedByTheCheck() throws Exception {
    parts.writeFile("/a", StoreParts.bytes(10, 3));
    Inode b = parts.namespace.create("/b", PathNames.split("/b"), false, 0644, TestCallers.DEVICE, parts.journal);
    int lbn = parts.ftl.allocateLbn();
    b.lbns.add(lbn);
    b.length = b.durableLength = 600;
    b.committedPages = 1;
    List<CorruptPage> corrupt = parts.reads.verifyPages();
    assertEquals(List.of(new CorruptPage("/b", b.id, 0, 0, 600, "logical page " + lbn + " is not mapped to flash")),
        corrupt);
  }
}
