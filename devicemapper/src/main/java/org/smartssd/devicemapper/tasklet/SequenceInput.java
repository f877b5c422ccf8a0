package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.smartssd.device.tasklet.DataChunk;

/**
 * A split of an uncompressed SequenceFile taken apart in the device as Hadoop's {@code
 * SequenceFileRecordReader} takes it: the owner lane gets the split's bytes in order, and past its end
 * (the engine's {@code STREAM}, reading {@link #readPast} more), and finds its records.
 *
 * <ul>
 *   <li>Where they start: a split that starts at or before the end of the file's header starts at its
 *       first record; another starts at the first sync mark whose 16 bytes start at least 4 bytes into
 *       it (the 4 before them are the mark's escape, -1), as {@code SequenceFile.Reader.sync} finds it.
 *       A split whose start so found is at or past its end has no record.
 *   <li>Each record: its length (an int; -1 is the escape before a sync mark, which is checked against
 *       the file's), its key's length, the key's bytes, the value's bytes.
 *   <li>Where they stop: at the file's end, or at the first record at or past the split's end that a
 *       sync mark comes before (that record is the next split's first).
 * </ul>
 *
 * <p>Records are handed on as the key's and the value's bytes; the keys and values are the
 * Writables' own serializations, which the caller reads into its instances.
 */
final class SequenceInput {

  /** Receives a record: its key's and value's bytes in {@code bytes}, valid only during the call. */
  interface Records {
    void accept(byte[] bytes, int keyOffset, int keyLength, int valueOffset, int valueLength) throws Exception;
  }

  /** The escape before a sync mark, where a record's length would be. */
  private static final int SYNC_ESCAPE = -1;
  private static final int SYNC_HASH_SIZE = 16;
  /** The escape and the mark. */
  private static final int SYNC_SIZE = 4 + SYNC_HASH_SIZE;
  /**
   * How far apart a SequenceFile's writer puts its sync marks: a mark before the first record that
   * starts this many bytes after the last mark (Hadoop 3.5.0's {@code SequenceFile.SYNC_INTERVAL},
   * 102,400; a writer may be given another).
   */
  static final int SYNC_INTERVAL = 5 * 1024 * SYNC_SIZE;

  private final String path;
  private final long splitEnd;
  private final long headerEnd;
  private final byte[] sync;
  private final long fileLength;
  /** Where the bytes the device reads end: the split's end and {@link #readPast} more, or the file's end. */
  private final long readEnd;
  private final int maxRecordBytes;
  private final Records records;

  /** Bytes held: {@code buffer[0]} is the file's byte {@code bufferOffset}; {@code length} of them. */
  private byte[] buffer = new byte[64 * 1024];
  private long bufferOffset = -1;
  private int length;
  /** The file offset of the next record (or, before {@link #found}, where the search for a sync mark is). */
  private long position;
  private boolean found;
  private boolean done;

  /**
   * @param splitStart the split's first byte, where its bytes start coming
   * @param splitEnd just past the split's last byte
   * @param headerEnd the file offset of its first record
   * @param sync its sync mark (16 bytes)
   * @param maxRecordBytes the longest record the device lets a tasklet hold
   */
  SequenceInput(String path, long splitStart, long splitEnd, long headerEnd, byte[] sync, long fileLength,
      int maxRecordBytes, Records records) {
    if (sync.length != SYNC_HASH_SIZE) {
      throw new IllegalArgumentException("a sync mark has " + SYNC_HASH_SIZE + " bytes, not " + sync.length);
    }
    this.path = path;
    this.splitEnd = splitEnd;
    this.headerEnd = headerEnd;
    this.sync = sync.clone();
    this.fileLength = fileLength;
    this.maxRecordBytes = maxRecordBytes;
    this.readEnd = splitStart >= splitEnd ? splitStart : Math.min(fileLength, splitEnd + readPast(maxRecordBytes));
    this.records = records;
    if (splitStart >= splitEnd) {
      done = true; // an empty split has no record
    } else if (splitStart <= headerEnd) {
      position = headerEnd; // the file's first record
      found = true;
    } else if (splitStart + SYNC_SIZE >= fileLength) {
      done = true; // SequenceFile.Reader.sync: too close to the end for a mark
    } else {
      position = splitStart + 4; // where the mark's 16 bytes may start
    }
  }

  /**
   * How many bytes past a split's end its reader may need: its last record may start just before the
   * end, and records go on until a sync mark, at most {@link #SYNC_INTERVAL} of records later.
   */
  static int readPast(int maxRecordBytes) {
    return (int) Math.min(Integer.MAX_VALUE, 2L * maxRecordBytes + SYNC_INTERVAL + 2L * SYNC_SIZE);
  }

