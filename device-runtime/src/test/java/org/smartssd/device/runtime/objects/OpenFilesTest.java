package org.smartssd.device.runtime.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.protocol.Status;

/** Write handles, their leases, and the page being filled, over real flash. */
class OpenFilesTest {
  private static final int PAGE = StoreParts.PAGE;
  private static final Object OWNER = new Object();

  @TempDir Path dir;
  private StoreParts parts;
  private OpenFiles open;

  @BeforeEach
  void start() throws Exception {
    parts = StoreParts.open(dir);
    open = parts.openFiles;
  }

  @AfterEach
  void stop() throws Exception {
    parts.close();
  }

  private static void assertStatus(Status expected, Executable call) {
    StoreException e = assertThrows(StoreException.class, call);
    assertEquals(expected, e.status(), e.getMessage());
  }

  private Inode create(String path) throws Exception {
    return parts.namespace.create(path, PathNames.split(path), false, 0644, TestCallers.DEVICE, parts.journal);
  }

  @Test
  void writesFillTheLastPageInMemoryAndProgramEachPageAsItFills() throws Exception {
    byte[] data = StoreParts.bytes(PAGE + 15, 1);
    Inode f = create("/f");
    long h = open.openNew(f, OWNER);
    parts.clockMillis.set(9_000);
    for (int off = 0; off < PAGE + 10; off += 333) {
      open.write(h, ByteBuffer.wrap(data, off, Math.min(333, PAGE + 10 - off)), OWNER, null);
    }
    assertEquals(1, f.lbns.size(), "the full page is programmed, the partial one is not");
    assertEquals(PAGE + 10, f.length);
    assertTrue(f.tailDirty);
    assertEquals(9_000, f.modificationTimeMillis);
    assertArrayEquals(Arrays.copyOf(data, PAGE + 10), parts.readAll(f), "readers see the buffer at once");

    open.programPartialTail(f, null);
    assertEquals(2, f.lbns.size());
    assertFalse(f.tailDirty);
    int partial = f.lbns.get(1);
    open.programPartialTail(f, null);
    open.write(h, ByteBuffer.wrap(data, PAGE + 10, 5), OWNER, null);
    open.programPartialTail(f, null);
    assertEquals(2, f.lbns.size());
    assertEquals(partial, f.lbns.get(1), "the partial page is rewritten in place, not given a new logical page");
    assertEquals(0, f.committedPages, "programming is not committing");
    parts.journal.commit(f, null);
    assertEquals(2, f.committedPages);
    assertEquals(PAGE + 15, f.durableLength);
    assertArrayEquals(data, parts.readAll(f));
  }

  @Test
  void pagesAreStripedFromAChannelChosenByTheFileId() throws Exception {
    DeviceGeometry g = StoreFixture.GEOMETRY;
    Inode f = parts.writeFile("/f", StoreParts.bytes(PAGE * 2 * g.channels(), 2));
    for (int i = 0; i < f.lbns.size(); i++) {
      int expected = (int) ((f.id + i / g.stripeUnitPages()) % g.channels());
      assertEquals(expected, OpenFiles.channelOf(g, f, i));
      assertEquals(expected, parts.ftl.channelOf(f.lbns.get(i)), "page " + i);
    }
  }

  @Test
  void oneWriterAtATime() throws Exception {
    Inode f = create("/f");
    long h = open.openNew(f, OWNER);
    assertSame(f, open.handle(h, OWNER).inode);
    assertStatus(Status.LEASE_CONFLICT, () -> open.openForAppend(f, "/f", new Object(), null));
    open.release(open.handle(h, OWNER));
    assertNull(f.writer);
    assertNull(f.tail);
    long again = open.openForAppend(f, "/f", new Object(), null);
    assertTrue(again > h, "handle numbers are not reused");
    parts.namespace.mkdirs("/d", PathNames.split("/d"), 0755, TestCallers.DEVICE, parts.journal);
    Inode d = parts.namespace.resolve("/d", PathNames.split("/d"), TestCallers.DEVICE);
    assertStatus(Status.IS_DIRECTORY, () -> open.openForAppend(d, "/d", OWNER, null));
  }

  @Test
  void closedUnknownAndForeignHandlesAreRefused() throws Exception {
    long h = open.openNew(create("/f"), OWNER);
    assertStatus(Status.BAD_HANDLE, () -> open.write(h, ByteBuffer.allocate(1), new Object(), null));
    open.release(open.handle(h, OWNER));
    assertStatus(Status.BAD_HANDLE, () -> open.write(h, ByteBuffer.allocate(1), OWNER, null));
    assertStatus(Status.BAD_HANDLE, () -> open.handle(h, OWNER));
    assertStatus(Status.BAD_HANDLE, () -> open.handle(12345, OWNER));
  }

  @Test
  void appendContinuesThePartialLastPageReadBackFromFlash() throws Exception {
    byte[] first = StoreParts.bytes(PAGE + 10, 3);
    byte[] second = StoreParts.bytes(PAGE * 2 + 7, 4);
    Inode f = parts.writeFile("/f", first);
    long h = open.openForAppend(f, "/f", OWNER, null);
    assertEquals(10, f.tail.position());
    assertFalse(f.tailDirty, "what was read back is on flash already");
    assertArrayEquals(Arrays.copyOfRange(first, PAGE, PAGE + 10), Arrays.copyOf(f.tail.array(), 10));
    open.write(h, ByteBuffer.wrap(second), OWNER, null);
    parts.commit(f);
    open.release(open.handle(h, OWNER));
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    assertArrayEquals(both, parts.readAll(f));
    assertEquals(4, f.lbns.size());
  }

  @Test
  void aFileThatLeavesTheNamespaceLosesItsHandle() throws Exception {
    parts.namespace.mkdirs("/d", PathNames.split("/d"), 0755, TestCallers.DEVICE, parts.journal);
    Inode f = create("/d/f");
    long h = open.openNew(f, OWNER);
    open.write(h, ByteBuffer.wrap(StoreParts.bytes(PAGE + 1, 5)), OWNER, null);
    parts.namespace.delete("/d", PathNames.split("/d"), true, TestCallers.DEVICE, parts.journal);
    assertStatus(Status.BAD_HANDLE, () -> open.write(h, ByteBuffer.allocate(1), OWNER, null));
    assertFalse(open.hasHandlesOf(OWNER));
    assertNull(f.writer);
    assertNull(f.tail);
  }

  @Test
  void handlesAreFoundByTheirOwner() throws Exception {
    Object other = new Object();
    long a = open.openNew(create("/a"), OWNER);
    long b = open.openNew(create("/b"), OWNER);
    long c = open.openNew(create("/c"), other);
    assertTrue(open.hasHandlesOf(OWNER));
    assertEquals(List.of(a, b), open.handlesOf(OWNER).stream().map(h -> h.id).sorted().toList());
    assertEquals(List.of(c), open.handlesOf(other).stream().map(h -> h.id).toList());
    assertEquals(3, open.all().size());
    for (WriteHandle h : open.handlesOf(OWNER)) {
      open.release(h);
    }
    assertFalse(open.hasHandlesOf(OWNER));
    assertTrue(open.hasHandlesOf(other));
    assertFalse(open.hasHandlesOf(new Object()));
  }
}
