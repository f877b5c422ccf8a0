package org.smartssd.device.runtime.ftl;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
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
import java.util.function.IntPredicate;
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
 * payload). A checkpoint is {@code u32 magic, body, u32 crc32c} of all before it. Both are checked
 * at recovery: a torn tail (an incomplete last record with nothing valid after it, which a crash in
 * the middle of an append leaves) is cut; any other damage stops recovery with a
 * {@link DamagedMetadataException} before anything is changed (see {@link JournalScanner}).
 *
 * <p>Generations: checkpoint {@code n} goes with journal {@code n}. A checkpoint is written to a
 * temporary file and forced; the next journal is created empty and the directory forced; only then
 * is the checkpoint renamed into place, and the generation before it deleted. So, after any crash,
 * the newest checkpoint {@code c} has its journal {@code c}; a journal {@code c + 1} may be there,
 * empty (a checkpoint that did not finish). A metadata area is therefore damaged when journal
 * {@code c} is missing, when a journal newer than {@code c} holds records (its checkpoint is
 * missing), or when it holds nothing while the flash holds data. A new device's area is made
 * ({@link #format}) before its flash files, so a crash between the two leaves a valid empty area.
 */
public final class MetadataLog implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(MetadataLog.class);
  private static final Pattern CHECKPOINT = Pattern.compile("checkpoint-(\\d{12})\\.bin");
  private static final Pattern JOURNAL = Pattern.compile("journal-(\\d{12})\\.log");
  private static final int CHECKPOINT_MAGIC = 0x53534443; // "SSDC"
  private static final int MAX_RECORD_BYTES = JournalScanner.MAX_RECORD_BYTES;

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

  /**
   * What {@link #inspect} found, changing nothing: the files of the current generation, the records
   * replayed, a torn tail, the first damage (null when none), and the records found after it.
   */
  public record Inspection(Path checkpoint, Path journal, long journalBytes, long records, long tornTailAt,
      DamagedMetadataException damage, long recordsAfterDamage, List<String> notes) {
    public boolean damaged() {
      return damage != null;
    }
  }

  private final Path dataDir;
  private final Path dir;
  private long sequence;
  private FileChannel journal;
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream(1 << 16);
  private long journalBytes;
  private long appendedSinceSync;

  private MetadataLog(Path dataDir) {
    this.dataDir = dataDir;
    this.dir = dataDir.resolve("meta");
  }

  /**
   * Makes the metadata area of a new device: an empty journal 0, forced, in {@code <dataDir>/meta}.
   * Does nothing when the area already holds a checkpoint or a journal.
   */
  public static void format(Path dataDir) throws IOException {
    Path dir = dataDir.resolve("meta");
    Files.createDirectories(dir);
    if (Layout.of(dir).isEmpty()) {
      try (FileChannel ch = FileChannel.open(journalPath(dir, 0), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      forceDirectory(dir);
    }
  }

  /**
   * Refuses a data directory whose metadata area holds a checkpoint while {@code flashHasData} says
   * its flash holds nothing: a checkpoint is written only after the flash files were made, so they
   * were lost (a new device's empty flash would otherwise be made, and every page read as damaged).
   */
  public static void requireFlash(Path dataDir, boolean flashHasData) throws IOException {
    Path dir = dataDir.resolve("meta");
    if (flashHasData || !Files.isDirectory(dir)) {
      return;
    }
    Layout layout = Layout.of(dir);
    if (layout.current() > 0) {
      throw new DamagedMetadataException(DamagedMetadataException.Kind.FLASH_MISSING, dataDir.resolve("flash"), -1,
          "the flash files in " + dataDir.resolve("flash") + " are missing or empty, but checkpoint "
              + checkpointPath(dir, layout.current()) + " says the device stored its files there", dataDir);
    }
  }

  /** As {@link #open(Path, boolean, SnapshotReader, RecordHandler, IntPredicate)}, any record type taken. */
  public static MetadataLog open(Path dataDir, boolean flashHasData, SnapshotReader snapshot, RecordHandler records)
      throws IOException {
    return open(dataDir, flashHasData, snapshot, records, type -> true);
  }

  /**
   * Opens the metadata area, loading the newest checkpoint with {@code snapshot} (not called when
   * there is none: a new device) and then replaying its journal with {@code records}; cuts a torn
   * tail.
   *
   * @param flashHasData whether the device's flash files held data before it was opened: then an
   *     area with no metadata at all is damage, not a new device
   * @param knownTypes the record types the writers use (for resynchronising after damage)
   * @throws DamagedMetadataException when the area is damaged; nothing has been changed then
   */
  public static MetadataLog open(Path dataDir, boolean flashHasData, SnapshotReader snapshot, RecordHandler records,
      IntPredicate knownTypes) throws IOException {
    Path dir = dataDir.resolve("meta");
    Layout layout = Files.isDirectory(dir) ? Layout.of(dir) : Layout.none();
    DamagedMetadataException missing = layout.problem(dataDir, flashHasData);
    if (missing != null) {
      throw missing;
    }
    Files.createDirectories(dir);
    MetadataLog log = new MetadataLog(dataDir);
    log.recover(layout, snapshot, records, knownTypes);
    return log;
  }

  /**
   * Reads the metadata area as {@link #open} would, changing nothing (no file is created, cut or
   * deleted): loads the checkpoint and replays the journal up to its end or its first damage, and
   * passes the valid records found after the damage to {@code afterDamage}, to describe what is lost.
   */
  public static Inspection inspect(Path dataDir, boolean flashHasData, SnapshotReader snapshot, RecordHandler records,
      RecordHandler afterDamage, IntPredicate knownTypes) throws IOException {
    Path dir = dataDir.resolve("meta");
    Layout layout = Files.isDirectory(dir) ? Layout.of(dir) : Layout.none();
    List<String> notes = layout.notes(dir);
    Path checkpoint = layout.current() > 0 ? checkpointPath(dir, layout.current()) : null;
    Path journalPath = journalPath(dir, layout.current());
    DamagedMetadataException missing = layout.problem(dataDir, flashHasData);
    if (missing != null) {
      return new Inspection(checkpoint, journalPath, -1, 0, -1, missing, 0, notes);
    }
    if (layout.isEmpty()) {
      return new Inspection(null, journalPath, 0, 0, -1, null, 0, notes);
    }
    try {
      if (checkpoint != null) {
        readCheckpoint(checkpoint, snapshot, dataDir);
      }
    } catch (DamagedMetadataException e) {
      return new Inspection(checkpoint, journalPath, Files.size(journalPath), 0, -1, e, 0, notes);
    }
    try (FileChannel ch = FileChannel.open(journalPath, StandardOpenOption.READ)) {
      JournalScanner.Result r = new JournalScanner(journalPath, dataDir, ch, knownTypes).scan(records, afterDamage);
      return new Inspection(checkpoint, journalPath, ch.size(), r.records(), r.tornAt(), r.damage(),
          r.recordsAfterDamage(), notes);
    }
  }

  /**
   * Repairs around salvageable damage that {@link #inspect} found, keeping what is intact: the
   * journal is cut at its damage (the records before it are a state the device was in; those after
   * it are not applied, because the lost ones between may have deleted, moved or reused what they
   * name), or a missing journal is made anew, empty (the state of the checkpoint). Copies the
   * current generation's files into {@code evidence} first; deletes nothing.
   */
  public static void salvage(Path dataDir, Inspection inspection, Path evidence) throws IOException {
    DamagedMetadataException damage = inspection.damage();
    if (damage == null || (damage.kind() != DamagedMetadataException.Kind.JOURNAL_RECORD
        && damage.kind() != DamagedMetadataException.Kind.JOURNAL_MISSING)) {
      throw new IllegalArgumentException("nothing the metadata log can salvage: " + damage);
    }
    Files.createDirectories(evidence);
    for (Path file : new Path[] {inspection.checkpoint(), inspection.journal()}) {
      if (file != null && Files.exists(file)) {
        Files.copy(file, evidence.resolve(file.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    forceDirectory(evidence);
    if (damage.kind() == DamagedMetadataException.Kind.JOURNAL_RECORD) {
      try (FileChannel ch = FileChannel.open(inspection.journal(), StandardOpenOption.WRITE)) {
        ch.truncate(damage.offset());
        ch.force(true);
      }
      LOG.warn("{}: cut at byte offset {} by fsck --salvage; the whole journal is kept in {}", inspection.journal(),
          damage.offset(), evidence);
    } else {
      try (FileChannel ch = FileChannel.open(inspection.journal(), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      forceDirectory(inspection.journal().getParent());
      LOG.warn("{}: made anew, empty, by fsck --salvage", inspection.journal());
    }
  }

  private void recover(Layout layout, SnapshotReader snapshot, RecordHandler records, IntPredicate knownTypes)
      throws IOException {
    sequence = layout.current();
    if (sequence > 0) {
      readCheckpoint(checkpointPath(sequence), snapshot, dataDir);
    }
    Path journalPath = journalPath(sequence);
    journal = layout.isEmpty()
        ? FileChannel.open(journalPath, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)
        : FileChannel.open(journalPath, StandardOpenOption.READ, StandardOpenOption.WRITE);
    JournalScanner.Result result;
    try {
      result = new JournalScanner(journalPath, dataDir, journal, knownTypes).scan(records, null);
    } catch (IOException | RuntimeException e) {
      journal.close();
      throw e;
    }
    if (result.damage() != null) {
      journal.close();
      throw result.damage();
    }
    long good = result.goodBytes();
    if (result.tornAt() >= 0) {
      LOG.warn("{}: cutting a torn tail of {} bytes at offset {} (an incomplete last record, which a crash in the"
          + " middle of an append leaves; {} intact records before it)", journalPath, journal.size() - good, good,
          result.records());
      journal.truncate(good);
      journal.force(true);
    }
    journal.position(good);
    journalBytes = good;
    deleteOlderThan(sequence);
  }

  /** Removes what an interrupted checkpoint left of the generation before. */
  private void deleteOlderThan(long seq) throws IOException {
    Layout layout = Layout.of(dir);
    for (long old : layout.checkpoints()) {
      if (old < seq) {
        Files.deleteIfExists(checkpointPath(old));
      }
    }
    for (long old : layout.journals()) {
      if (old < seq) {
        Files.deleteIfExists(journalPath(old));
      }
    }
  }

  /** The checkpoints and journals in a metadata directory, by sequence. */
  private record Layout(List<Long> checkpoints, List<Long> journals, List<Long> journalSizes, boolean temporary) {
    static Layout none() {
      return new Layout(List.of(), List.of(), List.of(), false);
    }

    static Layout of(Path dir) throws IOException {
      List<Long> checkpoints = new ArrayList<>();
      java.util.TreeMap<Long, Long> journals = new java.util.TreeMap<>();
      boolean temporary = false;
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
        for (Path f : files) {
          String name = f.getFileName().toString();
          Matcher c = CHECKPOINT.matcher(name);
          Matcher j = JOURNAL.matcher(name);
          if (c.matches()) {
            checkpoints.add(Long.parseLong(c.group(1)));
          } else if (j.matches()) {
            journals.put(Long.parseLong(j.group(1)), Files.size(f));
          } else if (name.equals("checkpoint.tmp")) {
            temporary = true;
          }
        }
      }
      checkpoints.sort(null);
      return new Layout(checkpoints, new ArrayList<>(journals.keySet()), new ArrayList<>(journals.values()), temporary);
    }

    boolean isEmpty() {
      return checkpoints.isEmpty() && journals.isEmpty();
    }

    /** The newest checkpoint's sequence; 0 when there is none. */
    long current() {
      return checkpoints.isEmpty() ? 0 : checkpoints.get(checkpoints.size() - 1);
    }

    /** Why this layout cannot be recovered (a file is missing), or null. */
    DamagedMetadataException problem(Path dataDir, boolean flashHasData) {
      Path dir = dataDir.resolve("meta");
      if (isEmpty()) {
        return flashHasData ? new DamagedMetadataException(DamagedMetadataException.Kind.METADATA_MISSING, dir, -1,
            "the metadata area " + dir + " holds no checkpoint and no journal, but the flash files in "
                + dataDir.resolve("flash") + " hold data: what says which file is where is gone", dataDir) : null;
      }
      long c = current();
      for (int i = 0; i < journals.size(); i++) {
        long j = journals.get(i);
        if (j == c + 1 && journalSizes.get(i) > 0 || j > c + 1) {
          return new DamagedMetadataException(DamagedMetadataException.Kind.CHECKPOINT_MISSING,
              checkpointPath(dir, j), -1, "metadata checkpoint " + checkpointPath(dir, j) + " is missing, but "
                  + journalPath(dir, j) + " (" + journalSizes.get(i) + " bytes) holds changes made after it: they cannot"
                  + " be applied without it, and every change before it is in it", dataDir);
        }
      }
      if (!journals.contains(c)) {
        return c == 0
            ? new DamagedMetadataException(DamagedMetadataException.Kind.CHECKPOINT_MISSING, checkpointPath(dir, 1),
                -1, "the metadata area " + dir + " has no checkpoint and no " + journalPath(dir, 0).getFileName()
                    + ", but " + journals.size() + " other journal(s): their checkpoint is missing", dataDir)
            : new DamagedMetadataException(DamagedMetadataException.Kind.JOURNAL_MISSING, journalPath(dir, c), -1,
                "metadata journal " + journalPath(dir, c) + " is missing, but checkpoint " + checkpointPath(dir, c)
                    + " needs it: every change made since that checkpoint was written (files created, written,"
                    + " renamed or deleted) is lost", dataDir);
      }
      return null;
    }

    /** Files that are not damage but are worth a line in a report. */
    List<String> notes(Path dir) {
      List<String> notes = new ArrayList<>();
      long c = current();
      for (long old : checkpoints) {
        if (old < c) {
          notes.add(checkpointPath(dir, old) + ": an older generation an interrupted checkpoint left (deleted at the next"
              + " start)");
        }
      }
      for (long j : journals) {
        if (j < c) {
          notes.add(journalPath(dir, j) + ": an older generation an interrupted checkpoint left (deleted at the next"
              + " start)");
        } else if (j == c + 1) {
          notes.add(journalPath(dir, j) + ": empty, made by a checkpoint that did not finish");
        }
      }
      if (temporary) {
        notes.add(dir.resolve("checkpoint.tmp") + ": what a checkpoint that did not finish wrote (ignored)");
      }
      return notes;
    }
  }

  private static void readCheckpoint(Path file, SnapshotReader snapshot, Path dataDir) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length < 8) {
      throw new DamagedMetadataException(DamagedMetadataException.Kind.CHECKPOINT, file, bytes.length,
          "metadata checkpoint " + file + " is truncated (" + bytes.length + " bytes): every file it lists is affected",
          dataDir);
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    int magic = buf.getInt(0);
    int storedCrc = buf.getInt(bytes.length - 4);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    if (magic != CHECKPOINT_MAGIC || (int) crc.getValue() != storedCrc) {
      // A checkpoint only becomes visible by an atomic rename after it was forced, so this is
      // damage from outside the device: refuse to guess.
      throw new DamagedMetadataException(DamagedMetadataException.Kind.CHECKPOINT, file, -1,
          "metadata checkpoint " + file + " is damaged: " + (magic != CHECKPOINT_MAGIC
              ? String.format("its first 4 bytes are 0x%08x, not the magic 0x%08x", magic, CHECKPOINT_MAGIC)
              : String.format("its %d bytes give CRC-32C 0x%08x, its last 4 bytes hold 0x%08x", bytes.length - 4,
                  (int) crc.getValue(), storedCrc))
              + ": it holds the whole namespace and mapping, so every file is affected", dataDir);
    }
    try (DataInputStream in = new DataInputStream(
        new java.io.ByteArrayInputStream(bytes, 4, bytes.length - 8))) {
      snapshot.read(in);
    } catch (IOException | RuntimeException e) {
      throw new DamagedMetadataException(DamagedMetadataException.Kind.CHECKPOINT, file, -1,
          "metadata checkpoint " + file + " passes its checksum but cannot be read: " + e.getMessage(), dataDir);
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
    // The new journal exists (empty, its directory entry forced) before the checkpoint that points
    // to it becomes visible: a checkpoint without its journal is damage, never a crash's leftover.
    Path nextJournal = journalPath(next);
    FileChannel newJournal = FileChannel.open(nextJournal, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, StandardOpenOption.WRITE);
    newJournal.force(true);
    forceDirectory(dir);
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
    return checkpointPath(dir, seq);
  }

  private Path journalPath(long seq) {
    return journalPath(dir, seq);
  }

  private static Path checkpointPath(Path dir, long seq) {
    return dir.resolve(String.format("checkpoint-%012d.bin", seq));
  }

  private static Path journalPath(Path dir, long seq) {
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
