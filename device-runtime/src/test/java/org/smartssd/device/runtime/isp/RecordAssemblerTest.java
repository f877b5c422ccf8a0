package org.smartssd.device.runtime.isp;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.smartssd.device.runtime.isp.AssemblyHarness.PATH;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.RecordFormat;

class RecordAssemblerTest {

  private static final int MAX = 1 << 20;

  @Nested
  class ReadRange {

    @Test
    void rawReadsTheRangeCutAtTheObjectsEnd() {
      assertRead(10, 20, new RecordAssembler(RecordFormat.raw(), PATH, 100, 10, 20, MAX));
      assertRead(90, 100, new RecordAssembler(RecordFormat.raw(), PATH, 100, 90, 500, MAX));
      assertRead(100, 100, new RecordAssembler(RecordFormat.raw(), PATH, 100, 200, 300, MAX));
    }

    @Test
    void fixedLengthReadsFromTheFirstOwnedRecordToTheEndOfTheLast() {
      assertRead(40, 100, fixed(20, 1000, 25, 100));
      assertRead(40, 120, fixed(20, 1000, 25, 101));
      assertRead(0, 1000, fixed(20, 1000, 0, 1000));
      assertRead(900, 990, fixed(20, 990, 900, 990)); // the last record is partial
      assertRead(980, 990, fixed(20, 990, 975, 2000));
    }

    @Test
    void fixedLengthRangeOwningNothingReadsNothing() {
      assertRead(40, 40, fixed(20, 1000, 25, 40));
      assertRead(40, 40, fixed(20, 1000, 25, 30));
      assertRead(990, 990, fixed(20, 990, 981, 990));
      assertRead(0, 0, fixed(20, 0, 0, 100));
    }

    @Test
    void delimitedReadsTheByteBeforeAndMaxRecordBytesPastTheEnd() {
      assertRead(0, 150, delimited(1000, 0, 100, 50));
      assertRead(99, 250, delimited(1000, 100, 200, 50));
      assertRead(899, 1000, delimited(1000, 900, 1000, 50));
      assertRead(899, 1000, delimited(1000, 900, 960, 50));
      assertRead(100, 100, delimited(1000, 100, 100, 50)); // empty range: nothing to read
    }

    @Test
    void refusesBadArguments() {
      assertThrows(IllegalArgumentException.class, () -> fixed(20, 100, -1, 10));
      assertThrows(IllegalArgumentException.class, () -> fixed(20, 100, 30, 10));
      assertThrows(IllegalArgumentException.class, () -> fixed(20, -1, 0, 10));
      assertThrows(IllegalArgumentException.class, () -> delimited(100, 0, 10, 0));
      assertThrows(NullPointerException.class, () -> new RecordAssembler(null, PATH, 1, 0, 1, MAX));
    }

    private void assertRead(long start, long end, RecordAssembler assembler) {
      assertEquals(start, assembler.readStart(), "readStart");
      assertEquals(end, assembler.readEnd(), "readEnd");
    }
  }

  @Nested
  class Stream {

    @Test
    void segmentsGoOutInOffsetOrderAsCopiesWhateverOrderTheyCameIn() throws Exception {
      byte[] object = ascii("0123456789abcdefghij");
      RecordAssembler assembler = new RecordAssembler(RecordFormat.stream(), PATH, 20, 3, 17, MAX);
      assertEquals(3, assembler.readStart());
      assertEquals(17, assembler.readEnd());
      assertEquals(List.of(), assembler.accept(12, ByteBuffer.wrap(object, 12, 5)), "ahead of the frontier: kept");
      assertEquals(List.of(), assembler.accept(7, ByteBuffer.wrap(object, 7, 5)));
      assertEquals(10, assembler.bufferedBytes());
      object[8] = 'X'; // the kept segment is a copy
      List<DataChunk> chunks = assembler.accept(3, ByteBuffer.wrap(object, 3, 4));
      assertEquals(3, chunks.size());
      assertChunk(chunks.get(0), 3, "3456");
      assertChunk(chunks.get(1), 7, "789ab");
      assertChunk(chunks.get(2), 12, "cdefg");
      assertEquals(0, assembler.bufferedBytes());
      object[4] = 'Y';
      assertEquals('4', chunks.get(0).data().get(1), "every chunk is a copy: it outlives the read");
      assertEquals(List.of(), assembler.finish());
      assertEquals(0, assembler.recordsDelivered(), "a stream has no records");
    }

