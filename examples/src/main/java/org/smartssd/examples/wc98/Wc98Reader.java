package org.smartssd.examples.wc98;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a trace file of 20-byte records, plain or gzip-compressed (told apart by the gzip magic bytes,
 * not by the name), streaming: memory does not grow with the file.
 *
 * <p>Every record is validated. A bad record (region 4 or more, unknown method, type or status index),
 * a truncated tail (content not a multiple of 20 bytes) or corrupt gzip data raises a
 * {@link Wc98FormatException} naming the file and the byte offset of the bad record in the
 * uncompressed content. The reader streams, so <b>the records before the bad one have already been
 * delivered</b> when the exception is raised; a caller that must not leave partial output behind
 * writes to a temporary file and renames it only when the whole input was read. After an exception
 * the reader raises the same exception again on every call.
 */
public final class Wc98Reader implements Closeable {
  private static final int BUFFER_RECORDS = 8192;
  private static final int IO_BUFFER_BYTES = 1 << 16;

  private final String name;
  private final boolean compressed;
  private final InputStream in;
  private final byte[] buffer = new byte[BUFFER_RECORDS * Wc98Record.BYTES];
  private final ByteBuffer records = ByteBuffer.wrap(buffer).limit(0);
  /** Offset in the content of {@code buffer[0]}. */
  private long bufferStart;
  private boolean endOfInput;
  private long delivered;
  private Wc98FormatException failure;

  private Wc98Reader(String name, boolean compressed, InputStream in) {
    this.name = name;
    this.compressed = compressed;
    this.in = in;
  }

  /** Opens a trace file, plain or gzip-compressed. */
  public static Wc98Reader open(Path file) throws IOException {
    InputStream raw = Files.newInputStream(file);
    try {
      return open(raw, file.toString());
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /**
   * Reads a trace from a stream, plain or gzip-compressed; the reader owns the stream and closes it.
   *
   * @param name what error messages call the stream, e.g. its file name
   */
  public static Wc98Reader open(InputStream stream, String name) throws IOException {
    BufferedInputStream buffered = new BufferedInputStream(stream, IO_BUFFER_BYTES);
    buffered.mark(2);
    int first = buffered.read();
    int second = buffered.read();
    buffered.reset();
    if (first == 0x1f && second == 0x8b) {
      try {
        return new Wc98Reader(name, true, new GZIPInputStream(buffered, IO_BUFFER_BYTES));
      } catch (ZipException | EOFException e) {
        throw new Wc98FormatException(name, 0, "corrupt gzip header: " + e.getMessage(), e);
      }
    }
    return new Wc98Reader(name, false, buffered);
  }

  /** The name given to the reader. */
  public String name() {
    return name;
  }

  /** Whether the content was gzip-compressed. */
  public boolean compressed() {
    return compressed;
  }

  /** Records returned so far. */
  public long recordsRead() {
    return delivered;
  }

  /** The offset in the content of the next record, i.e. bytes of records returned so far. */
  public long offset() {
    return bufferStart + records.position();
  }

  /**
   * The next record, or {@code null} at the end of the trace.
   *
   * @throws Wc98FormatException if the next record is invalid or truncated, or the gzip data corrupt
   */
  public Wc98Record next() throws IOException {
    if (failure != null) {
      throw failure;
    }
    if (records.remaining() < Wc98Record.BYTES) {
      fill();
      if (!records.hasRemaining()) {
        return null;
      }
      if (records.remaining() < Wc98Record.BYTES) {
        throw fail(offset(), "truncated record: the file ends " + records.remaining() + " bytes into a "
            + Wc98Record.BYTES + "-byte record");
      }
    }
    long offset = offset();
    Wc98Record record;
    try {
      record = Wc98Record.read(records);
    } catch (IllegalArgumentException e) {
      records.position((int) (offset - bufferStart));
      throw fail(offset, e.getMessage());
    }
    delivered++;
    return record;
  }

  /**
   * Gives every remaining record to a sink, in order.
   *
   * @return the number of records given
   * @throws Wc98FormatException at the first bad record, after the good ones before it were given
   */
  public long forEach(RecordSink sink) throws IOException {
    long n = 0;
    for (Wc98Record r = next(); r != null; r = next()) {
      sink.accept(r);
      n++;
    }
    return n;
  }

  /**
   * The remaining records as an ordered, sequential stream; closing the stream closes the reader. An
   * I/O or format error surfaces as an {@link UncheckedIOException} whose cause is the
   * {@link IOException} (a {@link Wc98FormatException} for a bad record).
   */
  public Stream<Wc98Record> stream() {
    Spliterator<Wc98Record> spliterator = new Spliterators.AbstractSpliterator<>(
        Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL) {
      @Override
      public boolean tryAdvance(Consumer<? super Wc98Record> action) {
        Wc98Record r;
        try {
          r = next();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        if (r == null) {
          return false;
        }
        action.accept(r);
        return true;
      }
    };
    return StreamSupport.stream(spliterator, false).onClose(() -> {
      try {
        close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** Moves the partial record left in the buffer to its start and reads until the buffer is full or the input ends. */
  private void fill() throws IOException {
    int leftover = records.remaining();
    bufferStart += records.position();
    System.arraycopy(buffer, records.position(), buffer, 0, leftover);
    int filled = leftover;
    while (!endOfInput && filled < buffer.length) {
      int n;
      try {
        n = in.read(buffer, filled, buffer.length - filled);
      } catch (ZipException | EOFException e) {
        records.position(0).limit(filled);
        throw fail(bufferStart + filled, "corrupt or truncated gzip data: " + e.getMessage());
      }
      if (n < 0) {
        endOfInput = true;
      } else {
        filled += n;
      }
    }
    records.position(0).limit(filled);
  }

  private Wc98FormatException fail(long offset, String problem) {
    failure = new Wc98FormatException(name, offset, problem);
    return failure;
  }
}
