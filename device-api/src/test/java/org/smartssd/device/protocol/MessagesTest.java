package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.smartssd.device.protocol.FrameVectors.Vector;

/** Whole messages: every malformed payload gives a ProtocolException that says what was wrong. */
class MessagesTest {

  /** Every vector with a non-empty payload, cut short at every length. */
  @TestFactory
  Stream<DynamicTest> everyTruncatedPayloadIsRejected() {
    return FrameVectors.ALL.stream().filter(v -> payloadOf(v).length > 0)
        .map(v -> DynamicTest.dynamicTest(v.file(), () -> {
          byte[] payload = payloadOf(v);
          for (int n = 0; n < payload.length; n++) {
            ByteBuffer cut = ByteBuffer.wrap(payload, 0, n).slice();
            ProtocolException e = assertThrows(ProtocolException.class, () -> decode(v, cut),
                v.file() + " cut to " + n + " bytes");
            assertTrue(e.getMessage().startsWith(v.opcode() + (v.isRequest() ? " request" : " response")),
                e.getMessage());
            assertTrue(e.getMessage().contains("field '"), e.getMessage());
          }
        }));
  }

  @TestFactory
  Stream<DynamicTest> everyPayloadWithATrailingByteIsRejected() {
    return FrameVectors.ALL.stream().map(v -> DynamicTest.dynamicTest(v.file(), () -> {
      byte[] payload = payloadOf(v);
      ByteBuffer longer = ByteBuffer.allocate(payload.length + 1).put(payload).put((byte) 0).flip();
      ProtocolException e = assertThrows(ProtocolException.class, () -> decode(v, longer));
      assertTrue(e.getMessage().contains("1 trailing bytes"), e.getMessage());
    }));
  }

