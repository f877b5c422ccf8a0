package org.smartssd.device.runtime.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.flash.PageCorruptException;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.FlashTimeline;

/**
 * Reads of file data: bytes at any offset of a file (the host's reads), whole pages for an
 * execution's scan, and the check of every committed page that {@code fsck} makes. A page comes from
 * the flash translation layer, checked against its CRC-32C: one that fails is a
 * {@link StoreException} with status {@link Status#CORRUPT} whose message names the file and the
 * offset. The page a writer is still filling comes from the writer's buffer, so every acknowledged
 * write is visible at once.
 *
 * <p>Changes nothing in the store: called under the object store's read lock (and, for the last
 * page an append continues, under its write lock).
 */
final class FileReads {
  private final Namespace namespace;
  private final FlashTranslationLayer ftl;
  private final DeviceGeometry geometry;
  private final int pageSize;

  FileReads(Namespace namespace, FlashTranslationLayer ftl, DeviceGeometry geometry) {
    this.namespace = namespace;
    this.ftl = ftl;
    this.geometry = geometry;
    this.pageSize = geometry.pageSizeBytes();
  }

  /** Up to {@code length} bytes of object {@code objectId} from {@code offset} (both checked not negative). */
  ByteBuffer read(long objectId, long offset, int length, Command cmd) throws StoreException, IOException {
    Inode file = namespace.byId(objectId);
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
  }

  /**
   * Reads page {@code index} of {@code file} from flash; a page that fails its check is
   * {@link Status#CORRUPT}, with a message that starts {@code 'PATH' is corrupt at offset N:}.
   */
  void readPage(Inode file, int index, ByteBuffer dst, FlashTimeline cmd) throws StoreException, IOException {
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

  // ---- scans of executions ----

  /** See {@link ScanSource#openScan}. */
  ScanTarget openScan(String path, Inode file) throws StoreException {
    if (file.directory) {
      throw new StoreException(Status.IS_DIRECTORY, "'" + path + "' is a directory");
    }
    int pages = (int) ((file.length + pageSize - 1) / pageSize);
    int[] channels = new int[pages];
    long tailPage = file.tail != null ? file.length / pageSize : -1;
    for (int i = 0; i < pages; i++) {
      channels[i] = i == tailPage ? OpenFiles.channelOf(geometry, file, i) : ftl.channelOf(file.lbns.get(i));
    }
    return new ScanTarget(path, file.id, file.length, pageSize, channels);
  }

  /** See {@link ScanSource#readPageForScan}. */
  void readPageForScan(long objectId, int pageIndex, ByteBuffer dst, FlashTimeline timeline)
      throws StoreException, IOException {
    Inode file = namespace.byId(objectId);
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
  }

  // ---- fsck ----

  /**
   * Reads every committed page of every file and checks it: what {@code fsck} reports, and what it
   * moves aside. Accounts nothing on the modelled clock.
   */
  List<CorruptPage> verifyPages() throws IOException {
    List<CorruptPage> corrupt = new ArrayList<>();
    ByteBuffer page = ByteBuffer.allocate(pageSize);
    for (Inode file : namespace.filesByPath()) {
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
  }
}
