package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class FrameHeaderTest {

  @Test
  void roundTripsWithUnsignedAndTopBitValues() throws ProtocolException {
    FrameHeader header = new FrameHeader(0xFFFF, 0x8001, 1, 0xFFFF, -1, Long.MIN_VALUE, -2L);
    ByteBuffer buffer = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN); // order must not matter
    buffer.position(3);
    header.writeTo(buffer);
    assertEquals(3 + ProtocolConstants.HEADER_BYTES, buffer.position());
    buffer.position(3);
    assertEquals(header, FrameHeader.readFrom(buffer));
    assertEquals(3 + ProtocolConstants.HEADER_BYTES, buffer.position());
    assertEquals(ProtocolConstants.MAGIC, buffer.order(ByteOrder.BIG_ENDIAN).getInt(3));
  }

  @Test
  void badMagicMustClose() {
    ByteBuffer buffer = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES);
    buffer.putInt(0, 0x48545450); // "HTTP"
    FramingException e = assertThrows(FramingException.class, () -> FrameHeader.readFrom(buffer));
    assertTrue(e.mustClose());
    assertTrue(e.getMessage().contains("0x48545450"), e.getMessage());
  }

  @Test
  void shortBufferIsTruncated() {
    FramingException e = assertThrows(FramingException.class, () -> FrameHeader.readFrom(ByteBuffer.allocate(31)));
    assertTrue(e.getMessage().contains("31 of 32"), e.getMessage());
  }

  @Test
  void factoriesSetFlagsAndStatus() {
    FrameHeader request = FrameHeader.request(1, Opcode.READ, 20, 7);
    assertFalse(request.isResponse());
    assertEquals(0, request.status());
    FrameHeader response = FrameHeader.response(1, Opcode.READ, Status.PAST_END, 0, 7, 99);
    assertTrue(response.isResponse());
    assertEquals(6, response.status());
    assertEquals(99, response.modelledNanos());
  }

  @Test
  void u16FieldsAreRangeChecked() {
    assertThrows(IllegalArgumentException.class, () -> new FrameHeader(0x10000, 1, 0, 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new FrameHeader(1, -1, 0, 0, 0, 0, 0));
  }
}
