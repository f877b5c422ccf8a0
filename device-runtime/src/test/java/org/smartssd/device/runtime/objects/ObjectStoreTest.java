package org.smartssd.device.runtime.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.Status;

/**
 * The facade end to end: what it composes from its parts (create with parents, commits at sync and
 * close, a connection's handles, closing the store), the checks it makes itself, and its lock.
 */
class ObjectStoreTest {
  private static final Object OWNER = new Object();
  private static final int PAGE = StoreFixture.GEOMETRY.pageSizeBytes();

  @TempDir Path dir;
  private StoreFixture fixture;
  private ObjectStore store;

  @BeforeEach
  void open() throws IOException {
    fixture = StoreFixture.open(dir);
    store = fixture.store;
  }

  @AfterEach
  void close() throws IOException {
    fixture.close();
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private byte[] readAll(String path) throws Exception {
    ObjectStatus st = store.openForRead(path);
    ByteBuffer all = store.read(st.objectId(), 0, (int) st.length(), null);
    byte[] out = new byte[all.remaining()];
    all.get(out);
    return out;
  }

  private void writeFile(String path, byte[] data) throws Exception {
    long h = store.create(path, false, true, OWNER).handle();
    store.write(h, ByteBuffer.wrap(data), OWNER, null);
    store.close(h, OWNER, null);
  }

  private static void assertStatus(Status expected, Executable call) {
    StoreException e = assertThrows(StoreException.class, call);
    assertEquals(expected, e.status(), e.getMessage());
  }

  @Test
  void badPathsAreRefusedWithTheirReason() {
    for (String bad : new String[] {"", "relative", "/a//b", "/a/", "/a/./b", "/a/../b", "/a\0b", "/" + "x".repeat(256)}) {
      StoreException e = assertThrows(StoreException.class, () -> store.mkdirs(bad), bad);
      assertEquals(Status.BAD_REQUEST, e.status());
      assertTrue(e.getMessage().contains("path"), e.getMessage());
    }
  }

  @Test
  void dataWrittenAcrossPagesReadsBackAtAnyOffset() throws Exception {
    byte[] data = bytes(PAGE * 5 + 123, 1);
    long h = store.create("/d/f", false, true, OWNER).handle();
    // Odd-sized writes straddle page boundaries.
    for (int off = 0; off < data.length; off += 777) {
      store.write(h, ByteBuffer.wrap(data, off, Math.min(777, data.length - off)), OWNER, null);
    }
    // Readable before sync or close, including the partial last page still in the device buffer.
    assertArrayEquals(data, readAll("/d/f"));
    assertEquals(data.length, store.close(h, OWNER, null));
    ObjectStatus st = store.status("/d/f");
    for (int off : new int[] {0, 1, PAGE - 1, PAGE, 3 * PAGE + 5, data.length - 1, data.length}) {
      ByteBuffer got = store.read(st.objectId(), off, 1500, null);
      assertArrayEquals(Arrays.copyOfRange(data, off, Math.min(data.length, off + 1500)), toArray(got), "offset " + off);
    }
  }

  @Test
  void appendContinuesThePartialLastPage() throws Exception {
    byte[] first = bytes(PAGE + 10, 2);
    byte[] second = bytes(PAGE * 2 + 7, 3);
    writeFile("/f", first);
    long h = store.append("/f", OWNER, null).handle();
    store.write(h, ByteBuffer.wrap(second), OWNER, null);
    store.close(h, OWNER, null);
    byte[] both = new byte[first.length + second.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    assertArrayEquals(both, readAll("/f"));
  }

  @Test
  void oneWriterAtATime() throws Exception {
    long h = store.create("/f", false, false, OWNER).handle();
    assertStatus(Status.LEASE_CONFLICT, () -> store.append("/f", OWNER, null));
    assertStatus(Status.LEASE_CONFLICT, () -> store.create("/f", true, false, OWNER));
    store.close(h, OWNER, null);
    store.close(store.append("/f", OWNER, null).handle(), OWNER, null);
  }

  @Test
  void closedUnknownAndForeignHandlesAreRefused() throws Exception {
    long h = store.create("/f", false, false, OWNER).handle();
    assertStatus(Status.BAD_HANDLE, () -> store.write(h, ByteBuffer.allocate(1), new Object(), null));
    store.close(h, OWNER, null);
    assertStatus(Status.BAD_HANDLE, () -> store.write(h, ByteBuffer.allocate(1), OWNER, null));
    assertStatus(Status.BAD_HANDLE, () -> store.sync(h, OWNER, null));
    assertStatus(Status.BAD_HANDLE, () -> store.close(h, OWNER, null));
    assertStatus(Status.BAD_HANDLE, () -> store.flush(12345, OWNER));
  }

  @Test
  void createHonoursOverwriteParentsAndDirectories() throws Exception {
    writeFile("/f", bytes(100, 4));
    assertStatus(Status.ALREADY_EXISTS, () -> store.create("/f", false, false, OWNER));
    store.close(store.create("/f", true, false, OWNER).handle(), OWNER, null);
    assertEquals(0, store.status("/f").length());
    assertStatus(Status.NOT_FOUND, () -> store.create("/missing/f", false, false, OWNER));
    assertStatus(Status.PARENT_NOT_DIRECTORY, () -> store.create("/f/g", false, false, OWNER));
    store.mkdirs("/dir");
    assertStatus(Status.ALREADY_EXISTS, () -> store.create("/dir", true, false, OWNER));
    assertStatus(Status.IS_DIRECTORY, () -> store.openForRead("/dir"));
  }

  @Test
  void renameMovesFilesAndDirectoriesAtomically() throws Exception {
    writeFile("/a/b/f", bytes(3000, 5));
    long id = store.status("/a/b/f").objectId();
    store.mkdirs("/x");
    store.rename("/a/b", "/x/moved");
    assertStatus(Status.NOT_FOUND, () -> store.status("/a/b"));
    assertEquals(id, store.status("/x/moved/f").objectId());
    assertArrayEquals(bytes(3000, 5), readAll("/x/moved/f"));
    store.rename("/x/moved/f", "/x/moved/f");
  }

  @Test
  void deleteIsRecursiveOnlyWhenAskedAndFreesSpace() throws Exception {
    long free = store.freeBytes();
    writeFile("/d/e/f", bytes(PAGE * 4, 6));
    writeFile("/d/g", bytes(PAGE + 1, 7));
    assertEquals(free - 6L * PAGE, store.freeBytes());
    assertStatus(Status.DIRECTORY_NOT_EMPTY, () -> store.delete("/d", false));
    store.delete("/d", true);
    assertStatus(Status.NOT_FOUND, () -> store.status("/d"));
    assertStatus(Status.NOT_FOUND, () -> store.delete("/d", true));
    assertEquals(free, store.freeBytes());
  }

  @Test
  void readsOfADeletedObjectFail() throws Exception {
    writeFile("/f", new byte[5]);
    long id = store.status("/f").objectId();
    store.delete("/f", false);
    assertStatus(Status.NOT_FOUND, () -> store.read(id, 0, 1, null));
  }

  @Test
  void closingAConnectionsHandlesKeepsWhatItWrote() throws Exception {
    Object connection = new Object();
    long h = store.create("/f", false, false, connection).handle();
    store.write(h, ByteBuffer.wrap(bytes(5000, 9)), connection, null);
    store.closeHandlesOf(connection);
    assertStatus(Status.BAD_HANDLE, () -> store.write(h, ByteBuffer.allocate(1), connection, null));
    assertArrayEquals(bytes(5000, 9), readAll("/f"));
    store.close(store.append("/f", OWNER, null).handle(), OWNER, null);
  }

  @Test
  void negativeOffsetsAndListingLimitsAreRefused() throws Exception {
    writeFile("/f", new byte[10]);
    long id = store.status("/f").objectId();
    assertStatus(Status.BAD_REQUEST, () -> store.read(id, -1, 1, null));
    assertStatus(Status.BAD_REQUEST, () -> store.read(id, 0, -1, null));
    assertStatus(Status.BAD_REQUEST, () -> store.list("/", "", 0));
    assertEquals(List.of("f"), names(store.list("/", "", 1).entries()));
  }

  @Test
  void closingTheStoreCommitsWhatIsStillOpen() throws Exception {
    byte[] data = bytes(PAGE * 2 + 300, 10);
    long h = store.create("/open", false, false, OWNER).handle();
    store.write(h, ByteBuffer.wrap(data), OWNER, null);
    fixture.close();
    fixture = StoreFixture.open(dir);
    store = fixture.store;
    assertArrayEquals(data, readAll("/open"));
    assertFalse(store.hasHandlesOf(OWNER));
  }

  @Test
  void theEngineScansThroughTheNarrowInterfaceWhileAFileIsWritten() throws Exception {
    ScanSource scans = store;
    byte[] data = bytes(PAGE * 2 + 300, 11);
    long h = store.create("/scanned", false, false, OWNER).handle();
    store.write(h, ByteBuffer.wrap(data), OWNER, null);
    ScanTarget target = scans.openScan("/scanned", TestCallers.DEVICE);
    assertEquals(data.length, target.length());
    assertEquals(3, target.channelOfPage().length);
    ByteBuffer all = ByteBuffer.allocate(3 * PAGE);
    for (int i = 0; i < 3; i++) {
      scans.readPageForScan(target.objectId(), i, all.slice(i * PAGE, PAGE), null);
    }
    assertArrayEquals(data, Arrays.copyOf(all.array(), data.length), "the last page comes from the writer's buffer");
    store.close(h, OWNER, null);
    store.delete("/scanned", false);
    assertStatus(Status.NOT_FOUND, () -> scans.readPageForScan(target.objectId(), 0, ByteBuffer.allocate(PAGE), null));
    assertStatus(Status.IS_DIRECTORY, () -> scans.openScan("/", TestCallers.DEVICE));
  }

  @Test
  void lookupsAndScansShareTheStoreWithAWriter() throws Exception {
    byte[] data = bytes(PAGE * 8, 12);
    writeFile("/base", data);
    long id = store.status("/base").objectId();
    long h = store.create("/growing", false, false, OWNER).handle();
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
      try {
        for (int i = 0; i < 200; i++) {
          store.write(h, ByteBuffer.wrap(data, 0, 333), OWNER, null);
          if (i % 50 == 0) {
            store.sync(h, OWNER, null);
          }
        }
      } catch (StoreException | IOException e) {
        throw new CompletionException(e);
      }
    });
    ByteBuffer page = ByteBuffer.allocate(PAGE);
    for (int round = 0; round < 50; round++) {
      for (int i = 0; i < 8; i++) {
        store.readPageForScan(id, i, page.clear(), null);
        assertArrayEquals(Arrays.copyOfRange(data, i * PAGE, (i + 1) * PAGE), page.array());
      }
      assertTrue(store.status("/growing").length() <= 200 * 333);
    }
    writer.get(30, TimeUnit.SECONDS);
    store.close(h, OWNER, null);
    assertEquals(200 * 333, store.status("/growing").length());
  }

  private static List<String> names(List<ObjectStatus> entries) {
    return entries.stream().map(ObjectStatus::name).toList();
  }

  private static byte[] toArray(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
