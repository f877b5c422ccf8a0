package org.smartssd.device.runtime.objects;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.ftl.DamagedMetadataException;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.FlashTimeline;

/**
 * Files and directories with HDFS-like semantics over the flash translation layer: one writer a
 * file, append-only writes, atomic rename, recursive delete. The facade of four parts, which it
 * holds under one lock: the {@link Namespace} (the tree and each object's metadata),
 * {@link OpenFiles} (write handles, their leases, the pages being filled), {@link FileReads}
 * (reads, scans and the page check of {@code fsck}) and the {@link NamespaceJournal} (recording,
 * checkpoints, recovery).
 *
 * <p>Namespace changes are journalled and forced before they are acknowledged; file data becomes
 * durable at {@link #sync} and {@link #close}. After a crash, {@link #open} brings back every
 * acknowledged change and nothing that was not committed.
 *
 * <p>One read-write lock guards every part and the flash translation layer beneath: data reads,
 * scans, lookups and the space figures share it; everything that changes something holds it alone.
 * The parts take no lock of their own.
 */
public final class ObjectStore implements ScanSource, OutputStore, IdleCollector, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectStore.class);

  /** A file opened for writing. */
  public record Opened(long handle, long objectId, long length) {}

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final FlashTranslationLayer ftl;
  private final int pageSize;
  private final Namespace namespace;
  private final FileReads reads;
  private final OpenFiles openFiles;
  private final NamespaceJournal journal;

  private ObjectStore(Path dataDir, DeviceGeometry geometry, FlashTranslationLayer ftl, long checkpointLogBytes,
      LongSupplier wallClockMillis, AccessPolicy policy) throws IOException {
    this.ftl = ftl;
    this.pageSize = geometry.pageSizeBytes();
    this.namespace = new Namespace(pageSize, ftl, wallClockMillis, this::fileRemoved, policy);
    this.reads = new FileReads(namespace, ftl, geometry);
    this.openFiles = new OpenFiles(geometry, ftl, reads, wallClockMillis);
    this.journal = NamespaceJournal.open(dataDir, namespace, ftl, checkpointLogBytes);
  }

  /** A file left the namespace: its writer's handle goes with it. No file leaves before openFiles is set. */
  private void fileRemoved(Inode file) {
    openFiles.forget(file);
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
      long checkpointLogBytes, LongSupplier wallClockMillis, AccessPolicy policy) throws IOException {
    ObjectStore store = new ObjectStore(dataDir, geometry, ftl, checkpointLogBytes, wallClockMillis, policy);
    LOG.info("object store in {}: {} objects, {} of {} bytes free", dataDir, store.namespace.size(),
        store.freeBytes(), store.capacityBytes());
    return store;
  }

  /** Who may do what, and how access times are kept. */
  public AccessPolicy policy() {
    return namespace.policy();
  }

  // ---- as the device's own user (a superuser): what the device does for itself, and its tests ----

  private Caller device() {
    return namespace.policy().device();
  }

  /** {@link #mkdirs(String, int, Caller)} with 0755, as the device's user. */
  public void mkdirs(String path) throws StoreException, IOException {
    mkdirs(path, ProtocolConstants.DEFAULT_DIRECTORY_PERMISSION, device());
  }

  /** {@link #create(String, boolean, boolean, int, Caller, Object)} with 0644, as the device's user. */
  public Opened create(String path, boolean overwrite, boolean createParents, Object owner)
      throws StoreException, IOException {
    return create(path, overwrite, createParents, ProtocolConstants.DEFAULT_FILE_PERMISSION, device(), owner);
  }

  public Opened append(String path, Object owner, Command cmd) throws StoreException, IOException {
    return append(path, device(), owner, cmd);
  }

  public void rename(String source, String destination) throws StoreException, IOException {
    rename(source, destination, device());
  }

  public void delete(String path, boolean recursive) throws StoreException, IOException {
    delete(path, recursive, device());
  }

  public ObjectStatus status(String path) throws StoreException {
    return status(path, device());
  }

  public ObjectStatus openForRead(String path) throws StoreException, IOException {
    return openForRead(path, device());
  }

  public Listing list(String path, String startAfter, int limit) throws StoreException {
    return list(path, startAfter, limit, device());
  }

  public ByteBuffer read(long objectId, long offset, int length, Command cmd) throws StoreException, IOException {
    return read(objectId, offset, length, device(), cmd);
  }

  // ---- namespace ----

  /**
   * Makes {@code path} and its missing parents, for {@code caller}: the directory with
   * {@code permission}, the parents made with the owner's write and execute added.
   */
  public void mkdirs(String path, int permission, Caller caller) throws StoreException, IOException {
    change(path, names -> namespace.mkdirs(path, names, permission, caller, journal));
  }

  /** A change of the namespace at {@code path}: whether anything changed (then it is made durable). */
  @FunctionalInterface
  private interface Change {
    boolean apply(List<String> names) throws StoreException;
  }

  /** Makes {@code change} under the write lock and, when it changed anything, makes it durable. */
  private void change(String path, Change change) throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    lock.writeLock().lock();
    try {
      if (change.apply(names)) {
        journal.commitMetadata();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  public Opened create(String path, boolean overwrite, boolean createParents, int permission, Caller caller,
      Object owner) throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    if (names.isEmpty()) {
      throw new StoreException(Status.ALREADY_EXISTS, "'/' is the root directory");
    }
    if (createParents && names.size() > 1) {
      mkdirs("/" + String.join("/", names.subList(0, names.size() - 1)), permission | Modes.IMPLICIT_PARENT_BITS,
          caller);
    }
    lock.writeLock().lock();
    try {
      Inode file = namespace.create(path, names, overwrite, permission, caller, journal);
      journal.commitMetadata();
      return new Opened(openFiles.openNew(file, owner), file.id, 0);
    } finally {
      lock.writeLock().unlock();
    }
  }

  public Opened append(String path, Caller caller, Object owner, Command cmd) throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    lock.writeLock().lock();
    try {
      Inode file = namespace.resolveForAppend(path, names, caller);
      long handle = openFiles.openForAppend(file, path, owner, cmd);
      return new Opened(handle, file.id, file.length);
    } finally {
      lock.writeLock().unlock();
    }
  }

  public void rename(String source, String destination, Caller caller) throws StoreException, IOException {
    List<String> from = PathNames.split(source);
    List<String> to = PathNames.split(destination);
    lock.writeLock().lock();
    try {
      if (namespace.rename(source, from, destination, to, caller, journal)) {
        journal.commitMetadata();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  public void delete(String path, boolean recursive, Caller caller) throws StoreException, IOException {
    change(path, names -> namespace.delete(path, names, recursive, caller, journal));
  }

  /** Sets the permission of {@code path}, which {@code caller} must own. */
  public void setPermission(String path, int permission, Caller caller) throws StoreException, IOException {
    change(path, names -> {
      namespace.setPermission(path, names, permission, caller, journal);
      return true;
    });
  }

  /** Sets the owner and the group of {@code path} (empty: kept), as HDFS lets {@code caller}. */
  public void setOwner(String path, String owner, String group, Caller caller) throws StoreException, IOException {
    change(path, names -> {
      namespace.setOwner(path, names, owner, group, caller, journal);
      return true;
    });
  }

  /** Sets the modification and access times of {@code path} (-1: kept); {@code caller} must be able to write it. */
  public void setTimes(String path, long modificationTimeMillis, long accessTimeMillis, Caller caller)
      throws StoreException, IOException {
    change(path, names -> {
      namespace.setTimes(path, names, modificationTimeMillis, accessTimeMillis, caller, journal);
      return true;
    });
  }

  /**
   * Sets the access time of object {@code objectId} to now when it is older than the access time
   * precision (the object may be gone meanwhile: nothing then). Journalled and forced, at most once
   * a precision for each file.
   */
  private void touch(long objectId) throws IOException {
    lock.writeLock().lock();
    try {
      Inode node = namespace.byId(objectId);
      long now = namespace.now();
      if (node != null && namespace.accessTimeIsStale(node, now)) {
        node.accessTimeMillis = now;
        journal.attributes(node);
        journal.commitMetadata();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  // ---- writing ----

  public long write(long handle, ByteBuffer data, Object owner, FlashTimeline cmd) throws StoreException, IOException {
    lock.writeLock().lock();
    try {
      return openFiles.write(handle, data, owner, cmd);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Every acknowledged write is visible to readers at once; flush only reports the length. */
  public long flush(long handle, Object owner) throws StoreException {
    lock.writeLock().lock();
    try {
      return openFiles.handle(handle, owner).inode.length;
    } finally {
      lock.writeLock().unlock();
    }
  }

  public long sync(long handle, Object owner, Command cmd) throws StoreException, IOException {
    lock.writeLock().lock();
    try {
      Inode file = openFiles.handle(handle, owner).inode;
      commit(file, cmd);
      return file.durableLength;
    } finally {
      lock.writeLock().unlock();
    }
  }

  public long close(long handle, Object owner, FlashTimeline cmd) throws StoreException, IOException {
    lock.writeLock().lock();
    try {
      WriteHandle h = openFiles.handle(handle, owner);
      commit(h.inode, cmd);
      openFiles.release(h);
      return h.inode.durableLength;
    } finally {
      lock.writeLock().unlock();
    }
  }

  // ---- executions' output objects ----

  @Override
  public long createOutput(String path, String temporaryPath, int permission, Caller caller, Object owner)
      throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    if (names.isEmpty()) {
      throw new StoreException(Status.ALREADY_EXISTS, "output '/' is the root directory");
    }
    lock.readLock().lock();
    try {
      namespace.resolve(path, names, caller);
      throw new StoreException(Status.ALREADY_EXISTS, "output '" + path + "' already exists");
    } catch (StoreException e) {
      if (e.status() != Status.NOT_FOUND) {
        throw e;
      }
    } finally {
      lock.readLock().unlock();
    }
    return create(temporaryPath, false, true, permission, caller, owner).handle();
  }

  @Override
  public void writeOutput(long handle, ByteBuffer data, Object owner, FlashTimeline timeline)
      throws StoreException, IOException {
    write(handle, data, owner, timeline);
  }

  @Override
  public long commitOutput(long handle, String temporaryPath, String path, Caller caller, Object owner,
      FlashTimeline timeline) throws StoreException, IOException {
    long length = close(handle, owner, timeline);
    rename(temporaryPath, path, caller);
    return length;
  }

  @Override
  public void abortOutput(long handle, String temporaryPath, Object owner) throws StoreException, IOException {
    // Deleting the file takes its handle away with it, open or not.
    try {
      delete(temporaryPath, false, device());
    } catch (StoreException e) {
      if (e.status() != Status.NOT_FOUND) {
        throw e;
      }
    }
  }

  /** Whether {@code owner} has a file open for writing. */
  public boolean hasHandlesOf(Object owner) {
    lock.readLock().lock();
    try {
      return openFiles.hasHandlesOf(owner);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Closes every handle of a connection that went away, keeping what it wrote. */
  public void closeHandlesOf(Object owner) {
    lock.writeLock().lock();
    try {
      for (WriteHandle h : openFiles.handlesOf(owner)) {
        try {
          Command cmd = ftl.beginInternalCommand();
          commit(h.inode, cmd);
          cmd.complete();
        } catch (IOException e) {
          LOG.error("cannot commit '{}' after its writer went away", h.inode.path(), e);
        }
        openFiles.release(h);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Makes everything written to the file durable: its last partial page programmed, then journalled. */
  private void commit(Inode file, FlashTimeline cmd) throws IOException {
    openFiles.programPartialTail(file, cmd);
    journal.commit(file, cmd);
  }

  // ---- reading ----

  /**
   * Reads up to {@code length} bytes of object {@code objectId} from {@code offset}; {@code caller}
   * must be able to read it (by its own bits: an object id names no path to search).
   */
  public ByteBuffer read(long objectId, long offset, int length, Caller caller, Command cmd)
      throws StoreException, IOException {
    if (offset < 0 || length < 0) {
      throw new StoreException(Status.BAD_REQUEST, "negative offset " + offset + " or length " + length);
    }
    lock.readLock().lock();
    try {
      Inode node = namespace.byId(objectId);
      if (node != null && !node.directory) {
        namespace.check(caller, node, Modes.READ);
      }
      return reads.read(objectId, offset, length, cmd);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Reads every committed page of every file and checks it: what {@code fsck} reports, and what it
   * moves aside. Accounts nothing on the modelled clock.
   */
  public List<CorruptPage> verifyPages() throws IOException {
    lock.readLock().lock();
    try {
      return reads.verifyPages();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public ScanTarget openScan(String path, Caller caller) throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    ScanTarget target;
    boolean stale;
    lock.readLock().lock();
    try {
      Inode file = namespace.resolveForRead(path, names, caller);
      target = reads.openScan(path, file);
      stale = namespace.accessTimeIsStale(file, namespace.now());
    } finally {
      lock.readLock().unlock();
    }
    if (stale) {
      touch(target.objectId());
    }
    return target;
  }

  @Override
  public void readPageForScan(long objectId, int pageIndex, ByteBuffer dst, FlashTimeline timeline)
      throws StoreException, IOException {
    lock.readLock().lock();
    try {
      reads.readPageForScan(objectId, pageIndex, dst, timeline);
    } finally {
      lock.readLock().unlock();
    }
  }

  // ---- status ----

  public ObjectStatus status(String path, Caller caller) throws StoreException {
    List<String> names = PathNames.split(path);
    lock.readLock().lock();
    try {
      return namespace.status(path, names, caller);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * The status of a file to read, which {@code caller} must be able to read; a directory is refused.
   * Sets the file's access time when it is older than the precision; the status has the new one.
   */
  public ObjectStatus openForRead(String path, Caller caller) throws StoreException, IOException {
    List<String> names = PathNames.split(path);
    ObjectStatus status;
    boolean stale;
    lock.readLock().lock();
    try {
      Inode file = namespace.resolveForRead(path, names, caller);
      if (file.directory) {
        throw new StoreException(Status.IS_DIRECTORY, "'" + path + "' is a directory");
      }
      status = Namespace.statusOf(file, path);
      stale = namespace.accessTimeIsStale(file, namespace.now());
    } finally {
      lock.readLock().unlock();
    }
    if (!stale) {
      return status;
    }
    touch(status.objectId());
    lock.readLock().lock();
    try {
      Inode file = namespace.byId(status.objectId());
      return file == null ? status : Namespace.statusOf(file, path);
    } finally {
      lock.readLock().unlock();
    }
  }

  public Listing list(String path, String startAfter, int limit, Caller caller) throws StoreException {
    if (limit <= 0) {
      throw new StoreException(Status.BAD_REQUEST, "listing limit must be positive, was " + limit);
    }
    List<String> names = PathNames.split(path);
    lock.readLock().lock();
    try {
      return namespace.list(path, names, startAfter, limit, caller);
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

  @Override
  public IdleCollector.Step collectBelow(double threshold) throws IOException {
    lock.writeLock().lock();
    try {
      if (ftl.freePagesAboveFloor() >= threshold * ftl.reservedPages()) {
        return null;
      }
      Command cmd = ftl.beginInternalCommand();
      int moved = ftl.collectOne(cmd);
      long done = cmd.complete();
      return moved < 0 ? null : new IdleCollector.Step(moved, done);
    } finally {
      lock.writeLock().unlock();
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

  /** Commits every file still open for writing, makes everything durable, and closes the journal. */
  @Override
  public void close() throws IOException {
    lock.writeLock().lock();
    try {
      for (WriteHandle h : openFiles.all()) {
        Command cmd = ftl.beginInternalCommand();
        commit(h.inode, cmd);
        cmd.complete();
        openFiles.release(h);
      }
      journal.close();
    } finally {
      lock.writeLock().unlock();
    }
  }
}
