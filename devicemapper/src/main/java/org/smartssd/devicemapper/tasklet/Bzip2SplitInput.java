package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.ZipException;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.RecordBoundaries;

/**
 * A split of a bzip2 text file taken apart in the device as Hadoop 3.5.0's {@code LineRecordReader}
 * takes it: the lane of the split's first byte gets the split's bytes in order and {@link #readPast}
 * more (the engine's {@code STREAM}), decompresses them with {@link Bzip2Decoder} in split mode
 * (from the first block whose magic starts in a byte at or after the split's start, as {@code
 * BZip2Codec}'s {@code BYBLOCK} reader), and hands on exactly the records Hadoop's reader gives for
 * the split, in chunks of whole records that {@link InputRecords} presents.
 *
 * <h2>What Hadoop's reader does, and what is copied of it</h2>
 *
 * {@code LineRecordReader} reads a bzip2 split through {@code CompressedSplitLineReader}, a {@code
 * LineReader} over the codec's stream; it decides where to stop from the stream's {@code getPos()}
 * alone, which moves only when the line reader refills its buffer ({@code in.read(buffer)}). So this
 * class follows when that happens, not just the lines:
 *
 * <ul>
 *   <li>The reads: none spans two blocks, and a block's first read (its first byte alone, but in the
 *       first block of a split at 0) is the only one that moves {@code getPos()}: to p(k) + 1 for
 *       block k at position p(k) (the byte of its magic's first bit, {@link
 *       Bzip2Decoder.Output#block}); in the first block of a split at 0 it stays 0; before the first
 *       read of a split at s > 0 it is p(1); the read that finds the end of the file makes it the
 *       file's length + 1. The line reader makes a block's first read when it first needs that
 *       block's first byte, whatever its buffer's size ({@code io.file.buffer.size}): the other reads
 *       of a block decide nothing, and the records do not depend on the buffer's size (the tests
 *       compare buffers of 4096, 17 and 1 byte with Hadoop's reader).
 *   <li>The keys: the split's start s, plus, at s > 0, the bytes of the first line (read and thrown
 *       away), then each record's bytes: a record's key is s plus its offset in the decompressed
 *       stream from the first block read (at s = 0, its offset in the file's decompressed stream).
 *   <li>A readLine ({@code CompressedSplitLineReader.readLine}) sets {@code finished} when it starts
 *       with {@code getPos()} past the split's end; once finished it reads nothing. The first
 *       readLine, at s > 0, is the skipped first line. Each later one is made while {@code
 *       getPos() <= end || (!finished && needAdditionalRecord)} ({@code nextKeyValue}); a readLine
 *       that reads no byte (the end of the file) ends the records.
 *   <li>{@code needAdditionalRecord} ({@code CompressedSplitLineReader.fillBuffer}): set by the one
 *       read that moves {@code getPos()} past the split's end (a block's first read) when it is made
 *       in the middle of a line end (with the default line ends: a CR ended the block before) and
 *       returns a byte, to whether that byte is not LF (so a lone CR at the end of the block before
 *       takes one record more). Never cleared. With a one-byte custom delimiter it is never set (a
 *       one-byte delimiter is never cut by a refill).
 *   <li>Lines end at LF, CR LF or a lone CR (a CR LF cut by a refill is still one end), or at the
 *       custom delimiter alone; the last one at the end of the file may have no end. The first
 *       line's UTF-8 byte order mark at s = 0, and a first line that is only one at the end of the file,
 *       are {@link InputRecords}'s to leave out, as for uncompressed lines.
 * </ul>
 *
 * <p>Decisions are made as early as the reader's state allows (a record's readLine is decided when
 * the previous record has ended and, after a CR, its next byte has been seen), and once the reader
 * has stopped the decoder is dropped: nothing past what Hadoop's reader would read is decompressed
 * but the rest of the block being output.
 *
 * <h2>Memory, and how far past the split it reads</h2>
 *
 * Held: the decoder (4 bytes per block byte of the file's level, 3.6 MB at level 9, and a 32 KiB
 * output buffer), the record being read and the whole records of the current piece of decompressed
 * output (at most 32 KiB) before they are handed on. A record longer than {@code maxRecordBytes}
 * (its bytes and its end) fails the execution, as the engine fails one it cuts itself; the first
 * line of a split at s > 0, thrown away, is not held.
 *
 * <p>{@link #readPast(int, int)}: past the split's end the reader may need the rest of the block the
 * end falls in, the next block (its first byte, which moves {@code getPos()} past the end, comes out
 * only once all of it is read), and up to two records (the one being read when the position passes
 * the end, and one more that {@code needAdditionalRecord} asks for) with a CR's look at the byte after
 * them, running into further blocks, the last of which is read whole. A block of level L holds at
 * most L × 100 000 bytes before its last run-length coding; the device takes a block to compress to
 * at most 5/4 of that and 1 KiB, and a record's blocks to at most 5/4 of its bytes. So it reads
 * three such blocks and 5/4 of two records of {@code maxRecordBytes} past the end. If the bytes read
 * end before the file does while a record is still needed, the execution fails, naming the file, the
 * split and where the reader was: it never cuts a record short.
 *
 * <h2>Differences from Hadoop</h2>
 *
 * The reader is given the level of the file's first stream; a later stream of a larger level fails
 * the execution (the decoder's message names the level). Damaged data fails as {@link Bzip2Decoder}
 * says (a block's bytes go out before its CRC is checked, as Hadoop's reader returns them), where
 * Hadoop's reader could fail elsewhere or, past the point it stops reading, not at all; trailing
 * garbage after a stream is an error (Hadoop's split reader skips it, looking for a block).
 */
