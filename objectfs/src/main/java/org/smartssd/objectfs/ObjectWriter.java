package org.smartssd.objectfs;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * An open write handle of one file. Appends only; one writer per file. The handle belongs to the
 * connection that opened it, so an implementation keeps using that one connection.
 */
public interface ObjectWriter {

  long objectId();

  /** The file's length when the handle was opened (0 after a create). */
  long initialLength();

  /** Appends the buffer's remaining bytes (its position is not changed). @return the new length */
  long write(ByteBuffer data) throws IOException;

  /** Makes everything written visible to readers. @return the visible length */
  long flush() throws IOException;

  /** Makes everything written durable. @return the durable length */
  long sync() throws IOException;

  /** Closes the handle; what was written is kept and durable. @return the final length */
  long close() throws IOException;
}
