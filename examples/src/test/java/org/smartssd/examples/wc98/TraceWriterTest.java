package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceWriterTest {
  @TempDir
  Path dir;

  @Test
  void writesOneTextLinePerRecord() throws IOException {
    List<Wc98Record> records = Wc98Fixtures.sample(30_000); // more than one buffer of text
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TraceWriter writer = TraceWriter.open(bytes, TraceFormat.CLF)) {
      for (Wc98Record r : records) {
        writer.accept(r);
      }
      assertEquals(records.size(), writer.records());
    }
    String[] lines = bytes.toString(StandardCharsets.US_ASCII).split("\n", -1);
    assertEquals(records.size() + 1, lines.length);
    assertEquals("", lines[records.size()]);
    for (int i = 0; i < records.size(); i++) {
      assertEquals(records.get(i).toCommonLogFormat(), lines[i]);
    }
  }

  @Test
  void gzipsTextWhenTheNameEndsInGz() throws IOException {
    List<Wc98Record> records = Wc98Fixtures.sample(100);
    Path file = dir.resolve("access.log.gz");
    try (TraceWriter writer = TraceWriter.create(file, TraceFormat.CLF)) {
      for (Wc98Record r : records) {
        writer.accept(r);
      }
    }
    try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)),
        StandardCharsets.US_ASCII))) {
      assertEquals(records.stream().map(Wc98Record::toCommonLogFormat).toList(), in.lines().toList());
    }
  }

  @Test
  void binaryIsTwentyBytesARecord() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<Wc98Record> records = Wc98Fixtures.sample(60_000);
    try (TraceWriter writer = TraceWriter.open(bytes, TraceFormat.BINARY)) {
      for (Wc98Record r : records) {
        writer.accept(r);
      }
    }
    assertEquals(records.size() * 20, bytes.size());
    assertTrue(java.util.Arrays.equals(Wc98Fixtures.bytes(records), bytes.toByteArray()));
  }

  @Test
  void paddedRecordsAreTheRecordThenPadding() throws IOException {
    List<Wc98Record> records = Wc98Fixtures.sample(70_000); // more than a buffer of 1 MiB at 33 bytes a record
    byte[] plain = Wc98Fixtures.bytes(records);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TraceWriter writer = TraceWriter.openPadded(bytes, 33)) {
      for (Wc98Record r : records) {
        writer.accept(r);
      }
    }
    byte[] padded = bytes.toByteArray();
    assertEquals(records.size() * 33, padded.length);
    for (int i = 0; i < records.size(); i++) {
      assertTrue(java.util.Arrays.equals(plain, i * 20, i * 20 + 20, padded, i * 33, i * 33 + 20), "record " + i);
      for (int j = 20; j < 33; j++) {
        assertEquals(Wc98Record.PADDING, padded[i * 33 + j]);
      }
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TraceWriter.openPadded(new ByteArrayOutputStream(), 19));
    assertTrue(e.getMessage().contains("19"), e.getMessage());
  }

  @Test
  void parsesFormatNames() {
    assertEquals(TraceFormat.BINARY, TraceFormat.parse("binary"));
    assertEquals(TraceFormat.CLF, TraceFormat.parse("CLF"));
    assertEquals("clf", TraceFormat.CLF.optionName());
    assertThrows(IllegalArgumentException.class, () -> TraceFormat.parse("xml"));
  }
}
