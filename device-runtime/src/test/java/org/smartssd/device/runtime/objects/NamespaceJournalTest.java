package org.smartssd.device.runtime.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.Damage;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;

/**
 * The namespace journal: what it records comes back after a crash (from the journal, or from a
 * checkpoint), what was not committed does not, and what it reads it checks.
 */
class NamespaceJournalTest {
  private static final int PAGE = StoreParts.PAGE;
  private static final Object OWNER = new Object();

  @TempDir Path dir;
  private StoreParts parts;

  @BeforeEach
  void start() throws IOException {
    parts = StoreParts.open(dir);
  }

  @AfterEach
  void stop() throws IOException {
    parts.close();
  }

  /** Each object of the namespace in one line: path, id, kind, length, pages, times and ownership; sorted. */
  private static List<String> describe(Namespace namespace) {
    List<String> lines = new ArrayList<>();
    Deque<Inode> todo = new ArrayDeque<>(List.of(namespace.root()));
    while (!todo.isEmpty()) {
      Inode node = todo.pop();
      if (node.directory) {
        lines.add(node.path() + " #" + node.id + " directory @" + node.modificationTimeMillis + attributes(node));
        node.children.values().forEach(todo::push);
      } else {
        int[] lbns = new int[node.lbns.size()];
        Arrays.setAll(lbns, node.lbns::get);
        lines.add(node.path() + " #" + node.id + " " + node.length + " bytes (durable " + node.durableLength + ") in "
            + Arrays.toString(lbns) + ", " + node.committedPages + " committed @" + node.modificationTimeMillis
            + attributes(node));
      }
    }
    lines.sort(null);
    return lines;
  }

  private static String attributes(Inode node) {
    return " " + node.owner + ":" + node.group + ":" + node.mode() + " read @" + node.accessTimeMillis;
  }

  private static void mkdirs(StoreParts p, String path) throws IOException, StoreException {
    p.namespace.mkdirs(path, PathNames.split(path), 0755, TestCallers.DEVICE, p.journal);
    p.journal.commitMetadata();
  }

  /** Every kind of change: mkdir, create, commit, rename, a create that replaces, delete. */
  private List<String> history(StoreParts p) throws Exception {
    mkdirs(p, "/a/b");
    p.clockMillis.set(2_000);
    p.writeFile("/a/b/f", StoreParts.bytes(2 * PAGE + 100, 1));
    p.writeFile("/g", StoreParts.bytes(300, 2));
    p.clockMillis.set(3_000);
    p.namespace.rename("/a/b", PathNames.split("/a/b"), "/x", PathNames.split("/x"), TestCallers.DEVICE, p.journal);
    p.journal.commitMetadata();
    Inode g = p.namespace.create("/g", PathNames.split("/g"), true, 0644, TestCallers.DEVICE, p.journal);
    p.journal.commitMetadata();
    long h = p.openFiles.openNew(g, OWNER);
    p.openFiles.write(h, ByteBuffer.wrap(StoreParts.bytes(PAGE + 50, 3)), OWNER, null);
    p.commit(g);
    p.openFiles.release(p.openFiles.handle(h, OWNER));
    p.namespace.delete("/a", PathNames.split("/a"), true, TestCallers.DEVICE, p.journal);
    p.journal.commitMetadata();
    mkdirs(p, "/a/c");
    p.namespace.setPermission("/x", PathNames.split("/x"), 01750, TestCallers.DEVICE, p.journal);
    p.namespace.setOwner("/x/f", PathNames.split("/x/f"), "alice", "analysts", TestCallers.DEVICE, p.journal);
    p.namespace.setTimes("/g", PathNames.split("/g"), 5_000, 6_000, TestCallers.DEVICE, p.journal);
    p.journal.commitMetadata();
    return describe(p.namespace);
  }

  /** Recovers from the same files, leaving the old parts as a crash would. */
  private StoreParts crashAndRecover(long checkpointLogBytes) throws IOException {
    return StoreParts.open(dir, checkpointLogBytes);
  }

