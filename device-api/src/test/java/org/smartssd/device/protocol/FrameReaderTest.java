package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FrameReaderTest {
  private static final int MAX = 1 << 20;

  @Test
  void readsFramesBackToBackThenNullAtCleanEnd() throws IOException {
    Request first = new Request.Mkdirs("/a");
    Request second = new Request.Write(3, FrameVectors.sequence(5000));
    FrameReader reader = new FrameReader(stream(concat(
        bytes(Messages.requestFrame(1, 1, first)), bytes(Messages.requestFrame(1, 2, second)))));

    Frame f1 = reader.read(MAX);
    assertEquals(1, f1.header().requestId());
    assertEquals(first, Messages.decodeRequest(Opcode.MKDIRS, f1.payload()));
    Frame f2 = reader.read(MAX);
    assertEquals(2, f2.header().requestId());
    assertEquals(second, Messages.decodeRequest(Opcode.WRITE, f2.payload()));
    assertNull(reader.read(MAX));
    assertNull(reader.read(MAX), "still at the end");
  }

  @Test
  void emptyStreamIsACleanEnd() throws IOException {
    assertNull(new FrameReader(stream(new byte[0])).read(MAX));
  }

  @Test
  void streamEndingInTheHeaderIsTruncated() {
    byte[] frame = bytes(Messages.requestFrame(1, 1, new Request.Info()));
    FramingException e = assertThrows(FramingException.class,
        () -> new FrameReader(stream(Arrays.copyOf(frame, 20))).read(MAX));
    assertEquals("truncated frame after 20 of 32 header bytes: the stream ended", e.getMessage());
    assertTrue(e.mustClose());
  }

  @Test
  void streamEndingInThePayloadIsTruncated() {
    byte[] frame = bytes(Messages.requestFrame(1, 1, new Request.Mkdirs("/data/wc98")));
    FramingException e = assertThrows(FramingException.class,
        () -> new FrameReader(stream(Arrays.copyOf(frame, frame.length - 3))).read(MAX));
    assertEquals("truncated frame after " + (frame.length - 3) + " of " + frame.length
        + " bytes: the stream ended", e.getMessage());
  }

  @Test
  void badMagicMustClose() {
    byte[] frame = bytes(Messages.requestFrame(1, 1, new Request.Info()));
    frame[0] = 'X';
    FramingException e = assertThrows(FramingException.class, () -> new FrameReader(stream(frame)).read(MAX));
    assertTrue(e.mustClose());
    assertTrue(e.getMessage().startsWith("bad magic"), e.getMessage());
  }

  @Test
  void payloadAboveTheLimitCarriesTheHeader() {
    byte[] frame = bytes(Messages.requestFrame(1, 77, new Request.Write(1, FrameVectors.sequence(100))));
    FrameTooLargeException e = assertThrows(FrameTooLargeException.class,
        () -> new FrameReader(stream(frame)).read(111));
    assertEquals(77, e.header().requestId());
    assertEquals(Opcode.WRITE.code(), e.header().opcode());
    assertEquals(112, e.header().payloadLength());
    assertTrue(e.mustClose());
    assertTrue(e.getMessage().contains("112 bytes exceeds the limit of 111"), e.getMessage());
  }

  @Test
  void payloadExactlyAtTheLimitIsRead() throws IOException {
    byte[] frame = bytes(Messages.requestFrame(1, 77, new Request.Write(1, FrameVectors.sequence(100))));
    assertEquals(112, new FrameReader(stream(frame)).read(112).payload().remaining());
  }

  @Test
  void negativePayloadLengthIsTooLarge() {
    ByteBuffer header = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES);
    new FrameHeader(1, Opcode.WRITE.code(), 0, 0, 0x8000_0000, 5, 0).writeTo(header);
    FrameTooLargeException e = assertThrows(FrameTooLargeException.class,
        () -> new FrameReader(stream(header.array())).read(MAX));
    assertTrue(e.getMessage().contains("2147483648"), e.getMessage());
    assertEquals(5, e.header().requestId());
  }

  private static ByteArrayInputStream stream(byte[] bytes) {
    return new ByteArrayInputStream(bytes);
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] b = new byte[buffer.remaining()];
    buffer.duplicate().get(b);
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(a);
    out.writeBytes(b);
    return out.toByteArray();
  }
}
