package org.smartssd.device.runtime.ftl;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device's metadata area: a checkpoint (a snapshot of all metadata) plus a journal of the
 * changes made since, both under {@code <dataDir>/meta}. The flash translation layer and the object
 * store append their records here; what {@link #sync()} acknowledged survives a crash of the process.
 *
 * <p>Journal record: {@code u32 length, u32 crc32c, u8 type, payload} (length and crc cover type and
 * payload). A torn or corrupt tail, which only a crash mid-append can leave, is cut off at recovery.
 * A checkpoint is written to a temporary file, forced, and renamed, so a crash leaves either the old
 * checkpoint with its journal or the new one.
 */
public final class MetadataLog implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(MetadataLog.class);
  private static final Pattern CHECKPOINT = Pattern.compile("checkpoint-(\\d{12})\\.bin");
  private static final int CHECKPOINT_MAGIC = 0x53534443; // "SSDC"
  private static final int RECORD_HEADER_BYTES = 9;
  private static final int MAX_RECORD_BYTES = 64 << 20;

  /** Reads one journal record during recovery. */
  @FunctionalInterface
  public interface RecordHandler {
    void apply(int type, DataInputStream payload) throws IOException;
  }

  /** Writes the body of a checkpoint. */
  @FunctionalInterface
  public interface SnapshotWriter {
    void write(DataOutputStream out) throws IOException;
  }

  /** Reads the body of a checkpoint. */
  @FunctionalInterface
  public interface SnapshotReader {
    void read(DataInputStream in) throws IOException;
  }

  private final Path dir;
  private long sequence;
  private FileChannel journal;
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream(1 << 16);
  private long journalBytes;
  private long appendedSinceSync;

  private MetadataLog(Path dir) {
    this.dir = dir;
  }

  /**
   * Opens the metadata area, loading the newest checkpoint with {@code snapshot} (not called when
   * there is none: a new device) and then replaying its journal with {@code records}.
   */
  public static MetadataLog open(Path dataDir, SnapshotReader snapshot, RecordHandler records)
      throws IOException {
    Path dir = dataDir.resolve("meta");
    Files.createDirectories(dir);
    MetadataLog log = new MetadataLog(dir);
    log.recover(snapshot, records);
    return log;
  }

  private void recover(SnapshotReader snapshot, RecordHandler records) throws IOException {
    List<Long> checkpoints = checkpointSequences();
    sequence = 0;
    if (!checkpoints.isEmpty()) {
      sequence = checkpoints.get(checkpoints.size() - 1);
      readCheckpoint(checkpointPath(sequence), snapshot);
    }
    Path journalPath = journalPath(sequence);
    journal = FileChannel.open(journalPath, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    long good = replay(journal, records);
    if (good < journal.size()) {
      LOG.warn("{}: cutting a torn journal tail of {} bytes at offset {}", journalPath,
          journal.size() - good, good);
      journal.truncate(good);
      journal.force(true);
    }
    journal.position(good);
    journalBytes = good;
    deleteOlderThan(sequence);
  }

  /** Removes what an interrupted checkpoint left of the generation before. */
  private void deleteOlderThan(long seq) throws IOException {
    for (long old : checkpointSequences()) {
      if (old < seq) {
        Files.deleteIfExists(checkpointPath(old));
      }
    }
    for (long old = seq - 1; old >= 0 && Files.exists(journalPath(old)); old--) {
      Files.deleteIfExists(journalPath(old));
    }
  }

  private List<Long> checkpointSequences() throws IOException {
    List<Long> found = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        Matcher m = CHECKPOINT.matcher(f.getFileName().toString());
        if (m.matches()) {
          found.add(Long.parseLong(m.group(1)));
        }
      }
    }
    found.sort(null);
    return found;
  }

  private static void readCheckpoint(Path file, SnapshotReader snapshot) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length < 12) {
      throw new IOException("metadata checkpoint " + file + " is truncated (" + bytes.length + " bytes)");
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    int magic = buf.getInt(0);
    int storedCrc = buf.getInt(bytes.length - 4);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    if (magic != CHECKPOINT_MAGIC || (int) crc.getValue() != storedCrc) {
      // A checkpoint only becomes visible by an atomic rename after it was forced, so this is
      // damage from outside the device: refuse to guess.
      throw new IOException("metadata checkpoint " + file + " is corrupt (bad magic or checksum)");
    }
    try (DataInputStream in = new DataInputStream(
        new java.io.ByteArrayInputStream(bytes, 4, bytes.length - 8))) {
      snapshot.read(in);
    }
  }

  /** Replays records from the start of the journal; returns the offset just past the last good one. */
  private static long replay(FileChannel ch, RecordHandler records) throws IOException {
    long size = ch.size();
    long pos = 0;
    ByteBuffer header = ByteBuffer.allocate(RECORD_HEADER_BYTES - 1);
    while (pos + RECORD_HEADER_BYTES <= size) {
      header.clear();
      readFully(ch, header, pos);
      int length = header.getInt(0);
      int storedCrc = header.getInt(4);
      if (length < 1 || length > MAX_RECORD_BYTES || pos + 8 + length > size) {
        return pos;
      }
      ByteBuffer body = ByteBuffer.allocate(length);
      readFully(ch, body, pos + 8);
      CRC32C crc = new CRC32C();
      crc.update(body.array(), 0, length);
      if ((int) crc.getValue() != storedCrc) {
        return pos;
      }
      int type = body.get(0) & 0xFF;
      try (DataInputStream in = new DataInputStream(
          new java.io.ByteArrayInputStream(body.array(), 1, length - 1))) {
        records.apply(type, in);
      } catch (EOFException e) {
        throw new IOException("journal record of type " + type + " at offset " + pos + " is too short", e);
      }
      pos += 8 + length;
    }
    return pos;
  }

  private static void readFully(FileChannel ch, ByteBuffer dst, long position) throws IOException {
    long p = position;
    while (dst.hasRemaining()) {
      int n = ch.read(dst, p);
      if (n < 0) {
        throw new EOFException("journal ended at " + p);
      }
      p += n;
    }
  }

  /** Appends a record; it becomes durable at the next {@link #sync()}. */
  public synchronized void append(int type, byte[] payload) {
    if (payload.length + 1 > MAX_RECORD_BYTES) {
      throw new IllegalArgumentException("journal record of " + payload.length + " bytes is too large");
    }
    CRC32C crc = new CRC32C();
    crc.update(type);
    crc.update(payload, 0, payload.length);
    int length = payload.length + 1;
    pending.write(length >>> 24);
    pending.write(length >>> 16);
    pending.write(length >>> 8);
    pending.write(length);
    int c = (int) crc.getValue();
    pending.write(c >>> 24);
    pending.write(c >>> 16);
    pending.write(c >>> 8);
    pending.write(c);
    pending.write(type);
    pending.write(payload, 0, payload.length);
    appendedSinceSync++;
    if (pending.size() >= (1 << 20)) {
      // Bound memory: write out (not force) what has piled up.
      writePending();
    }
  }

  private void writePending() {
    if (pending.size() == 0) {
      return;
    }
    ByteBuffer buf = ByteBuffer.wrap(pending.toByteArray());
    try {
      while (buf.hasRemaining()) {
        journal.write(buf);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot write the metadata journal in " + dir, e);
    }
    journalBytes += pending.size();
    pending.reset();
  }

  /** Makes every appended record durable. */
  public synchronized void sync() throws IOException {
    if (appendedSinceSync == 0) {
      return;
    }
    try {
      writePending();
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
    journal.force(false);
    appendedSinceSync = 0;
  }

  /** Bytes in the journal, written or pending. */
  public synchronized long journalBytes() {
    return journalBytes + pending.size();
  }

  /**
   * Writes a new checkpoint holding all metadata and starts an empty journal. The caller holds
   * whatever lock keeps the metadata still while {@code snapshot} runs.
   */
  public synchronized void checkpoint(SnapshotWriter snapshot) throws IOException {
    sync();
    long next = sequence + 1;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(CHECKPOINT_MAGIC);
      snapshot.write(out);
    }
    CRC32C crc = new CRC32C();
    byte[] body = bytes.toByteArray();
    crc.update(body, 0, body.length);
    Path tmp = dir.resolve("checkpoint.tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.allocate(body.length + 4);
      buf.put(body).putInt((int) crc.getValue()).flip();
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    // The new journal exists (empty) before the checkpoint that points to it becomes visible.
    Path nextJournal = journalPath(next);
    FileChannel newJournal = FileChannel.open(nextJournal, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, StandardOpenOption.WRITE);
    newJournal.force(true);
    try {
      Files.move(tmp, checkpointPath(next), StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      newJournal.close();
      throw new IOException("the file system of " + dir + " cannot rename atomically", e);
    }
    forceDirectory(dir);
    FileChannel old = journal;
    long oldSequence = sequence;
    journal = newJournal;
    sequence = next;
    journalBytes = 0;
    old.close();
    Files.deleteIfExists(journalPath(oldSequence));
    Files.deleteIfExists(checkpointPath(oldSequence));
  }

  private static void forceDirectory(Path dir) throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // Some file systems do not allow opening a directory; the rename is still ordered after the
      // forced file contents on the common ones (ext4, xfs).
      LOG.debug("cannot force directory {}: {}", dir, e.toString());
    }
  }

  private Path checkpointPath(long seq) {
    return dir.resolve(String.format("checkpoint-%012d.bin", seq));
  }

  private Path journalPath(long seq) {
    return dir.resolve(String.format("journal-%012d.log", seq));
  }

  @Override
  public synchronized void close() throws IOException {
    if (journal.isOpen()) {
      sync();
      journal.close();
    }
  }
}
