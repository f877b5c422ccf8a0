package org.smartssd.device.runtime.objects;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.ftl.DamagedMetadataException;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.ftl.MetadataLog;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.FlashTimeline;

/**
 * The namespace's durability: its changes as records of the metadata log (the flash translation
 * layer's mapping records share the log), the checkpoint that compacts them (the namespace with
 * every file's committed length and pages, then the mapping), and recovery, which loads the last
 * checkpoint, replays the journal into a {@link Namespace} and drops what was never committed.
 *
 * <p>A change is appended before it is acknowledged, and made durable (data first, then the
 * journal) by {@link #commitMetadata}; a file's data becomes durable with the record of its new
 * length and pages ({@link #commit}).
 *
 * <p>Not thread-safe: the object store's write lock guards it. ({@link MetadataLog} locks itself as
 * well, but every call here comes under that lock.)
 */
final class NamespaceJournal implements Namespace.Changes {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceJournal.class);
  /**
   * 3: objects carry owner, group, permission and access time; 2: pages carry checksums in their
   * out-of-band entries; 1: written before they did.
   */
  private static final int SNAPSHOT_VERSION = 3;
  /** The first snapshot version with owners, groups, permissions and access times. */
  private static final int ATTRIBUTES_SNAPSHOT_VERSION = 3;

  // Namespace journal records (types 10 and up; the flash translation layer has those below).
  static final int RECORD_MKDIR = 10;
  static final int RECORD_CREATE = 11;
  static final int RECORD_RENAME = 12;
  static final int RECORD_DELETE = 13;
  static final int RECORD_COMMIT = 14;
  // Since objects have owners (protocol version 4): what MKDIR and CREATE hold, then the new
  // object's owner, group and permission; DELETE with its time; an object's attributes as they are.
  static final int RECORD_MKDIR_OWNED = 15;
  static final int RECORD_CREATE_OWNED = 16;
  static final int RECORD_DELETE_TIMED = 17;
  static final int RECORD_ATTRIBUTES = 18;

  private final Namespace namespace;
  private final FlashTranslationLayer ftl;
  private final int pageSize;
  private final long checkpointLogBytes;
  /** Null in a journal for inspection, which only replays. */
  private MetadataLog log;
  /** The snapshot version of the checkpoint recovery loaded (the current one when there was none). */
  private int loadedSnapshotVersion = SNAPSHOT_VERSION;

  private NamespaceJournal(Namespace namespace, FlashTranslationLayer ftl, long checkpointLogBytes) {
    this.namespace = namespace;
    this.ftl = ftl;
    this.pageSize = ftl.pageSize();
    this.checkpointLogBytes = checkpointLogBytes;
  }

  /**
   * Recovers {@code namespace} (empty) and the flash translation layer from the metadata in
   * {@code dataDir}: loads the last checkpoint, replays the journal, drops what was never committed,
   * and starts a fresh checkpoint. A data directory written before pages had checksums gets them
   * here, once, from the data its pages hold.
   *
   * @throws DamagedMetadataException when the metadata is damaged, or the checksums of live pages
   *     are missing; nothing has been changed then
   */
  static NamespaceJournal open(Path dataDir, Namespace namespace, FlashTranslationLayer ftl, long checkpointLogBytes)
      throws IOException {
    NamespaceJournal journal = new NamespaceJournal(namespace, ftl, checkpointLogBytes);
    MetadataLog log = MetadataLog.open(dataDir, ftl.flash().foundData(), journal::readSnapshot, journal::replay,
        NamespaceJournal::isRecordType);
    try {
      ftl.attachLog(log);
      journal.log = log;
      ftl.finishRecovery(namespace.ownedLbns());
      journal.checkChecksums(dataDir);
      journal.checkpoint();
      // Only now is the recovered mapping durable (in the checkpoint): pages it leaves unmapped can go.
      int discarded = ftl.discardUnmappedPages();
      LOG.debug("{}: gave back the disk space of {} unmapped flash pages", dataDir, discarded);
    } catch (IOException | RuntimeException e) {
      log.close();
      throw e;
    }
    return journal;
  }

  /** A journal that only loads checkpoints and replays records into {@code namespace}, for {@code fsck}. */
  static NamespaceJournal forInspection(Namespace namespace, FlashTranslationLayer ftl) {
    return new NamespaceJournal(namespace, ftl, Long.MAX_VALUE);
  }

  /** Whether {@code type} is a journal record type of the namespace or of the flash translation layer. */
  static boolean isRecordType(int type) {
    return type == FlashTranslationLayer.RECORD_MAP || (type >= RECORD_MKDIR && type <= RECORD_ATTRIBUTES);
  }

  int loadedSnapshotVersion() {
    return loadedSnapshotVersion;
  }

  /**
   * After recovery: pages written before checksums existed get them now; a channel whose
   * out-of-band file is missing while live pages sit on it is damage.
   */
  private void checkChecksums(Path dataDir) throws IOException {
    FlashArray flash = ftl.flash();
    if (loadedSnapshotVersion < 2) {
      long start = System.nanoTime();
      flash.createMissingOob();
      int pages = ftl.checksumMappedPages();
      flash.force();
      LOG.info("{} was written before flash pages had checksums: recorded the CRC-32C of its {} live pages, as they"
          + " are now, in {} ms (once; damage done before this cannot be detected)", dataDir, pages,
          (System.nanoTime() - start) / 1_000_000);
      return;
    }
    for (int channel : flash.channelsWithoutOob()) {
      int live = ftl.mappedPagesOn(channel);
      if (live > 0) {
        throw new DamagedMetadataException(DamagedMetadataException.Kind.CHECKSUMS_MISSING, flash.oobPath(channel), -1,
            "the out-of-band file " + flash.oobPath(channel) + " is missing: the checksums of the " + live
                + " live pages on channel " + channel + " (" + namespace.filesOnChannel(channel) + ") are lost",
            dataDir);
      }
    }
    flash.createMissingOob();
  }

  // ---- recording ----

  @Override
  public void mkdir(Inode dir) {
    log.append(RECORD_MKDIR_OWNED, record(out -> {
      out.writeLong(dir.id);
      out.writeLong(dir.parent.id);
      out.writeUTF(dir.name);
      out.writeLong(dir.modificationTimeMillis);
      writeOwnership(out, dir);
    }));
  }

  @Override
  public void create(Inode file, long replacedId) {
    log.append(RECORD_CREATE_OWNED, record(out -> {
      out.writeLong(file.id);
      out.writeLong(file.parent.id);
      out.writeUTF(file.name);
      out.writeLong(file.modificationTimeMillis);
      out.writeLong(replacedId);
      writeOwnership(out, file);
    }));
  }

  private static void writeOwnership(DataOutputStream out, Inode node) throws IOException {
    out.writeUTF(node.owner);
    out.writeUTF(node.group);
    out.writeShort(node.permission);
  }

  private Inode.Attributes readOwnership(DataInputStream in) throws IOException {
    String owner = namespace.intern(in.readUTF());
    String group = namespace.intern(in.readUTF());
    return new Inode.Attributes(owner, group, permission(in.readUnsignedShort()));
  }

  /** What {@link #writeAttributes} wrote, into {@code node}. */
  private void readAttributes(DataInputStream in, Inode node) throws IOException {
    Inode.Attributes a = readOwnership(in);
    node.owner = a.owner();
    node.group = a.group();
    node.permission = a.permission();
    node.modificationTimeMillis = in.readLong();
    node.accessTimeMillis = in.readLong();
  }

  private static int permission(int value) throws IOException {
    if ((value & ~org.smartssd.device.ObjectStatus.PERMISSION_BITS) != 0) {
      throw new IOException("metadata corrupt: permission " + Integer.toOctalString(value) + " has bits beyond 01777");
    }
    return value;
  }

  @Override
  public void rename(Inode node, Inode newParent, String newName, long timeMillis) {
    log.append(RECORD_RENAME, record(out -> {
      out.writeLong(node.id);
      out.writeLong(newParent.id);
      out.writeUTF(newName);
      out.writeLong(timeMillis);
    }));
  }

  @Override
  public void delete(Inode node, long timeMillis) {
    log.append(RECORD_DELETE_TIMED, record(out -> {
      out.writeLong(node.id);
      out.writeLong(timeMillis);
    }));
  }

  @Override
  public void attributes(Inode node) {
    log.append(RECORD_ATTRIBUTES, record(out -> {
      out.writeLong(node.id);
      writeAttributes(out, node);
    }));
  }

  /** Owner, group, permission, then modification and access times: read by {@link #readAttributes}. */
  private static void writeAttributes(DataOutputStream out, Inode node) throws IOException {
    writeOwnership(out, node);
    out.writeLong(node.modificationTimeMillis);
    out.writeLong(node.accessTimeMillis);
  }

  /**
   * Journals the new length and pages of {@code file} (its pages already programmed) and makes them
   * durable, then waits for {@code cmd}'s programs; nothing when nothing changed since the last time.
   */
  void commit(Inode file, FlashTimeline cmd) throws IOException {
    if (file.durableLength == file.length && file.committedPages == file.lbns.size()) {
      return;
    }
    long length = file.length;
    long mtime = file.modificationTimeMillis;
    int from = file.committedPages;
    int to = file.lbns.size();
    log.append(RECORD_COMMIT, record(out -> {
      out.writeLong(file.id);
      out.writeLong(length);
      out.writeLong(mtime);
      out.writeInt(to - from);
      for (int i = from; i < to; i++) {
        out.writeInt(file.lbns.get(i));
      }
    }));
    // Before commitMetadata: a checkpoint it may write must already hold the new length and pages.
    file.durableLength = length;
    file.committedPages = to;
    commitMetadata();
    if (cmd instanceof Command c) {
      c.awaitPrograms(); // a host's command waits for every program; an execution's output times its own
    }
  }

  /** Makes the journal durable (data first), then compacts it into a checkpoint when it grew large. */
  void commitMetadata() throws IOException {
    ftl.syncDurably();
    if (log.journalBytes() > checkpointLogBytes) {
      checkpoint();
    }
  }

  private void checkpoint() throws IOException {
    ftl.syncDurably();
    log.checkpoint(this::writeSnapshot);
  }

  @FunctionalInterface
  private interface RecordBody {
    void write(DataOutputStream out) throws IOException;
  }

  private static byte[] record(RecordBody body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      body.write(out);
    } catch (IOException e) {
      throw new AssertionError("writing to memory cannot fail", e);
    }
    return bytes.toByteArray();
  }

  // ---- checkpoints and replay ----

  /** Writes the durable state: every object with its committed length and pages, then the mapping. */
  private void writeSnapshot(DataOutputStream out) throws IOException {
    out.writeInt(SNAPSHOT_VERSION);
    out.writeInt(pageSize);
    out.writeLong(namespace.nextId());
    Inode root = namespace.root();
    writeAttributes(out, root);
    out.writeInt(namespace.size() - 1);
    Deque<Inode> todo = new ArrayDeque<>(root.children.values());
    while (!todo.isEmpty()) {
      Inode node = todo.poll();
      out.writeLong(node.id);
      out.writeLong(node.parent.id);
      out.writeUTF(node.name);
      out.writeBoolean(node.directory);
      out.writeLong(node.modificationTimeMillis);
      writeOwnership(out, node);
      out.writeLong(node.accessTimeMillis);
      if (node.directory) {
        todo.addAll(node.children.values());
      } else {
        out.writeLong(node.durableLength);
        out.writeInt(node.committedPages);
        for (int i = 0; i < node.committedPages; i++) {
          out.writeInt(node.lbns.get(i));
        }
      }
    }
    ftl.writeSnapshot(out);
  }

  /** Loads a checkpoint into the (empty) namespace and the flash translation layer. */
  void readSnapshot(DataInputStream in) throws IOException {
    int version = in.readInt();
    if (version < 1 || version > SNAPSHOT_VERSION) {
      throw new IOException("metadata checkpoint version " + version + " is not 1 to " + SNAPSHOT_VERSION
          + " (written by a newer device?)");
    }
    loadedSnapshotVersion = version;
    int storedPageSize = in.readInt();
    if (storedPageSize != pageSize) {
      throw new IOException("the device was formatted with " + storedPageSize + "-byte pages, not " + pageSize);
    }
    namespace.restoreNextId(in.readLong());
    boolean owned = version >= ATTRIBUTES_SNAPSHOT_VERSION;
    if (owned) {
      readAttributes(in, namespace.root());
    }
    int count = in.readInt();
    for (int i = 0; i < count; i++) {
      long id = in.readLong();
      Inode parent = directory(in.readLong());
      String name = in.readUTF();
      boolean dir = in.readBoolean();
      long mtime = in.readLong();
      Inode node;
      if (owned) {
        node = new Inode(id, dir, parent, name, mtime, readOwnership(in));
        node.accessTimeMillis = in.readLong();
      } else {
        node = new Inode(id, dir, parent, name, mtime, namespace.legacyAttributes(dir));
      }
      if (!dir) {
        node.length = node.durableLength = in.readLong();
        int pages = in.readInt();
        for (int p = 0; p < pages; p++) {
          node.lbns.add(in.readInt());
        }
        node.committedPages = pages;
      }
      namespace.attach(node);
    }
    ftl.readSnapshot(in);
  }

  /** Applies one journal record (the flash translation layer's records go to it). */
  void replay(int type, DataInputStream in) throws IOException {
    if (type < RECORD_MKDIR) {
      ftl.replay(type, in);
      return;
    }
    switch (type) {
      case RECORD_MKDIR, RECORD_MKDIR_OWNED -> {
        long id = in.readLong();
        Inode parent = directory(in.readLong());
        String name = in.readUTF();
        long mtime = in.readLong();
        Inode.Attributes a = type == RECORD_MKDIR ? namespace.legacyAttributes(true) : readOwnership(in);
        namespace.attach(new Inode(id, true, parent, name, mtime, a));
        namespace.noteIdUsed(id);
        if (type == RECORD_MKDIR_OWNED) {
          parent.modificationTimeMillis = mtime;
        }
      }
      case RECORD_CREATE, RECORD_CREATE_OWNED -> {
        long id = in.readLong();
        Inode parent = directory(in.readLong());
        String name = in.readUTF();
        long mtime = in.readLong();
        long replaced = in.readLong();
        Inode.Attributes a = type == RECORD_CREATE ? namespace.legacyAttributes(false) : readOwnership(in);
        if (replaced != 0) {
          namespace.remove(node(replaced));
        }
        namespace.attach(new Inode(id, false, parent, name, mtime, a));
        namespace.noteIdUsed(id);
        if (type == RECORD_CREATE_OWNED) {
          parent.modificationTimeMillis = mtime;
        }
      }
      case RECORD_RENAME -> {
        Inode node = node(in.readLong());
        Inode parent = directory(in.readLong());
        String name = in.readUTF();
        long time = in.readLong();
        Inode oldParent = node.parent;
        namespace.move(node, parent, name);
        if (loadedSnapshotVersion >= ATTRIBUTES_SNAPSHOT_VERSION) {
          // Written by a device that sets the parents' times as it renames (their checkpoint says so).
          oldParent.modificationTimeMillis = time;
          parent.modificationTimeMillis = time;
        }
      }
      case RECORD_DELETE -> namespace.remove(node(in.readLong()));
      case RECORD_DELETE_TIMED -> {
        Inode node = node(in.readLong());
        long time = in.readLong();
        Inode parent = node.parent;
        namespace.remove(node);
        parent.modificationTimeMillis = time;
      }
      case RECORD_ATTRIBUTES -> readAttributes(in, node(in.readLong()));
      case RECORD_COMMIT -> {
        Inode file = node(in.readLong());
        file.length = file.durableLength = in.readLong();
        file.modificationTimeMillis = in.readLong();
        int added = in.readInt();
        for (int i = 0; i < added; i++) {
          file.lbns.add(in.readInt());
        }
        file.committedPages = file.lbns.size();
      }
      default -> throw new IOException("unknown journal record type " + type);
    }
  }

  /**
   * One line about a journal record that recovery will not apply (it lies after damage), for
   * {@code fsck}'s report: its kind, and the name and object it touches where the record has them.
   */
  static String describeRecord(int type, DataInputStream in) throws IOException {
    switch (type) {
      case FlashTranslationLayer.RECORD_MAP:
        return "map";
      case RECORD_MKDIR:
      case RECORD_MKDIR_OWNED: {
        long id = in.readLong();
        long parent = in.readLong();
        return "mkdir '" + in.readUTF() + "' (object " + id + ", in directory object " + parent + ")";
      }
      case RECORD_CREATE:
      case RECORD_CREATE_OWNED: {
        long id = in.readLong();
        long parent = in.readLong();
        return "create '" + in.readUTF() + "' (object " + id + ", in directory object " + parent + ")";
      }
      case RECORD_RENAME: {
        long id = in.readLong();
        long parent = in.readLong();
        return "rename object " + id + " to '" + in.readUTF() + "' in directory object " + parent;
      }
      case RECORD_DELETE:
      case RECORD_DELETE_TIMED:
        return "delete object " + in.readLong();
      case RECORD_ATTRIBUTES: {
        long id = in.readLong();
        String owner = in.readUTF();
        String group = in.readUTF();
        return "set object " + id + " to " + owner + ":" + group + " " + Integer.toOctalString(in.readUnsignedShort());
      }
      case RECORD_COMMIT: {
        long id = in.readLong();
        return "commit object " + id + " at " + in.readLong() + " bytes";
      }
      default:
        return "record of unknown type " + type;
    }
  }

  private Inode node(long id) throws IOException {
    Inode node = namespace.byId(id);
    if (node == null) {
      throw new IOException("metadata corrupt: the journal names object " + id + ", which does not exist");
    }
    return node;
  }

  private Inode directory(long id) throws IOException {
    Inode node = node(id);
    if (!node.directory) {
      throw new IOException("metadata corrupt: object " + id + " is used as a directory but is a file");
    }
    return node;
  }

  /** Makes everything durable, gives back the dead pages' disk space, and closes the log. */
  void close() throws IOException {
    if (log != null) {
      ftl.syncAndDiscard();
      log.close();
    }
  }
}
