package org.smartssd.device.runtime.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.timing.TimingModel;

/** The namespace alone: its rules, and the changes it reports, in order, to a journal that only lists them. */
class NamespaceTest {
  private static final int PAGE = StoreFixture.GEOMETRY.pageSizeBytes();

  @TempDir Path dir;
  private FlashArray flash;
  private FlashTranslationLayer ftl;
  private Namespace namespace;
  private long clock = 5_000;
  private final List<String> changes = new ArrayList<>();
  private final List<String> removed = new ArrayList<>();

  /** Lists each change as the namespace reports it (a created file is not attached yet: its parent and name say where). */
  private final Namespace.Changes journal = new Namespace.Changes() {
    @Override
    public void mkdir(Inode d) {
      changes.add("mkdir " + d.path() + " #" + d.id + " @" + d.modificationTimeMillis);
    }

    @Override
    public void create(Inode file, long replacedId) {
      assertNotSame(file, file.parent.children.get(file.name), "reported before it is attached");
      changes.add("create " + file.path() + " #" + file.id + (replacedId == 0 ? "" : " replacing #" + replacedId));
    }

    @Override
    public void rename(Inode node, Inode newParent, String newName, long timeMillis) {
      changes.add("rename " + node.path() + " -> " + PathNames.join(newParent.path(), newName) + " @" + timeMillis);
    }

    @Override
    public void delete(Inode node, long timeMillis) {
      changes.add("delete " + node.path() + " #" + node.id);
    }

    @Override
    public void attributes(Inode node) {
      changes.add("attributes " + node.path() + " " + node.owner + ":" + node.group + ":" + node.mode());
    }
  };

  @BeforeEach
  void open() throws IOException {
    TimingModel timing = new TimingModel(StoreFixture.GEOMETRY, StoreFixture.TIMING, System::nanoTime);
    flash = FlashArray.open(dir, StoreFixture.GEOMETRY, timing);
    ftl = new FlashTranslationLayer(StoreFixture.GEOMETRY, 20, 2, flash);
    namespace = new Namespace(PAGE, ftl, () -> clock, file -> removed.add(file.path()), TestCallers.POLICY);
  }

  @AfterEach
  void close() throws IOException {
    flash.close();
  }

  private static void assertStatus(Status expected, Executable call) {
    StoreException e = assertThrows(StoreException.class, call);
    assertEquals(expected, e.status(), e.getMessage());
  }

  private boolean mkdirs(String path) throws StoreException {
    return namespace.mkdirs(path, PathNames.split(path), 0755, TestCallers.DEVICE, journal);
  }

  private Inode create(String path, boolean overwrite) throws StoreException {
    return namespace.create(path, PathNames.split(path), overwrite, 0644, TestCallers.DEVICE, journal);
  }

  /** A file of {@code pages} full pages, as a writer would leave it committed. */
  private Inode file(String path, int pages) throws Exception {
    Inode f = create(path, false);
    for (int i = 0; i < pages; i++) {
      f.lbns.add(ftl.allocateLbn());
    }
    f.length = f.durableLength = (long) pages * PAGE;
    f.committedPages = pages;
    return f;
  }

  private boolean rename(String source, String destination) throws StoreException {
    return namespace.rename(source, PathNames.split(source), destination, PathNames.split(destination), TestCallers.DEVICE, journal);
  }

  private boolean delete(String path, boolean recursive) throws StoreException {
    return namespace.delete(path, PathNames.split(path), recursive, TestCallers.DEVICE, journal);
  }

  private ObjectStatus status(String path) throws StoreException {
    return namespace.status(path, PathNames.split(path), TestCallers.DEVICE);
  }

  private List<String> names(String path) throws StoreException {
    return namespace.list(path, PathNames.split(path), "", 100, TestCallers.DEVICE).entries().stream().map(ObjectStatus::name).toList();
  }

