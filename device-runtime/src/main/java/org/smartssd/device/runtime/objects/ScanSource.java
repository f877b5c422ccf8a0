package org.smartssd.device.runtime.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.smartssd.device.runtime.timing.FlashTimeline;

/**
 * What the in-storage processing engine may do with the stored files: find a file to scan, then read
 * its pages one by one. Nothing else of the store (writing, the namespace) is the engine's business.
 * {@link ObjectStore} implements it; both methods may be called from any thread.
 */
public interface ScanSource {
  /**
   * Resolves the file at {@code path} for an execution started by {@code caller}, who must be able
   * to read it, as to open it; sets its access time as an open does.
   *
   * @throws StoreException {@code NOT_FOUND}, {@code IS_DIRECTORY}, {@code PERMISSION_DENIED}, or a bad path
   * @throws IOException when the access time cannot be journalled
   */
  ScanTarget openScan(String path, Caller caller) throws StoreException, IOException;

  /**
   * Reads page {@code pageIndex} of object {@code objectId} whole into {@code dst}, accounting it on
   * {@code timeline}; a page still in a writer's buffer comes from there.
   *
   * @throws StoreException {@code CORRUPT} when the page fails its check (the message starts
   *     {@code 'PATH' is corrupt at offset N:}), {@code NOT_FOUND} when the object was deleted,
   *     {@code PAST_END} when the file has no such page
   */
  void readPageForScan(long objectId, int pageIndex, ByteBuffer dst, FlashTimeline timeline)
      throws StoreException, IOException;
}