    @Test
    void aStreamReadsPastItsEndAsAskedUpToTheObjectsEnd() {
      assertEquals(15, new RecordAssembler(RecordFormat.stream(5), PATH, 20, 3, 10, MAX).readEnd());
      assertEquals(20, new RecordAssembler(RecordFormat.stream(50), PATH, 20, 3, 10, MAX).readEnd());
      assertEquals(10, new RecordAssembler(RecordFormat.stream(50), PATH, 20, 10, 10, MAX).readEnd(),
          "an empty range reads nothing");
      assertThrows(IllegalArgumentException.class, () -> new RecordFormat(RecordFormat.Kind.DELIMITED, 0, (byte) 10, 5));
      assertThrows(IllegalArgumentException.class, () -> RecordFormat.stream(-1));
    }

    @Test
    void finishingWithAGapIsRefused() throws Exception {
      RecordAssembler assembler = new RecordAssembler(RecordFormat.stream(), PATH, 10, 0, 10, MAX);
      assembler.accept(5, ByteBuffer.wrap(ascii("56789")));
      assertThrows(IllegalStateException.class, assembler::finish);
    }
  }

  @Nested
  class Raw {

    @Test
    void eachSegmentIsOneChunkAsReadWithoutACopy() throws Exception {
      byte[] object = ascii("0123456789abcdef");
      RecordAssembler assembler = new RecordAssembler(RecordFormat.raw(), PATH, 16, 2, 14, MAX);
      List<DataChunk> chunks = assembler.accept(5, ByteBuffer.wrap(object, 5, 9));
      assertEquals(1, chunks.size());
      assertChunk(chunks.get(0), 5, "56789abcd");
      object[6] = 'X';
      assertEquals('X', chunks.get(0).data().get(1), "the chunk is a view of the segment");
      assertEquals(List.of(), assembler.accept(2, ByteBuffer.allocate(0)), "an empty segment gives nothing");
      assertEquals(1, assembler.accept(2, ByteBuffer.wrap(object, 2, 3)).size());
      assertEquals(List.of(), assembler.finish());
      assertEquals(0, assembler.recordsDelivered(), "raw input has no records");
    }

    @Test
    void leavesTheCallersBufferAsItWas() throws Exception {
      ByteBuffer segment = ByteBuffer.wrap(ascii("abcdef"), 1, 4);
      new RecordAssembler(RecordFormat.raw(), PATH, 10, 0, 10, MAX).accept(3, segment);
      assertEquals(1, segment.position());
      assertEquals(5, segment.limit());
    }
  }

  @Nested
  class FixedLength {

    @Test
    void recordsInsideAPageAreOneViewAndTheStraddlingOneIsCopiedTogether() throws Exception {
      // 20-byte records over 4096-byte pages: record 204 straddles the first page boundary.
      byte[] object = new byte[8192];
      for (int i = 0; i < object.length; i++) {
        object[i] = (byte) i;
      }
      RecordAssembler assembler = fixed(20, 8192, 0, 8192);
      assertEquals(8180, assembler.readEnd() - 12, "the last owned record is partial");

      List<DataChunk> first = assembler.accept(0, ByteBuffer.wrap(object, 0, 4096));
      assertEquals(1, first.size());
      assertEquals(0, first.get(0).offset());
      assertEquals(4080, first.get(0).data().remaining());
      assertEquals(16, assembler.bufferedBytes() - 4, "one record's buffer held for the straddling record");
      object[0] = 99;
      assertEquals(99, first.get(0).data().get(0), "records inside the segment are not copied");

      List<DataChunk> second = assembler.accept(4096, ByteBuffer.wrap(object, 4096, 4096));
      assertEquals(2, second.size());
      assertEquals(4080, second.get(0).offset());
      assertEquals(ByteBuffer.wrap(object, 4080, 20), second.get(0).data());
      assertEquals(4100, second.get(1).offset());
      assertEquals(4080, second.get(1).data().remaining());
      assertEquals(0, assembler.bufferedBytes());
      assertEquals(409, assembler.recordsDelivered());

      RecordException e = assertThrows(RecordException.class, assembler::finish);
      assertEquals(PATH + ": partial record of 12 bytes at offset 8180 (records are 20 bytes)", e.getMessage());
    }

