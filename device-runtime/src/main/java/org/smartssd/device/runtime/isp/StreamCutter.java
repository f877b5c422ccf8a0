package org.smartssd.device.runtime.isp;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.smartssd.device.tasklet.DataChunk;

/**
 * The range's bytes in offset order ({@code RecordFormat.Kind.STREAM}): each segment goes out as one
 * chunk of its own bytes (a copy, since it may outlive the read that brought it), once every byte
 * before it went out. A segment that arrives ahead of the frontier is kept, copied, until the gap
 * before it is filled. There are no records: the reader of the stream takes it apart.
 */
final class StreamCutter implements RecordCutter {
  private final String path;
  private final Object lock;
  /** Segments ahead of the frontier, by offset; guarded by lock. */
  private final TreeMap<Long, byte[]> ahead = new TreeMap<>();
  /** Every byte before it has gone out; guarded by lock. */
  private long frontier;
  private long held; // guarded by lock

  StreamCutter(String path, long readStart, Object lock) {
    this.path = path;
    this.frontier = readStart;
    this.lock = lock;
  }

  @Override
  public List<DataChunk> accept(long offset, ByteBuffer bytes) {
    byte[] copy = new byte[bytes.remaining()];
    bytes.duplicate().get(copy);
    synchronized (lock) {
      if (offset != frontier) {
        ahead.put(offset, copy);
        held += copy.length;
        return List.of();
      }
      List<DataChunk> out = new ArrayList<>(1);
      out.add(chunk(offset, copy));
      frontier = offset + copy.length;
      for (byte[] next = ahead.remove(frontier); next != null; next = ahead.remove(frontier)) {
        held -= next.length;
        out.add(chunk(frontier, next));
        frontier += next.length;
      }
      return out;
    }
  }

  private DataChunk chunk(long offset, byte[] bytes) {
    return new DataChunk(path, offset, ByteBuffer.wrap(bytes).asReadOnlyBuffer());
  }

  @Override
  public List<DataChunk> finish() {
    synchronized (lock) {
      if (!ahead.isEmpty()) { // the assembler checked that every byte was accepted
        throw new IllegalStateException(path + ": stream segments from " + ahead.firstKey() + " were never reached");
      }
    }
    return List.of();
  }

  @Override
  public long recordsDelivered() {
    return 0;
  }

  @Override
  public long bufferedBytes() {
    synchronized (lock) {
      return held;
    }
  }
}
