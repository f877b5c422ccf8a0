package org.smartssd.device.tasklet;

import java.nio.ByteBuffer;

/**
 * Bytes from one internal read. {@code data} is read-only and valid only during the
 * {@link Tasklet#onDataAvailable} call that receives it, as are its {@code boundaries}.
 *
 * @param path the object's path at execution start
 * @param offset where {@code data} starts in the object
 * @param data the bytes: raw, or whole records
 * @param boundaries where the records end, when the chunk holds whole records (the engine found them
 *     cutting the records, so a tasklet need not look for them again); null for raw bytes
 */
public record DataChunk(String path, long offset, ByteBuffer data, RecordBoundaries boundaries) {

  /** A chunk whose record ends are not given. */
  public DataChunk(String path, long offset, ByteBuffer data) {
    this(path, offset, data, null);
  }
}