final class Bzip2SplitInput {

  /** The blocks' size unit: level × 100 000 bytes. */
  private static final int LEVEL_BYTES = 100_000;
  /** No line delimiter byte: the default line ends (LF, CR LF, lone CR). */
  static final int DEFAULT_LINES = -1;

  /** Thrown from the decoder's output once the reader stopped: ends the decoding of the feed. */
  private static final class Stop extends IOException {
    Stop() {
      super("the split's reader has stopped");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this; // not an error: no trace to make
    }
  }

  /** The job's own exception, carried out through the decoder. */
  private static final class JobFailure extends IOException {
    JobFailure(Exception cause) {
      super(cause);
    }
  }

  private final String path;
  private final long start;
  private final long end;
  private final long fileLength;
  private final int level;
  /** The custom delimiter byte (0 to 255), or {@link #DEFAULT_LINES}. */
  private final int delimiter;
  private final int maxRecordBytes;
  private final CompressedInput.Records records;
  /** Where the bytes the device reads end: the split's end and readPast more, or the file's end. */
  private final long readEnd;
  /** Made with the first bytes: the lanes that get none of the split's bytes allocate no block. */
  private Bzip2Decoder decoder;

  // ---- the codec stream's reads, as Hadoop's line reader makes them ----
  /** Blocks begun, the current one's position p(k). */
  private long blocks;
  private long blockPosition;
  /** The next byte is a block's first: the line reader needs the block's first read for it. */
  private boolean blockUnread;
  /** Hadoop's getPos() after the reads made so far. */
  private long hadoopPos;

  // ---- the line reader and LineRecordReader ----
  /** The decompressed bytes consumed by the line reader, from the split's first block. */
  private long offset;
  /** A readLine is under way: its line starts at lineStart; returned: it is a record, not the skipped first line. */
  private boolean inLine;
  private boolean returned;
  private long lineStart;
  /** The line's last byte is a CR, which ends it unless an LF follows (default line ends only). */
  private boolean crPending;
  private boolean finished;
  private boolean needAdditionalRecord;
  /** The reader has stopped: it gives no more records. */
  private boolean done;

  // ---- records not yet handed on ----
  /** pending[0, pendingLength): whole records, then the record being read; pending[0] has key pendingKey. */
  private byte[] pending = new byte[64 * 1024];
  private int pendingLength;
  private long pendingKey;
  /** Where the whole records in pending end. */
  private int[] ends = new int[1024];
  private int count;

  private byte[] input = new byte[0];
  /** The file offset of the next compressed byte expected, or -1 before the first. */
  private long nextOffset = -1;
  private boolean ended;

  /**
   * @param start the split's first byte, where its bytes start coming
   * @param end just past the split's last byte
   * @param fileLength the file's length
   * @param level the block size level in the file's header (1 to 9)
   * @param delimiter the one-byte custom record delimiter (0 to 255), or {@link #DEFAULT_LINES}
   * @param maxRecordBytes the longest record the device lets a tasklet hold
   */
  Bzip2SplitInput(String path, long start, long end, long fileLength, int level, int delimiter, int maxRecordBytes,
      CompressedInput.Records records) {
    if (start < 0 || end <= start || end > fileLength) {
      throw new IllegalArgumentException(path + ": split [" + start + ", " + end + ") of a file of " + fileLength
          + " bytes");
    }
    if (delimiter < DEFAULT_LINES || delimiter > 255) {
      throw new IllegalArgumentException("the record delimiter " + delimiter + " is not a byte");
    }
    this.path = path;
    this.start = start;
    this.end = end;
    this.fileLength = fileLength;
    this.level = level;
    this.delimiter = delimiter;
    this.maxRecordBytes = maxRecordBytes;
    this.records = records;
    this.readEnd = Math.min(fileLength, end + readPast(level, maxRecordBytes));
    if (start == 0) {
      nextReadLine(); // the first record's readLine: getPos() is 0, not past the end
    }
  }

