package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Wc98ReaderTest {
  @TempDir
  Path dir;

  @Test
  void readsAPlainFile() throws IOException {
    List<Wc98Record> records = Wc98Fixtures.sample(20_000); // several reader buffers
    Path file = Wc98Fixtures.write(dir.resolve("wc_day5_1"), records);
    try (Wc98Reader reader = Wc98Reader.open(file)) {
      assertFalse(reader.compressed());
      List<Wc98Record> read = new ArrayList<>();
      assertEquals(records.size(), reader.forEach(read::add));
      assertEquals(records, read);
      assertEquals(records.size() * 20L, reader.offset());
      assertNull(reader.next());
    }
  }

  @Test
  void readsAGzipFileByItsMagicBytesNotItsName() throws IOException {
    List<Wc98Record> records = Wc98Fixtures.sample(1000);
    Path gzipWithoutSuffix = dir.resolve("wc_day5_1");
    Files.write(gzipWithoutSuffix, gzip(Wc98Fixtures.bytes(records)));
    try (Wc98Reader reader = Wc98Reader.open(gzipWithoutSuffix)) {
      assertTrue(reader.compressed());
      List<Wc98Record> read = new ArrayList<>();
      reader.forEach(read::add);
      assertEquals(records, read);
    }
    Path plainWithGzSuffix = Wc98Fixtures.write(dir.resolve("plain.gz"), records);
    try (Wc98Reader reader = Wc98Reader.open(plainWithGzSuffix)) {
      assertFalse(reader.compressed());
    }
    assertEquals(records, Wc98Fixtures.readAll(plainWithGzSuffix));
  }

  @Test
  void readsWhatTheWriterWrites() throws IOException {
    List<Wc98Record> records = Wc98Fixtures.sample(5000);
    for (String name : new String[] {"t.bin", "t.bin.gz"}) {
      Path file = dir.resolve(name);
      try (TraceWriter writer = TraceWriter.create(file, TraceFormat.BINARY)) {
        for (Wc98Record r : records) {
          writer.accept(r);
        }
      }
      assertEquals(records, Wc98Fixtures.readAll(file), name);
    }
  }

  @Test
  void badRegionNamesTheFileAndTheRecordOffset() throws IOException {
    for (int k : new int[] {0, 3, 8191, 8192, 9999}) {
      byte[] bytes = Wc98Fixtures.bytes(Wc98Fixtures.sample(10_000));
      bytes[20 * k + 19] = (byte) (4 << 5 | 2);
      for (boolean compressed : new boolean[] {false, true}) {
        Path file = dir.resolve("bad" + k + (compressed ? ".gz" : ""));
        Files.write(file, compressed ? gzip(bytes) : bytes);
        List<Wc98Record> delivered = new ArrayList<>();
        try (Wc98Reader reader = Wc98Reader.open(file)) {
          Wc98FormatException e = assertThrows(Wc98FormatException.class, () -> reader.forEach(delivered::add));
          assertEquals(20L * k, e.offset());
          assertEquals(file.toString(), e.file());
          assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
          assertTrue(e.getMessage().contains("byte offset " + 20L * k + ":"), e.getMessage());
          assertTrue(e.getMessage().contains("region 4"), e.getMessage());
          // Documented: the records before the bad one were delivered; the reader stays failed.
          assertEquals(k, delivered.size());
          assertSame(e, assertThrows(Wc98FormatException.class, reader::next));
        }
      }
    }
  }

  @Test
  void truncatedTailNamesTheOffsetOfThePartialRecord() throws IOException {
    byte[] whole = Wc98Fixtures.bytes(Wc98Fixtures.sample(5));
    Path file = dir.resolve("truncated");
    Files.write(file, Arrays.copyOf(whole, 5 * 20 + 7));
    Wc98FormatException e = assertThrows(Wc98FormatException.class, () -> Wc98Fixtures.readAll(file));
    assertEquals(100, e.offset());
    assertTrue(e.getMessage().contains("byte offset 100: truncated record"), e.getMessage());
    assertTrue(e.getMessage().contains("7 bytes"), e.getMessage());

    Path gz = dir.resolve("truncated.gz");
    Files.write(gz, gzip(Arrays.copyOf(whole, 3 * 20 + 19)));
    assertEquals(60, assertThrows(Wc98FormatException.class, () -> Wc98Fixtures.readAll(gz)).offset());

    Path oneByte = dir.resolve("one-byte");
    Files.write(oneByte, new byte[] {0x1f});
    assertEquals(0, assertThrows(Wc98FormatException.class, () -> Wc98Fixtures.readAll(oneByte)).offset());
  }

  @Test
  void unknownTypeMethodOrStatusIsAnError() throws IOException {
    int[][] cases = {{18, 13, 2}, {18, 255, 0}, {16, 9, 4}, {17, 63, 1}};
    for (int[] c : cases) {
      byte[] bytes = Wc98Fixtures.bytes(Wc98Fixtures.sample(5));
      bytes[20 * c[2] + c[0]] = (byte) c[1];
      Path file = Files.write(dir.resolve("bad"), bytes);
      Wc98FormatException e = assertThrows(Wc98FormatException.class, () -> Wc98Fixtures.readAll(file));
      assertEquals(20L * c[2], e.offset(), e.getMessage());
      assertTrue(e.getMessage().contains("unknown"), e.getMessage());
    }
  }

  @Test
  void corruptGzipIsAFormatError() throws IOException {
    byte[] compressed = gzip(Wc98Fixtures.bytes(Wc98Fixtures.sample(10_000)));
    Path cut = Files.write(dir.resolve("cut.gz"), Arrays.copyOf(compressed, compressed.length / 2));
    Wc98FormatException e = assertThrows(Wc98FormatException.class, () -> Wc98Fixtures.readAll(cut));
    assertTrue(e.getMessage().contains("gzip"), e.getMessage());
    byte[] garbled = compressed.clone();
    for (int i = 100; i < 200; i++) {
      garbled[i] ^= 0x5A;
    }
    Path bad = Files.write(dir.resolve("garbled.gz"), garbled);
    assertThrows(Wc98FormatException.class, () -> Wc98Fixtures.readAll(bad));
  }

  @Test
  void emptyFilesHoldNoRecords() throws IOException {
    Path empty = Files.write(dir.resolve("empty"), new byte[0]);
    assertEquals(List.of(), Wc98Fixtures.readAll(empty));
    Path emptyGz = Files.write(dir.resolve("empty.gz"), gzip(new byte[0]));
    try (Wc98Reader reader = Wc98Reader.open(emptyGz)) {
      assertTrue(reader.compressed());
      assertNull(reader.next());
      assertEquals(0, reader.recordsRead());
    }
  }

  @Test
  void streamsRecordsAndWrapsErrors() throws IOException {
    List<Wc98Record> records = Wc98Fixtures.sample(100);
    try (Stream<Wc98Record> s = Wc98Reader.open(new ByteArrayInputStream(Wc98Fixtures.bytes(records)), "memory").stream()) {
      assertEquals(records, s.toList());
    }
    byte[] bad = Wc98Fixtures.bytes(records);
    bad[20 * 50 + 19] = (byte) 0xE0;
    try (Stream<Wc98Record> s = Wc98Reader.open(new ByteArrayInputStream(bad), "memory").stream()) {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, s::count);
      assertTrue(e.getCause() instanceof Wc98FormatException);
      assertEquals("memory: byte offset 1000: region 7 is not one of 0-3 (server byte 0xe0)", e.getCause().getMessage());
    }
  }

  static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(content);
    }
    return bytes.toByteArray();
  }
}
