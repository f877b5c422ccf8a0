package org.smartssd.device.runtime.isp;

import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_MAX_RECORD_BYTES;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.RecordBoundaries;

/**
 * Delimited records, cut as Hadoop's {@code TextInputFormat} cuts lines. A segment is scanned
 * without the lock; its owned records that start after its first delimiter (or at its start, when
 * it starts the object) and end at a later delimiter (or at the object's end) go out as one view of
 * it. What lies before its first delimiter, and after the last record start it found, is a fragment
 * of a record that other segments continue; fragments are joined under the lock as their
 * neighbours arrive, in any order, and a record goes out as soon as both of its ends are known.
 * Fragments of records this range does not own keep no bytes; nor do those already longer than
 * maxRecordBytes, which cannot be part of a valid owned record.
 */
final class DelimitedCutter implements RecordCutter {

  /** What is known about the bytes just before a fragment. */
  private enum Left {
    /** The segment before has not arrived yet. */
    OPEN,
    /** A record starts here: the object's start, or just after a delimiter. */
    START,
    /** The record started before the read range: another range owns it. */
    FOREIGN
  }

  /** What is known about the bytes just after a fragment. */
  private enum Right {
    /** The segment after has not arrived yet. */
    OPEN,
    /** The record ends here: with its delimiter, or at the object's end. */
    END,
    /**
     * The read range ends here, before the record's delimiter. An owned record cannot get here
     * without being longer than maxRecordBytes (the read range ends that far past the range).
     */
    CUT
  }

  /** Bytes [start, end) of one record, as far as they are known. */
  private static final class Fragment {
    final long start;
    final long end;
    final Left left;
    final Right right;
    /** Copies of the bytes, in order; null when they are not needed or too many to be a record. */
    List<byte[]> pieces;

    Fragment(long start, long end, Left left, Right right, List<byte[]> pieces) {
      this.start = start;
      this.end = end;
      this.left = left;
      this.right = right;
      this.pieces = pieces;
    }

    long heldBytes() {
      return pieces == null ? 0 : end - start;
    }
  }

  /**
   * The owned records wholly inside one segment: [from, to), how many, and where each ends (as an
   * offset from the segment's start: the chunk's boundaries, found by this one scan).
   */
  private static final class Owned {
    long from = -1;
    long to;
    int count;
    int[] ends;

    Owned(int segmentBytes) {
      ends = new int[Math.min(segmentBytes, 16 + segmentBytes / 64)];
    }

    void add(int end) {
      if (count == ends.length) {
        ends = java.util.Arrays.copyOf(ends, count * 2);
      }
      ends[count++] = end;
    }
  }

  private final String path;
  private final byte delimiter;
  private final long objectLength;
  private final long rangeStart;
  private final long rangeEnd;
  private final long readStart;
  private final long readEnd;
  private final int maxRecordBytes;
  private final Object lock;
  // Guarded by lock: fragments waiting for the segment before (by start) and after (by end).
  private final LongMap<Fragment> openLeft = new LongMap<>();
  private final LongMap<Fragment> openRight = new LongMap<>();
  private long heldBytes;
  private final AtomicLong records = new AtomicLong();

  DelimitedCutter(String path, byte delimiter, long objectLength, long rangeStart, long rangeEnd,
      long readStart, long readEnd, int maxRecordBytes, Object lock) {
    this.path = path;
    this.delimiter = delimiter;
    this.objectLength = objectLength;
    this.rangeStart = rangeStart;
    this.rangeEnd = rangeEnd;
    this.readStart = readStart;
    this.readEnd = readEnd;
    this.maxRecordBytes = maxRecordBytes;
    this.lock = lock;
  }

  @Override
  public List<DataChunk> accept(long offset, ByteBuffer bytes) throws RecordException {
    // Without the lock: find the delimiters and the owned records wholly inside the segment.
    int size = bytes.remaining();
    long end = offset + size;
    long first = -1;
    long recordStart = offset == 0 ? 0 : -1; // the latest record start seen, once one is known
    Owned owned = new Owned(size);
    for (int i = indexOf(bytes, 0, size); i >= 0; i = indexOf(bytes, i + 1, size)) {
      long at = offset + i;
      if (first < 0) {
        first = at;
      }
      if (recordStart >= 0) {
        inside(offset, recordStart, at + 1, owned);
      }
      recordStart = at + 1;
      if (recordStart >= rangeEnd) {
        // No record starting here or later is owned: the rest of the segment is left uncut, as one
        // tail fragment that is never delivered.
        break;
      }
    }
    boolean endsObject = end == objectLength;
    if (endsObject && recordStart >= 0 && recordStart < end) {
      inside(offset, recordStart, end, owned);
    }

    Fragment head = null;
    Fragment tail = null;
    if (first >= 0 || offset == 0 && endsObject) {
      long regionFrom = offset == 0 ? 0 : first + 1;
      long regionTo = endsObject ? end : recordStart;
      if (regionFrom > offset) {
        head = fragment(bytes, offset, offset, regionFrom, leftAt(offset), Right.END);
      }
      if (regionTo < end || rightAt(end) == Right.OPEN) {
        tail = fragment(bytes, offset, regionTo, end, Left.START, rightAt(end));
      }
    } else {
      head = fragment(bytes, offset, offset, end, leftAt(offset), rightAt(end));
    }

    // With the lock: join the fragments to their neighbours.
    List<DataChunk> out = new ArrayList<>(3);
    synchronized (lock) {
      if (head != null) {
        place(head, out);
      }
      if (owned.from >= 0) {
        out.add(new DataChunk(path, owned.from, RecordCutter.view(bytes, offset, owned.from, owned.to),
            RecordBoundaries.of(owned.ends, 0, owned.count, (int) (owned.from - offset))));
      }
      if (tail != null) {
        place(tail, out);
      }
    }
    records.addAndGet(owned.count);
    return out;
  }

