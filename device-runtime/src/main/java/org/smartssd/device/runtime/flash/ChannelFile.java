package org.smartssd.device.runtime.flash;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sparse backing file of one channel, with positioned I/O that fills or drains the whole buffer.
 * A FileChannel is closed for every thread when any one thread is interrupted during I/O; this class
 * reopens it then, so that one cancelled command cannot take the flash away from all the others.
 *
 * <p>Reads come from a read-only memory mapping of the file, made a region at a time on first use:
 * a page read is then a copy from the page cache, without a system call (the scan's reads spent
 * about half their time in {@code pread}, measured with JFR on IspScanBenchmark). Writes still go
 * through the channel; on Linux both see the same page cache. A read that a mapping cannot serve (a
 * page across a region boundary, or a file the system will not map) is a positioned read as before;
 * a file that shrank under the mapping is an I/O error, not a crash.
 *
 * <p>With {@link NativeFiles} loaded, the file also has a native descriptor of its own (which no
 * interrupt closes), for punching holes and for the bytes it takes on disk.
 */
final class ChannelFile implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelFile.class);
  private static final int MAX_REOPENS = 3;
  /** The size of one mapped region: a MappedByteBuffer holds at most 2 GiB. */
  static final long REGION_BYTES = 1L << 30;

  private final Path path;
  private final boolean readOnly;
  private volatile FileChannel channel;
  private volatile boolean closed;
  /** The native descriptor, or -1 without {@link NativeFiles}; guarded by this (a closed number may be reused). */
  private int nativeFd;
  /**
   * The file's mapped regions, made on first use (null: not mapped yet); read without a lock by every
   * page read, so published through an atomic array.
   */
  private final AtomicReferenceArray<MappedByteBuffer> regions;
  /** Why the file is read without mappings (null while they work); logged once. */
  private volatile String unmapped;

  private ChannelFile(Path path, FileChannel channel, boolean readOnly, int nativeFd) {
    this.path = path;
    this.channel = channel;
    this.readOnly = readOnly;
    this.nativeFd = nativeFd;
    long size;
    try {
      size = channel.size();
    } catch (IOException e) {
      size = 0;
      unmapped = "its size cannot be read: " + e.getMessage();
    }
    this.size = size;
    this.regions = new AtomicReferenceArray<>((int) ((size + REGION_BYTES - 1) / REGION_BYTES));
    RandomAccessFile probe;
    try {
      probe = new RandomAccessFile(path.toFile(), "r");
    } catch (IOException e) {
      probe = null;
      unmapped = "it cannot be opened to check its size: " + e.getMessage();
    }
    this.sizeProbe = probe;
  }

  /** The file's size when opened: a channel file never changes size. */
  private final long size;
  /** For {@link #currentSize()}. */
  private final RandomAccessFile sizeProbe;
  /**
   * The command whose read last found the file's size, {@link #checkedSize}: the lane or host worker
   * that runs it is the only thread that reads with it, so a stale value only costs another fstat.
   */
  private volatile Object sizeCheckedFor;
  private volatile long checkedSize;

  /**
   * Opens the file, creating it sparse at {@code sizeBytes} when missing (or left empty by a crash),
   * with a native descriptor too when {@link NativeFiles} is loaded.
   */
  static ChannelFile open(Path path, long sizeBytes, String geometry) throws IOException {
    long existing = Files.exists(path) ? Files.size(path) : 0;
    if (existing == 0) {
      try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
        file.setLength(sizeBytes);
      }
    } else if (existing != sizeBytes) {
      throw new IOException("flash geometry changed? " + path + " is " + existing + " bytes, but the configured "
          + geometry + " needs " + sizeBytes + " bytes a channel; use the geometry it was created with,"
          + " or another data directory");
    }
    FileChannel channel = FileChannel.open(path, READ, WRITE);
    int fd = -1;
    if (NativeFiles.unavailable().isEmpty()) {
      fd = NativeFiles.open(path);
      if (fd < 0) {
        IOException failure = new IOException("cannot open " + path + ": " + NativeFiles.describe(-fd));
        try {
          channel.close();
        } catch (IOException e) {
          failure.addSuppressed(e);
        }
        throw failure;
      }
    }
    return new ChannelFile(path, channel, false, fd);
  }

  /** Opens an existing file of {@code sizeBytes} for reading only (a check changes nothing, punches nothing). */
  static ChannelFile openForReading(Path path, long sizeBytes, String geometry) throws IOException {
    long existing = Files.size(path);
    if (existing != sizeBytes) {
      throw new IOException("flash geometry changed? " + path + " is " + existing + " bytes, but the configured "
          + geometry + " needs " + sizeBytes + " bytes a channel; use the geometry it was created with");
    }
    return new ChannelFile(path, FileChannel.open(path, READ), true, -1);
  }

  Path path() {
    return path;
  }

  /** Fills {@code dst} from the file at {@code position}. */
  void readFully(ByteBuffer dst, long position, int ppa) throws IOException {
    readFully(dst, position, ppa, null);
  }

  /**
   * Fills {@code dst} from the file at {@code position}, for one command of the device's: the file's
   * size is asked once a command ({@code command}, when not null, names it), not once a page.
   */
  void readFully(ByteBuffer dst, long position, int ppa, Object command) throws IOException {
    if (readMapped(dst, position, ppa, command)) {
      return;
    }
    int start = dst.position();
    withChannel("reading", ppa, channel -> {
      while (dst.hasRemaining()) {
        if (channel.read(dst, position + dst.position() - start) < 0) {
          throw new EOFException("end of file at " + (position + dst.position() - start));
        }
      }
    });
  }

  /** Fills {@code dst} from the mapping; false when the mapping cannot serve this read. */
  private boolean readMapped(ByteBuffer dst, long position, int ppa, Object command) throws IOException {
    int length = dst.remaining();
    int region = (int) (position / REGION_BYTES);
    long inRegion = position - region * REGION_BYTES;
    if (unmapped != null || position < 0 || position + length > size || inRegion + length > REGION_BYTES) {
      return false;
    }
    if (closed) {
      throw new IOException("flash array closed while " + what("reading", ppa) + " in " + path);
    }
    MappedByteBuffer mapped = regions.get(region);
    if (mapped == null) {
      mapped = map(region);
      if (mapped == null) {
        return false;
      }
    }
    // A mapped page past the file's end faults, and the JDK reports that as an InternalError some time
    // after the copy, wherever the thread then is: so the file's size is asked first (an fstat, a
    // fraction of a pread's cost), and a file cut short is read with pread, which fails cleanly. A
    // command's later pages trust the size its first page found: an internal read request's pages are
    // all on one channel, and one fstat a page was a fifth of a scan's time.
    if (command == null || sizeCheckedFor != command) {
      if (position + length > currentSize()) {
        sizeCheckedFor = null;
        return false;
      }
      sizeCheckedFor = command;
    } else if (position + length > checkedSize) {
      return false;
    }
    try {
      dst.put(dst.position(), mapped, (int) inRegion, length);
    } catch (InternalError e) { // the JDK's report of a fault in mapped memory: the file shrank
      throw mappedFault(path, ppa, e);
    }
    dst.position(dst.position() + length);
    return true;
  }

  /**
   * The I/O error for a fault in mapped memory, which the JDK reports as an {@link InternalError}
   * (at the copy, or a little after it in the same thread).
   */
  static IOException mappedFault(Path path, int ppa, InternalError e) {
    return new IOException(what("reading", ppa) + " in " + path + ": the mapped file cannot be read; was it cut short? ("
        + e.getMessage() + ")", e);
  }

  /**
   * The file's size now (it never changes unless something outside the device cuts it): an fstat of
   * a descriptor of its own, which no interrupt closes ({@code FileChannel.size} registers the thread
   * with the channel first, a sixth of a scan's time when every page read asked it).
   */
  private long currentSize() throws IOException {
    long now = sizeProbe.length();
    checkedSize = now;
    return now;
  }

  private synchronized MappedByteBuffer map(int region) {
    MappedByteBuffer mapped = regions.get(region);
    if (mapped != null || unmapped != null) {
      return mapped;
    }
    long from = region * REGION_BYTES;
    try {
      mapped = channel.map(FileChannel.MapMode.READ_ONLY, from, Math.min(REGION_BYTES, size - from));
      regions.set(region, mapped);
    } catch (IOException | UnsupportedOperationException e) {
      unmapped = e.toString();
      LOG.info("{} cannot be memory-mapped ({}); reading it with positioned reads instead", path, unmapped);
    }
    return mapped;
  }


  /** Writes all of {@code src} to the file at {@code position}. */
  void writeFully(ByteBuffer src, long position, int ppa) throws IOException {
    int start = src.position();
    withChannel("writing", ppa, channel -> {
      while (src.hasRemaining()) {
        channel.write(src, position + src.position() - start);
      }
    });
  }

  void force() throws IOException {
    withChannel("forcing", -1, channel -> channel.force(false));
  }

  /**
   * Deallocates {@code length} bytes at {@code position}, keeping the file's size (they read as zeros
   * afterwards): 0, or a negative errno. Needs the native descriptor.
   */
  synchronized int punchHole(long position, long length) throws IOException {
    if (closed) {
      throw new IOException("flash array closed while punching a hole in " + path);
    }
    if (nativeFd < 0) {
      throw new IllegalStateException(path + " has no native descriptor: " + NativeFiles.unavailable().orElse("?"));
    }
    return NativeFiles.punchHole(nativeFd, position, length);
  }

  /** Bytes the file takes on disk; -1 when that cannot be told (no native descriptor, closed, or fstat failed). */
  synchronized long allocatedBytes() {
    if (closed || nativeFd < 0) {
      return -1;
    }
    long bytes = NativeFiles.allocatedBytes(nativeFd);
    if (bytes < 0) {
      LOG.debug("fstat of {} failed: {}", path, NativeFiles.describe((int) -bytes));
      return -1;
    }
    return bytes;
  }

  /**
   * The next offset at or after {@code offset} where data ({@code data}) or a hole starts;
   * {@link NativeFiles#NO_MORE_DATA} when no data follows. Needs the native descriptor.
   *
   * @throws IOException when the file system refuses to tell, or the file is closed
   */
  synchronized long seek(long offset, boolean data) throws IOException {
    if (closed) {
      throw new IOException("flash array closed while seeking in " + path);
    }
    if (nativeFd < 0) {
      throw new IllegalStateException(path + " has no native descriptor: " + NativeFiles.unavailable().orElse("?"));
    }
    long at = NativeFiles.seek(nativeFd, offset, data);
    if (at < 0 && at != NativeFiles.NO_MORE_DATA) {
      throw new IOException("seeking the next " + (data ? "data" : "hole") + " after " + offset + " in " + path + ": "
          + NativeFiles.describe((int) -at));
    }
    return at;
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    if (nativeFd >= 0) {
      int rc = NativeFiles.close(nativeFd);
      nativeFd = -1;
      if (rc < 0) {
        LOG.warn("closing the native descriptor of {} failed: {}", path, NativeFiles.describe(-rc));
      }
    }
    if (sizeProbe != null) {
      sizeProbe.close();
    }
    channel.close();
  }

  private interface ChannelOperation {
    void run(FileChannel channel) throws IOException;
  }

  /** Runs an idempotent operation, reopening and retrying when another thread's interrupt closed the file. */
  /**
   * Runs {@code operation} on the channel, reopening it if another thread's interrupt closed it.
   * Messages say "{@code verb} ppa {@code ppa}" (or just the verb for a negative ppa), built only on
   * failure: this runs for every page read.
   */
  private void withChannel(String verb, int ppa, ChannelOperation operation) throws IOException {
    for (int attempt = 0; ; attempt++) {
      FileChannel current = channel;
      try {
        operation.run(current);
        return;
      } catch (ClosedByInterruptException e) {
        reopen(current);
        String what = what(verb, ppa);
        InterruptedIOException interrupted = new InterruptedIOException("interrupted while " + what + " in " + path);
        interrupted.initCause(e);
        throw interrupted;
      } catch (ClosedChannelException e) {
        String what = what(verb, ppa);
        if (closed) {
          throw new IOException("flash array closed while " + what + " in " + path, e);
        }
        if (attempt >= MAX_REOPENS) {
          throw new IOException(what + " in " + path + ": the file was closed " + attempt + " times", e);
        }
        reopen(current);
      } catch (IOException e) {
        throw new IOException(what(verb, ppa) + " in " + path + ": " + e.getMessage(), e);
      }
    }
  }

  private static String what(String verb, int ppa) {
    return ppa < 0 ? verb : verb + " ppa " + ppa;
  }

  private synchronized void reopen(FileChannel seen) throws IOException {
    if (closed || channel != seen || seen.isOpen()) {
      return;
    }
    LOG.warn("{} was closed by an interrupted thread; reopening it", path);
    channel = readOnly ? FileChannel.open(path, READ) : FileChannel.open(path, READ, WRITE);
  }
}
