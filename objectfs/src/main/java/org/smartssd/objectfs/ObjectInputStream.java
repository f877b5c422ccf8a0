package org.smartssd.objectfs;

import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_EXCEPTIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_READ_UNBUFFERED;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.VectoredReadUtils;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.smartssd.device.ObjectStatus;

/**
 * Reads one file by its object id, so that a reader keeps its file across a rename. The length is
 * the one OPEN reported; reads stop there.
 *
 * <p>Sequential reads go through a read-ahead buffer and are synchronized. Positioned reads go
 * straight to the device, touch neither the position nor the buffer, and run concurrently.
 *
 * <p>Never a silent short read: if the device has fewer bytes than the length known at open, or the
 * object is gone, the read fails with an {@link IOException} naming the device and the path.
 */
public class ObjectInputStream extends FSInputStream
    implements ByteBufferReadable, CanUnbuffer, StreamCapabilities, IOStatisticsSource {

  private final ObjectStoreAdapter store;
  private final String uri;
  private final long objectId;
  private final long length;
  private final int bufferSize;
  private final FileSystem.Statistics statistics;
  /** Where {@link #readVectored} reads its ranges at once, or null to read them in turn (Hadoop's default). */
  private final java.util.concurrent.Executor vectoredReads;
  /** READ commands sent to the device (read-ahead and direct reads), beside Hadoop's stream counters. */
  static final String STREAM_READ_DEVICE_REQUESTS = "stream_read_device_requests";

  /** Bytes and read calls as callers see them, as Hadoop's streams count them; device requests apart. */
  private final IOStatisticsStore ioStatistics = IOStatisticsBinding.iostatisticsStore()
      .withCounters(STREAM_READ_BYTES, STREAM_READ_OPERATIONS, STREAM_READ_SEEK_OPERATIONS,
          STREAM_READ_UNBUFFERED, STREAM_READ_EXCEPTIONS, STREAM_READ_DEVICE_REQUESTS)
      .build();

  private volatile boolean closed;
  private long pos;
  /** The read-ahead buffer: null until the first sequential read, and again after unbuffer() and close(). */
  private byte[] buffer;
  private long bufferStart;
  private int bufferLength;

  /**
   * @param status the file as OPEN returned it
   * @param uri the file as an objfs URI, for messages
   * @param bufferSize bytes read ahead per device READ
   * @param statistics the file system's statistics, or null
   * @param vectoredReads where vectored reads read their ranges at once, or null to read them in turn
   */
  ObjectInputStream(ObjectStoreAdapter store, ObjectStatus status, String uri, int bufferSize,
      FileSystem.Statistics statistics, java.util.concurrent.Executor vectoredReads) {
    if (bufferSize <= 0) {
      throw new IllegalArgumentException("read-ahead buffer size must be positive, was " + bufferSize);
    }
    this.store = store;
    this.uri = uri;
    this.objectId = status.objectId();
    this.length = status.length();
    this.bufferSize = bufferSize;
    this.statistics = statistics;
    this.vectoredReads = vectoredReads;
  }

  // ---- sequential reads ----

  @Override
  public synchronized int read() throws IOException {
    checkNotClosed();
    if (pos >= length) {
      return -1;
    }
    if (!buffered(pos)) {
      fill();
    }
    int b = buffer[(int) (pos - bufferStart)] & 0xff;
    pos++;
    delivered(1);
    return b;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkNotClosed();
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (pos >= length) {
      return -1;
    }
    if (!buffered(pos)) {
      if (len >= bufferSize) {
        // As BufferedInputStream: a read at least as large as the buffer skips it.
        int n = readUpToDamage(pos, ByteBuffer.wrap(b, off, (int) Math.min(len, length - pos)));
        pos += n;
        return delivered(n);
      }
      fill();
    }
    int n = (int) Math.min(len, bufferStart + bufferLength - pos);
    System.arraycopy(buffer, (int) (pos - bufferStart), b, off, n);
    pos += n;
    return delivered(n);
  }

  /** Reads into heap or direct buffers alike. */
  @Override
  public synchronized int read(ByteBuffer dst) throws IOException {
    checkNotClosed();
    if (!dst.hasRemaining()) {
      return 0;
    }
    if (pos >= length) {
      return -1;
    }
    if (!buffered(pos)) {
      if (dst.remaining() >= bufferSize) {
        ByteBuffer slice = dst.slice();
        slice.limit((int) Math.min(slice.remaining(), length - pos));
        int n = readUpToDamage(pos, slice);
        dst.position(dst.position() + n);
        pos += n;
        return delivered(n);
      }
      fill();
    }
    int n = (int) Math.min(dst.remaining(), bufferStart + bufferLength - pos);
    dst.put(buffer, (int) (pos - bufferStart), n);
    pos += n;
    return delivered(n);
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkNotClosed();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + target + ": " + uri);
    }
    if (target > length) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + ": seek to " + target + " in " + uri
          + " of " + length + " bytes");
    }
    ioStatistics.incrementCounter(STREAM_READ_SEEK_OPERATIONS);
    pos = target;
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkNotClosed();
    if (n <= 0) {
      return 0;
    }
    long target = Math.min(length, pos + n);
    long skipped = target - pos;
    pos = target;
    return skipped;
  }

  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false; // one device holds the one copy
  }

  /** The bytes left in the file: a read of that many does not wait for more to be written. */
  @Override
  public synchronized int available() throws IOException {
    checkNotClosed();
    return (int) Math.min(Integer.MAX_VALUE, length - pos);
  }

  // ---- positioned reads: no lock, no shared state ----

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(position, b, off, len);
    Objects.checkFromIndexSize(off, len, b.length);
    checkNotClosed();
    if (len == 0) {
      return 0;
    }
    if (position >= length) {
      return -1;
    }
    return delivered(readUpToDamage(position, ByteBuffer.wrap(b, off, (int) Math.min(len, length - position))));
  }

  @Override
  public void readFully(long position, byte[] b, int off, int len) throws IOException {
    validatePositionedReadArgs(position, b, off, len);
    Objects.checkFromIndexSize(off, len, b.length);
    checkNotClosed();
    if (len == 0) {
      return;
    }
    if (position > length - len) {
      throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY + ": " + len + " bytes at " + position
          + " of " + uri + ", which has " + length + " bytes");
    }
    int done = 0;
    while (done < len) {
      done += readUpToDamage(position + done, ByteBuffer.wrap(b, off + done, len - done));
    }
    delivered(len);
  }

  // ---- vectored reads: the ranges at once ----

  /**
   * Checks and sorts the ranges as Hadoop's default does (none negative, none overlapping), then reads
   * them at once: each range one positioned read on the file system's vectored-read threads
   * ({@code fs.objfs.vectored-read.threads}), so that their device requests overlap on the pooled
   * connections instead of following each other, and a device serves them on its channels together.
   * Each range's future completes with a buffer from {@code allocate} holding its bytes (position 0,
   * limit its length), or fails as its read failed (an {@link EOFException} past the end).
   */
  @Override
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate) throws IOException {
    if (vectoredReads == null) {
      super.readVectored(ranges, allocate);
      return;
    }
    Objects.requireNonNull(allocate, "allocate");
    checkNotClosed();
    for (FileRange range : VectoredReadUtils.validateAndSortRanges(ranges, Optional.empty())) {
      CompletableFuture<ByteBuffer> data = new CompletableFuture<>();
      range.setData(data);
      try {
        vectoredReads.execute(() -> readRange(range, allocate, data));
      } catch (RejectedExecutionException e) {
        data.completeExceptionally(new IOException("read " + uri + ": the file system is closed", e));
      }
    }
  }

  private void readRange(FileRange range, IntFunction<ByteBuffer> allocate, CompletableFuture<ByteBuffer> data) {
    try {
      int length = range.getLength();
      ByteBuffer buffer = allocate.apply(length);
      if (buffer.hasArray()) {
        readFully(range.getOffset(), buffer.array(), buffer.arrayOffset() + buffer.position(), length);
        buffer.position(buffer.position() + length);
      } else {
        byte[] bytes = new byte[length];
        readFully(range.getOffset(), bytes, 0, length);
        buffer.put(bytes);
      }
      buffer.flip();
      data.complete(buffer);
    } catch (Throwable e) {
      data.completeExceptionally(e);
    }
  }

  // ---- the rest ----

  /** Drops the read-ahead buffer; the position is kept. */
  @Override
  public synchronized void unbuffer() {
    if (buffer != null) {
      ioStatistics.incrementCounter(STREAM_READ_UNBUFFERED);
    }
    buffer = null;
    bufferLength = 0;
  }

  @Override
  public synchronized void close() {
    closed = true;
    buffer = null;
    bufferLength = 0;
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ENGLISH)) {
      case StreamCapabilities.READBYTEBUFFER:
      case StreamCapabilities.UNBUFFER:
      case StreamCapabilities.IOSTATISTICS:
        return true;
      default:
        return false;
    }
  }

  @Override
  public IOStatisticsStore getIOStatistics() {
    return ioStatistics;
  }

  @Override
  public String toString() {
    return "ObjectInputStream[" + uri + ", object " + objectId + ", " + length + " bytes, pos " + pos
        + (closed ? ", closed" : "") + "]";
  }

  private boolean buffered(long position) {
    return buffer != null && position >= bufferStart && position < bufferStart + bufferLength;
  }

  /** Reads ahead from {@code pos} (which is before the end). */
  private void fill() throws IOException {
    if (buffer == null) {
      buffer = new byte[bufferSize];
    }
    bufferLength = 0; // a failed fill leaves nothing stale behind
    int n = readUpToDamage(pos, ByteBuffer.wrap(buffer, 0, (int) Math.min(bufferSize, length - pos)));
    bufferStart = pos;
    bufferLength = n;
  }

  /**
   * As {@link #readFromDevice}, but when the range holds a page that fails its checksum after its
   * first byte, reads the intact bytes before that page instead (fewer than asked); the read that
   * starts at the damaged page fails with {@link ChecksumException}, which names its offset.
   */
  private int readUpToDamage(long offset, ByteBuffer dst) throws IOException {
    try {
      return readFromDevice(offset, dst);
    } catch (ChecksumException e) {
      long damaged = e.getPos();
      if (damaged <= offset || damaged >= offset + dst.remaining()) {
        throw e;
      }
      ByteBuffer before = dst.duplicate();
      before.limit(before.position() + (int) (damaged - offset));
      int n = readFromDevice(offset, before);
      dst.position(dst.position() + n);
      return n;
    }
  }

  /**
   * One READ of {@code dst.remaining()} bytes at {@code offset}, all of them before the known
   * length. Thread-safe. The device may answer fewer (a frame's worth), but never none.
   *
   * @return bytes read, at least 1
   */
  private int readFromDevice(long offset, ByteBuffer dst) throws IOException {
    int n;
    try {
      n = store.read(objectId, offset, dst);
    } catch (EOFException e) {
      ioStatistics.incrementCounter(STREAM_READ_EXCEPTIONS);
      throw truncated(offset, e);
    } catch (IOException e) {
      ioStatistics.incrementCounter(STREAM_READ_EXCEPTIONS);
      throw ObjfsExceptions.translate(ObjfsExceptions.Op.READ, uri, store.address(), e);
    }
    if (n <= 0) {
      ioStatistics.incrementCounter(STREAM_READ_EXCEPTIONS);
      throw truncated(offset, null);
    }
    ioStatistics.incrementCounter(STREAM_READ_DEVICE_REQUESTS);
    return n;
  }

  /** Counts {@code n} bytes handed to a caller by one read call. @return n */
  private int delivered(int n) {
    ioStatistics.incrementCounter(STREAM_READ_OPERATIONS);
    ioStatistics.incrementCounter(STREAM_READ_BYTES, n);
    if (statistics != null) {
      statistics.incrementBytesRead(n);
    }
    return n;
  }

  /** The object ends before the length OPEN reported: say so rather than return a short file. */
  private IOException truncated(long offset, IOException cause) {
    return new IOException("read " + uri + ": device " + store.address() + " has no data at offset " + offset
        + ", but the file had " + length + " bytes when opened (object " + objectId
        + " was truncated or replaced while being read)", cause);
  }

  private void checkNotClosed() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + " " + uri);
    }
  }
}
