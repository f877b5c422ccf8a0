package org.smartssd.device.runtime.isp;

import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_MAX_RECORD_BYTES;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.RecordFormat;

/**
 * Turns the segments the engine reads for one input range into chunks of whole records, each record
 * delivered exactly once whichever lanes read its pieces and in whatever order they arrive.
 *
 * <p>A range owns the records that start inside it, as Hadoop's input splits do, so that adjacent
 * ranges over one object deliver every record once:
 *
 * <ul>
 *   <li>RAW: no records; each segment goes out as one chunk, as read.
 *   <li>STREAM: no records; each segment goes out as one chunk of its own (a copy), in offset order:
 *       a segment that arrives before the bytes ahead of it is kept until they came. The read range
 *       runs the format's {@code readPastEnd} bytes past the range (an empty range reads nothing).
 *   <li>FIXED_LENGTH (n): records start at multiples of n. The read range runs from the first owned
 *       record to the end of the last one. A last record cut short by the object's end is an error
 *       of {@link #finish()}.
 *   <li>DELIMITED (d): a record starts at offset 0 or just after a delimiter, and includes its
 *       delimiter (the object's last record may have none). The read range starts one byte before
 *       the range, to learn whether the range starts a record, and runs {@code maxRecordBytes} past
 *       its end, so that the last owned record can be completed. An owned record longer than
 *       {@code maxRecordBytes} is an error wherever it lies (so that the result does not depend on
 *       how the object is split into ranges), thrown by the {@link #accept} that finds it.
 * </ul>
 *
 * <p>Records wholly inside a segment go out as one read-only view of the segment, without a copy:
 * <b>such a chunk is valid only as long as the caller keeps the segment's bytes</b> (until its lane
 * is done with the chunks of that {@link #accept} call). A record that straddles segments is copied
 * together from its pieces and goes out, as its own chunk, from the call that supplies its last
 * missing piece. Only these boundary pieces are kept, and only until their record is complete; for
 * delimited records, pieces whose record's start is not known yet are kept until it is.
 *
 * <p>{@link #accept} is thread-safe: lanes call it concurrently. After a {@link RecordException}
 * the assembler is failed: later calls throw it again.
 */
public final class RecordAssembler {

  private final RecordFormat format;
  private final long readStart;
  private final long readEnd;
  private final RecordCutter cutter;
  private final Object lock = new Object();
  private final Coverage coverage; // guarded by lock
  private boolean finished; // guarded by lock
  private String failure; // guarded by lock

  /**
   * One input range [rangeStart, rangeEnd) of an object of objectLength bytes. A range reaching
   * past the object's end is cut at its end.
   *
   * @param maxRecordBytes the longest delimited record allowed, and so how far past rangeEnd the
   *     last owned record may run; positive (unused for the other formats)
   */
  public RecordAssembler(RecordFormat format, String path, long objectLength, long rangeStart, long rangeEnd,
      int maxRecordBytes) {
    this(format, path, objectLength, rangeStart, rangeEnd, maxRecordBytes, 0);
  }

  /**
   * As above, for segments that are each inside one page of {@code pageSize} bytes (the engine's
   * reads), which lets fixed-length records that straddle pages be kept by page rather than hashed.
   *
   * @param pageSize the page size, or 0 when segments may be anything
   */
  public RecordAssembler(RecordFormat format, String path, long objectLength, long rangeStart, long rangeEnd,
      int maxRecordBytes, int pageSize) {
    this.format = Objects.requireNonNull(format, "format");
    Objects.requireNonNull(path, "path");
    if (objectLength < 0 || rangeStart < 0 || rangeEnd < rangeStart) {
      throw new IllegalArgumentException(String.format("%s: bad range [%d, %d) of an object of %d bytes",
          path, rangeStart, rangeEnd, objectLength));
    }
    if (maxRecordBytes <= 0) {
      throw new IllegalArgumentException(ISP_MAX_RECORD_BYTES + " must be positive, not " + maxRecordBytes);
    }
    long start = Math.min(rangeStart, objectLength);
    long end = Math.min(rangeEnd, objectLength);
    switch (format.kind()) {
      case RAW -> {
        readStart = start;
        readEnd = end;
        cutter = new RawCutter(path);
      }
      case FIXED_LENGTH -> {
        int n = format.recordLength();
        long firstRecord = ceil(start, n);
        readStart = Math.min(firstRecord, objectLength);
        // Owned records start in [firstRecord, end); the last one ends at ceil(end, n).
        readEnd = firstRecord < end ? Math.min(objectLength, ceil(end, n)) : readStart;
        long completeEnd = readStart + (readEnd - readStart) / n * n;
        cutter = new FixedLengthCutter(path, n, completeEnd, readEnd, lock, readStart, pageSize);
      }
      case DELIMITED -> {
        if (start == end) {
          readStart = start; // owns nothing: nothing to read
          readEnd = start;
        } else {
          readStart = start == 0 ? 0 : start - 1;
          readEnd = objectLength - end <= maxRecordBytes ? objectLength : end + maxRecordBytes;
        }
        cutter = new DelimitedCutter(path, format.delimiter(), objectLength, start, end, readStart, readEnd,
            maxRecordBytes, lock);
      }
      case STREAM -> {
        readStart = start;
        readEnd = start == end ? end : Math.min(objectLength, end + format.readPastEnd());
        cutter = new StreamCutter(path, start, lock);
      }
      default -> throw new IllegalArgumentException("unknown record format " + format.kind());
    }
    coverage = new Coverage(path, readStart, readEnd, pageSize);
  }

