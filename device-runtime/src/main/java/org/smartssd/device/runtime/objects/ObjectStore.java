package org.smartssd.device.runtime.objects;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.flash.PageCorruptException;
import org.smartssd.device.runtime.ftl.DamagedMetadataException;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.ftl.MetadataLog;
import org.smartssd.device.runtime.ftl.OutOfSpaceException;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.FlashTimeline;

/**
 * Files and directories with HDFS-like semantics over the flash translation layer: one writer a
 * file, append-only writes, atomic rename, recursive delete. A file's pages are striped over the
 * channels starting at a channel chosen by its id, so a scan reads every channel.
 *
 * <p>Namespace changes are journalled and forced before they are acknowledged; file data becomes
 * durable at {@link #sync} and {@link #close}. After a crash, {@link #open} brings back every
 * acknowledged change and nothing that was not committed.
 *
 * <p>One read-write lock: data reads share it, everything else holds it alone.
 */
public final class ObjectStore implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectStore.class);
  private static final long ROOT_ID = 1;
  /** 2: pages carry checksums in their out-of-band entries; 1: written before they did. */
  private static final int SNAPSHOT_VERSION = 2;

  // Namespace journal records (types 10 and up; the flash translation layer has those below).
  private static final int RECORD_MKDIR = 10;
  private static final int RECORD_CREATE = 11;
  private static final int RECORD_RENAME = 12;
  private static final int RECORD_DELETE = 13;
  private static final int RECORD_COMMIT = 14;

  /** A file opened for writing. */
  public record Opened(long handle, long objectId, long length) {}

  /** One page of a directory listing. */
  public record Listing(List<ObjectStatus> entries, boolean more) {}

  /**
   * A file as an execution scans it: its id, its length when the scan began, and the channel each
   * page sits on then (pages may move later; reads follow them).
   */
  public record ScanTarget(String path, long objectId, long length, int pageSize, int[] channelOfPage) {}

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final DeviceGeometry geometry;
  private final FlashTranslationLayer ftl;
  private final long checkpointLogBytes;
  private final LongSupplier wallClockMillis;
  private final int pageSize;
  private final Inode root;
  private final Map<Long, Inode> byId = new HashMap<>();
  private final Map<Long, WriteHandle> handles = new HashMap<>();
  private MetadataLog log;
  private long nextId = ROOT_ID + 1;
  private long nextHandle = 1;
  /** The snapshot version of the checkpoint recovery loaded (the current one when there was none). */
  private int loadedSnapshotVersion = SNAPSHOT_VERSION;

  private ObjectStore(DeviceGeometry geometry, FlashTranslationLayer ftl, long checkpointLogBytes,
      LongSupplier wallClockMillis) {
    this.geometry = geometry;
    this.ftl = ftl;
    this.checkpointLogBytes = checkpointLogBytes;
    this.wallClockMillis = wallClockMillis;
    this.pageSize = geometry.pageSizeBytes();
    this.root = new Inode(ROOT_ID, true, null, "", wallClockMillis.getAsLong());
    byId.put(ROOT_ID, root);
  }

  /**
   * Opens the store in {@code dataDir}: loads the last checkpoint, replays the journal, drops what
   * was never committed, and starts a fresh checkpoint. A data directory written before pages had
   * checksums gets them here, once, from the data its pages hold.
   *
   * @throws DamagedMetadataException when the metadata is damaged, or the checksums of live pages
   *     are missing; nothing has been changed then
   */
  public static ObjectStore open(Path dataDir, DeviceGeometry geometry, FlashTranslationLayer ftl,
      long checkpointLogBytes, LongSupplier wallClockMillis) throws IOException {
    ObjectStore store = new ObjectStore(geometry, ftl, checkpointLogBytes, wallClockMillis);
    MetadataLog log = MetadataLog.open(dataDir, ftl.flash().foundData(), store::readSnapshot, store::replay,
        ObjectStore::isRecordType);
    try {
      ftl.attachLog(log);
      store.log = log;
      ftl.finishRecovery(store.ownedLbns());
      store.checkChecksums(dataDir);
      store.checkpoint();
      // Only now is the recovered mapping durable (in the checkpoint): pages it leaves unmapped can go.
      int discarded = ftl.discardUnmappedPages();
      LOG.debug("{}: gave back the disk space of {} unmapped flash pages", dataDir, discarded);
    } catch (IOException | RuntimeException e) {
      log.close();
      throw e;
    }
    LOG.info("object store in {}: {} objects, {} of {} bytes free", dataDir, store.byId.size(),
        store.freeBytes(), store.capacityBytes());
    return store;
  }

  /** An empty store for {@link StoreCheck}, which replays the metadata into it without a journal of its own. */
  static ObjectStore forInspection(DeviceGeometry geometry, FlashTranslationLayer ftl) {
    return new ObjectStore(geometry, ftl, Long.MAX_VALUE, () -> 0L);
  }

  /** Whether {@code type} is a journal record type of the store or of the flash translation layer. */
  static boolean isRecordType(int type) {
    return type == FlashTranslationLayer.RECORD_MAP || (type >= RECORD_MKDIR && type <= RECORD_COMMIT);
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
                + " live pages on channel " + channel + " (" + filesOnChannel(channel) + ") are lost", dataDir);
      }
    }
    flash.createMissingOob();
  }

  /** The files with a page on {@code channel}, for messages: their count and the first few paths. */
  private String filesOnChannel(int channel) {
    List<String> paths = new ArrayList<>();
    int count = 0;
    for (Inode node : byId.values()) {
      if (node.directory) {
        continue;
      }
      for (int i = 0; i < node.committedPages; i++) {
        int ppa = ftl.ppaOf(node.lbns.get(i));
        if (ppa >= 0 && ftl.flash().addressing().channel(ppa) == channel) {
          count++;
          if (paths.size() < 5) {
            paths.add("'" + node.path() + "'");
          }
          break;
        }
      }
    }
    return count + " file" + (count == 1 ? "" : "s") + (paths.isEmpty() ? "" : ": " + String.join(", ", paths)
        + (count > paths.size() ? ", ..." : ""));
  }

  // ---- namespace ----

  public void mkdirs(String path) throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    lock.writeLock().lock();
    try {
      Inode dir = root;
      long now = wallClockMillis.getAsLong();
      boolean changed = false;
      for (int i = 0; i < names.size(); i++) {
        Inode child = dir.children.get(names.get(i));
        if (child == null) {
          Inode made = new Inode(nextId++, true, dir, names.get(i), now);
          attach(made);
          log.append(RECORD_MKDIR, record(out -> {
            out.writeLong(made.id);
            out.writeLong(made.parent.id);
            out.writeUTF(made.name);
            out.writeLong(now);
          }));
          child = made;
          changed = true;
        } else if (!child.directory) {
          Status status = i == names.size() - 1 ? Status.ALREADY_EXISTS : Status.PARENT_NOT_DIRECTORY;
          throw new StoreException(status, "'" + child.path() + "' is a file");
        }
        dir = child;
      }
      if (changed) {
        commitMetadata();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  public Opened create(String path, boolean overwrite, boolean createParents, Object owner)
      throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    if (names.isEmpty()) {
      throw new StoreException(Status.ALREADY_EXISTS, "'/' is the root directory");
    }
    if (createParents && names.size() > 1) {
      mkdirs(parentPath(names));
    }
    lock.writeLock().lock();
    try {
      Inode parent = resolveParent(path, names);
      String name = names.get(names.size() - 1);
      Inode existing = parent.children.get(name);
      if (existing != null) {
        if (existing.directory) {
          throw new StoreException(Status.ALREADY_EXISTS, "'" + path + "' is a directory");
        }
        if (!overwrite) {
          throw new StoreException(Status.ALREADY_EXISTS, "'" + path + "' already exists");
        }
        if (existing.writer != null) {
          throw new StoreException(Status.LEASE_CONFLICT, "'" + path + "' is open for writing");
        }
      }
      long now = wallClockMillis.getAsLong();
      Inode file = new Inode(nextId++, false, parent, name, now);
      long replaced = existing == null ? 0 : existing.id;
      log.append(RECORD_CREATE, record(out -> {
        out.writeLong(file.id);
        out.writeLong(parent.id);
        out.writeUTF(name);
        out.writeLong(now);
        out.writeLong(replaced);
      }));
      if (existing != null) {
        removeSubtree(existing);
      }
      attach(file);
      commitMetadata();
      return new Opened(openWriter(file, owner), file.id, 0);
    } finally {
      lock.writeLock().unlock();
    }
  }

  public Opened append(String path, Object owner, Command cmd) throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    lock.writeLock().lock();
    try {
      Inode file = resolve(path, names);
      if (file.directory) {
        throw new StoreException(Status.IS_DIRECTORY, "'" + path + "' is a directory");
      }
      if (file.writer != null) {
        throw new StoreException(Status.LEASE_CONFLICT, "'" + path + "' is open for writing");
      }
      int inTail = (int) (file.length % pageSize);
      ByteBuffer tail = ByteBuffer.allocate(pageSize);
      if (inTail > 0) {
        // Appends continue the last partial page: bring it back from flash.
        readPage(file, (int) (file.length / pageSize), tail, cmd);
        tail.position(inTail);
      }
      file.tail = tail;
      file.tailDirty = false;
      return new Opened(openWriter(file, owner), file.id, file.length);
    } finally {
      lock.writeLock().unlock();
    }
  }

  private long openWriter(Inode file, Object owner) {
    if (file.tail == null) {
      file.tail = ByteBuffer.allocate(pageSize);
    }
    WriteHandle h = new WriteHandle(nextHandle++, file, owner);
    file.writer = h;
    handles.put(h.id, h);
    return h.id;
  }

  public void rename(String source, String destination) throws StoreException, IOException {
    List<String> from = PathNames.split(source);
    List<String> to = PathNames.split(destination);
    lock.writeLock().lock();
    try {
      if (from.isEmpty()) {
        throw new StoreException(Status.BAD_REQUEST, "the root directory cannot be renamed");
      }
      Inode node = resolve(source, from);
      if (to.isEmpty()) {
        throw new StoreException(Status.ALREADY_EXISTS, "'/' already exists");
      }
      Inode newParent = resolveParent(destination, to);
      String newName = to.get(to.size() - 1);
      if (newParent == node.parent && newName.equals(node.name)) {
        return;
      }
      if (newParent.children.containsKey(newName)) {
        throw new StoreException(Status.ALREADY_EXISTS, "'" + destination + "' already exists");
      }
      if (newParent == node || node.isAncestorOf(newParent)) {
        throw new StoreException(Status.BAD_REQUEST,
            "cannot move '" + source + "' into its own subtree '" + destination + "'");
      }
      long now = wallClockMillis.getAsLong();
      log.append(RECORD_RENAME, record(out -> {
        out.writeLong(node.id);
        out.writeLong(newParent.id);
        out.writeUTF(newName);
        out.writeLong(now);
      }));
      move(node, newParent, newName);
      commitMetadata();
    } finally {
      lock.writeLock().unlock();
    }
  }

  public void delete(String path, boolean recursive) throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    lock.writeLock().lock();
    try {
      Inode node = resolve(path, names);
      if (node.directory && !node.children.isEmpty() && !recursive) {
        throw new StoreException(Status.DIRECTORY_NOT_EMPTY, "directory '" + path + "' is not empty");
      }
      List<Inode> targets = node == root ? new ArrayList<>(root.children.values()) : List.of(node);
      for (Inode target : targets) {
        log.append(RECORD_DELETE, record(out -> out.writeLong(target.id)));
        removeSubtree(target);
      }
      if (!targets.isEmpty()) {
        commitMetadata();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  // ---- data ----

  public long write(long handle, ByteBuffer data, Object owner, Command cmd) throws StoreException, IOException {
    lock.writeLock().lock();
    try {
      Inode file = writer(handle, owner).inode;
      ByteBuffer src = data.duplicate();
      while (src.hasRemaining()) {
        int n = Math.min(file.tail.remaining(), src.remaining());
        ByteBuffer chunk = src.slice();
        chunk.limit(n);
        file.tail.put(chunk);
        src.position(src.position() + n);
        file.length += n;
        file.tailDirty = true;
        if (!file.tail.hasRemaining()) {
          programTail(file, (int) (file.length / pageSize) - 1, cmd);
          file.tail.clear();
        }
      }
      file.modificationTimeMillis = wallClockMillis.getAsLong();
      return file.length;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Every acknowledged write is visible to readers at once; flush only reports the length. */
  public long flush(long handle, Object owner) throws StoreException {
    lock.writeLock().lock();
    try {
      return writer(handle, owner).inode.length;
    } finally {
      lock.writeLock().unlock();
    }
  }

  public long sync(long handle, Object owner, Command cmd) throws StoreException, IOException {
    lock.writeLock().lock();
    try {
      Inode file = writer(handle, owner).inode;
      commitFile(file, cmd);
      return file.durableLength;
    } finally {
      lock.writeLock().unlock();
    }
  }

  public long close(long handle, Object owner, Command cmd) throws StoreException, IOException {
    lock.writeLock().lock();
    try {
      WriteHandle h = writer(handle, owner);
      commitFile(h.inode, cmd);
      release(h);
      return h.inode.durableLength;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Closes every handle of a connection that went away, keeping what it wrote. */
  /** Whether {@code owner} has a file open for writing. */
  public boolean hasHandlesOf(Object owner) {
    lock.readLock().lock();
    try {
      for (WriteHandle h : handles.values()) {
        if (h.owner == owner) {
          return true;
        }
      }
      return false;
    } finally {
      lock.readLock().unlock();
    }
  }

  public void closeHandlesOf(Object owner) {
    lock.writeLock().lock();
    try {
      for (WriteHandle h : new ArrayList<>(handles.values())) {
        if (h.owner == owner) {
          try {
            Command cmd = ftl.beginInternalCommand();
            commitFile(h.inode, cmd);
            cmd.complete();
          } catch (IOException e) {
            LOG.error("cannot commit '{}' after its writer went away", h.inode.path(), e);
          }
          release(h);
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Reads up to {@code length} bytes of object {@code objectId} from {@code offset}. */
  public ByteBuffer read(long objectId, long offset, int length, Command cmd) throws StoreException, IOException {
    if (offset < 0 || length < 0) {
      throw new StoreException(Status.BAD_REQUEST, "negative offset " + offset + " or length " + length);
    }
    lock.readLock().lock();
    try {
      Inode file = byId.get(objectId);
      if (file == null) {
        throw new StoreException(Status.NOT_FOUND, "object " + objectId + " does not exist (deleted?)");
      }
      if (file.directory) {
        throw new StoreException(Status.IS_DIRECTORY, "object " + objectId + " is directory '" + file.path() + "'");
      }
      if (offset > file.length) {
        throw new StoreException(Status.PAST_END, "offset " + offset + " is past the end of '" + file.path()
            + "' (" + file.length + " bytes)");
      }
      int n = (int) Math.min(length, file.length - offset);
      ByteBuffer out = ByteBuffer.allocate(n);
      ByteBuffer page = null;
      long pos = offset;
      long tailPage = file.tail != null ? file.length / pageSize : -1;
      while (out.hasRemaining()) {
        int index = (int) (pos / pageSize);
        int inPage = (int) (pos % pageSize);
        int take = Math.min(pageSize - inPage, out.remaining());
        if (index == tailPage) {
          out.put(file.tail.duplicate().position(inPage).limit(inPage + take));
        } else if (take == pageSize) {
          readPage(file, index, out.slice().limit(pageSize), cmd);
          out.position(out.position() + pageSize);
        } else {
          page = page == null ? ByteBuffer.allocate(pageSize) : page.clear();
          readPage(file, index, page, cmd);
          out.put(page.flip().position(inPage).limit(inPage + take));
        }
        pos += take;
      }
      return out.flip();
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Reads page {@code index} of {@code file} from flash; a page that fails its check is
   * {@link Status#CORRUPT}, with a message that starts {@code 'PATH' is corrupt at offset N:}.
   */
  private void readPage(Inode file, int index, ByteBuffer dst, FlashTimeline cmd) throws StoreException, IOException {
    int lbn = file.lbns.get(index);
    try {
      ftl.read(lbn, dst, cmd);
    } catch (PageCorruptException e) {
      throw new StoreException(Status.CORRUPT, corruptMessage(file, index, lbn, e));
    }
  }

  private String corruptMessage(Inode file, int index, int lbn, PageCorruptException e) {
    long offset = (long) index * pageSize;
    long last = Math.min(offset + pageSize, Math.max(file.length, offset + 1)) - 1;
    return "'" + file.path() + "' is corrupt at offset " + offset + ": bytes " + offset + ".." + last + " (page "
        + index + " of the file, logical page " + lbn + ") are lost: " + e.getMessage();
  }

  /** A page of a file that fails its check on flash. */
  public record CorruptPage(String path, long objectId, int pageIndex, long offset, long length, String reason) {}

  /**
   * Reads every committed page of every file and checks it: what {@code fsck} reports, and what it
   * moves aside. Accounts nothing on the modelled clock.
   */
  public List<CorruptPage> verifyPages() throws IOException {
    lock.readLock().lock();
    try {
      List<CorruptPage> corrupt = new ArrayList<>();
      ByteBuffer page = ByteBuffer.allocate(pageSize);
      List<Inode> files = new ArrayList<>();
      for (Inode node : byId.values()) {
        if (!node.directory) {
          files.add(node);
        }
      }
      files.sort(java.util.Comparator.comparing(Inode::path));
      for (Inode file : files) {
        for (int i = 0; i < file.committedPages; i++) {
          page.clear();
          long offset = (long) i * pageSize;
          long length = Math.min(pageSize, file.durableLength - offset);
          int lbn = file.lbns.get(i);
          if (lbn < 0 || lbn >= ftl.logicalPages() || ftl.ppaOf(lbn) < 0) {
            corrupt.add(new CorruptPage(file.path(), file.id, i, offset, length,
                "logical page " + lbn + " is not mapped to flash"));
            continue;
          }
          try {
            ftl.read(lbn, page, null);
          } catch (PageCorruptException e) {
            corrupt.add(new CorruptPage(file.path(), file.id, i, offset, length, e.getMessage()));
          }
        }
      }
      return corrupt;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Committed pages of all files (what {@link #verifyPages} reads). */
  long committedPages() {
    long n = 0;
    for (Inode node : byId.values()) {
      if (!node.directory) {
        n += node.committedPages;
      }
    }
    return n;
  }

  int loadedSnapshotVersion() {
    return loadedSnapshotVersion;
  }

  long fileCount() {
    return byId.values().stream().filter(n -> !n.directory).count();
  }

  // ---- internal reads of executions ----

  /** Resolves a file for an execution. */
  public ScanTarget openScan(String path) throws StoreException {
    List<String> names = PathNames.split(path);
    lock.readLock().lock();
    try {
      Inode file = resolve(path, names);
      if (file.directory) {
        throw new StoreException(Status.IS_DIRECTORY, "'" + path + "' is a directory");
      }
      int pages = (int) ((file.length + pageSize - 1) / pageSize);
      int[] channels = new int[pages];
      long tailPage = file.tail != null ? file.length / pageSize : -1;
      for (int i = 0; i < pages; i++) {
        channels[i] = i == tailPage ? channelOf(file, i) : ftl.channelOf(file.lbns.get(i));
      }
      return new ScanTarget(path, file.id, file.length, pageSize, channels);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Reads page {@code pageIndex} of object {@code objectId} whole into {@code dst} for an execution,
   * accounting it on {@code timeline}; a page still in a writer's buffer comes from there.
   */
  public void readPageForScan(long objectId, int pageIndex, ByteBuffer dst, FlashTimeline timeline)
      throws StoreException, IOException {
    lock.readLock().lock();
    try {
      Inode file = byId.get(objectId);
      if (file == null || file.directory) {
        throw new StoreException(Status.NOT_FOUND, "object " + objectId + " was deleted during the execution");
      }
      long tailPage = file.tail != null ? file.length / pageSize : -1;
      if (pageIndex == tailPage) {
        dst.put(file.tail.duplicate().flip());
      } else if (pageIndex < file.lbns.size()) {
        readPage(file, pageIndex, dst, timeline);
      } else {
        throw new StoreException(Status.PAST_END, "page " + pageIndex + " is past the end of '" + file.path() + "'");
      }
    } finally {
      lock.readLock().unlock();
    }
  }

  // ---- status ----

  public ObjectStatus status(String path) throws StoreException {
    List<String> names = PathNames.split(path);
    lock.readLock().lock();
    try {
      return statusOf(resolve(path, names), path);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The status of a file to read; a directory is refused. */
  public ObjectStatus openForRead(String path) throws StoreException {
    ObjectStatus status = status(path);
    if (status.directory()) {
      throw new StoreException(Status.IS_DIRECTORY, "'" + path + "' is a directory");
    }
    return status;
  }

  public Listing list(String path, String startAfter, int limit) throws StoreException {
    if (limit <= 0) {
      throw new StoreException(Status.BAD_REQUEST, "listing limit must be positive, was " + limit);
    }
    List<String> names = PathNames.split(path);
    lock.readLock().lock();
    try {
      Inode node = resolve(path, names);
      if (!node.directory) {
        return new Listing(List.of(statusOf(node, path)), false);
      }
      List<ObjectStatus> entries = new ArrayList<>(Math.min(limit, node.children.size()));
      Iterator<Inode> it = (startAfter.isEmpty() ? node.children : node.children.tailMap(startAfter, false))
          .values().iterator();
      while (it.hasNext() && entries.size() < limit) {
        Inode child = it.next();
        entries.add(statusOf(child, PathNames.join(path, child.name)));
      }
      return new Listing(entries, it.hasNext());
    } finally {
      lock.readLock().unlock();
    }
  }

  public long capacityBytes() {
    return (long) ftl.logicalPages() * pageSize;
  }

  public long freeBytes() {
    lock.readLock().lock();
    try {
      return (long) ftl.freeLogicalPages() * pageSize;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Bytes of the flash pages that hold live data (mapped pages, whole). */
  public long liveFlashBytes() {
    lock.readLock().lock();
    try {
      return ftl.livePages() * pageSize;
    } finally {
      lock.readLock().unlock();
    }
  }

  public long gcPagesMoved() {
    lock.readLock().lock();
    try {
      return ftl.gcPagesMoved();
    } finally {
      lock.readLock().unlock();
    }
  }

  private static ObjectStatus statusOf(Inode node, String path) {
    return new ObjectStatus(path, node.directory, node.directory ? 0 : node.length,
        node.modificationTimeMillis, node.id);
  }

  // ---- internals ----

  private WriteHandle writer(long handle, Object owner) throws StoreException {
    WriteHandle h = handles.get(handle);
    if (h == null) {
      throw new StoreException(Status.BAD_HANDLE, "write handle " + handle + " is closed or unknown");
    }
    if (h.owner != owner) {
      throw new StoreException(Status.BAD_HANDLE, "write handle " + handle + " belongs to another connection");
    }
    return h;
  }

  private void release(WriteHandle h) {
    handles.remove(h.id);
    h.inode.writer = null;
    h.inode.tail = null;
    h.inode.tailDirty = false;
  }

  /** Programs the page being filled as page {@code index} of the file (a new logical page, or a rewrite). */
  private void programTail(Inode file, int index, Command cmd) throws IOException {
    int lbn;
    if (index < file.lbns.size()) {
      lbn = file.lbns.get(index);
    } else {
      lbn = ftl.allocateLbn();
      file.lbns.add(lbn);
    }
    ByteBuffer content = file.tail.duplicate().flip();
    ftl.write(lbn, channelOf(file, index), content, cmd);
    file.tailDirty = false;
  }

  private int channelOf(Inode file, int pageIndex) {
    long stripe = pageIndex / geometry.stripeUnitPages();
    return (int) Math.floorMod(file.id + stripe, (long) geometry.channels());
  }

  /** Makes everything written to the file durable and journals its new length and pages. */
  private void commitFile(Inode file, Command cmd) throws IOException {
    if (file.tailDirty && file.length % pageSize != 0) {
      programTail(file, (int) (file.length / pageSize), cmd);
    }
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
    if (cmd != null) {
      cmd.awaitPrograms();
    }
  }

  /** Makes the journal durable (data first), then compacts it into a checkpoint when it grew large. */
  private void commitMetadata() throws IOException {
    ftl.syncDurably();
    if (log.journalBytes() > checkpointLogBytes) {
      checkpoint();
    }
  }

  private void checkpoint() throws IOException {
    ftl.syncDurably();
    log.checkpoint(this::writeSnapshot);
  }

  private void attach(Inode node) {
    node.parent.children.put(node.name, node);
    byId.put(node.id, node);
  }

  private void move(Inode node, Inode newParent, String newName) {
    node.parent.children.remove(node.name);
    node.parent = newParent;
    node.name = newName;
    newParent.children.put(newName, node);
  }

  /** Detaches a subtree and frees its files' pages; open writers of it lose their handles. */
  private void removeSubtree(Inode top) {
    top.parent.children.remove(top.name);
    Deque<Inode> todo = new ArrayDeque<>();
    todo.push(top);
    while (!todo.isEmpty()) {
      Inode node = todo.pop();
      byId.remove(node.id);
      if (node.directory) {
        node.children.values().forEach(todo::push);
      } else {
        if (node.writer != null) {
          release(node.writer);
        }
        for (int i = 0; i < node.lbns.size(); i++) {
          ftl.releaseLbn(node.lbns.get(i));
        }
      }
    }
  }

  private Inode resolve(String path, List<String> names) throws StoreException {
    Inode node = root;
    for (int i = 0; i < names.size(); i++) {
      if (!node.directory) {
        throw new StoreException(Status.PARENT_NOT_DIRECTORY, "'" + node.path() + "' in '" + path + "' is a file");
      }
      Inode child = node.children.get(names.get(i));
      if (child == null) {
        throw new StoreException(Status.NOT_FOUND, "'" + path + "' does not exist");
      }
      node = child;
    }
    return node;
  }

  private Inode resolveParent(String path, List<String> names) throws StoreException {
    Inode node = root;
    for (int i = 0; i < names.size() - 1; i++) {
      Inode child = node.children.get(names.get(i));
      if (child == null) {
        throw new StoreException(Status.NOT_FOUND, "parent of '" + path + "' does not exist");
      }
      if (!child.directory) {
        throw new StoreException(Status.PARENT_NOT_DIRECTORY, "'" + child.path() + "' in '" + path + "' is a file");
      }
      node = child;
    }
    return node;
  }

  private static String parentPath(List<String> names) {
    return "/" + String.join("/", names.subList(0, names.size() - 1));
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

  // ---- persistence ----

  /** Writes the durable state: every object with its committed length and pages, then the mapping. */
  private void writeSnapshot(DataOutputStream out) throws IOException {
    out.writeInt(SNAPSHOT_VERSION);
    out.writeInt(pageSize);
    out.writeLong(nextId);
    out.writeInt(byId.size() - 1);
    Deque<Inode> todo = new ArrayDeque<>(root.children.values());
    while (!todo.isEmpty()) {
      Inode node = todo.poll();
      out.writeLong(node.id);
      out.writeLong(node.parent.id);
      out.writeUTF(node.name);
      out.writeBoolean(node.directory);
      out.writeLong(node.modificationTimeMillis);
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
    nextId = in.readLong();
    int count = in.readInt();
    for (int i = 0; i < count; i++) {
      long id = in.readLong();
      Inode parent = directory(in.readLong());
      String name = in.readUTF();
      boolean dir = in.readBoolean();
      Inode node = new Inode(id, dir, parent, name, in.readLong());
      if (!dir) {
        node.length = node.durableLength = in.readLong();
        int pages = in.readInt();
        for (int p = 0; p < pages; p++) {
          node.lbns.add(in.readInt());
        }
        node.committedPages = pages;
      }
      attach(node);
    }
    ftl.readSnapshot(in);
  }

  void replay(int type, DataInputStream in) throws IOException {
    if (type < RECORD_MKDIR) {
      ftl.replay(type, in);
      return;
    }
    switch (type) {
      case RECORD_MKDIR -> {
        long id = in.readLong();
        Inode parent = directory(in.readLong());
        attach(new Inode(id, true, parent, in.readUTF(), in.readLong()));
        nextId = Math.max(nextId, id + 1);
      }
      case RECORD_CREATE -> {
        long id = in.readLong();
        Inode parent = directory(in.readLong());
        Inode file = new Inode(id, false, parent, in.readUTF(), in.readLong());
        long replaced = in.readLong();
        if (replaced != 0) {
          removeSubtree(node(replaced));
        }
        attach(file);
        nextId = Math.max(nextId, id + 1);
      }
      case RECORD_RENAME -> {
        Inode node = node(in.readLong());
        Inode parent = directory(in.readLong());
        move(node, parent, in.readUTF());
        in.readLong();
      }
      case RECORD_DELETE -> removeSubtree(node(in.readLong()));
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
      case RECORD_MKDIR: {
        long id = in.readLong();
        long parent = in.readLong();
        return "mkdir '" + in.readUTF() + "' (object " + id + ", in directory object " + parent + ")";
      }
      case RECORD_CREATE: {
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
        return "delete object " + in.readLong();
      case RECORD_COMMIT: {
        long id = in.readLong();
        return "commit object " + id + " at " + in.readLong() + " bytes";
      }
      default:
        return "record of unknown type " + type;
    }
  }

  private Inode node(long id) throws IOException {
    Inode node = byId.get(id);
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

  /** Logical pages owned by files after recovery; checks each file has exactly its pages. */
  BitSet ownedLbns() throws IOException {
    BitSet owned = new BitSet(ftl.logicalPages());
    for (Inode node : byId.values()) {
      if (node.directory) {
        continue;
      }
      long expected = (node.length + pageSize - 1) / pageSize;
      if (node.lbns.size() != expected) {
        throw new IOException("metadata corrupt: '" + node.path() + "' has " + node.length + " bytes but "
            + node.lbns.size() + " pages");
      }
      for (int i = 0; i < node.lbns.size(); i++) {
        int lbn = node.lbns.get(i);
        if (owned.get(lbn)) {
          throw new IOException("metadata corrupt: logical page " + lbn + " belongs to two files");
        }
        owned.set(lbn);
      }
    }
    return owned;
  }

  @Override
  public void close() throws IOException {
    lock.writeLock().lock();
    try {
      for (WriteHandle h : new ArrayList<>(handles.values())) {
        Command cmd = ftl.beginInternalCommand();
        commitFile(h.inode, cmd);
        cmd.complete();
        release(h);
      }
      if (log != null) {
        ftl.syncAndDiscard();
        log.close();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }
}
