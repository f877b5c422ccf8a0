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
   * Resolves the file at {@code path} for an execution.
   *
   * @throws StoreException {@code NOT_FOUND}, {@code IS_DIRECTORY}, or a bad path
   */
  ScanTarget openScan(String path) throws StoreException;

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
