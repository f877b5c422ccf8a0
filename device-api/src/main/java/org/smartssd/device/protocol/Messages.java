package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Encoding and decoding of whole messages and frames. Encoding never moves the position of a
 * buffer held by a message; decoding reads a duplicate of the payload and returns records whose
 * buffers ({@code WRITE} data, {@code READ} data) are views of it, not copies.
 */
public final class Messages {
  private Messages() {}

  /** Encodes a request as {@link ProtocolConstants#CURRENT_VERSION} lays it out. */
  public static void encodeRequest(Request request, PayloadWriter writer) {
    encodeRequest(ProtocolConstants.CURRENT_VERSION, request, writer);
  }

  /**
   * Encodes a request as protocol {@code version} lays it out: MKDIRS and CREATE carry a permission
   * from version 4 on (earlier versions leave it out, and the device gives the default).
   */
  public static void encodeRequest(int version, Request request, PayloadWriter writer) {
    RequestCodec.encode(version, request, writer);
  }

  /**
   * Decodes a request laid out as in {@link ProtocolConstants#CURRENT_VERSION}.
   *
   * @throws ProtocolException when the payload does not hold exactly this opcode's fields
   */
  public static Request decodeRequest(Opcode opcode, ByteBuffer payload) throws ProtocolException {
    return decodeRequest(ProtocolConstants.CURRENT_VERSION, opcode, payload);
  }

  /**
   * Decodes the payload of a request in a frame of protocol {@code version}.
   *
   * @throws ProtocolException when the payload does not hold exactly this opcode's fields
   */
  public static Request decodeRequest(int version, Opcode opcode, ByteBuffer payload) throws ProtocolException {
    return RequestCodec.decode(version, opcode, payload);
  }

  /** Encodes a response as {@link ProtocolConstants#CURRENT_VERSION} lays it out. */
  public static void encodeResponse(Response response, PayloadWriter writer) {
    encodeResponse(ProtocolConstants.CURRENT_VERSION, response, writer);
  }

  /**
   * Encodes a response as protocol {@code version} lays it out: they differ in STATISTICS, which
   * carries {@code DiskUse} from version 2 on and {@code DeviceEnergy} from version 3 on (and must have
   * them there), and in {@code ObjectStatus}, which carries owner, group, permission and access time
   * from version 4 on.
   */
  public static void encodeResponse(int version, Response response, PayloadWriter writer) {
    ResponseCodec.encode(version, response, writer);
  }

  /** Decodes a response laid out as in {@link ProtocolConstants#CURRENT_VERSION}. */
  public static Response decodeResponse(Opcode opcode, Status status, ByteBuffer payload)
      throws ProtocolException {
    return decodeResponse(ProtocolConstants.CURRENT_VERSION, opcode, status, payload);
  }

  /**
   * Decodes the payload of a response to {@code opcode} in a frame of protocol {@code version}: a
   * non-OK status always gives {@link Response.Error}, OK gives {@code opcode.responseType()}.
   *
   * @throws ProtocolException when the payload does not hold exactly the expected fields
   */
  public static Response decodeResponse(int version, Opcode opcode, Status status, ByteBuffer payload)
      throws ProtocolException {
    return ResponseCodec.decode(version, opcode, status, payload);
  }

  /**
   * Checks that the response may answer the opcode ({@code Error} answers any).
   *
   * @throws IllegalArgumentException otherwise
   */
  public static void checkAnswers(Opcode opcode, Response response) {
    if (!(response instanceof Response.Error) && !opcode.responseType().isInstance(response)) {
      throw new IllegalArgumentException("a " + response.getClass().getSimpleName()
          + " response does not answer " + opcode + " (expected " + opcode.responseType().getSimpleName() + ")");
    }
  }

  /** A whole request frame in one buffer (position 0). */
  public static ByteBuffer requestFrame(int version, long requestId, Request request) {
    return concat(requestFrameSegments(version, requestId, request));
  }

  /**
   * A whole request frame as buffers to write in order: the header, then the payload's segments
   * (large data is not copied; see {@link PayloadWriter}).
   */
  public static List<ByteBuffer> requestFrameSegments(int version, long requestId, Request request) {
    PayloadWriter payload = new PayloadWriter();
    encodeRequest(version, request, payload);
    return frame(FrameHeader.request(version, request.opcode(), payload.size(), requestId), payload);
  }

  /** A whole response frame in one buffer (position 0); the status is the Error's, else OK. */
  public static ByteBuffer responseFrame(
      int version, long requestId, Opcode opcode, Response response, long modelledNanos) {
    return concat(responseFrameSegments(version, requestId, opcode, response, modelledNanos));
  }

  /** A whole response frame as buffers to write in order (see {@link #requestFrameSegments}). */
  public static List<ByteBuffer> responseFrameSegments(
      int version, long requestId, Opcode opcode, Response response, long modelledNanos) {
    checkAnswers(opcode, response);
    Status status = response instanceof Response.Error e ? e.status() : Status.OK;
    PayloadWriter payload = new PayloadWriter();
    encodeResponse(version, response, payload);
    return frame(
        FrameHeader.response(version, opcode, status, payload.size(), requestId, modelledNanos), payload);
  }

  private static List<ByteBuffer> frame(FrameHeader header, PayloadWriter payload) {
    ByteBuffer head = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES);
    header.writeTo(head);
    List<ByteBuffer> segments = new ArrayList<>();
    segments.add(head.flip());
    segments.addAll(payload.segments());
    return segments;
  }

  /** The segments' remaining bytes, in order, copied into one heap buffer (position 0); the segments are unchanged. */
  public static ByteBuffer concat(List<ByteBuffer> segments) {
    int size = segments.stream().mapToInt(ByteBuffer::remaining).sum();
    ByteBuffer all = ByteBuffer.allocate(size);
    segments.forEach(s -> all.put(s.duplicate()));
    return all.flip();
  }
}
