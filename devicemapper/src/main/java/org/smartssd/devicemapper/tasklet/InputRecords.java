package org.smartssd.devicemapper.tasklet;

import java.nio.ByteBuffer;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.RecordBoundaries;
import org.smartssd.device.tasklet.RecordFormat;

/**
 * Presents the records of the device's chunks exactly as Hadoop's own record readers would: runs
 * inside the device. The key and value objects are reused from record to record, as Hadoop's
 * readers do.
 *
 * <ul>
 *   <li>{@link #fixedLength}: as {@code FixedLengthRecordReader}: key {@code LongWritable} (the
 *       record's byte offset in the file), value {@code BytesWritable} (the record's bytes).
 *   <li>{@link #lines}: as {@code LineRecordReader} without a custom delimiter: key {@code
 *       LongWritable} (the line's byte offset), value {@code Text} (the line without its end); a
 *       line ends at '\n', "\r\n" or a lone '\r'. The device cuts records at '\n'; a lone '\r'
 *       inside one ends a line too, as Hadoop's {@code LineReader} does.
 *   <li>{@link #delimited}: as {@code LineRecordReader} with a one-byte
 *       {@code textinputformat.record.delimiter}: records end at that byte alone.
 *   <li>{@link #keyValue}: as {@code KeyValueLineRecordReader}: the lines of {@link #lines}, each
 *       cut at the first separator byte into a key {@code Text} and a value {@code Text} (a line
 *       without one is all key, with an empty value).
 * </ul>
 *
 * <p>The device gives each chunk its records' ends ({@link DataChunk#boundaries()}), found while it
 * cut them: lines and delimited records are not scanned for their ends a second time (a chunk
 * without them, from a test, is).
 *
 * <p>For lines, as {@code LineRecordReader} does, a UTF-8 byte order mark at the start of the file
 * is left out of the first line. {@code mapreduce.input.linerecordreader.line.maxlength} is not
 * supported: {@code LineRecordReader} gives the line after skipped ones the key of the first one
 * skipped, which a lane cannot know when another lane skipped it (such a job's splits run on the
 * host).
 */
abstract class InputRecords {
  protected final LongWritable key = new LongWritable();
  protected byte[] buffer = new byte[8192];
  protected int length;
  protected int position;
  protected long base;
  /** The chunk's record ends as the device found them, or null (then the bytes are scanned for them). */
  protected RecordBoundaries ends;
  /** The next record's index in {@link #ends}. */
  protected int nextRecord;

  abstract RecordFormat format();

  /** Moves to the next record of the chunk; false when it has no more. */
  abstract boolean next();

  abstract Object value();

  Object key() {
    return key;
  }

  /**
   * Maps every record of the chunk ({@link #reset}) with the job's mapper, {@code current} naming the
   * record being mapped (for a mapper that asks its context for it).
   */
  @SuppressWarnings("rawtypes")
  void mapAll(MapperDriver driver, org.apache.hadoop.mapreduce.Mapper.Context context,
      MapReduceTasklet.CurrentRecord current) throws Exception {
    while (next()) {
      Object k = key();
      Object v = value();
      current.key = k;
      current.value = v;
      driver.runMap(k, v, context);
    }
  }

  /** Starts on a chunk's records (the chunk is valid only during the event that brings it, so it is copied). */
  void reset(DataChunk chunk) {
    ByteBuffer data = chunk.data();
    length = data.remaining();
    if (buffer.length < length) {
      buffer = new byte[Math.max(length, buffer.length * 2)];
    }
    data.duplicate().get(buffer, 0, length);
    position = 0;
    base = chunk.offset();
    ends = chunk.boundaries();
    nextRecord = 0;
  }

  /**
   * The end of the record starting at {@link #position} (just past its delimiter, or the chunk's
   * end): from the chunk's boundaries when it has them, else by looking for {@code delimiter}.
   */
  protected final int recordEnd(byte delimiter) {
    if (ends != null) {
      return ends.end(nextRecord++);
    }
    int at = indexOf(delimiter, position, length);
    return at < 0 ? length : at + 1;
  }

  static InputRecords fixedLength(int recordLength) {
    return new FixedLength(recordLength);
  }

  static InputRecords lines() {
    return new Lines();
  }

  static InputRecords delimited(byte delimiter) {
    return new Delimited(delimiter);
  }

  static InputRecords keyValue(byte separator) {
    return new KeyValueLines(separator);
  }

  private static final class FixedLength extends InputRecords {
    private final int recordLength;
    /** As {@code FixedLengthRecordReader} makes it: a record's bytes, read into its array each time. */
    private final BytesWritable value;

    FixedLength(int recordLength) {
      this.recordLength = recordLength;
      this.value = new BytesWritable(new byte[recordLength]);
    }

    @Override
    RecordFormat format() {
      return RecordFormat.fixedLength(recordLength);
    }

    @Override
    boolean next() {
      if (position + recordLength > length) {
        return false;
      }
      key.set(base + position);
      // As FixedLengthRecordReader reads a record: its size set to the record's, then into its own array.
      byte[] bytes = value.getBytes();
      if (value.getLength() == recordLength && bytes.length >= recordLength) {
        System.arraycopy(buffer, position, bytes, 0, recordLength);
      } else {
        value.set(buffer, position, recordLength);
      }
      position += recordLength;
      return true;
    }

    @Override
    Object value() {
      return value;
    }

