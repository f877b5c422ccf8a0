package org.smartssd.device.runtime.isp;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.RecordBoundaries;

/**
 * Fixed-length records: the records wholly inside a segment go out as one view of it; a record
 * that straddles segments is copied together, piece by piece, and goes out with its last piece.
 */
final class FixedLengthCutter implements RecordCutter {

  /** A straddling record being put together. */
  private static final class Partial {
    final byte[] bytes;
    int filled;

    Partial(int length) {
      bytes = new byte[length];
    }
  }

  private final String path;
  private final int length;
  private final long completeEnd;
  private final long readEnd;
  private final Object lock;
  private final LongMap<Partial> partials = new LongMap<>(); // by record start; guarded by lock
  private final AtomicLong records = new AtomicLong();

  /**
   * @param completeEnd end of the last whole record of the read range; bytes from there to
   *     {@code readEnd} are a partial record at the end of the object
   */
  FixedLengthCutter(String path, int length, long completeEnd, long readEnd, Object lock) {
    this.path = path;
    this.length = length;
    this.completeEnd = completeEnd;
    this.readEnd = readEnd;
    this.lock = lock;
  }

  @Override
  public List<DataChunk> accept(long offset, ByteBuffer bytes) {
    long to = Math.min(offset + bytes.remaining(), completeEnd);
    if (offset >= to) {
      return List.of();
    }
    long firstWhole = floor(offset + length - 1);
    long wholeEnd = floor(to);
    List<DataChunk> out = new ArrayList<>(3);
    long delivered = 0;
    synchronized (lock) {
      if (firstWhole > wholeEnd) {
        // The segment lies inside one record: a middle piece.
        delivered += addPiece(floor(offset), bytes, offset, offset, to, out);
      } else {
        if (offset < firstWhole) {
          delivered += addPiece(firstWhole - length, bytes, offset, offset, firstWhole, out);
        }
        if (firstWhole < wholeEnd) {
          out.add(new DataChunk(path, firstWhole, RecordCutter.view(bytes, offset, firstWhole, wholeEnd),
              RecordBoundaries.fixed(length, (int) ((wholeEnd - firstWhole) / length))));
          delivered += (wholeEnd - firstWhole) / length;
        }
        if (wholeEnd < to) {
          delivered += addPiece(wholeEnd, bytes, offset, wholeEnd, to, out);
        }
      }
    }
    records.addAndGet(delivered);
    return out;
  }

  @Override
  public List<DataChunk> finish() throws RecordException {
    synchronized (lock) {
      if (!partials.isEmpty()) {
        throw new IllegalStateException(path + ": records left incomplete at " + java.util.Arrays.toString(partials.keys()));
      }
    }
    if (completeEnd < readEnd) {
      throw new RecordException(String.format("%s: partial record of %d bytes at offset %d (records are %d bytes)",
          path, readEnd - completeEnd, completeEnd, length));
    }
    return List.of();
  }

  @Override
  public long recordsDelivered() {
    return records.get();
  }

  @Override
  public long bufferedBytes() {
    synchronized (lock) {
      return (long) partials.size() * length;
    }
  }

  /** Copies [from, to) into the record starting at {@code start}; returns 1 if that completed it. */
  private int addPiece(long start, ByteBuffer bytes, long offset, long from, long to, List<DataChunk> out) {
    Partial partial = partials.get(start);
    if (partial == null) {
      partial = new Partial(length);
      partials.put(start, partial);
    }
    RecordCutter.copy(bytes, offset, from, to, partial.bytes, (int) (from - start));
    partial.filled += (int) (to - from);
    if (partial.filled < length) {
      return 0;
    }
    partials.remove(start);
    out.add(new DataChunk(path, start, ByteBuffer.wrap(partial.bytes).asReadOnlyBuffer(),
        RecordBoundaries.fixed(length, 1)));
    return 1;
  }

  private long floor(long at) {
    return at / length * length;
  }
}