  @Test
  void badBoolInARequestIsRejected() {
    ByteBuffer payload = new PayloadWriter().string("/a").u8(1).u8(7).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class, () -> Messages.decodeRequest(Opcode.CREATE, payload));
    assertEquals("CREATE request: field 'createParents': bool must be 0 or 1, was 7", e.getMessage());
  }

  @Test
  void negativeReadLengthIsRejected() {
    ByteBuffer payload = new PayloadWriter().u64(1).u64(0).u32(-1).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class, () -> Messages.decodeRequest(Opcode.READ, payload));
    assertTrue(e.getMessage().contains("'length'") && e.getMessage().contains("negative"), e.getMessage());
  }

  @Test
  void badUtf8PathIsRejected() {
    ByteBuffer payload = ByteBuffer.wrap(new byte[] {0, 2, '/', (byte) 0xFF});
    ProtocolException e = assertThrows(ProtocolException.class, () -> Messages.decodeRequest(Opcode.MKDIRS, payload));
    assertTrue(e.getMessage().startsWith("MKDIRS request: field 'path': not valid UTF-8"), e.getMessage());
  }

  @Test
  void versionRangeUpsideDownIsRejected() {
    ByteBuffer payload = new PayloadWriter().u16(3).u16(2).toByteBuffer();
    assertThrows(ProtocolException.class, () -> Messages.decodeResponse(Opcode.API_VERSIONS, Status.OK, payload));
  }

  @Test
  void duplicateParameterKeyIsRejected() {
    PayloadWriter w = new PayloadWriter().string("d").string("p").geometry(FrameVectors.INFO.geometry())
        .u64(1).u64(1).bool(false).u32(2).string("k").string("1").string("k").string("2");
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(Opcode.DEVICE_INFO, Status.OK, w.toByteBuffer()));
    assertTrue(e.getMessage().contains("duplicate key k"), e.getMessage());
  }

  @Test
  void anyOpcodeCanCarryAnError() throws ProtocolException {
    ByteBuffer payload = new PayloadWriter().string("no").toByteBuffer();
    for (Opcode op : Opcode.values()) {
      assertEquals(new Response.Error(Status.BUSY, "no"), Messages.decodeResponse(op, Status.BUSY, payload));
    }
  }

  @Test
  void errorResponseWithoutItsMessageIsRejected() {
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(Opcode.OPEN, Status.NOT_FOUND, ByteBuffer.allocate(0)));
    assertTrue(e.getMessage().contains("'message"), e.getMessage());
  }

  @Test
  void responseMustAnswerItsOpcode() {
    Messages.checkAnswers(Opcode.APPEND, new Response.Opened(1, 2, 3));
    Messages.checkAnswers(Opcode.APPEND, new Response.Error(Status.BAD_REQUEST, "x"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Messages.responseFrame(1, 1, Opcode.MKDIRS, new Response.Opened(1, 2, 3), 0));
    assertTrue(e.getMessage().contains("Opened") && e.getMessage().contains("MKDIRS"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Messages.checkAnswers(Opcode.READ, new Response.Length(1)));
  }

  @Test
  void errorWithStatusOkCannotBeBuilt() {
    assertThrows(IllegalArgumentException.class, () -> new Response.Error(Status.OK, "fine"));
  }

  @Test
  void encodingLeavesTheCallersBufferAlone() throws ProtocolException {
    ByteBuffer data = FrameVectors.sequence(10_000);
    data.position(100);
    Request.Write write = new Request.Write(5, data);
    ByteBuffer frame = Messages.requestFrame(1, 9, write);
    assertEquals(100, data.position());
    assertEquals(100, write.data().position());
    FrameHeader header = FrameHeader.readFrom(frame);
    assertEquals(8 + 4 + 9_900, header.payloadLength());
    assertEquals(write, Messages.decodeRequest(Opcode.WRITE, frame));
    assertEquals(ProtocolConstants.HEADER_BYTES, frame.position(), "decoding must not move the payload either");
  }

  @Test
  void recordsHoldingBuffersFixTheirWindowAtConstruction() {
    ByteBuffer data = FrameVectors.sequence(4);
    Response.Data reply = new Response.Data(data);
    data.position(4);
    assertEquals(4, reply.data().remaining());
    assertEquals(new Response.Data(FrameVectors.sequence(4)), reply);
  }

  @Test
  void segmentsAndContiguousFrameHaveTheSameBytes() {
    Request.Write write = new Request.Write(1, FrameVectors.sequence(PayloadWriter.ATTACH_THRESHOLD * 3));
    List<ByteBuffer> segments = Messages.requestFrameSegments(1, 2, write);
    assertTrue(segments.size() > 1);
    ByteBuffer joined = ByteBuffer.allocate(segments.stream().mapToInt(ByteBuffer::remaining).sum());
    segments.forEach(joined::put);
    assertEquals(Messages.requestFrame(1, 2, write), joined.flip());
  }

  @Test
  void responseFrameTakesItsStatusFromTheError() throws ProtocolException {
    ByteBuffer frame = Messages.responseFrame(1, 3, Opcode.READ, new Response.Error(Status.PAST_END, "x"), 0);
    FrameHeader header = FrameHeader.readFrom(frame);
    assertEquals(Status.PAST_END.code(), header.status());
    assertTrue(header.isResponse());
    assertInstanceOf(Response.Error.class, Messages.decodeResponse(Opcode.READ, Status.PAST_END, frame));
    assertFalse(FrameHeader.readFrom(Messages.requestFrame(1, 3, new Request.Info())).isResponse());
  }

  private static byte[] payloadOf(Vector v) {
    ByteBuffer frame = v.encode();
    frame.position(ProtocolConstants.HEADER_BYTES);
    byte[] payload = new byte[frame.remaining()];
    frame.get(payload);
    return payload;
  }

  private static Object decode(Vector v, ByteBuffer payload) throws ProtocolException {
    if (v.isRequest()) {
      return Messages.decodeRequest(v.opcode(), payload);
    }
    Response expected = (Response) v.message();
    Status status = expected instanceof Response.Error e ? e.status() : Status.OK;
    return Messages.decodeResponse(v.opcode(), status, payload);
  }
}
