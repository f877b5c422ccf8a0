package org.smartssd.device.protocol;

import java.io.IOException;
import java.util.Optional;

/**
 * What a device makes of the frames a connection sends, up to the decoded request: the same steps,
 * in the same order, as the device's connection reader ({@code device-runtime}'s
 * {@code host.Connection}, for a device without a secret). A fuzzer runs it in memory; a test over a
 * real socket uses it to know what the device will answer.
 */
public final class DeviceDecoding {
  private DeviceDecoding() {}

  /** What became of one frame. */
  public enum Outcome {
    /** A request, handed to the device's handler. */
    DECODED,
    /** A payload that does not hold its opcode's fields: answered BAD_REQUEST, the connection goes on. */
    BAD_REQUEST,
    /** Answered UNKNOWN_OPCODE, the connection goes on. */
    UNKNOWN_OPCODE,
    /** Answered UNSUPPORTED_VERSION, the connection goes on. */
    UNSUPPORTED_VERSION,
    /** A payload length over the limit: answered FRAME_TOO_LARGE, then the connection is closed. */
    TOO_LARGE,
    /** A frame with the response flag: the connection is closed unanswered. */
    RESPONSE_FLAG,
    /** Bad magic, or the stream ended inside a frame: the connection is closed unanswered. */
    UNFRAMED;

    /** Whether the device sends an answer to this frame. */
    public boolean answered() {
      return this != RESPONSE_FLAG && this != UNFRAMED;
    }

    /** Whether the device closes the connection after this frame. */
    public boolean closes() {
      return this == TOO_LARGE || this == RESPONSE_FLAG || this == UNFRAMED;
    }
  }

  /**
   * One frame's fate.
   *
   * @param header the frame's header (null when none could be read: UNFRAMED)
   * @param request the decoded request (DECODED only)
   */
  public record Step(Outcome outcome, FrameHeader header, Request request) {}

  /**
   * Reads the next frame as the device does and decodes it.
   *
   * @return null when the stream ends cleanly at a frame boundary
   * @throws IOException only when the stream fails; any other exception is a bug of the decoder
   */
  public static Step next(FrameReader reader, int maxFrameBytes) throws IOException {
    Frame frame;
    try {
      frame = reader.read(maxFrameBytes);
    } catch (FrameTooLargeException e) {
      return new Step(Outcome.TOO_LARGE, e.header(), null);
    } catch (FramingException e) {
      return new Step(Outcome.UNFRAMED, null, null);
    }
    if (frame == null) {
      return null;
    }
    FrameHeader h = frame.header();
    if (h.isResponse()) {
      return new Step(Outcome.RESPONSE_FLAG, h, null);
    }
    Optional<Opcode> opcode = Opcode.fromCode(h.opcode());
    // The handshake's two commands are decoded on the reading thread, whatever their version.
    boolean handshake = opcode.isPresent()
        && (opcode.get() == Opcode.AUTH_CHALLENGE || opcode.get() == Opcode.AUTHENTICATE);
    if (!handshake) {
      if (opcode.isEmpty()) {
        return new Step(Outcome.UNKNOWN_OPCODE, h, null);
      }
      if (opcode.get() != Opcode.API_VERSIONS
          && (h.version() < ProtocolConstants.MIN_VERSION || h.version() > ProtocolConstants.MAX_VERSION)) {
        return new Step(Outcome.UNSUPPORTED_VERSION, h, null);
      }
      // A command of a later version (IDENTIFY, SET_*: 4) in an earlier version's frame.
      if (h.version() < opcode.get().sinceVersion()) {
        return new Step(Outcome.UNSUPPORTED_VERSION, h, null);
      }
    }
    try {
      return new Step(Outcome.DECODED, h, Messages.decodeRequest(h.version(), opcode.get(), frame.payload()));
    } catch (ProtocolException e) {
      return new Step(Outcome.BAD_REQUEST, h, null);
    }
  }
}
