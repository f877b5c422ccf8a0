package org.smartssd.objectfs;

import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_HFLUSH;
import static org.apache.hadoop.fs.statistics.StoreStatisticNames.OP_HSYNC;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_BYTES;
import static org.apache.hadoop.fs.statistics.StreamStatisticNames.STREAM_WRITE_EXCEPTIONS;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.smartssd.objectfs.ObjfsExceptions.Op;

/**
 * Writes one file through a device write handle. Bytes are gathered in a buffer and sent as WRITE
 * commands when it fills; {@link #flush()} sends what is buffered, {@link #hflush()} adds FLUSH,
 * which makes it visible to readers, and {@link #hsync()} SYNC, which also makes it durable. {@link #close()} sends the rest and CLOSE; it is idempotent. The methods are
 * synchronized so that the file system, closing, can close a stream another thread still writes.
 */
public class ObjectOutputStream extends OutputStream implements Syncable, StreamCapabilities, IOStatisticsSource {
  private final ObjectWriter writer;
  private final String uri;
  private final String device;
  private final Consumer<ObjectOutputStream> onClose;
  private final byte[] buffer;
  /** WRITE commands sent to the device, beside Hadoop's stream counters. */
  static final String STREAM_WRITE_DEVICE_REQUESTS = "stream_write_device_requests";

  /** Bytes as callers write them (buffered or not), as Hadoop's streams count them. */
  private final IOStatisticsStore ioStatistics = IOStatisticsBinding.iostatisticsStore()
      .withCounters(STREAM_WRITE_BYTES, STREAM_WRITE_EXCEPTIONS, STREAM_WRITE_DEVICE_REQUESTS, OP_HFLUSH, OP_HSYNC)
      .build();
  private int count;
  private boolean closed;

  /**
   * @param uri the file as an objfs URI, for messages
   * @param device the device's host:port
   * @param bufferSize bytes gathered per WRITE
   * @param onClose told once when the stream closes (the file system forgets it)
   */
  ObjectOutputStream(ObjectWriter writer, String uri, String device, int bufferSize,
      Consumer<ObjectOutputStream> onClose) {
    if (bufferSize <= 0) {
      throw new IllegalArgumentException("write buffer size must be positive, was " + bufferSize);
    }
    this.writer = writer;
    this.uri = uri;
    this.device = device;
    this.onClose = onClose;
    this.buffer = new byte[bufferSize];
  }

  @Override
  public synchronized void write(int b) throws IOException {
    checkNotClosed();
    if (count == buffer.length) {
      sendBuffer();
    }
    buffer[count++] = (byte) b;
    ioStatistics.incrementCounter(STREAM_WRITE_BYTES);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    checkNotClosed();
    Objects.checkFromIndexSize(off, len, b.length);
    if (len >= buffer.length) {
      // Too big to gather: send what is buffered, then these bytes as they are.
      sendBuffer();
      send(ByteBuffer.wrap(b, off, len));
    } else {
      if (len > buffer.length - count) {
        sendBuffer();
      }
      System.arraycopy(b, off, buffer, count, len);
      count += len;
    }
    ioStatistics.incrementCounter(STREAM_WRITE_BYTES, len);
  }

  /**
   * Sends the buffered bytes. (The simulated device shows them to readers at once, but only FLUSH
   * promises it: {@link #hflush()}.)
   */
  @Override
  public synchronized void flush() throws IOException {
    checkNotClosed();
    sendBuffer();
  }

  @Override
  public synchronized void hflush() throws IOException {
    checkNotClosed();
    sendBuffer();
    try {
      writer.flush();
      ioStatistics.incrementCounter(OP_HFLUSH);
    } catch (IOException e) {
      throw failed(Op.FLUSH, e);
    }
  }

  @Override
  public synchronized void hsync() throws IOException {
    checkNotClosed();
    sendBuffer();
    try {
      writer.sync();
      ioStatistics.incrementCounter(OP_HSYNC);
    } catch (IOException e) {
      throw failed(Op.SYNC, e);
    }
  }

  /**
   * Sends the rest and closes the handle; the handle is closed even when sending fails, so that the
   * file does not stay locked for writing. A second close does nothing; a failed one is not retried.
   */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException failure = null;
    try {
      sendBuffer();
    } catch (IOException e) {
      failure = e;
    }
    try {
      writer.close();
    } catch (IOException e) {
      if (failure == null) {
        failure = failed(Op.CLOSE, e);
      } else {
        failure.addSuppressed(e);
      }
    }
    onClose.accept(this);
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  @SuppressWarnings("deprecation") // HFLUSH: Hadoop prefers probing HSYNC, but still asks for both
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ENGLISH)) {
      case StreamCapabilities.HFLUSH:
      case StreamCapabilities.HSYNC:
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
    return "ObjectOutputStream[" + uri + ", object " + writer.objectId() + (closed ? ", closed" : "") + "]";
  }

  private void sendBuffer() throws IOException {
    if (count > 0) {
      send(ByteBuffer.wrap(buffer, 0, count));
      count = 0;
    }
  }

  private void send(ByteBuffer data) throws IOException {
    try {
      writer.write(data);
    } catch (IOException e) {
      throw failed(Op.WRITE, e);
    }
    ioStatistics.incrementCounter(STREAM_WRITE_DEVICE_REQUESTS);
  }

  private IOException failed(Op op, IOException e) {
    ioStatistics.incrementCounter(STREAM_WRITE_EXCEPTIONS);
    return ObjfsExceptions.translate(op, uri, device, e);
  }

  private void checkNotClosed() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + " " + uri);
    }
  }
}