  @Override
  public List<DataChunk> finish() {
    synchronized (lock) {
      if (!openLeft.isEmpty() || !openRight.isEmpty()) {
        throw new IllegalStateException(path + ": record fragments left unjoined at "
            + java.util.Arrays.toString(openLeft.keys()) + " / " + java.util.Arrays.toString(openRight.keys()));
      }
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
      return heldBytes;
    }
  }

  /** A record [start, end) wholly inside the segment that starts at {@code offset}. */
  private void inside(long offset, long start, long end, Owned owned) throws RecordException {
    if (!owns(start)) {
      return;
    }
    if (end - start > maxRecordBytes) {
      throw tooLong(start);
    }
    if (owned.from < 0) {
      owned.from = start;
    }
    owned.to = end;
    owned.add((int) (end - offset));
  }

  /** Bytes [from, to) of a segment, copied only if they may belong to an owned record. */
  private Fragment fragment(ByteBuffer bytes, long offset, long from, long to, Left left, Right right) {
    boolean keep = to - from <= maxRecordBytes && (left == Left.OPEN || left == Left.START && owns(from));
    List<byte[]> pieces = null;
    if (keep) {
      pieces = new ArrayList<>(2);
      if (to > from) {
        byte[] copy = new byte[(int) (to - from)];
        RecordCutter.copy(bytes, offset, from, to, copy, 0);
        pieces.add(copy);
      }
    }
    return new Fragment(from, to, left, right, pieces);
  }

  /** Under the lock: joins a new fragment to its waiting neighbours, then delivers, drops or keeps it. */
  private void place(Fragment fragment, List<DataChunk> out) throws RecordException {
    Fragment f = fragment;
    if (f.left == Left.OPEN) {
      Fragment before = openRight.remove(f.start);
      if (before != null) {
        forget(before, before.left == Left.OPEN ? openLeft : null, before.start);
        f = join(before, f);
      }
    }
    if (f.right == Right.OPEN) {
      Fragment after = openLeft.remove(f.end);
      if (after != null) {
        forget(after, after.right == Right.OPEN ? openRight : null, after.end);
        f = join(f, after);
      }
    }
    trim(f);
    if (f.left == Left.OPEN || f.right == Right.OPEN) {
      if (f.left == Left.OPEN) {
        openLeft.put(f.start, f);
      }
      if (f.right == Right.OPEN) {
        openRight.put(f.end, f);
      }
      heldBytes += f.heldBytes();
    } else if (f.pieces != null && f.end > f.start) {
      byte[] record = concat(f);
      out.add(new DataChunk(path, f.start, ByteBuffer.wrap(record).asReadOnlyBuffer(),
          RecordBoundaries.single(record.length)));
      records.incrementAndGet();
    }
  }

  /** Drops the bytes of a fragment no owned record needs; fails on an owned record that is too long. */
  private void trim(Fragment f) throws RecordException {
    boolean mayBeOwned = f.left == Left.OPEN || f.left == Left.START && owns(f.start);
    if (!mayBeOwned) {
      f.pieces = null;
    } else if (f.end - f.start > maxRecordBytes) {
      if (f.left == Left.START) {
        throw tooLong(f.start);
      }
      f.pieces = null; // Whatever record this is part of, it cannot be a valid owned one.
    }
  }

  private void forget(Fragment f, LongMap<Fragment> other, long otherKey) {
    if (other != null) {
      other.remove(otherKey);
    }
    heldBytes -= f.heldBytes();
  }

  private static Fragment join(Fragment a, Fragment b) {
    List<byte[]> pieces = null;
    if (a.pieces != null && b.pieces != null) {
      pieces = a.pieces;
      pieces.addAll(b.pieces);
    }
    return new Fragment(a.start, b.end, a.left, b.right, pieces);
  }

  private static byte[] concat(Fragment f) {
    if (f.pieces.size() == 1) {
      return f.pieces.get(0);
    }
    byte[] all = new byte[(int) (f.end - f.start)];
    int at = 0;
    for (byte[] piece : f.pieces) {
      System.arraycopy(piece, 0, all, at, piece.length);
      at += piece.length;
    }
    return all;
  }

  private Left leftAt(long offset) {
    return offset == 0 ? Left.START : offset == readStart ? Left.FOREIGN : Left.OPEN;
  }

  private Right rightAt(long end) {
    return end == objectLength ? Right.END : end == readEnd ? Right.CUT : Right.OPEN;
  }

  private boolean owns(long recordStart) {
    return recordStart >= rangeStart && recordStart < rangeEnd;
  }

  private RecordException tooLong(long start) {
    return new RecordException(String.format("%s: a record starting at offset %d runs past %d bytes (%s)",
        path, start, maxRecordBytes, ISP_MAX_RECORD_BYTES));
  }

  private int indexOf(ByteBuffer bytes, int from, int to) {
    int base = bytes.position();
    if (bytes.hasArray()) {
      byte[] array = bytes.array();
      int shift = bytes.arrayOffset() + base;
      for (int i = from; i < to; i++) {
        if (array[shift + i] == delimiter) {
          return i;
        }
      }
      return -1;
    }
    for (int i = from; i < to; i++) {
      if (bytes.get(base + i) == delimiter) {
        return i;
      }
    }
    return -1;
  }
}