  /**
   * How many bytes past a split's end its reader may need (see the class comment): three blocks of
   * the level, compressed, and two records of {@code maxRecordBytes}, compressed.
   */
  static int readPast(int level, int maxRecordBytes) {
    if (level < 1 || level > Bzip2Decoder.MAX_LEVEL) {
      throw new IllegalArgumentException("bzip2 block size level " + level + " is not 1 to 9");
    }
    return (int) Math.min(Integer.MAX_VALUE, 3 * compressedBlockBytes(level) + 2 * (maxRecordBytes * 5L / 4));
  }

  /** The most compressed bytes the device takes a block of the level to have: 5/4 of its size and 1 KiB. */
  static long compressedBlockBytes(int level) {
    return level * (long) LEVEL_BYTES * 5 / 4 + 1024;
  }

  /** The next compressed bytes of the split, in order from its start. */
  void feed(DataChunk chunk) throws Exception {
    ByteBuffer data = chunk.data();
    int n = data.remaining();
    if (nextOffset < 0) {
      if (chunk.offset() != start) {
        throw new IOException(path + ": the split's bytes started at " + chunk.offset() + ", not at its start "
            + start);
      }
      decoder = Bzip2Decoder.split(new Bzip2Decoder.Output() {
        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
          decompressed(bytes, offset, length);
        }

        @Override
        public void block(long position) throws IOException {
          blockStarts(position);
        }
      }, start, level);
    }
    if (nextOffset >= 0 && chunk.offset() != nextOffset) {
      throw new IOException(path + ": compressed bytes at " + chunk.offset() + " came where " + nextOffset
          + " was next; the device must hand a compressed split over in order");
    }
    nextOffset = chunk.offset() + n;
    if (nextOffset > readEnd) {
      throw new IOException(path + ": the device handed over bytes up to " + nextOffset + ", past " + readEnd
          + ", where the split and the bytes read after it end in a file of " + fileLength + " bytes");
    }
    if (done) {
      return; // the reader stopped: the rest was read for nothing
    }
    if (input.length < n) {
      input = new byte[Math.max(n, 2 * input.length)];
    }
    data.duplicate().get(input, 0, n);
    try {
      decoder.feed(input, 0, n);
    } catch (Stop stop) {
      // the reader has all it reads: done
    } catch (JobFailure e) {
      throw (Exception) e.getCause();
    } catch (ZipException e) {
      throw new IOException(path + ": " + e.getMessage(), e); // the decoder's: the data is damaged
    }
  }

  /** Every byte the device read came: the last records are handed on, or it fails. */
  void finish() throws Exception {
    if (ended) {
      return;
    }
    ended = true;
    if (nextOffset < 0) {
      return; // a lane that got none of the split's bytes (another lane owns it) has no record
    }
    if (done) {
      handOn();
      return;
    }
    if (nextOffset != readEnd) {
      throw new IOException(path + ": the device handed over the split's bytes up to " + nextOffset + ", not "
          + readEnd + " (its end and the bytes read after it, in a file of " + fileLength + " bytes)");
    }
    if (readEnd < fileLength) {
      throw new IOException(path + ": the split [" + start + ", " + end + ") needs more than the " + (readEnd - end)
          + " bytes after its end that the device reads (three blocks of level " + level + " and two records of "
          + maxRecordBytes + " bytes, compressed): at compressed byte " + readEnd + " its reader still "
          + (blocks == 0 ? "looks for its first block" : "reads the record at key " + (start + lineStart)
          + " (byte " + offset + " of the split's decompressed blocks)"));
    }
    try {
      decoder.finish();
    } catch (ZipException e) {
      throw new IOException(path + ": " + e.getMessage(), e);
    }
    endOfFile();
    handOn();
  }

  /** The compressed bytes decoded (fed to the decoder). */
  long compressedBytes() {
    return decoder == null ? 0 : decoder.compressedBytes();
  }

  // ---- the decoder's output ----

  private void blockStarts(long position) throws IOException {
    if (done) {
      throw new Stop();
    }
    blocks++;
    blockPosition = position;
    blockUnread = true; // no read spans two blocks
    if (blocks == 1 && start > 0) {
      hadoopPos = position; // once the stream is made
      if (position > end) {
        done = true; // the skipped first line's readLine finds getPos() past the end: no record
        throw new Stop();
      }
      // LineRecordReader.initialize: the first line is read and thrown away.
      inLine = true;
      returned = false;
      lineStart = 0;
    }
  }

  /** Decompressed bytes: the line reader's work on them, as far as the reader reads. */
  private void decompressed(byte[] b, int from, int length) throws IOException {
    int i = from;
    int stop = from + length;
    final boolean lines = delimiter == DEFAULT_LINES;
    final byte d = (byte) delimiter;
    while (i < stop && !done) {
      if (crPending) { // the line reader looks at the byte after a CR
        byte x = b[i];
        if (blockUnread && read()) {
          // the CR ended a block, and the refill that reads the next one's first byte goes past the end
          needAdditionalRecord = x != '\n';
        }
        crPending = false;
        if (x == '\n') {
          consume(b, i, 1);
          i++;
          endLine();
          continue;
        }
        endLine(); // a lone CR; x is the next line's first byte, already read
        if (done) {
          break;
        }
        consume(b, i, 1);
        i++;
        crPending = x == '\r';
        continue;
      }
      if (blockUnread) {
        read();
      }
      int limit = stop;
      int j = i;
      if (lines) {
        while (j < limit) {
          byte c = b[j];
          if (c == '\n' || c == '\r') {
            break;
          }
          j++;
        }
      } else {
        while (j < limit && b[j] != d) {
          j++;
        }
      }
      if (j == limit) {
        consume(b, i, limit - i);
        i = limit;
        continue;
      }
      consume(b, i, j + 1 - i);
      i = j + 1;
      if (lines && b[j] == '\r') {
        crPending = true;
      } else {
        endLine();
      }
    }
    handOn();
    if (done) {
      throw new Stop();
    }
  }

  /**
   * The line reader refills its buffer with the current block's first byte (or bytes). True when it
   * is the read that moves getPos() past the split's end.
   */
  private boolean read() {
    boolean before = hadoopPos > end;
    if (blocks > 1 || start > 0) {
      hadoopPos = blockPosition + 1; // the first block of a split at 0 leaves it at 0
    }
    blockUnread = false;
    return !before && hadoopPos > end;
  }

  /** The line reader consumes n bytes. */
  private void consume(byte[] b, int from, int n) throws IOException {
    offset += n;
    if (!returned) {
      return;
    }
    if (offset - lineStart > maxRecordBytes) {
      throw new IOException(path + ": the record at key " + (start + lineStart) + " (byte " + lineStart
          + " of the split's decompressed blocks) is longer than " + maxRecordBytes + " bytes, the most the device"
          + " allows (smartssd.device.isp.max-record-bytes)");
    }
    if (pending.length - pendingLength < n) {
      pending = Arrays.copyOf(pending, Math.max(pendingLength + n, 2 * pending.length));
    }
    System.arraycopy(b, from, pending, pendingLength, n);
    pendingLength += n;
  }

  /** The line being read ended (its end consumed): it is a record if it was one; the next readLine. */
  private void endLine() {
    if (returned) {
      addRecordEnd();
    }
    inLine = false;
    if (!nextReadLine()) {
      done = true;
    }
  }

  private void addRecordEnd() {
    if (count == ends.length) {
      ends = Arrays.copyOf(ends, 2 * ends.length);
    }
    ends[count++] = pendingLength;
  }

  /**
   * LineRecordReader.nextKeyValue's loop test, and CompressedSplitLineReader.readLine's {@code
   * finished}: whether a readLine is made now and reads a line; if so it is started.
   */
  private boolean nextReadLine() {
    if (!(hadoopPos <= end || (!finished && needAdditionalRecord)) || finished) {
      return false;
    }
    if (hadoopPos > end) {
      finished = true; // this is the last readLine that reads
    }
    inLine = true;
    returned = true;
    lineStart = offset;
    if (count == 0 && pendingLength == 0) {
      pendingKey = start + offset;
    }
    return true;
  }

  /** The whole file was read: the read that finds its end. */
  private void endOfFile() {
    if (done) {
      return;
    }
    done = true;
    if (!inLine) {
      return; // no block after the split's start: no record
    }
    hadoopPos = fileLength + 1;
    crPending = false;
    if (returned && offset > lineStart) {
      addRecordEnd(); // the last line, ended by the end of the file (or a CR just before it)
    }
  }

  /** Hands on the whole records pending, and keeps the bytes of the one being read. */
  private void handOn() throws IOException {
    if (count == 0) {
      return;
    }
    int length = ends[count - 1];
    try {
      records.accept(new DataChunk(path, pendingKey, ByteBuffer.wrap(pending, 0, length).asReadOnlyBuffer(),
          RecordBoundaries.of(ends, 0, count, 0)));
    } catch (Exception e) {
      throw new JobFailure(e);
    }
    System.arraycopy(pending, length, pending, 0, pendingLength - length);
    pendingLength -= length;
    pendingKey += length;
    count = 0;
  }
}