  public RecordFormat format() {
    return format;
  }

  /** The first byte the engine must read, in [0, objectLength]. */
  public long readStart() {
    return readStart;
  }

  /** The end of the bytes the engine must read, in [readStart(), objectLength]. */
  public long readEnd() {
    return readEnd;
  }

  /**
   * Offers the bytes at [offset, offset + bytes.remaining()): a segment inside the read range that
   * overlaps no segment offered before. Reads {@code bytes} from its position without moving it.
   * Thread-safe.
   *
   * @return the chunks of whole owned records this call makes available, in offset order (possibly
   *     none); views of {@code bytes} among them are valid only while the caller keeps its content
   * @throws IllegalArgumentException if the segment is outside the read range or overlaps one
   *     offered before
   * @throws RecordException if an owned record is found to be invalid
   */
  public List<DataChunk> accept(long offset, ByteBuffer bytes) throws RecordException {
    Objects.requireNonNull(bytes, "bytes");
    synchronized (lock) {
      checkUsable();
      coverage.add(offset, offset + bytes.remaining());
    }
    if (!bytes.hasRemaining()) {
      return List.of();
    }
    try {
      return cutter.accept(offset, bytes);
    } catch (RecordException e) {
      fail(e);
      throw e;
    }
  }

  /**
   * Called once, after every segment of the read range was accepted: returns the records only
   * completable at the end (possibly none) and checks that no partial record is left over.
   *
   * @throws IllegalStateException if part of the read range was never accepted
   */
  public List<DataChunk> finish() throws RecordException {
    synchronized (lock) {
      checkUsable();
      if (!coverage.complete()) {
        throw new IllegalStateException("finish() before every segment was accepted: bytes "
            + coverage.firstGap() + " are missing");
      }
      finished = true;
    }
    try {
      return cutter.finish();
    } catch (RecordException e) {
      fail(e);
      throw e;
    }
  }

  /** Records delivered so far (0 for raw input, which has none). */
  public long recordsDelivered() {
    return cutter.recordsDelivered();
  }

  /** Bytes of partial records held right now: the memory the assembler uses beyond its bookkeeping. */
  long bufferedBytes() {
    return cutter.bufferedBytes();
  }

  private void checkUsable() throws RecordException {
    if (failure != null) {
      throw new RecordException(failure);
    }
    if (finished) {
      throw new IllegalStateException("the assembler was already finished");
    }
  }

  private void fail(RecordException e) {
    synchronized (lock) {
      if (failure == null) {
        failure = e.getMessage();
      }
    }
  }

  private static long ceil(long at, int n) {
    return (at + n - 1) / n * n;
  }

  /** Raw bytes: each segment as it is. */
  private static final class RawCutter implements RecordCutter {
    private final String path;

    RawCutter(String path) {
      this.path = path;
    }

    @Override
    public List<DataChunk> accept(long offset, ByteBuffer bytes) {
      return List.of(new DataChunk(path, offset, RecordCutter.view(bytes, offset, offset, offset + bytes.remaining())));
    }

    @Override
    public List<DataChunk> finish() {
      return List.of();
    }

    @Override
    public long recordsDelivered() {
      return 0;
    }

    @Override
    public long bufferedBytes() {
      return 0;
    }
  }
}