  /** The next bytes of the split, in order from its start. */
  void feed(DataChunk chunk) throws Exception {
    if (done) {
      return; // past the last record: the rest was read for nothing
    }
    ByteBuffer data = chunk.data();
    int n = data.remaining();
    if (bufferOffset < 0) {
      bufferOffset = chunk.offset();
    } else if (chunk.offset() != bufferOffset + length) {
      throw new IOException(path + ": bytes at " + chunk.offset() + " came where " + (bufferOffset + length)
          + " was next; the device must hand a SequenceFile's split over in order");
    }
    discardBefore(Math.min(position, bufferOffset + length));
    if (buffer.length - length < n) {
      byte[] larger = new byte[Math.max(length + n, 2 * buffer.length)];
      System.arraycopy(buffer, 0, larger, 0, length);
      buffer = larger;
    }
    data.duplicate().get(buffer, length, n);
    length += n;
    parse();
  }

  /** Every byte the device read came: the records that need none after them are out, or it fails. */
  void finish() throws Exception {
    if (done || bufferOffset < 0) {
      return; // a lane that got none of the split's bytes (another lane owns it) has no record
    }
    parse();
    if (done) {
      return;
    }
    long held = bufferOffset + length;
    if (!found && held >= fileLength) {
      return; // no sync mark after the split's start: no record (the reader finds none to its end)
    }
    if (readEnd < fileLength) {
      throw new IOException(path + ": the split's records run past the " + (readEnd - splitEnd) + " bytes after"
          + " it that the device reads (a record of up to " + maxRecordBytes + " bytes, then sync marks at most "
          + SYNC_INTERVAL + " bytes apart): was the file written with a longer sync interval?");
    }
    throw new IOException(path + ": the file ends inside the record at byte " + position);
  }

  private void parse() throws Exception {
    if (bufferOffset < 0 || (!found && !findSync())) {
      return;
    }
    while (!done) {
      long pos = position;
      if (pos >= fileLength) {
        done = true;
        return;
      }
      int at = (int) (pos - bufferOffset);
      if (length - at < 4) {
        return;
      }
      int recordLength = readInt(at);
      boolean syncSeen = false;
      int header = 4;
      if (recordLength == SYNC_ESCAPE) {
        if (length - at < SYNC_SIZE) {
          return;
        }
        for (int i = 0; i < SYNC_HASH_SIZE; i++) {
          if (buffer[at + 4 + i] != sync[i]) {
            throw new IOException(path + ": File is corrupt! The sync mark at byte " + (pos + 4) + " is not the"
                + " file's");
          }
        }
        syncSeen = true;
        if (pos + SYNC_SIZE >= fileLength) {
          done = true;
          return;
        }
        if (length - at < SYNC_SIZE + 4) {
          return;
        }
        recordLength = readInt(at + SYNC_SIZE);
        header = SYNC_SIZE + 4;
      }
      if (length - at < header + 4) {
        return;
      }
      int keyLength = readInt(at + header);
      if (recordLength < 0 || keyLength < 0 || keyLength > recordLength) {
        throw new IOException(path + ": the record at byte " + pos + " has a length of " + recordLength
            + " and a key of " + keyLength + " bytes");
      }
      if (recordLength > maxRecordBytes) {
        throw new IOException(path + ": the record at byte " + pos + " has " + recordLength + " bytes, more than "
            + maxRecordBytes + ", the most the device allows (smartssd.device.isp.max-record-bytes)");
      }
      int keyAt = at + header + 4;
      if (length - keyAt < recordLength) {
        return;
      }
      if (pos >= splitEnd && syncSeen) {
        done = true; // the next split's
        return;
      }
      position = pos + (keyAt - at) + recordLength;
      records.accept(buffer, keyAt, keyLength, keyAt + keyLength, recordLength - keyLength);
    }
  }

  /**
   * Looks for the sync mark from {@link #position} on, in the bytes held; true once found (the first
   * record is then the escape 4 bytes before it).
   */
  private boolean findSync() throws IOException {
    if (bufferOffset < 0) {
      return false;
    }
    int from = (int) (position - bufferOffset);
    int last = length - SYNC_HASH_SIZE;
    for (int i = from; i <= last; i++) {
      if (buffer[i] == sync[0] && matches(i)) {
        found = true;
        position = bufferOffset + i - 4;
        if (position >= splitEnd) {
          done = true; // Hadoop's reader: its start is at or past its end
        }
        return !done;
      }
    }
    // Not in what is held: go on from the bytes that could still begin a mark.
    position = bufferOffset + Math.max(from, last + 1);
    if (position + SYNC_HASH_SIZE > fileLength) {
      done = true; // no mark to the file's end: no record
    }
    return false;
  }

  private boolean matches(int at) {
    for (int j = 1; j < SYNC_HASH_SIZE; j++) {
      if (buffer[at + j] != sync[j]) {
        return false;
      }
    }
    return true;
  }

  private int readInt(int at) {
    return ((buffer[at] & 0xFF) << 24) | ((buffer[at + 1] & 0xFF) << 16) | ((buffer[at + 2] & 0xFF) << 8)
        | (buffer[at + 3] & 0xFF);
  }

  /** Drops the held bytes before file offset {@code offset}. */
  private void discardBefore(long offset) {
    int drop = (int) (offset - bufferOffset);
    if (drop <= 0) {
      return;
    }
    System.arraycopy(buffer, drop, buffer, 0, length - drop);
    length -= drop;
    bufferOffset = offset;
  }
}