    @Test
    void aStraddlingRecordGoesOutWithItsLastPieceInEitherOrder() throws Exception {
      byte[] object = ascii("aaaabbbbccccdddd");
      ByteBuffer a = ByteBuffer.wrap(object, 0, 6);
      ByteBuffer b = ByteBuffer.wrap(object, 6, 10);

      RecordAssembler inOrder = fixed(4, 16, 0, 16);
      assertChunk(single(inOrder.accept(0, a)), 0, "aaaa");
      List<DataChunk> second = inOrder.accept(6, b);
      assertEquals(2, second.size());
      assertChunk(second.get(0), 4, "bbbb");
      assertChunk(second.get(1), 8, "ccccdddd");

      RecordAssembler reversed = fixed(4, 16, 0, 16);
      assertChunk(single(reversed.accept(6, b)), 8, "ccccdddd");
      second = reversed.accept(0, a);
      assertEquals(2, second.size());
      assertChunk(second.get(0), 0, "aaaa");
      assertChunk(second.get(1), 4, "bbbb");
      assertEquals(List.of(), reversed.finish());
    }

    @Test
    void aRecordLongerThanASegmentIsPutTogetherFromAllItsPieces() throws Exception {
      byte[] object = new byte[30];
      Arrays.fill(object, 0, 10, (byte) 'a');
      Arrays.fill(object, 10, 20, (byte) 'b');
      Arrays.fill(object, 20, 30, (byte) 'c');
      RecordAssembler assembler = fixed(10, 30, 0, 30);
      // Pieces of the middle record: 12-15 first, then 10-12, then 15-20 which completes it.
      assertChunk(single(assembler.accept(0, ByteBuffer.wrap(object, 0, 10))), 0, "aaaaaaaaaa");
      assertEquals(List.of(), assembler.accept(12, ByteBuffer.wrap(object, 12, 3)));
      assertEquals(List.of(), assembler.accept(10, ByteBuffer.wrap(object, 10, 2)));
      assertEquals(10, assembler.bufferedBytes());
      assertChunk(single(assembler.accept(15, ByteBuffer.wrap(object, 15, 5))), 10, "bbbbbbbbbb");
      assertEquals(0, assembler.bufferedBytes());
    }

    @Test
    void aPartialRecordOwnedByAnotherRangeIsNoError() throws Exception {
      byte[] object = new byte[105];
      RecordAssembler assembler = fixed(20, 105, 0, 100);
      assertEquals(100, assembler.readEnd());
      assertEquals(100, assembler.accept(0, ByteBuffer.wrap(object, 0, 100)).get(0).data().remaining());
      assertEquals(List.of(), assembler.finish());
    }
  }

  @Nested
  class Delimited {

    @Test
    void aSegmentEndingWithADelimiterStartsTheNextRecordInEitherOrder() throws Exception {
      byte[] object = ascii("ab\ncd\n");
      RecordAssembler inOrder = lines(object.length, 0, object.length);
      assertChunk(single(inOrder.accept(0, ByteBuffer.wrap(object, 0, 3))), 0, "ab\n");
      assertChunk(single(inOrder.accept(3, ByteBuffer.wrap(object, 3, 3))), 3, "cd\n");

      RecordAssembler reversed = lines(object.length, 0, object.length);
      assertEquals(List.of(), reversed.accept(3, ByteBuffer.wrap(object, 3, 3)), "not known to start a record yet");
      assertEquals(3, reversed.bufferedBytes());
      List<DataChunk> both = reversed.accept(0, ByteBuffer.wrap(object, 0, 3));
      assertEquals(2, both.size());
      assertChunk(both.get(0), 0, "ab\n");
      assertChunk(both.get(1), 3, "cd\n");
      assertEquals(0, reversed.bufferedBytes());
      assertEquals(2, reversed.recordsDelivered());
    }