  @Test
  void recoveryReplaysEveryKindOfChange() throws Exception {
    List<String> before = history(parts);
    // A parent's modification time is that of its last entry made, removed or renamed (as in HDFS).
    String dir = " device:supergroup:drwxr-xr-x";
    assertEquals(List.of("/ #1 directory @3000" + dir + " read @1000", "/a #7 directory @3000" + dir + " read @3000",
        "/a/c #8 directory @3000" + dir + " read @3000",
        "/g #6 " + (PAGE + 50) + " bytes (durable " + (PAGE + 50) + ") in [3, 4], 2 committed @5000"
            + " device:supergroup:-rw-r--r-- read @6000",
        "/x #3 directory @2000 device:supergroup:drwxr-x--T read @1000",
        "/x/f #4 " + (2 * PAGE + 100) + " bytes (durable " + (2 * PAGE + 100) + ") in [0, 1, 2], 3 committed @2000"
            + " alice:analysts:-rw-r--r-- read @2000"),
        before);
    try (StoreParts again = crashAndRecover(1 << 20)) {
      assertEquals(before, describe(again.namespace));
      assertEquals(parts.namespace.nextId(), again.namespace.nextId(), "ids go on where they stopped");
      assertEquals(parts.ftl.freeLogicalPages(), again.ftl.freeLogicalPages());
      Inode g = again.namespace.resolve("/g", PathNames.split("/g"), TestCallers.DEVICE);
      assertArrayEquals(StoreParts.bytes(PAGE + 50, 3), again.readAll(g));
    }
  }

  @Test
  void aCheckpointBringsBackWhatTheJournalWould() throws Exception {
    parts.close();
    parts = StoreParts.open(dir, 1); // a checkpoint at every commit: the journal stays all but empty
    List<String> before = history(parts);
    try (StoreParts again = crashAndRecover(1 << 20)) {
      assertEquals(before, describe(again.namespace));
      assertEquals(parts.namespace.nextId(), again.namespace.nextId());
      assertEquals(parts.ftl.freeLogicalPages(), again.ftl.freeLogicalPages());
    }
  }

  @Test
  void syncedDataSurvivesAndUnsyncedDataIsDroppedOnRecovery() throws Exception {
    byte[] data = StoreParts.bytes(PAGE * 3 + 100, 8);
    Inode f = parts.namespace.create("/f", PathNames.split("/f"), false, 0644, TestCallers.DEVICE, parts.journal);
    parts.journal.commitMetadata();
    long h = parts.openFiles.openNew(f, OWNER);
    parts.openFiles.write(h, ByteBuffer.wrap(data, 0, PAGE + 50), OWNER, null);
    parts.commit(f);
    assertEquals(PAGE + 50, f.durableLength);
    // Written, and its full pages programmed, but never committed.
    parts.openFiles.write(h, ByteBuffer.wrap(data, PAGE + 50, data.length - PAGE - 50), OWNER, null);
    mkdirs(parts, "/made-after");
    try (StoreParts again = crashAndRecover(1 << 20)) {
      assertTrue(again.namespace.resolve("/made-after", PathNames.split("/made-after"), TestCallers.DEVICE).directory);
      Inode back = again.namespace.resolve("/f", PathNames.split("/f"), TestCallers.DEVICE);
      assertEquals(PAGE + 50, back.length);
      assertArrayEquals(Arrays.copyOf(data, PAGE + 50), again.readAll(back));
      // The pages written after the commit were dropped: only the committed ones are in use.
      assertEquals(again.ftl.logicalPages() - 2, again.ftl.freeLogicalPages());
    }
  }