  @Test
  void mkdirsMakesTheMissingDirectoriesEachReportedOnceAfterItIsAttached() throws Exception {
    assertTrue(mkdirs("/a"));
    clock = 6_000;
    assertTrue(mkdirs("/a/b/c"));
    assertFalse(mkdirs("/a/b/c"), "nothing was missing");
    assertTrue(status("/a/b").directory());
    assertEquals(List.of("c"), names("/a/b"));
    assertEquals(List.of("mkdir /a #2 @5000", "mkdir /a/b #3 @6000", "mkdir /a/b/c #4 @6000"), changes);
  }

  @Test
  void mkdirsOverAFileFails() throws Exception {
    create("/f", false);
    assertStatus(Status.ALREADY_EXISTS, () -> mkdirs("/f"));
    assertStatus(Status.PARENT_NOT_DIRECTORY, () -> mkdirs("/f/g"));
  }

  @Test
  void createHonoursOverwriteParentsAndDirectories() throws Exception {
    Inode first = file("/f", 2);
    assertStatus(Status.ALREADY_EXISTS, () -> create("/f", false));
    int free = ftl.freeLogicalPages();
    Inode second = create("/f", true);
    assertEquals(free + 2, ftl.freeLogicalPages(), "the replaced file's pages are freed");
    assertEquals(List.of("/f"), removed);
    assertSame(second, namespace.byId(status("/f").objectId()));
    assertNull(namespace.byId(first.id));
    assertEquals(0, status("/f").length());
    assertStatus(Status.NOT_FOUND, () -> create("/missing/f", false));
    assertStatus(Status.PARENT_NOT_DIRECTORY, () -> create("/f/g", false));
    mkdirs("/dir");
    assertStatus(Status.ALREADY_EXISTS, () -> create("/dir", true));
    assertEquals(List.of("create /f #2", "create /f #3 replacing #2", "mkdir /dir #4 @5000"), changes);
  }

  @Test
  void aFileOpenForWritingIsNotReplaced() throws Exception {
    Inode f = create("/f", false);
    f.writer = new WriteHandle(1, f, new Object());
    assertStatus(Status.LEASE_CONFLICT, () -> create("/f", true));
    assertEquals(1, changes.size(), "the refused create reported nothing");
  }

  @Test
  void renameMovesSubtreesAndReportsBeforeMoving() throws Exception {
    mkdirs("/a/b");
    Inode f = file("/a/b/f", 1);
    mkdirs("/x");
    changes.clear();
    clock = 7_000;
    assertTrue(rename("/a/b", "/x/moved"));
    assertStatus(Status.NOT_FOUND, () -> status("/a/b"));
    assertSame(f, namespace.byId(status("/x/moved/f").objectId()));
    assertEquals("/x/moved/f", f.path());
    assertFalse(rename("/x/moved/f", "/x/moved/f"), "a rename to itself changes nothing");
    assertEquals(List.of("rename /a/b -> /x/moved @7000"), changes);
  }

  @Test
  void renameRefusals() throws Exception {
    mkdirs("/a/b");
    create("/f", false);
    changes.clear();
    assertStatus(Status.BAD_REQUEST, () -> rename("/a", "/a/b/c"));
    assertStatus(Status.BAD_REQUEST, () -> rename("/a", "/a/x"));
    assertStatus(Status.BAD_REQUEST, () -> rename("/", "/r"));
    assertStatus(Status.ALREADY_EXISTS, () -> rename("/a", "/"));
    assertStatus(Status.NOT_FOUND, () -> rename("/nope", "/n"));
    assertStatus(Status.ALREADY_EXISTS, () -> rename("/f", "/a/b"));
    assertStatus(Status.NOT_FOUND, () -> rename("/f", "/missing/f"));
    assertStatus(Status.PARENT_NOT_DIRECTORY, () -> rename("/a", "/f/a"));
    assertEquals(List.of(), changes);
  }

