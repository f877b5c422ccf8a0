package org.smartssd.device.runtime.isp;

import java.nio.ByteBuffer;
import java.util.List;
import org.smartssd.device.tasklet.DataChunk;

/**
 * Cuts the segments of one read range into chunks of whole records, for one record format. The
 * assembler has already checked each segment against the read range and the segments before it.
 */
interface RecordCutter {

  /** A non-empty segment; thread-safe. */
  List<DataChunk> accept(long offset, ByteBuffer bytes) throws RecordException;

  /** Every segment was accepted. */
  List<DataChunk> finish() throws RecordException;

  long recordsDelivered();

  /** Bytes of partial records held right now (copies of boundary pieces). */
  long bufferedBytes();

  /** A read-only view of [from, to) of a segment that starts at {@code offset}: no copy. */
  static ByteBuffer view(ByteBuffer segment, long offset, long from, long to) {
    return segment.slice(segment.position() + (int) (from - offset), (int) (to - from)).asReadOnlyBuffer();
  }

  /** Copies [from, to) of a segment that starts at {@code offset} into {@code target} at {@code at}. */
  static void copy(ByteBuffer segment, long offset, long from, long to, byte[] target, int at) {
    segment.get(segment.position() + (int) (from - offset), target, at, (int) (to - from));
  }
}
