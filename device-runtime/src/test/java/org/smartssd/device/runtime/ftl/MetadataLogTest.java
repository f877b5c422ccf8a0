package org.smartssd.device.runtime.ftl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataLogTest {
  @TempDir Path dir;

  private final List<String> replayed = new ArrayList<>();
  private String snapshot;

  private MetadataLog open() throws IOException {
    return open(false);
  }

  private MetadataLog open(boolean flashHasData) throws IOException {
    replayed.clear();
    snapshot = null;
    return MetadataLog.open(dir, flashHasData, in -> snapshot = in.readUTF(),
        (type, in) -> replayed.add(type + ":" + in.readUTF()), MetadataLogTest::knownType);
  }

  /** The record types these tests write (as the object store passes its own). */
  private static boolean knownType(int type) {
    return type >= 1 && type <= 4;
  }

  private static byte[] utf(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[b.length + 2];
    out[0] = (byte) (b.length >>> 8);
    out[1] = (byte) b.length;
    System.arraycopy(b, 0, out, 2, b.length);
    return out;
  }

  /** Writes records "r0".."r{n-1}" (type 1) and returns each record's offset, then the journal's size. */
  private List<Long> journalOf(int n) throws IOException {
    try (MetadataLog log = open()) {
      for (int i = 0; i < n; i++) {
        log.append(1, utf("r" + i));
      }
      log.sync();
    }
    List<Long> offsets = new ArrayList<>();
    byte[] bytes = Files.readAllBytes(journal());
    long pos = 0;
    while (pos < bytes.length) {
      offsets.add(pos);
      pos += 8 + ByteBuffer.wrap(bytes, (int) pos, 4).getInt();
    }
    offsets.add(pos);
    return offsets;
  }

  private static List<String> names(int from, int to) {
    List<String> names = new ArrayList<>();
    for (int i = from; i < to; i++) {
      names.add("1:r" + i);
    }
    return names;
  }

  /** Opens, expecting the journal to be refused as damaged; checks that nothing was changed. */
  private DamagedMetadataException refused() throws IOException {
    Map<String, byte[]> before = metaFiles();
    DamagedMetadataException e = assertThrows(DamagedMetadataException.class, this::open);
    Map<String, byte[]> after = metaFiles();
    assertEquals(before.keySet(), after.keySet(), "no file made or deleted");
    before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name + " is unchanged"));
    assertTrue(e.getMessage().contains("The device will not start, and changed nothing; `smartssd device fsck"
        + " --data-dir " + dir + "` (with the profile and -D options the device starts with) reports what is damaged"),
        e.getMessage());
    return e;
  }

  private Map<String, byte[]> metaFiles() throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> list = Files.list(dir.resolve("meta"))) {
      for (Path f : list.toList()) {
        files.put(f.getFileName().toString(), Files.readAllBytes(f));
      }
    }
    return files;
  }

  private void flip(long offset) throws IOException {
    byte[] bytes = Files.readAllBytes(journal());
    bytes[(int) offset] ^= 0x10;
    Files.write(journal(), bytes);
  }

  @Test
  void syncedRecordsAreReplayedInOrder() throws IOException {
    try (MetadataLog log = open()) {
      log.append(3, utf("a"));
      log.append(4, utf("b"));
      log.sync();
    }
    try (MetadataLog log = open()) {
      assertEquals(List.of("3:a", "4:b"), replayed);
      assertEquals(null, snapshot);
    }
  }

  @Test
  void aTornTailIsCutAndLaterAppendsFollowTheLastGoodRecord() throws IOException {
    try (MetadataLog log = open()) {
      log.append(1, utf("kept"));
      log.sync();
    }
    Path journal = journal();
    long good = Files.size(journal);
    // A crash in the middle of an append leaves part of a record.
    Files.write(journal, new byte[] {0, 0, 0, 20, 1, 2, 3}, StandardOpenOption.APPEND);
    try (MetadataLog log = open()) {
      assertEquals(List.of("1:kept"), replayed);
      assertEquals(good, Files.size(journal));
      log.append(2, utf("after"));
      log.sync();
    }
    try (MetadataLog log = open()) {
      assertEquals(List.of("1:kept", "2:after"), replayed);
    }
  }

  @Test
  void aJournalCutAnywhereInItsLastRecordIsATornTail() throws IOException {
    List<Long> offsets = journalOf(4);
    byte[] whole = Files.readAllBytes(journal());
    long last = offsets.get(3);
    for (long cut = last + 1; cut < whole.length; cut++) {
      Files.write(journal(), java.util.Arrays.copyOf(whole, (int) cut));
      try (MetadataLog log = open()) {
        assertEquals(names(0, 3), replayed, "cut at " + cut);
      }
      assertEquals(last, Files.size(journal()), "the torn tail is cut at the last good record (cut at " + cut + ")");
    }
  }

  @Test
  void aTornLargeRecordIsCut() throws IOException {
    // A record of small integers (like a commit of many pages) torn in the middle: every offset in it
    // is tried as the start of a record before the tail is called torn.
    ByteBuffer payload = ByteBuffer.allocate(2 + 4 * 250_000);
    payload.putShort((short) 0);
    for (int i = 0; i < 250_000; i++) {
      payload.putInt(i);
    }
    try (MetadataLog log = MetadataLog.open(dir, false, in -> { }, (type, in) -> { })) {
      log.append(1, utf("before"));
      log.append(1, payload.array());
      log.sync();
    }
    byte[] whole = Files.readAllBytes(journal());
    Files.write(journal(), java.util.Arrays.copyOf(whole, whole.length / 2));
    try (MetadataLog log = open()) {
      assertEquals(List.of("1:before"), replayed);
    }
  }

  @Test
  void aCompleteLastRecordWithABadChecksumIsDamageNotATornTail() throws IOException {
    List<Long> offsets = journalOf(2);
    flip(offsets.get(2) - 1); // the last byte of the last record's payload
    DamagedMetadataException e = refused();
    assertEquals(DamagedMetadataException.Kind.JOURNAL_RECORD, e.kind());
    assertEquals(journal(), e.file());
    assertEquals(offsets.get(1), e.offset());
    assertTrue(e.getMessage().startsWith("metadata journal " + journal() + " is damaged at byte offset "
        + offsets.get(1) + " (record 2: checksum mismatch"), e.getMessage());
    assertTrue(e.getMessage().contains("hold no intact record"), e.getMessage());
  }

  @Test
  void aFlipInTheFirstRecordStopsRecoveryAndNamesWhatFollows() throws IOException {
    List<Long> offsets = journalOf(5);
    flip(12); // the first record's payload
    DamagedMetadataException e = refused();
    assertEquals(0, e.offset());
    assertTrue(e.getMessage().contains("is damaged at byte offset 0 (record 1: checksum mismatch"), e.getMessage());
    assertTrue(e.getMessage().contains(offsets.get(5) + " bytes from there to the end of the file (of "
        + offsets.get(5) + ") hold 4 intact records (the first at offset " + offsets.get(1) + ")"), e.getMessage());
    assertTrue(e.getMessage().contains("the 0 records before it are intact"), e.getMessage());
  }

  @Test
  void aFlipInAMiddleRecordsChecksumStopsRecovery() throws IOException {
    List<Long> offsets = journalOf(5);
    flip(offsets.get(2) + 5); // the third record's stored crc
    DamagedMetadataException e = refused();
    assertEquals(offsets.get(2), e.offset());
    assertTrue(e.getMessage().contains("(record 3: checksum mismatch"), e.getMessage());
    assertTrue(e.getMessage().contains("hold 2 intact records (the first at offset " + offsets.get(3) + ")"),
        e.getMessage());
    assertTrue(e.getMessage().contains("the 2 records before it are intact"), e.getMessage());
  }

  @Test
  void aLengthThatRunsPastTheEndWithRecordsAfterItIsDamage() throws IOException {
    List<Long> offsets = journalOf(5);
    flip(offsets.get(1) + 1); // the second record's length grows by 1 MiB: it looks incomplete
    DamagedMetadataException e = refused();
    assertEquals(offsets.get(1), e.offset());
    assertTrue(e.getMessage().contains("yet a valid record follows at offset " + offsets.get(2)
        + " (a crash leaves no record after a torn one)"), e.getMessage());
  }

  @Test
  void anImpossibleLengthIsDamage() throws IOException {
    List<Long> offsets = journalOf(3);
    byte[] bytes = Files.readAllBytes(journal());
    ByteBuffer.wrap(bytes).putInt((int) (long) offsets.get(1), 0);
    Files.write(journal(), bytes);
    DamagedMetadataException e = refused();
    assertEquals(offsets.get(1), e.offset());
    assertTrue(e.getMessage().contains("(record 2: impossible length 0"), e.getMessage());
  }

  @Test
  void aDamagedLengthInTheLastRecordIsNotTakenForATornTail() throws IOException {
    List<Long> offsets = journalOf(3);
    flip(offsets.get(2) + 2); // the last record's length grows past the end of the file
    DamagedMetadataException e = refused();
    assertEquals(offsets.get(2), e.offset());
    assertTrue(e.getMessage().contains("match its checksum: the length is damaged"), e.getMessage());
  }

  @Test
  void aValidRecordThatCannotBeAppliedIsDamage() throws IOException {
    journalOf(3);
    DamagedMetadataException e = assertThrows(DamagedMetadataException.class, () -> MetadataLog.open(dir, false,
        in -> { }, (type, in) -> {
          if (in.readUTF().equals("r1")) {
            throw new IOException("metadata corrupt: the journal names object 7, which does not exist");
          }
        }));
    assertTrue(e.getMessage().contains("(record 2 cannot be applied: type 1: metadata corrupt: the journal names"
        + " object 7"), e.getMessage());
  }

  @Test
  void aCheckpointReplacesTheJournal() throws IOException {
    try (MetadataLog log = open()) {
      log.append(1, utf("before"));
      log.sync();
      log.checkpoint(out -> out.writeUTF("state"));
      assertEquals(0, log.journalBytes());
      log.append(2, utf("after"));
      log.sync();
    }
    try (MetadataLog log = open()) {
      assertEquals("state", snapshot);
      assertEquals(List.of("2:after"), replayed);
    }
    try (Stream<Path> files = Files.list(dir.resolve("meta"))) {
      assertEquals(2, files.count(), "one checkpoint and one journal remain");
    }
  }

  @Test
  void aDamagedCheckpointIsRefusedRatherThanGuessed() throws IOException {
    try (MetadataLog log = open()) {
      log.checkpoint(out -> out.writeUTF("state"));
    }
    Path checkpoint = checkpoint();
    byte[] bytes = Files.readAllBytes(checkpoint);
    bytes[6] ^= 1;
    Files.write(checkpoint, bytes);
    DamagedMetadataException e = refused();
    assertEquals(DamagedMetadataException.Kind.CHECKPOINT, e.kind());
    assertFalse(e.salvageable());
    assertTrue(e.getMessage().startsWith("metadata checkpoint " + checkpoint + " is damaged: its " + (bytes.length - 4)
        + " bytes give CRC-32C"), e.getMessage());
    assertTrue(e.getMessage().contains("every file is affected"), e.getMessage());
  }

  @Test
  void aDeletedJournalBesideItsCheckpointIsRefused() throws IOException {
    try (MetadataLog log = open()) {
      log.append(1, utf("a"));
      log.checkpoint(out -> out.writeUTF("state"));
      log.append(1, utf("b"));
      log.sync();
    }
    Path journal = journal();
    Files.delete(journal);
    DamagedMetadataException e = refused();
    assertEquals(DamagedMetadataException.Kind.JOURNAL_MISSING, e.kind());
    assertEquals(journal, e.file());
    assertTrue(e.getMessage().startsWith("metadata journal " + journal + " is missing, but checkpoint " + checkpoint()
        + " needs it: every change made since that checkpoint was written"), e.getMessage());
  }

  @Test
  void aJournalWhoseCheckpointIsMissingIsRefused() throws IOException {
    try (MetadataLog log = open()) {
      log.checkpoint(out -> out.writeUTF("state"));
      log.append(1, utf("b"));
      log.sync();
    }
    Path checkpoint = checkpoint();
    Files.delete(checkpoint);
    DamagedMetadataException e = refused();
    assertEquals(DamagedMetadataException.Kind.CHECKPOINT_MISSING, e.kind());
    assertTrue(e.getMessage().startsWith("metadata checkpoint " + checkpoint + " is missing, but "), e.getMessage());
  }

  @Test
  void anEmptyNextJournalLeftByAnInterruptedCheckpointIsFine() throws IOException {
    try (MetadataLog log = open()) {
      log.checkpoint(out -> out.writeUTF("state"));
      log.append(1, utf("b"));
      log.sync();
    }
    String next = journal().getFileName().toString().replace("000000000001", "000000000002");
    Files.createFile(dir.resolve("meta").resolve(next));
    try (MetadataLog log = open()) {
      assertEquals(List.of("1:b"), replayed);
    }
  }

  @Test
  void noMetadataBesideFlashWithDataIsRefusedAndWithoutItIsANewDevice() throws IOException {
    DamagedMetadataException e = assertThrows(DamagedMetadataException.class, () -> open(true));
    assertEquals(DamagedMetadataException.Kind.METADATA_MISSING, e.kind());
    assertTrue(e.getMessage().contains("holds no checkpoint and no journal, but the flash files in "
        + dir.resolve("flash") + " hold data"), e.getMessage());
    try (MetadataLog log = open(false)) {
      assertEquals(List.of(), replayed);
    }
  }

  @Test
  void aFormattedAreaIsANewDeviceEvenWithFlashData() throws IOException {
    MetadataLog.format(dir);
    assertTrue(Files.exists(dir.resolve("meta/journal-000000000000.log")));
    try (MetadataLog log = open(true)) {
      assertEquals(List.of(), replayed);
    }
  }

  @Test
  void inspectionChangesNothingAndDescribesWhatFollowsTheDamage() throws IOException {
    List<Long> offsets = journalOf(4);
    flip(offsets.get(1) + 10);
    Map<String, byte[]> before = metaFiles();
    List<String> after = new ArrayList<>();
    List<String> applied = new ArrayList<>();
    MetadataLog.Inspection i = MetadataLog.inspect(dir, false, in -> { }, (t, in) -> applied.add(in.readUTF()),
        (t, in) -> after.add(in.readUTF()), MetadataLogTest::knownType);
    assertEquals(List.of("r0"), applied);
    assertEquals(List.of("r2", "r3"), after);
    assertEquals(offsets.get(1), i.damage().offset());
    assertEquals(1, i.records());
    assertEquals(2, i.recordsAfterDamage());
    Map<String, byte[]> now = metaFiles();
    assertEquals(before.keySet(), now.keySet());
    before.forEach((name, bytes) -> assertArrayEquals(bytes, now.get(name)));
  }

  @Test
  void salvageCutsAtTheDamageAndKeepsTheWholeJournalAside() throws IOException {
    List<Long> offsets = journalOf(4);
    flip(offsets.get(2) + 9);
    byte[] damaged = Files.readAllBytes(journal());
    MetadataLog.Inspection i = MetadataLog.inspect(dir, false, in -> { }, (t, in) -> { }, null, MetadataLogTest::knownType);
    Path evidence = dir.resolve("meta/damaged-test");
    MetadataLog.salvage(dir, i, evidence);
    assertArrayEquals(damaged, Files.readAllBytes(evidence.resolve(journal().getFileName())));
    assertEquals(offsets.get(2), Files.size(journal()));
    try (MetadataLog log = open()) {
      assertEquals(names(0, 2), replayed);
    }
  }

  @Test
  void unsyncedRecordsAreNotOnDisk() throws IOException {
    MetadataLog log = open();
    log.append(1, utf("synced"));
    log.sync();
    log.append(1, utf("pending"));
    // No sync and no close: as after a crash of the process.
    byte[] onDisk = Files.readAllBytes(journal());
    try (MetadataLog again = open()) {
      assertEquals(List.of("1:synced"), replayed);
    }
    assertArrayEquals(onDisk, Files.readAllBytes(journal()));
  }

  @Test
  void aCleanJournalHasNoDamage() throws IOException {
    journalOf(3);
    MetadataLog.Inspection i = MetadataLog.inspect(dir, false, in -> { }, (t, in) -> { }, null, MetadataLogTest::knownType);
    assertNull(i.damage());
    assertEquals(3, i.records());
    assertEquals(-1, i.tornTailAt());
  }

  private Path journal() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("meta"))) {
      return files.filter(f -> f.getFileName().toString().matches("journal-\\d+\\.log")).sorted().findFirst()
          .orElseThrow();
    }
  }

  private Path checkpoint() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("meta"))) {
      return files.filter(f -> f.getFileName().toString().startsWith("checkpoint-")).findFirst().orElseThrow();
    }
  }
}
