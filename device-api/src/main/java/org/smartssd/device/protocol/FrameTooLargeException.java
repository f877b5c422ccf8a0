package org.smartssd.device.protocol;

/**
 * A frame announced a payload above the reader's limit (or one of 2 GiB and more). Its header was
 * read, so a device can still answer {@code FRAME_TOO_LARGE} with the request id before closing: it
 * will not read the payload, and so cannot find the next frame.
 */
public final class FrameTooLargeException extends FramingException {
  private static final long serialVersionUID = 1L;

  private final transient FrameHeader header;
  private final int maxPayloadBytes;

  public FrameTooLargeException(FrameHeader header, int maxPayloadBytes) {
    super("frame payload of " + Integer.toUnsignedString(header.payloadLength())
        + " bytes exceeds the limit of " + maxPayloadBytes + " bytes (opcode 0x"
        + Integer.toHexString(header.opcode()) + ", request " + header.requestId() + ")");
    this.header = header;
    this.maxPayloadBytes = maxPayloadBytes;
  }

  /** The header of the offending frame. */
  public FrameHeader header() {
    return header;
  }

  public int maxPayloadBytes() {
    return maxPayloadBytes;
  }
}
