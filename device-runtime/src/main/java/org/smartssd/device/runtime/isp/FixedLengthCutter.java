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
    final long start;
    final byte[] bytes;
    int filled;

    Partial(long start, int length) {
      this.start = start;
      bytes = new byte[length];
    }
  }

  /** The most pages a range may have for its straddling records to be kept by page (4 bytes a page). */
  static final long MAX_PAGES_BY_PAGE = 1 << 24;

  private final String path;
  private final int length;
  private final long completeEnd;
  private final long readEnd;
  private final Object lock;
  /**
   * The straddling records by the page their first byte is on, when segments are pages (the engine's
   * reads): at most one record a page straddles its end, both lanes that hold its pieces find it at the
   * same index, and lanes read in offset order, so this is a cache-friendly sweep where a hashed table
   * of the tens of thousands of records waiting while one lane runs ahead missed the cache at every
   * access. Null when segments are not pages; records it cannot hold go to {@link #partials}. Guarded
   * by lock.
   */
  private final Partial[] byPage;
  private final long pageOrigin;
  private final int pageSize;
  private final LongMap<Partial> partials = new LongMap<>(); // by record start; guarded by lock
  private int byPageCount; // guarded by lock
  private final AtomicLong records = new AtomicLong();

  /**
   * @param completeEnd end of the last whole record of the read range; bytes from there to
   *     {@code readEnd} are a partial record at the end of the object
   */
  FixedLengthCutter(String path, int length, long completeEnd, long readEnd, Object lock) {
    this(path, length, completeEnd, readEnd, lock, 0, 0);
  }

  /**
   * @param readStart where the read range starts
   * @param pageSize the size of the pages the segments are cut from (each segment inside one page), or 0
   *     when unknown
   */
  FixedLengthCutter(String path, int length, long completeEnd, long readEnd, Object lock, long readStart,
      int pageSize) {
    this.path = path;
    this.length = length;
    this.completeEnd = completeEnd;
    this.readEnd = readEnd;
    this.lock = lock;
    long pages = pageSize <= 0 || readEnd <= readStart ? 0 : (readEnd - 1) / pageSize - readStart / pageSize + 1;
    this.pageSize = pageSize;
    this.pageOrigin = pageSize <= 0 ? 0 : readStart / pageSize;
    this.byPage = pages > 0 && pages <= MAX_PAGES_BY_PAGE ? new Partial[(int) pages] : null;
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
      if (!partials.isEmpty() || byPageCount > 0) {
        throw new IllegalStateException(path + ": records left incomplete at " + java.util.Arrays.toString(incomplete()));
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
      return (long) (partials.size() + byPageCount) * length;
    }
  }

  /** Copies [from, to) into the record starting at {@code start}; returns 1 if that completed it. */
  private int addPiece(long start, ByteBuffer bytes, long offset, long from, long to, List<DataChunk> out) {
    int page = pageIndex(start);
    Partial partial = page >= 0 && byPage[page] != null && byPage[page].start == start ? byPage[page]
        : partials.get(start);
    if (partial == null) {
      partial = new Partial(start, length);
      if (page >= 0 && byPage[page] == null) {
        byPage[page] = partial;
        byPageCount++;
      } else {
        partials.put(start, partial);
      }
    }
    RecordCutter.copy(bytes, offset, from, to, partial.bytes, (int) (from - start));
    partial.filled += (int) (to - from);
    if (partial.filled < length) {
      return 0;
    }
    if (page >= 0 && byPage[page] == partial) {
      byPage[page] = null;
      byPageCount--;
    } else {
      partials.remove(start);
    }
    out.add(new DataChunk(path, start, ByteBuffer.wrap(partial.bytes).asReadOnlyBuffer(),
        RecordBoundaries.fixed(length, 1)));
    return 1;
  }

  /** The index in {@link #byPage} of the page of byte {@code start}, or -1 if none. */
  private int pageIndex(long start) {
    if (byPage == null) {
      return -1;
    }
    long page = start / pageSize - pageOrigin;
    return page >= 0 && page < byPage.length ? (int) page : -1;
  }

  /** The starts of the records left incomplete (for the message). */
  private long[] incomplete() {
    long[] keys = partials.keys();
    long[] all = java.util.Arrays.copyOf(keys, keys.length + byPageCount);
    int n = keys.length;
    for (Partial p : byPage == null ? new Partial[0] : byPage) {
      if (p != null) {
        all[n++] = p.start;
      }
    }
    java.util.Arrays.sort(all);
    return all;
  }

  private long floor(long at) {
    return at / length * length;
  }
}