    /** The chunk's records one after another, from local state: the key and value are the same objects throughout. */
    @Override
    @SuppressWarnings("rawtypes")
    void mapAll(MapperDriver driver, org.apache.hadoop.mapreduce.Mapper.Context context,
        MapReduceTasklet.CurrentRecord current) throws Exception {
      LongWritable k = key;
      BytesWritable v = value;
      current.key = k;
      current.value = v;
      byte[] in = buffer;
      int n = recordLength;
      long at = base;
      int last = length - n;
      int p = position;
      try {
        for (; p <= last; p += n) {
          k.set(at + p);
          // As FixedLengthRecordReader reads a record: its size set to the record's (again, if the mapper
          // changed it), then into the value's own array, which is never shorter than its size (every
          // BytesWritable method that sets one keeps it so, and this value was made with its array).
          byte[] bytes = v.getBytes();
          if (v.getLength() == n) {
            System.arraycopy(in, p, bytes, 0, n);
          } else {
            v.set(in, p, n);
          }
          driver.runMap(k, v, context);
        }
      } finally {
        position = p;
      }
    }
  }

  /** Lines of text: what the two line formats share. */
  private abstract static class TextLines extends InputRecords {
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    protected final Text value = new Text();

    @Override
    Object value() {
      return value;
    }

    /**
     * Presents the line at {@code [start, end)} ended by {@code terminator} bytes; false for the
     * one line LineRecordReader does not return: a byte order mark alone at the end of the file.
     */
    protected boolean line(int start, int end, int terminator) {
      long offset = base + start;
      int from = start;
      if (offset == 0 && end - start >= BOM.length && buffer[start] == BOM[0] && buffer[start + 1] == BOM[1]
          && buffer[start + 2] == BOM[2]) {
        from += BOM.length; // and, as LineRecordReader counts it, not part of the line's size
      }
      if (end - from + terminator == 0) {
        return false;
      }
      key.set(offset);
      value.set(buffer, from, end - from);
      return true;
    }
  }

  private static class Lines extends TextLines {
    /** The device record being presented: its content ends at contentEnd, the record at recordEnd. */
    private int contentEnd;
    private int recordEnd;
    private boolean inRecord;

    Lines() {}

    @Override
    RecordFormat format() {
      return RecordFormat.lines();
    }

    @Override
    void reset(DataChunk chunk) {
      super.reset(chunk);
      inRecord = false;
    }

    @Override
    boolean next() {
      while (true) {
        if (!inRecord) {
          if (position >= length) {
            return false;
          }
          recordEnd = recordEnd((byte) '\n');
          contentEnd = buffer[recordEnd - 1] == '\n' ? recordEnd - 1 : recordEnd;
          inRecord = true;
          if (position == contentEnd) { // an empty line: "\n" alone
            inRecord = false;
            int start = position;
            position = recordEnd;
            if (line(start, start, recordEnd - start)) {
              return true;
            }
            continue;
          }
        }
        if (position >= contentEnd) { // the content ended with a lone '\r' at the end of the file
          position = recordEnd;
          inRecord = false;
          continue;
        }
        int start = position;
        int cr = indexOf((byte) '\r', start, contentEnd);
        int end;
        int terminator;
        if (cr < 0) {
          end = contentEnd;
          terminator = recordEnd - contentEnd;
          position = recordEnd;
          inRecord = false;
        } else if (cr + 1 == contentEnd && contentEnd < recordEnd) { // "\r\n"
          end = cr;
          terminator = 2;
          position = recordEnd;
          inRecord = false;
        } else { // a lone '\r'
          end = cr;
          terminator = 1;
          position = cr + 1;
        }
        if (line(start, end, terminator)) {
          return true;
        }
      }
    }
  }

  /** Lines cut into a key and a value at the first separator, as {@code KeyValueLineRecordReader} cuts them. */
  private static final class KeyValueLines extends Lines {
    private final byte separator;
    private final Text lineKey = new Text();
    private final Text lineValue = new Text();

    KeyValueLines(byte separator) {
      this.separator = separator;
    }

    @Override
    boolean next() {
      if (!super.next()) {
        return false;
      }
      byte[] line = value.getBytes();
      int length = value.getLength();
      int at = -1;
      for (int i = 0; i < length; i++) {
        if (line[i] == separator) {
          at = i;
          break;
        }
      }
      if (at < 0) {
        lineKey.set(line, 0, length);
        lineValue.set(line, 0, 0);
      } else {
        lineKey.set(line, 0, at);
        lineValue.set(line, at + 1, length - at - 1);
      }
      return true;
    }

    @Override
    Object key() {
      return lineKey;
    }

    @Override
    Object value() {
      return lineValue;
    }
  }

  private static final class Delimited extends TextLines {
    private final byte delimiter;

    Delimited(byte delimiter) {
      this.delimiter = delimiter;
    }

    @Override
    RecordFormat format() {
      return RecordFormat.delimited(delimiter);
    }

    @Override
    boolean next() {
      while (position < length) {
        int start = position;
        position = recordEnd(delimiter);
        int end = buffer[position - 1] == delimiter ? position - 1 : position;
        if (line(start, end, position - end)) {
          return true;
        }
      }
      return false;
    }
  }

  private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
      long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * The first {@code b} in {@code buffer[from, to)}, or -1: eight bytes at a time (a word whose bytes are
   * each {@code b} xor the next eight has a zero byte where one of them is {@code b}; the lowest byte with
   * its high bit set in {@code (x - 0x01..01) & ~x & 0x80..80} is the first zero byte), the rest one by one.
   */
  protected final int indexOf(byte b, int from, int to) {
    byte[] in = buffer;
    int i = from;
    if (to - from >= 8) {
      long pattern = (b & 0xFFL) * ONES;
      for (int last = to - 8; i <= last; i += 8) {
        long x = (long) LONGS.get(in, i) ^ pattern;
        long zeros = (x - ONES) & ~x & HIGHS;
        if (zeros != 0) {
          return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
        }
      }
    }
    for (; i < to; i++) {
      if (in[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
