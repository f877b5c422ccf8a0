package org.smartssd.device.runtime.ftl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataLogTest {
  @TempDir Path dir;

  private final List<String> replayed = new ArrayList<>();
  private String snapshot;

  private MetadataLog open() throws IOException {
    replayed.clear();
    snapshot = null;
    return MetadataLog.open(dir, in -> snapshot = in.readUTF(), (type, in) -> replayed.add(type + ":" + in.readUTF()));
  }

  private static byte[] utf(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[b.length + 2];
    out[0] = (byte) (b.length >>> 8);
    out[1] = (byte) b.length;
    System.arraycopy(b, 0, out, 2, b.length);
    return out;
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
  void aRecordWithABadChecksumEndsTheReplay() throws IOException {
    try (MetadataLog log = open()) {
      log.append(1, utf("one"));
      log.append(1, utf("two"));
      log.sync();
    }
    Path journal = journal();
    byte[] bytes = Files.readAllBytes(journal);
    bytes[bytes.length - 1] ^= 0x55; // flip a bit in the last record's payload
    Files.write(journal, bytes);
    try (MetadataLog log = open()) {
      assertEquals(List.of("1:one"), replayed);
    }
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
    Path checkpoint;
    try (Stream<Path> files = Files.list(dir.resolve("meta"))) {
      checkpoint = files.filter(f -> f.getFileName().toString().startsWith("checkpoint-")).findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(checkpoint);
    bytes[6] ^= 1;
    Files.write(checkpoint, bytes);
    IOException e = assertThrows(IOException.class, this::open);
    assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
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

  private Path journal() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("meta"))) {
      return files.filter(f -> f.getFileName().toString().startsWith("journal-")).findFirst().orElseThrow();
    }
  }
}
