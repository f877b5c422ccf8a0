package org.smartssd.examples.wc98;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Writes records to a stream, binary or as text, through a large buffer. Closing flushes and closes the
 * stream. Not thread-safe.
 */
public final class TraceWriter implements RecordSink, Closeable {
  private static final int BUFFER_BYTES = 1 << 20;
  private static final int IO_BUFFER_BYTES = 1 << 16;

  private final OutputStream out;
  private final TraceFormat format;
  /** Binary records not yet written. */
  private final byte[] buffer;
  private final ByteBuffer bytes;
  /** Text lines not yet written; turned into bytes a megabyte at a time, which is much faster than per line. */
  private final StringBuilder text;
  /** Binary: bytes a record takes, padded past its own with {@link Wc98Record#PADDING}. */
  private final int recordBytes;
  private long records;
  private boolean closed;

  private TraceWriter(OutputStream out, TraceFormat format, int recordBytes) {
    this.out = out;
    this.format = format;
    this.recordBytes = recordBytes;
    this.buffer = new byte[format == TraceFormat.BINARY ? Math.max(BUFFER_BYTES, recordBytes) : 0];
    this.bytes = ByteBuffer.wrap(buffer);
    this.text = format == TraceFormat.CLF ? new StringBuilder(BUFFER_BYTES + 1024) : null;
  }

  /** A writer to a stream, which it owns and closes. */
  public static TraceWriter open(OutputStream out, TraceFormat format) {
    return new TraceWriter(out, format, Wc98Record.BYTES);
  }

  /**
   * A writer of binary records each stored in {@code recordBytes} bytes: the record, then {@link
   * Wc98Record#PADDING}. The stream is owned and closed by the writer.
   *
   * @throws IllegalArgumentException when the width is out of range
   */
  public static TraceWriter openPadded(OutputStream out, int recordBytes) {
    return new TraceWriter(out, TraceFormat.BINARY, Wc98Record.checkStoredBytes("a stored record", recordBytes));
  }

  /**
   * A writer that creates (or replaces) a file, gzip-compressed when the name ends in {@code .gz}
   * (at the fastest compression level, so that generation stays fast).
   */
  public static TraceWriter create(Path file, TraceFormat format) throws IOException {
    return create(file, format, isGzipName(file));
  }

  /** A writer that creates (or replaces) a file, gzip-compressed (at the fastest level) if asked. */
  public static TraceWriter create(Path file, TraceFormat format, boolean gzip) throws IOException {
    OutputStream stream = Files.newOutputStream(file);
    if (gzip) {
      try {
        stream = new FastGzipOutputStream(stream);
      } catch (IOException | RuntimeException e) {
        stream.close();
        throw e;
      }
    }
    return new TraceWriter(stream, format, Wc98Record.BYTES);
  }

  /** Whether {@link #create} compresses a file of this name. */
  public static boolean isGzipName(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().endsWith(".gz");
  }

  public TraceFormat format() {
    return format;
  }

  /** Records written so far. */
  public long records() {
    return records;
  }

  @Override
  public void accept(Wc98Record record) throws IOException {
    if (format == TraceFormat.BINARY) {
      if (bytes.remaining() < recordBytes) {
        flushBuffer();
      }
      record.write(bytes);
      if (recordBytes > Wc98Record.BYTES) {
        int at = bytes.position();
        java.util.Arrays.fill(buffer, at, at + recordBytes - Wc98Record.BYTES, Wc98Record.PADDING);
        bytes.position(at + recordBytes - Wc98Record.BYTES);
      }
    } else {
      record.appendCommonLogFormat(text, UrlNaming.synthetic());
      text.append('\n');
      if (text.length() >= BUFFER_BYTES) {
        flushText();
      }
    }
    records++;
  }

  /** Writes what is buffered to the stream. */
  public void flush() throws IOException {
    flushBuffer();
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      flushBuffer();
    } finally {
      out.close();
    }
  }

  private void flushBuffer() throws IOException {
    if (text != null) {
      flushText();
    }
    if (bytes.position() > 0) {
      out.write(buffer, 0, bytes.position());
      bytes.clear();
    }
  }

  private void flushText() throws IOException {
    if (text.length() > 0) {
      out.write(text.toString().getBytes(StandardCharsets.ISO_8859_1)); // the text form is ASCII
      text.setLength(0);
    }
  }

  /** gzip at {@link Deflater#BEST_SPEED}. */
  private static final class FastGzipOutputStream extends GZIPOutputStream {
    FastGzipOutputStream(OutputStream out) throws IOException {
      super(out, IO_BUFFER_BYTES);
      def.setLevel(Deflater.BEST_SPEED);
    }
  }
}