  @Test
  void deleteIsRecursiveOnlyWhenAskedFreesPagesAndTellsOfEachFile() throws Exception {
    int free = ftl.freeLogicalPages();
    mkdirs("/d/e");
    file("/d/e/f", 4);
    file("/d/g", 2);
    assertEquals(free - 6, ftl.freeLogicalPages());
    changes.clear();
    assertStatus(Status.DIRECTORY_NOT_EMPTY, () -> delete("/d", false));
    assertTrue(delete("/d", true));
    assertStatus(Status.NOT_FOUND, () -> status("/d"));
    assertStatus(Status.NOT_FOUND, () -> delete("/d", true));
    assertEquals(free, ftl.freeLogicalPages());
    assertEquals(List.of("delete /d #2"), changes, "one record for the whole subtree");
    assertEquals(List.of("/d/e/f", "/d/g"), removed.stream().sorted().toList());
    assertEquals(1, namespace.size(), "only the root is left");
  }

  @Test
  void deletingTheRootEmptiesItOneChildAtATime() throws Exception {
    file("/a", 0);
    mkdirs("/b/c");
    changes.clear();
    assertStatus(Status.DIRECTORY_NOT_EMPTY, () -> delete("/", false));
    assertTrue(delete("/", true));
    assertEquals(List.of(), names("/"));
    assertTrue(status("/").directory());
    assertEquals(List.of("delete /a #2", "delete /b #3"), changes);
    assertFalse(delete("/", true), "an empty root: nothing to delete");
  }

  @Test
  void listingIsSortedAndPaged() throws Exception {
    mkdirs("/dir");
    for (String name : new String[] {"c", "a", "e", "b", "d"}) {
      create("/dir/" + name, false);
    }
    Listing first = namespace.list("/dir", PathNames.split("/dir"), "", 2, TestCallers.DEVICE);
    assertEquals(List.of("a", "b"), first.entries().stream().map(ObjectStatus::name).toList());
    assertTrue(first.more());
    Listing rest = namespace.list("/dir", PathNames.split("/dir"), "b", 10, TestCallers.DEVICE);
    assertEquals(List.of("c", "d", "e"), rest.entries().stream().map(ObjectStatus::name).toList());
    assertFalse(rest.more());
    assertEquals("/dir/c", rest.entries().get(0).path());
    assertEquals(List.of("a"), names("/dir/a"), "a file lists itself");
  }

  @Test
  void idsAreNeverGivenOutTwice() throws Exception {
    namespace.noteIdUsed(41);
    namespace.noteIdUsed(7);
    assertEquals(42, create("/f", false).id);
    namespace.restoreNextId(100);
    mkdirs("/d");
    assertEquals(100, status("/d").objectId());
  }

  @Test
  void ownedPagesAreCheckedAgainstEachFilesLength() throws Exception {
    Inode a = file("/a", 2);
    file("/b", 1);
    assertEquals(3, namespace.ownedLbns().cardinality());
    assertEquals(3, namespace.committedPages());
    assertEquals(2, namespace.fileCount());
    a.length += 1;
    IOException e = assertThrows(IOException.class, namespace::ownedLbns);
    assertTrue(e.getMessage().contains("'/a' has " + (2 * PAGE + 1) + " bytes but 2 pages"), e.getMessage());
    a.length -= 1;
    Inode c = file("/c", 0);
    c.lbns.add(a.lbns.get(0));
    c.length = PAGE;
    e = assertThrows(IOException.class, namespace::ownedLbns);
    assertTrue(e.getMessage().contains("belongs to two files"), e.getMessage());
  }

  @Test
  void filesComeInPathOrder() throws Exception {
    mkdirs("/z");
    create("/z/a", false);
    create("/b", false);
    create("/a", false);
    assertEquals(List.of("/a", "/b", "/z/a"), namespace.filesByPath().stream().map(Inode::path).toList());
  }
}
