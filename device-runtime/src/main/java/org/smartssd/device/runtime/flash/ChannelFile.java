package org.smartssd.device.runtime.flash;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sparse backing file of one channel, with positioned I/O that fills or drains the whole buffer.
 * A FileChannel is closed for every thread when any one thread is interrupted during I/O; this class
 * reopens it then, so that one cancelled command cannot take the flash away from all the others.
 */
final class ChannelFile implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(ChannelFile.class);
  private static final int MAX_REOPENS = 3;

  private final Path path;
  private final boolean readOnly;
  private volatile FileChannel channel;
  private volatile boolean closed;

  private ChannelFile(Path path, FileChannel channel, boolean readOnly) {
    this.path = path;
    this.channel = channel;
    this.readOnly = readOnly;
  }

  /** Opens the file, creating it sparse at {@code sizeBytes} when missing (or left empty by a crash). */
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
    return new ChannelFile(path, FileChannel.open(path, READ, WRITE), false);
  }

  /** Opens an existing file of {@code sizeBytes} for reading only (a check changes nothing). */
  static ChannelFile openForReading(Path path, long sizeBytes, String geometry) throws IOException {
    long existing = Files.size(path);
    if (existing != sizeBytes) {
      throw new IOException("flash geometry changed? " + path + " is " + existing + " bytes, but the configured "
          + geometry + " needs " + sizeBytes + " bytes a channel; use the geometry it was created with");
    }
    return new ChannelFile(path, FileChannel.open(path, READ), true);
  }

  Path path() {
    return path;
  }

  /** Fills {@code dst} from the file at {@code position}. */
  void readFully(ByteBuffer dst, long position, int ppa) throws IOException {
    int start = dst.position();
    withChannel("reading ppa " + ppa, channel -> {
      while (dst.hasRemaining()) {
        if (channel.read(dst, position + dst.position() - start) < 0) {
          throw new EOFException("end of file at " + (position + dst.position() - start));
        }
      }
    });
  }

  /** Writes all of {@code src} to the file at {@code position}. */
  void writeFully(ByteBuffer src, long position, int ppa) throws IOException {
    int start = src.position();
    withChannel("writing ppa " + ppa, channel -> {
      while (src.hasRemaining()) {
        channel.write(src, position + src.position() - start);
      }
    });
  }

  void force() throws IOException {
    withChannel("forcing", channel -> channel.force(false));
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }

  private interface ChannelOperation {
    void run(FileChannel channel) throws IOException;
  }

  /** Runs an idempotent operation, reopening and retrying when another thread's interrupt closed the file. */
  private void withChannel(String what, ChannelOperation operation) throws IOException {
    for (int attempt = 0; ; attempt++) {
      FileChannel current = channel;
      try {
        operation.run(current);
        return;
      } catch (ClosedByInterruptException e) {
        reopen(current);
        InterruptedIOException interrupted = new InterruptedIOException("interrupted while " + what + " in " + path);
        interrupted.initCause(e);
        throw interrupted;
      } catch (ClosedChannelException e) {
        if (closed) {
          throw new IOException("flash array closed while " + what + " in " + path, e);
        }
        if (attempt >= MAX_REOPENS) {
          throw new IOException(what + " in " + path + ": the file was closed " + attempt + " times", e);
        }
        reopen(current);
      } catch (IOException e) {
        throw new IOException(what + " in " + path + ": " + e.getMessage(), e);
      }
    }
  }

  private synchronized void reopen(FileChannel seen) throws IOException {
    if (closed || channel != seen || seen.isOpen()) {
      return;
    }
    LOG.warn("{} was closed by an interrupted thread; reopening it", path);
    channel = readOnly ? FileChannel.open(path, READ) : FileChannel.open(path, READ, WRITE);
  }
}
