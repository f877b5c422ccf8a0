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
  void aPayloadLargerThanTheFirstStepArrivesWhole() throws IOException {
    for (int size : new int[] {FrameReader.FIRST_STEP_BYTES - 1, FrameReader.FIRST_STEP_BYTES,
        FrameReader.FIRST_STEP_BYTES + 1, 5 * FrameReader.FIRST_STEP_BYTES + 17}) {
      Request write = new Request.Write(3, FrameVectors.sequence(size));
      Frame f = new FrameReader(stream(bytes(Messages.requestFrame(1, 9, write)))).read(MAX);
      assertEquals(write, Messages.decodeRequest(Opcode.WRITE, f.payload()), "payload of " + size);
    }
  }

  /**
   * A header announcing the largest payload, and then nothing: the reader asks for the first step of
   * memory, not for the announced payload (fifteen such headers took a device from 126 MB to 1 GB).
   */
  @Test
  void aHeaderAloneCostsTheFirstStepNotThePayloadItAnnounces() {
    byte[] header = new byte[ProtocolConstants.HEADER_BYTES];
    new FrameHeader(1, Opcode.WRITE.code(), 0, 0, 64 << 20, 1, 0).writeTo(ByteBuffer.wrap(header));
    int[] largestBuffer = {0};
    java.io.InputStream sender = new java.io.InputStream() {
      int sent;

      @Override
      public int read() {
        return sent < header.length ? header[sent++] & 0xFF : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (sent >= header.length) {
          largestBuffer[0] = Math.max(largestBuffer[0], b.length);
          return -1; // the sender sends no payload
        }
        int n = Math.min(len, header.length - sent);
        System.arraycopy(header, sent, b, off, n);
        sent += n;
        return n;
      }
    };
    FramingException e = assertThrows(FramingException.class, () -> new FrameReader(sender).read(128 << 20));
    assertTrue(e.getMessage().startsWith("truncated frame after 32 of"), e.getMessage());
    assertEquals(FrameReader.FIRST_STEP_BYTES, largestBuffer[0]);
  }

  /**
   * A client's reader takes its device's answer at the length announced, in one buffer, with no
   * copy on the way (a growing buffer would copy a 1 MiB answer four times over); the memory it
   * accepts is still bounded by the limit it reads with.
   */
  @Test
  void aClientsReaderSizesThePayloadByItsHeader() throws IOException {
    int size = 5 * FrameReader.FIRST_STEP_BYTES + 17;
    Request write = new Request.Write(3, FrameVectors.sequence(size));
    byte[] frame = bytes(Messages.requestFrame(1, 9, write));
    java.util.List<Integer> buffers = new java.util.ArrayList<>();
    java.io.InputStream watched = new java.io.ByteArrayInputStream(frame) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        if (b.length > ProtocolConstants.HEADER_BYTES) {
          buffers.add(b.length);
        }
        return super.read(b, off, len);
      }
    };
    Frame f = FrameReader.sizedByHeader(watched).read(MAX);
    assertEquals(write, Messages.decodeRequest(Opcode.WRITE, f.payload()));
    assertEquals(java.util.Set.of(frame.length - ProtocolConstants.HEADER_BYTES), new java.util.HashSet<>(buffers),
        "one buffer, of the payload's length");
    assertThrows(FrameTooLargeException.class, () -> FrameReader.sizedByHeader(
        new java.io.ByteArrayInputStream(frame)).read(size / 2));
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