    @Test
    void aLineSpanningThreeSegmentsGoesOutWhenItsMiddleArrives() throws Exception {
      byte[] object = ascii("a\nlonglongline\nz");
      RecordAssembler assembler = lines(object.length, 0, object.length);
      assertChunk(single(assembler.accept(0, ByteBuffer.wrap(object, 0, 5))), 0, "a\n");
      assertChunk(single(assembler.accept(10, ByteBuffer.wrap(object, 10, 6))), 15, "z");
      assertEquals(3 + 5, assembler.bufferedBytes(), "\"lon\" and \"line\\n\"");
      assertChunk(single(assembler.accept(5, ByteBuffer.wrap(object, 5, 5))), 2, "longlongline\n");
      assertEquals(0, assembler.bufferedBytes());
      assertEquals(3, assembler.recordsDelivered());
      assertEquals(List.of(), assembler.finish());
    }

    @Test
    void recordsInsideASegmentAreOneView() throws Exception {
      byte[] object = ascii("xx\none\ntwo\nthree\nyy");
      RecordAssembler assembler = lines(object.length, 0, object.length);
      DataChunk chunk = single(assembler.accept(1, ByteBuffer.wrap(object, 1, 17)));
      assertChunk(chunk, 3, "one\ntwo\nthree\n");
      object[3] = 'O';
      assertEquals('O', chunk.data().get(0), "not copied");
      assertEquals(2 + 1, assembler.bufferedBytes(), "only the pieces before the first and after the last delimiter");
      assertEquals(3, assembler.recordsDelivered());
    }

    @Test
    void theObjectsLastRecordNeedsNoDelimiter() throws Exception {
      byte[] object = ascii("ab\ncd");
      RecordAssembler assembler = lines(object.length, 0, object.length);
      assertEquals(List.of(), assembler.accept(4, ByteBuffer.wrap(object, 4, 1)));
      List<DataChunk> chunks = assembler.accept(0, ByteBuffer.wrap(object, 0, 4));
      assertChunk(chunks.get(0), 0, "ab\n");
      assertChunk(chunks.get(1), 3, "cd");
      assertEquals(List.of(), assembler.finish());
    }

    @Test
    void aRangeOwnsTheRecordsStartingInIt() throws Exception {
      byte[] object = ascii("aa\nbb\ncc\n");
      assertEquals(List.of("bb\n"), records(object, 3, 6), "starts right after a delimiter");
      assertEquals(List.of("cc\n"), records(object, 4, 7), "starts inside bb: the next record is the first");
      assertEquals(List.of(), records(object, 2, 3), "only the byte before a record start");
      assertEquals(List.of("bb\n"), records(object, 2, 4));
      assertEquals(List.of("aa\n", "bb\n", "cc\n"), records(object, 0, 9));
      assertEquals(List.of(), records(object, 9, 9));
    }

    @Test
    void delimitersFirstAndLastAndEmptyRecords() throws Exception {
      assertEquals(List.of("\n", "\n", "a\n", "\n"), records(ascii("\n\na\n\n"), 0, 5));
      assertEquals(List.of("abc"), records(ascii("abc"), 0, 3));
      assertEquals(List.of("\u00ff"), recordsWith((byte) 0, new byte[] {(byte) 0xFF}));
      assertEquals(List.of("\0", "\u00ff"), recordsWith((byte) 0, new byte[] {0, (byte) 0xFF}));
    }

    @Test
    void anOwnedRecordLongerThanTheLimitFails() {
      byte[] object = ascii("ab\nabcdefgh\nc\n");
      RecordAssembler assembler = new RecordAssembler(RecordFormat.lines(), PATH, object.length, 0, object.length, 4);
      RecordException e = assertThrows(RecordException.class,
          () -> assembler.accept(0, ByteBuffer.wrap(object)));
      assertEquals(PATH + ": a record starting at offset 3 runs past 4 bytes (smartssd.device.isp.max-record-bytes)",
          e.getMessage());
      assertEquals(e.getMessage(), assertThrows(RecordException.class, assembler::finish).getMessage(),
          "a failed assembler stays failed");
    }