  @Test
  void manyChangesSurviveCheckpointsAndRecovery() throws Exception {
    parts.close();
    parts = StoreParts.open(dir, 4096); // a checkpoint after every few records
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String path = "/d" + (i % 5) + "/f" + i;
      mkdirs(parts, "/d" + (i % 5));
      parts.writeFile(path, StoreParts.bytes(100 + i * 37, i));
      if (i % 3 == 0) {
        parts.namespace.rename(path, PathNames.split(path), path + "-r", PathNames.split(path + "-r"), TestCallers.DEVICE, parts.journal);
        parts.journal.commitMetadata();
        path = path + "-r";
      }
      if (i % 7 == 0) {
        parts.namespace.delete(path, PathNames.split(path), false, TestCallers.DEVICE, parts.journal);
        parts.journal.commitMetadata();
      } else {
        expected.add(path);
      }
    }
    parts.close();
    parts = StoreParts.open(dir);
    for (String path : expected) {
      int i = Integer.parseInt(path.replaceAll(".*/f(\\d+).*", "$1"));
      Inode file = parts.namespace.resolve(path, PathNames.split(path), TestCallers.DEVICE);
      assertArrayEquals(StoreParts.bytes(100 + i * 37, i), parts.readAll(file), path);
    }
    assertEquals(expected.size(), parts.namespace.fileCount());
  }

  @Test
  void aCommitWithNothingNewJournalsNothing() throws Exception {
    Inode f = parts.writeFile("/f", StoreParts.bytes(PAGE + 1, 9));
    Path journal = Damage.journal(dir);
    long size = Files.size(journal);
    parts.commit(f);
    assertEquals(size, Files.size(journal));
    Object owner = new Object();
    long h = parts.openFiles.openForAppend(f, "/f", owner, null);
    parts.openFiles.write(h, ByteBuffer.wrap(new byte[1]), owner, null);
    parts.commit(f);
    assertTrue(Files.size(journal) > size, "a commit of a new byte is journalled");
  }

  // ---- what it reads ----

  @FunctionalInterface
  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private static DataInputStream payload(Body body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      body.write(out);
    }
    return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
  }

  @Test
  void aLostRecordDescribesWhatItTouches() throws Exception {
    assertEquals("mkdir 'dir' (object 5, in directory object 1)",
        NamespaceJournal.describeRecord(NamespaceJournal.RECORD_MKDIR, payload(out -> {
          out.writeLong(5);
          out.writeLong(1);
          out.writeUTF("dir");
          out.writeLong(1_000);
        })));
    assertEquals("create 'f' (object 6, in directory object 5)",
        NamespaceJournal.describeRecord(NamespaceJournal.RECORD_CREATE, payload(out -> {
          out.writeLong(6);
          out.writeLong(5);
          out.writeUTF("f");
          out.writeLong(1_000);
          out.writeLong(0);
        })));
    assertEquals("rename object 6 to 'g' in directory object 1",
        NamespaceJournal.describeRecord(NamespaceJournal.RECORD_RENAME, payload(out -> {
          out.writeLong(6);
          out.writeLong(1);
          out.writeUTF("g");
          out.writeLong(1_000);
        })));
    assertEquals("delete object 6",
        NamespaceJournal.describeRecord(NamespaceJournal.RECORD_DELETE, payload(out -> out.writeLong(6))));
    assertEquals("commit object 6 at 4096 bytes",
        NamespaceJournal.describeRecord(NamespaceJournal.RECORD_COMMIT, payload(out -> {
          out.writeLong(6);
          out.writeLong(4096);
        })));
    assertEquals("map", NamespaceJournal.describeRecord(FlashTranslationLayer.RECORD_MAP, payload(out -> { })));
    assertEquals("record of unknown type 99", NamespaceJournal.describeRecord(99, payload(out -> { })));
  }

  @Test
  void recordTypesAreTheNamespacesAndTheMappings() {
    for (int type = 0; type < 20; type++) {
      boolean known = type == FlashTranslationLayer.RECORD_MAP
          || (type >= NamespaceJournal.RECORD_MKDIR && type <= NamespaceJournal.RECORD_ATTRIBUTES);
      assertEquals(known, NamespaceJournal.isRecordType(type), "type " + type);
    }
  }

  @Test
  void aCheckpointOfANewerVersionOrAnotherPageSizeIsRefused() throws Exception {
    NamespaceJournal inspection = NamespaceJournal.forInspection(parts.namespace, parts.ftl);
    IOException newer = assertThrows(IOException.class, () -> inspection.readSnapshot(payload(out -> out.writeInt(4))));
    assertTrue(newer.getMessage().contains("version 4 is not 1 to 3"), newer.getMessage());
    IOException pages = assertThrows(IOException.class, () -> inspection.readSnapshot(payload(out -> {
      out.writeInt(2);
      out.writeInt(4 * PAGE);
    })));
    assertTrue(pages.getMessage().contains("formatted with " + 4 * PAGE + "-byte pages, not " + PAGE),
        pages.getMessage());
  }

  @Test
  void aRecordThatNamesAMissingObjectOrUsesAFileAsADirectoryIsCorruption() throws Exception {
    Inode f = parts.writeFile("/f", new byte[1]);
    NamespaceJournal inspection = NamespaceJournal.forInspection(parts.namespace, parts.ftl);
    IOException missing = assertThrows(IOException.class,
        () -> inspection.replay(NamespaceJournal.RECORD_DELETE, payload(out -> out.writeLong(999))));
    assertTrue(missing.getMessage().contains("names object 999, which does not exist"), missing.getMessage());
    IOException notADirectory = assertThrows(IOException.class,
        () -> inspection.replay(NamespaceJournal.RECORD_MKDIR, payload(out -> {
          out.writeLong(50);
          out.writeLong(f.id);
          out.writeUTF("d");
          out.writeLong(0);
        })));
    assertTrue(notADirectory.getMessage().contains("object " + f.id + " is used as a directory but is a file"),
        notADirectory.getMessage());
    assertThrows(IOException.class, () -> inspection.replay(15, payload(out -> { })));
    assertNull(parts.namespace.byId(50), "nothing was applied");
  }
}
