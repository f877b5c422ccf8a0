package org.smartssd.device.runtime.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.FlashTimeline;

/**
 * Files open for writing and their leases: a file has at most one write handle, and the connection
 * that opened it holds the lease until it closes the handle or goes away; a handle used by another
 * connection, or after it closed, is refused. A write fills the file's last page in memory (where
 * readers see it at once) and programs each page to flash as it fills; a file's pages are striped
 * over the channels starting at a channel chosen by its id. A file that is deleted or replaced loses
 * its handle ({@link #forget}).
 *
 * <p>Durability is not this class's: a commit (sync, close) programs the partial last page here
 * ({@link #programPartialTail}) and then the namespace journal records the new length and pages.
 *
 * <p>Not thread-safe: the object store's write lock guards it, but for {@link #hasHandlesOf}, which
 * only looks, under its read lock.
 */
final class OpenFiles {
  private final DeviceGeometry geometry;
  private final int pageSize;
  private final FlashTranslationLayer ftl;
  private final FileReads reads;
  private final LongSupplier wallClockMillis;
  private final Map<Long, WriteHandle> handles = new HashMap<>();
  private long nextHandle = 1;

  OpenFiles(DeviceGeometry geometry, FlashTranslationLayer ftl, FileReads reads, LongSupplier wallClockMillis) {
    this.geometry = geometry;
    this.pageSize = geometry.pageSizeBytes();
    this.ftl = ftl;
    this.reads = reads;
    this.wallClockMillis = wallClockMillis;
  }

  /** The channel page {@code pageIndex} of {@code file} is programmed to (when it has room). */
  static int channelOf(DeviceGeometry geometry, Inode file, int pageIndex) {
    long stripe = pageIndex / geometry.stripeUnitPages();
    return (int) Math.floorMod(file.id + stripe, (long) geometry.channels());
  }

  /** Opens a file just created (empty, nobody writing it) for {@code owner}; its handle. */
  long openNew(Inode file, Object owner) {
    return open(file, owner);
  }

  /**
   * Opens {@code file} (at {@code path}) for {@code owner} to append to; its handle. Writes continue
   * the last partial page, which is read back from flash (a corrupt one refuses the append).
   */
  long openForAppend(Inode file, String path, Object owner, Command cmd) throws StoreException, IOException {
    if (file.directory) {
      throw new StoreException(Status.IS_DIRECTORY, "'" + path + "' is a directory");
    }
    if (file.writer != null) {
      throw new StoreException(Status.LEASE_CONFLICT, "'" + path + "' is open for writing");
    }
    int inTail = (int) (file.length % pageSize);
    ByteBuffer tail = ByteBuffer.allocate(pageSize);
    if (inTail > 0) {
      reads.readPage(file, (int) (file.length / pageSize), tail, cmd);
      tail.position(inTail);
    }
    file.tail = tail;
    file.tailDirty = false;
    return open(file, owner);
  }

  private long open(Inode file, Object owner) {
    if (file.tail == null) {
      file.tail = ByteBuffer.allocate(pageSize);
    }
    WriteHandle h = new WriteHandle(nextHandle++, file, owner);
    file.writer = h;
    handles.put(h.id, h);
    return h.id;
  }

  /** The open handle {@code handle} of {@code owner}; refused when closed, unknown, or another's. */
  WriteHandle handle(long handle, Object owner) throws StoreException {
    WriteHandle h = handles.get(handle);
    if (h == null) {
      throw new StoreException(Status.BAD_HANDLE, "write handle " + handle + " is closed or unknown");
    }
    if (h.owner != owner) {
      throw new StoreException(Status.BAD_HANDLE, "write handle " + handle + " belongs to another connection");
    }
    return h;
  }

  /** Appends {@code data} to the file of {@code handle}, programming each page that fills; its new length. */
  long write(long handle, ByteBuffer data, Object owner, FlashTimeline cmd) throws StoreException, IOException {
    Inode file = handle(handle, owner).inode;
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
  }

  /** Programs the partial last page, if it holds bytes flash does not have yet: the first step of a commit. */
  void programPartialTail(Inode file, FlashTimeline cmd) throws IOException {
    if (file.tailDirty && file.length % pageSize != 0) {
      programTail(file, (int) (file.length / pageSize), cmd);
    }
  }

  /** Programs the page being filled as page {@code index} of the file (a new logical page, or a rewrite). */
  private void programTail(Inode file, int index, FlashTimeline cmd) throws IOException {
    int lbn;
    if (index < file.lbns.size()) {
      lbn = file.lbns.get(index);
    } else {
      lbn = ftl.allocateLbn();
      file.lbns.add(lbn);
    }
    ByteBuffer content = file.tail.duplicate().flip();
    ftl.write(lbn, channelOf(geometry, file, index), content, cmd);
    file.tailDirty = false;
  }

  /** Closes handle {@code h}: the file has no writer and no buffer any more. */
  void release(WriteHandle h) {
    handles.remove(h.id);
    h.inode.writer = null;
    h.inode.tail = null;
    h.inode.tailDirty = false;
  }

  /** {@code file} left the namespace: its writer, if any, loses its handle. */
  void forget(Inode file) {
    if (file.writer != null) {
      release(file.writer);
    }
  }

  /** Whether {@code owner} has a file open for writing. */
  boolean hasHandlesOf(Object owner) {
    for (WriteHandle h : handles.values()) {
      if (h.owner == owner) {
        return true;
      }
    }
    return false;
  }

  /** The open handles of {@code owner}, copied (the caller may release them as it goes). */
  List<WriteHandle> handlesOf(Object owner) {
    List<WriteHandle> of = new ArrayList<>();
    for (WriteHandle h : handles.values()) {
      if (h.owner == owner) {
        of.add(h);
      }
    }
    return of;
  }

  /** Every open handle, copied. */
  List<WriteHandle> all() {
    return new ArrayList<>(handles.values());
  }
}