    @Test
    void theLastOwnedRecordMustEndBeforeTheReadRangeDoes() throws Exception {
      byte[] object = new byte[120];
      Arrays.fill(object, (byte) 'x');
      object[2] = '\n';
      object[119] = '\n';
      for (boolean reverse : new boolean[] {false, true}) {
        RecordAssembler assembler = new RecordAssembler(RecordFormat.lines(), PATH, 120, 0, 5, 10);
        assertEquals(15, assembler.readEnd());
        List<DataChunk> delivered = new ArrayList<>();
        RecordException e = assertThrows(RecordException.class, () -> {
          int[][] segments = reverse ? new int[][] {{8, 15}, {0, 8}} : new int[][] {{0, 8}, {8, 15}};
          for (int[] s : segments) {
            delivered.addAll(assembler.accept(s[0], ByteBuffer.wrap(object, s[0], s[1] - s[0])));
          }
          assembler.finish();
        });
        assertEquals(PATH + ": a record starting at offset 3 runs past 10 bytes (smartssd.device.isp.max-record-bytes)",
            e.getMessage());
        assertTrue(delivered.stream().allMatch(c -> c.offset() == 0), "only the first line may have gone out");
      }
    }

    @Test
    void piecesOfARecordAlreadyTooLongAreNotKept() {
      byte[] object = new byte[3 + 40];
      Arrays.fill(object, (byte) 'x');
      object[2] = '\n';
      RecordAssembler assembler = new RecordAssembler(RecordFormat.lines(), PATH, object.length, 0, object.length, 8);
      // The long record's pieces arrive last to first: its start stays unknown until the end.
      long most = 0;
      for (int end = object.length; end > 4; end -= 4) {
        int from = Math.max(4, end - 4);
        int size = end - from;
        assertEquals(List.of(), assertDoesNotThrow(() -> assembler.accept(from, ByteBuffer.wrap(object, from, size))));
        most = Math.max(most, assembler.bufferedBytes());
      }
      assertTrue(most <= 8, "held " + most + " bytes of a record that cannot be longer than 8");
      RecordException e = assertThrows(RecordException.class, () -> assembler.accept(0, ByteBuffer.wrap(object, 0, 4)));
      assertTrue(e.getMessage().contains("a record starting at offset 3 runs past 8 bytes"), e.getMessage());
    }

    @Test
    void bytesOfRecordsOfOtherRangesAreNotKept() throws Exception {
      byte[] object = ascii("foreign-part\nmine\nnext-range-record-is-long\n");
      RecordAssembler assembler = new RecordAssembler(RecordFormat.lines(), PATH, object.length, 5, 14, 100);
      assertEquals(4, assembler.readStart());
      // "e\n" is kept (its record's start is not known yet); the next range's record is not.
      assertEquals(List.of(), assembler.accept(16, ByteBuffer.wrap(object, 16, object.length - 16)));
      assertEquals(2, assembler.bufferedBytes());
      // The tail of a record that started before the range: not kept.
      assertEquals(List.of(), assembler.accept(4, ByteBuffer.wrap(object, 4, 6)));
      assertEquals(2, assembler.bufferedBytes());
      assertChunk(single(assembler.accept(10, ByteBuffer.wrap(object, 10, 6))), 13, "mine\n");
      assertEquals(0, assembler.bufferedBytes());
      assertEquals(List.of(), assembler.finish());
    }

    private List<String> records(byte[] object, long start, long end) throws Exception {
      List<String> out = new ArrayList<>();
      RecordAssembler assembler = lines(object.length, start, end);
      for (long s = assembler.readStart(); s < assembler.readEnd(); s++) {
        for (DataChunk chunk : assembler.accept(s, ByteBuffer.wrap(object, (int) s, 1))) {
          out.addAll(split(chunk, (byte) '\n'));
        }
      }
      assembler.finish();
      return out;
    }

    private List<String> recordsWith(byte delimiter, byte[] object) throws Exception {
      RecordAssembler assembler = new RecordAssembler(RecordFormat.delimited(delimiter), PATH, object.length, 0,
          object.length, MAX);
      List<String> out = new ArrayList<>();
      for (DataChunk chunk : assembler.accept(0, ByteBuffer.wrap(object))) {
        out.addAll(split(chunk, delimiter));
      }
      return out;
    }
  }

