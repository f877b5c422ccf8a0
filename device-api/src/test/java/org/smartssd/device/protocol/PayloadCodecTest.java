package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/** PayloadWriter and PayloadReader: the types of PROTOCOL.md's "Payload types". */
class PayloadCodecTest {

  @Test
  void everyTypeRoundTrips() throws ProtocolException {
    ObjectStatus status = new ObjectStatus("/é/ß", true, 0, -5, Long.MIN_VALUE);
    ObjectStatus v4 = new ObjectStatus("/é/ß", false, 7, -5, 3, "ünïcode", "", 01777, Long.MIN_VALUE);
    DeviceGeometry geometry = new DeviceGeometry(2, 3, 4, 5, 4096, 1);
    ByteBuffer payload = new PayloadWriter(1)
        .u8(255).bool(true).bool(false).u16(65535).u32(-1).u64(Long.MIN_VALUE)
        .string("").string("ログ").bytes(ByteBuffer.wrap(new byte[] {1, 2, 3}))
        .objectStatus(3, status).objectStatus(4, v4).geometry(geometry)
        .toByteBuffer();
    PayloadReader r = new PayloadReader(payload, "test");
    assertEquals(255, r.u8("a"));
    assertTrue(r.bool("b"));
    assertFalse(r.bool("c"));
    assertEquals(65535, r.u16("d"));
    assertEquals(-1, r.u32("e"));
    assertEquals(Long.MIN_VALUE, r.u64("f"));
    assertEquals("", r.string("g"));
    assertEquals("ログ", r.string("h"));
    assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), r.bytes("i"));
    assertEquals(status, r.objectStatus(3, "j"));
    assertEquals(v4, r.objectStatus(4, "j4"));
    assertEquals(geometry, r.geometry("k"));
    r.expectEnd();
    assertEquals(0, payload.position(), "the reader must not move the caller's position");
  }

  @Test
  void inStorageProcessingTypesRoundTrip() throws ProtocolException {
    InputRange range = new InputRange("/é", Long.MAX_VALUE, InputRange.TO_END);
    ExecutionStatistics stats = new ExecutionStatistics(
        Integer.MAX_VALUE, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, Long.MIN_VALUE, 21, 22, 23,
        24);
    TaskletResult merged = new TaskletResult(-1, ByteBuffer.wrap(new byte[] {9}));
    ByteBuffer payload = new PayloadWriter()
        .inputRange(range).executionStatistics(stats).taskletResult(merged).stringMap(Map.of("b", "", "a", "ß"))
        .toByteBuffer();
    assertEquals(2 + 3 + 8 + 8 + 4 + 24 * 8 + 2 + 4 + 1 + 4 + (2 + 1 + 2 + 2) + (2 + 1 + 2 + 0), payload.remaining());
    PayloadReader r = new PayloadReader(payload, "test");
    assertEquals(range, r.inputRange("a"));
    assertEquals(stats, r.executionStatistics("b"));
    assertEquals(merged, r.taskletResult("c"));
    assertEquals(List.of(Map.entry("a", "ß"), Map.entry("b", "")), List.copyOf(r.stringMap("d").entrySet()));
    r.expectEnd();
  }

  @Test
  void writerRejectsOutOfRangeValues() {
    PayloadWriter w = new PayloadWriter();
    assertThrows(IllegalArgumentException.class, () -> w.u8(256));
    assertThrows(IllegalArgumentException.class, () -> w.u8(-1));
    assertThrows(IllegalArgumentException.class, () -> w.u16(65536));
    assertEquals(0, w.size(), "a rejected value writes nothing");
  }

  @Test
  void stringOverU16BytesIsRejectedOnWrite() {
    String fits = "a".repeat(65535);
    assertEquals(2 + 65535, new PayloadWriter().string(fits).size());
    String tooLong = "é".repeat(32768); // 65536 bytes of UTF-8 in 32768 chars
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new PayloadWriter().string(tooLong));
    assertTrue(e.getMessage().contains("65536 bytes"), e.getMessage());
  }

  @Test
  void unpairedSurrogateIsRejectedOnWrite() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new PayloadWriter().string("/a\uD800b"));
    assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
  }

  @Test
  void truncatedFieldNamesTheFieldAndTheContext() {
    PayloadReader r = new PayloadReader(ByteBuffer.wrap(new byte[] {0, 0, 0}), "WRITE request");
    ProtocolException e = assertThrows(ProtocolException.class, () -> r.u64("handle"));
    assertEquals("WRITE request: field 'handle': truncated: needs 8 bytes, 3 remain", e.getMessage());
    assertFalse(e.mustClose());
  }

  @Test
  void boolOtherThanZeroOrOneIsRejected() {
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> new PayloadReader(ByteBuffer.wrap(new byte[] {2}), "CREATE request").bool("overwrite"));
    assertTrue(e.getMessage().contains("'overwrite'") && e.getMessage().contains("was 2"), e.getMessage());
  }

  @Test
  void invalidUtf8IsRejected() {
    byte[] payload = {0, 3, '/', (byte) 0xC3, 0x28}; // 0xC3 must be followed by a continuation byte
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> new PayloadReader(ByteBuffer.wrap(payload), "OPEN request").string("path"));
    assertTrue(e.getMessage().contains("'path'") && e.getMessage().contains("UTF-8"), e.getMessage());
  }

  @Test
  void overlongUtf8EncodingIsRejected() {
    byte[] payload = {0, 2, (byte) 0xC0, (byte) 0xAF}; // "/" encoded in two bytes
    assertThrows(ProtocolException.class, () -> new PayloadReader(ByteBuffer.wrap(payload), "x").string("path"));
  }

  @Test
  void stringLongerThanThePayloadIsTruncated() {
    byte[] payload = {0, 10, 'a', 'b'};
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> new PayloadReader(ByteBuffer.wrap(payload), "x").string("path"));
    assertTrue(e.getMessage().contains("needs 10 bytes, 2 remain"), e.getMessage());
  }

  @Test
  void negativeU32LengthIsRejected() {
    byte[] payload = {(byte) 0x80, 0, 0, 0, 1, 2};
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> new PayloadReader(ByteBuffer.wrap(payload), "WRITE request").bytes("data"));
    assertTrue(e.getMessage().contains("negative length") && e.getMessage().contains("2147483648"), e.getMessage());
    assertThrows(ProtocolException.class,
        () -> new PayloadReader(ByteBuffer.wrap(payload), "READ request").length("length"));
  }

  @Test
  void countLargerThanTheRestCanHoldIsRejectedBeforeAllocating() {
    byte[] payload = {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0};
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> new PayloadReader(ByteBuffer.wrap(payload), "LIST response").count("entries", 27));
    assertTrue(e.getMessage().contains("count 2147483647"), e.getMessage());
  }

  /**
   * A map of the shortest entries decodes into about 16 times its bytes (a 64 MiB CREATE_OBJECT of
   * them took a device with a 256 MiB heap to OutOfMemoryError, its request never answered): one
   * entry more than {@link PayloadReader#MAX_MAP_ENTRIES} is refused before any is read.
   */
  @Test
  void aMapOfMoreThanTheMostEntriesIsRefusedBeforeAnyIsRead() throws ProtocolException {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    for (int entries : new int[] {PayloadReader.MAX_MAP_ENTRIES, PayloadReader.MAX_MAP_ENTRIES + 1}) {
      Map<String, String> parameters = new java.util.HashMap<>();
      for (int i = 0; i < entries; i++) {
        parameters.put(Integer.toString(i, 36), "");
      }
      ByteBuffer payload = new PayloadWriter().bytes(ByteBuffer.allocate(0)).string("T").stringMap(parameters)
          .toByteBuffer();
      if (entries == PayloadReader.MAX_MAP_ENTRIES) {
        Request.CreateObject r = (Request.CreateObject) Messages.decodeRequest(Opcode.CREATE_OBJECT, payload);
        assertEquals(entries, r.parameters().size());
        continue;
      }
      long before = threads.getCurrentThreadAllocatedBytes();
      ProtocolException e = assertThrows(ProtocolException.class,
          () -> Messages.decodeRequest(Opcode.CREATE_OBJECT, payload));
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertTrue(e.getMessage().contains("parameters") && e.getMessage().contains("65537 entries; a map holds at most 65536"),
          e.getMessage());
      // The exception and its message, not the map: far less than the payload's own bytes.
      assertTrue(allocated < payload.remaining(), allocated + " bytes allocated for a payload of " + payload.remaining());
    }
  }

  @Test
  void objectKindOtherThanFileOrDirectoryIsRejected() {
    ByteBuffer payload = new PayloadWriter().string("/a").u8(2).u64(0).u64(0).u64(0).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> new PayloadReader(payload, "STATUS response").objectStatus(1, "status"));
    assertTrue(e.getMessage().contains("status.kind"), e.getMessage());
  }

  @Test
  void aPermissionBeyondItsTenBitsIsRejected() {
    ByteBuffer payload = new PayloadWriter().string("/a").u8(0).u64(0).u64(0).u64(0)
        .string("alice").string("g").u16(02755).u64(0).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> new PayloadReader(payload, "STATUS response").objectStatus(4, "status"));
    assertTrue(e.getMessage().contains("status.permission") && e.getMessage().contains("2755"), e.getMessage());
  }

  @Test
  void aVersion4StatusMustCarryAPermission() {
    ObjectStatus old = new ObjectStatus("/a", false, 0, 0, 1);
    assertThrows(IllegalArgumentException.class, () -> new PayloadWriter().objectStatus(4, old));
  }

  @Test
  void invalidGeometryIsAProtocolError() {
    ByteBuffer payload = new PayloadWriter().u32(0).u32(1).u32(1).u32(1).u32(1).u32(1).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> new PayloadReader(payload, "DEVICE_INFO response").geometry("geometry"));
    assertTrue(e.getMessage().contains("channels must be positive"), e.getMessage());
  }

  @Test
  void trailingBytesAreRejected() throws ProtocolException {
    PayloadReader r = new PayloadReader(ByteBuffer.wrap(new byte[] {1, 2}), "FLUSH request");
    r.u8("x");
    ProtocolException e = assertThrows(ProtocolException.class, r::expectEnd);
    assertEquals("FLUSH request: 1 trailing bytes after the last field", e.getMessage());
  }

  @Test
  void largeBytesAreAttachedNotCopiedAndGiveTheSameBytes() {
    ByteBuffer big = FrameVectors.sequence(PayloadWriter.ATTACH_THRESHOLD + 1);
    big.position(1); // exactly ATTACH_THRESHOLD bytes remain
    PayloadWriter w = new PayloadWriter().u8(7).bytes(big).u8(9);
    List<ByteBuffer> segments = w.segments();
    assertEquals(3, segments.size(), "prefix, the caller's data, suffix");
    assertSame(big.array(), segments.get(1).array(), "the data segment must share the caller's array");
    assertEquals(1, big.position(), "the caller's position must not move");

    ByteBuffer whole = w.toByteBuffer();
    assertEquals(1 + 4 + PayloadWriter.ATTACH_THRESHOLD + 1, whole.remaining());
    byte[] expected = new byte[whole.remaining()];
    ByteBuffer e = ByteBuffer.wrap(expected).put((byte) 7).putInt(PayloadWriter.ATTACH_THRESHOLD);
    e.put(big.duplicate()).put((byte) 9);
    byte[] actual = new byte[whole.remaining()];
    whole.get(actual);
    assertArrayEquals(expected, actual);
  }

  @Test
  void directBuffersAreEncodedLikeHeapBuffers() {
    ByteBuffer heap = FrameVectors.sequence(10_000);
    ByteBuffer direct = ByteBuffer.allocateDirect(10_000).put(heap.duplicate()).flip();
    assertEquals(new PayloadWriter().bytes(heap).toByteBuffer(), new PayloadWriter().bytes(direct).toByteBuffer());
  }
}
