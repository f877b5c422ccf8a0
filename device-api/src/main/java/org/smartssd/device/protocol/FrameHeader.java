package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The 32-byte header of every frame (PROTOCOL.md, "Frames"). The u16 fields hold their unsigned
 * value (0 to 65535); {@code payloadLength} is the raw u32 as Java's int, so a negative value means
 * 2 GiB or more and is always too large.
 */
public record FrameHeader(
    int version, int opcode, int flags, int status, int payloadLength, long requestId, long modelledNanos) {

  public FrameHeader {
    u16("version", version);
    u16("opcode", opcode);
    u16("flags", flags);
    u16("status", status);
  }

  private static void u16(String field, int value) {
    if (value < 0 || value > ProtocolConstants.MAX_U16) {
      throw new IllegalArgumentException(field + " " + value + " does not fit in a u16");
    }
  }

  /** The header of a request: no flags, status 0, modelled nanos 0. */
  public static FrameHeader request(int version, Opcode opcode, int payloadLength, long requestId) {
    return new FrameHeader(version, opcode.code(), 0, 0, payloadLength, requestId, 0);
  }

  /** The header of a response. */
  public static FrameHeader response(
      int version, Opcode opcode, Status status, int payloadLength, long requestId, long modelledNanos) {
    return new FrameHeader(
        version, opcode.code(), ProtocolConstants.FLAG_RESPONSE, status.code(), payloadLength, requestId,
        modelledNanos);
  }

  public boolean isResponse() {
    return (flags & ProtocolConstants.FLAG_RESPONSE) != 0;
  }

  /** Writes the 32 bytes at the buffer's position (big-endian whatever the buffer's order). */
  public void writeTo(ByteBuffer buffer) {
    ByteBuffer out = buffer.duplicate().order(ByteOrder.BIG_ENDIAN);
    out.putInt(ProtocolConstants.MAGIC)
        .putShort((short) version)
        .putShort((short) opcode)
        .putShort((short) flags)
        .putShort((short) status)
        .putInt(payloadLength)
        .putLong(requestId)
        .putLong(modelledNanos);
    buffer.position(out.position());
  }

  /**
   * Reads 32 bytes from the buffer's position.
   *
   * @throws FramingException on bad magic, or when fewer than 32 bytes remain
   */
  public static FrameHeader readFrom(ByteBuffer buffer) throws FramingException {
    if (buffer.remaining() < ProtocolConstants.HEADER_BYTES) {
      throw new FramingException("truncated frame header: " + buffer.remaining() + " of "
          + ProtocolConstants.HEADER_BYTES + " bytes");
    }
    ByteBuffer in = buffer.duplicate().order(ByteOrder.BIG_ENDIAN);
    int magic = in.getInt();
    if (magic != ProtocolConstants.MAGIC) {
      throw new FramingException(String.format(
          "bad magic 0x%08x (expected 0x%08x): not a frame boundary", magic, ProtocolConstants.MAGIC));
    }
    FrameHeader header = new FrameHeader(
        Short.toUnsignedInt(in.getShort()),
        Short.toUnsignedInt(in.getShort()),
        Short.toUnsignedInt(in.getShort()),
        Short.toUnsignedInt(in.getShort()),
        in.getInt(),
        in.getLong(),
        in.getLong());
    buffer.position(in.position());
    return header;
  }
}