  @Nested
  class Misuse {

    @Test
    void aSegmentOutsideTheReadRangeIsRefused() {
      RecordAssembler assembler = fixed(10, 100, 20, 50);
      ByteBuffer ten = ByteBuffer.allocate(10);
      assertThrows(IllegalArgumentException.class, () -> assembler.accept(10, ten));
      assertThrows(IllegalArgumentException.class, () -> assembler.accept(45, ten));
      assertThrows(IllegalArgumentException.class, () -> assembler.accept(50, ByteBuffer.allocate(1)));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> assembler.accept(-5, ten));
      assertTrue(e.getMessage().contains("outside the read range [20, 50)"), e.getMessage());
    }

    @Test
    void anOverlappingSegmentIsRefusedAndChangesNothing() throws Exception {
      RecordAssembler assembler = fixed(10, 100, 0, 100);
      assembler.accept(20, ByteBuffer.allocate(10));
      assembler.accept(40, ByteBuffer.allocate(10));
      for (long[] bad : new long[][] {{20, 30}, {15, 25}, {25, 35}, {29, 30}, {30, 41}, {10, 60}, {45, 46}}) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> assembler.accept(bad[0], ByteBuffer.allocate((int) (bad[1] - bad[0]))), Arrays.toString(bad));
        assertTrue(e.getMessage().contains("overlaps"), e.getMessage());
      }
      assembler.accept(30, ByteBuffer.allocate(10)); // the gap between them is still free
      assertThrows(IllegalArgumentException.class, () -> assembler.accept(35, ByteBuffer.allocate(1)));
    }

    @Test
    void finishNeedsEverySegment() throws Exception {
      RecordAssembler assembler = fixed(10, 100, 0, 100);
      assembler.accept(0, ByteBuffer.allocate(40));
      assembler.accept(60, ByteBuffer.allocate(40));
      IllegalStateException e = assertThrows(IllegalStateException.class, assembler::finish);
      assertTrue(e.getMessage().contains("[40, 60)"), e.getMessage());
      assembler.accept(40, ByteBuffer.allocate(20));
      assertEquals(List.of(), assembler.finish());
      assertThrows(IllegalStateException.class, assembler::finish);
      assertThrows(IllegalStateException.class, () -> assembler.accept(0, ByteBuffer.allocate(0)));
    }

    @Test
    void anEmptyReadRangeFinishesAtOnce() throws Exception {
      assertEquals(List.of(), fixed(20, 0, 0, 0).finish());
      assertEquals(List.of(), lines(0, 0, 0).finish());
    }
  }

  private static RecordAssembler fixed(int n, long length, long start, long end) {
    return new RecordAssembler(RecordFormat.fixedLength(n), PATH, length, start, end, MAX);
  }

  private static RecordAssembler delimited(long length, long start, long end, int max) {
    return new RecordAssembler(RecordFormat.lines(), PATH, length, start, end, max);
  }

  private static RecordAssembler lines(long length, long start, long end) {
    return delimited(length, start, end, MAX);
  }

  private static DataChunk single(List<DataChunk> chunks) {
    assertEquals(1, chunks.size(), "chunks: " + chunks);
    return chunks.get(0);
  }

  private static void assertChunk(DataChunk chunk, long offset, String content) {
    assertEquals(PATH, chunk.path());
    assertEquals(offset, chunk.offset(), "offset");
    assertEquals(content, text(chunk.data()));
    assertTrue(chunk.data().isReadOnly());
  }

  private static List<String> split(DataChunk chunk, byte delimiter) {
    String text = text(chunk.data());
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if ((byte) text.charAt(i) == delimiter) {
        out.add(text.substring(start, i + 1));
        start = i + 1;
      }
    }
    if (start < text.length()) {
      out.add(text.substring(start));
    }
    return out;
  }

  private static String text(ByteBuffer data) {
    byte[] bytes = new byte[data.remaining()];
    data.duplicate().get(bytes);
    return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(US_ASCII);
  }
}
