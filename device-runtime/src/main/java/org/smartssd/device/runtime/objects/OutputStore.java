package org.smartssd.device.runtime.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.smartssd.device.runtime.timing.FlashTimeline;

/**
 * What the in-storage processing engine may do to write an execution's output object: make it under
 * a hidden temporary name beside where it goes, append to it, and either move it into place, durable,
 * or take it away. So the object's name shows a complete object or nothing. {@link ObjectStore}
 * implements it; every method may be called from any thread.
 */
public interface OutputStore {

  /**
   * Makes the temporary file of an output object that is to become {@code path}, for {@code caller}, as
   * CREATE makes a file (parents made as needed, with the same checks), with {@code permission}.
   *
   * @return the write handle, owned by {@code owner}
   * @throws StoreException {@code ALREADY_EXISTS} when {@code path} exists, or as CREATE fails
   */
  long createOutput(String path, String temporaryPath, int permission, Caller caller, Object owner)
      throws StoreException, IOException;

  /** Appends {@code data}, programming the pages that fill on {@code timeline}. */
  void writeOutput(long handle, ByteBuffer data, Object owner, FlashTimeline timeline)
      throws StoreException, IOException;

  /**
   * Makes the output durable (its last partial page programmed on {@code timeline}, its length and
   * pages journalled and forced), closes it, and moves it to {@code path}, where nothing may be by then.
   *
   * @return the output's length
   * @throws StoreException {@code ALREADY_EXISTS} when something took {@code path} meanwhile (the
   *     temporary file stays, closed; {@link #abortOutput} takes it away), or as RENAME fails
   */
  long commitOutput(long handle, String temporaryPath, String path, Caller caller, Object owner,
      FlashTimeline timeline) throws StoreException, IOException;

  /** Closes the output if it is open and deletes its temporary file, as the device itself. */
  void abortOutput(long handle, String temporaryPath, Object owner) throws StoreException, IOException;
}
