package org.smartssd.device.runtime.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.Status;

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
  void mkdirsCreatesParentsAndIsIdempotent() throws Exception {
    store.mkdirs("/a/b/c");
    store.mkdirs("/a/b/c");
    assertTrue(store.status("/a/b").directory());
    assertEquals(List.of("c"), names(store.list("/a/b", "", 10).entries()));
  }

  @Test
  void mkdirsOverAFileFails() throws Exception {
    writeFile("/f", new byte[1]);
    assertStatus(Status.ALREADY_EXISTS, () -> store.mkdirs("/f"));
    assertStatus(Status.PARENT_NOT_DIRECTORY, () -> store.mkdirs("/f/g"));
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
  void readingPastTheEndIsRefused() throws Exception {
    writeFile("/f", new byte[10]);
    long id = store.status("/f").objectId();
    assertStatus(Status.PAST_END, () -> store.read(id, 11, 1, null));
    assertEquals(0, store.read(id, 10, 5, null).remaining());
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
  void renameRefusals() throws Exception {
    store.mkdirs("/a/b");
    writeFile("/f", new byte[1]);
    assertStatus(Status.BAD_REQUEST, () -> store.rename("/a", "/a/b/c"));
    assertStatus(Status.BAD_REQUEST, () -> store.rename("/", "/r"));
    assertStatus(Status.NOT_FOUND, () -> store.rename("/nope", "/n"));
    assertStatus(Status.ALREADY_EXISTS, () -> store.rename("/f", "/a/b"));
    assertStatus(Status.NOT_FOUND, () -> store.rename("/f", "/missing/f"));
    assertStatus(Status.PARENT_NOT_DIRECTORY, () -> store.rename("/a", "/f/a"));
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
  void deletingTheRootEmptiesIt() throws Exception {
    writeFile("/a/f", new byte[5]);
    writeFile("/b", new byte[5]);
    assertStatus(Status.DIRECTORY_NOT_EMPTY, () -> store.delete("/", false));
    store.delete("/", true);
    assertTrue(store.list("/", "", 10).entries().isEmpty());
    assertTrue(store.status("/").directory());
  }

  @Test
  void readsOfADeletedObjectFail() throws Exception {
    writeFile("/f", new byte[5]);
    long id = store.status("/f").objectId();
    store.delete("/f", false);
    assertStatus(Status.NOT_FOUND, () -> store.read(id, 0, 1, null));
  }

  @Test
  void listingIsSortedAndPaged() throws Exception {
    for (String name : new String[] {"c", "a", "e", "b", "d"}) {
      writeFile("/dir/" + name, new byte[1]);
    }
    ObjectStore.Listing first = store.list("/dir", "", 2);
    assertEquals(List.of("a", "b"), names(first.entries()));
    assertTrue(first.more());
    ObjectStore.Listing rest = store.list("/dir", "b", 10);
    assertEquals(List.of("c", "d", "e"), names(rest.entries()));
    assertFalse(rest.more());
    assertEquals("/dir/c", rest.entries().get(0).path());
    assertEquals(List.of("a"), names(store.list("/dir/a", "", 10).entries()), "a file lists itself");
  }

  @Test
  void syncedDataSurvivesAndUnsyncedDataIsDroppedOnRecovery() throws Exception {
    byte[] data = bytes(PAGE * 3 + 100, 8);
    long h = store.create("/f", false, false, OWNER).handle();
    store.write(h, ByteBuffer.wrap(data, 0, PAGE + 50), OWNER, null);
    assertEquals(PAGE + 50, store.sync(h, OWNER, null));
    store.write(h, ByteBuffer.wrap(data, PAGE + 50, data.length - PAGE - 50), OWNER, null);
    store.mkdirs("/made-after");
    // Abandon the store without closing it, as a crash would, and recover from the same files.
    StoreFixture recovered = StoreFixture.open(dir);
    try {
      ObjectStore again = recovered.store;
      assertTrue(again.status("/made-after").directory());
      ObjectStatus st = again.status("/f");
      assertEquals(PAGE + 50, st.length());
      ByteBuffer got = again.read(st.objectId(), 0, (int) st.length(), null);
      assertArrayEquals(Arrays.copyOf(data, PAGE + 50), toArray(got));
      // The pages written after the sync were dropped: only the synced ones are in use.
      assertEquals(again.capacityBytes() - 2L * PAGE, again.freeBytes());
    } finally {
      recovered.close();
    }
  }

  @Test
  void manyChangesSurviveCheckpointsAndRecovery() throws Exception {
    fixture.close();
    fixture = StoreFixture.open(dir, 4096); // checkpoint after every few records
    store = fixture.store;
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String path = "/d" + (i % 5) + "/f" + i;
      writeFile(path, bytes(100 + i * 37, i));
      if (i % 3 == 0) {
        store.rename(path, path + "-r");
        path = path + "-r";
      }
      if (i % 7 == 0) {
        store.delete(path, false);
      } else {
        expected.add(path);
      }
    }
    fixture.close();
    fixture = StoreFixture.open(dir);
    store = fixture.store;
    for (String path : expected) {
      int i = Integer.parseInt(path.replaceAll(".*/f(\\d+).*", "$1"));
      assertArrayEquals(bytes(100 + i * 37, i), readAll(path), path);
    }
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

  private static List<String> names(List<ObjectStatus> entries) {
    return entries.stream().map(ObjectStatus::name).toList();
  }

  private static byte[] toArray(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
