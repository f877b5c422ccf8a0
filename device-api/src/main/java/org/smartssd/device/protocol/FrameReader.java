package org.smartssd.device.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Reads whole frames from a blocking stream. Not thread-safe: one reader per stream, used by one
 * thread. It does no buffering of its own; wrap a socket's stream in a
 * {@link java.io.BufferedInputStream}.
 */
public final class FrameReader {
  private final InputStream in;
  private final byte[] headerBytes = new byte[ProtocolConstants.HEADER_BYTES];

  public FrameReader(InputStream in) {
    this.in = Objects.requireNonNull(in, "in");
  }

  /**
   * Reads the next frame.
   *
   * @param maxPayloadBytes the largest payload accepted
   * @return the frame, or {@code null} when the stream ends cleanly at a frame boundary
   * @throws FramingException when the stream ends inside a frame ("truncated frame after N of M
   *     bytes") or the magic is wrong; the connection must be closed
   * @throws FrameTooLargeException when the payload length is above {@code maxPayloadBytes}; its
   *     payload is not read, so the connection must be closed (after answering, on a device)
   * @throws IOException when the stream fails
   */
  public Frame read(int maxPayloadBytes) throws IOException {
    return read(maxPayloadBytes, header -> { });
  }

  /** What a reader does with a frame's header before it reads the payload the header announces. */
  @FunctionalInterface
  public interface BeforePayload {
    /**
     * Called once the header is read and its length accepted; throwing leaves the payload unread
     * (the connection must then be closed). A device reserves the memory the payload will take here.
     */
    void accept(FrameHeader header) throws IOException;
  }

  /**
   * Reads the next frame as {@link #read(int)} does, calling {@code beforePayload} with its header
   * before reading the payload (also for an empty payload).
   */
  public Frame read(int maxPayloadBytes, BeforePayload beforePayload) throws IOException {
    int got = in.readNBytes(headerBytes, 0, headerBytes.length);
    if (got == 0) {
      return null;
    }
    if (got < headerBytes.length) {
      throw truncated(got, headerBytes.length + " header");
    }
    FrameHeader header = FrameHeader.readFrom(ByteBuffer.wrap(headerBytes));
    int length = header.payloadLength();
    if (length < 0 || length > maxPayloadBytes) {
      throw new FrameTooLargeException(header, maxPayloadBytes);
    }
    beforePayload.accept(header);
    // The payload's buffer grows with the bytes that arrive, not with what the header announces: a
    // header alone, announcing the largest payload, costs a first step of memory, not the payload.
    byte[] payload = new byte[Math.min(length, FIRST_STEP_BYTES)];
    int read = 0;
    while (true) {
      int n = in.readNBytes(payload, read, payload.length - read);
      read += n;
      if (read < payload.length) {
        throw truncated(ProtocolConstants.HEADER_BYTES + read,
            Integer.toString(ProtocolConstants.HEADER_BYTES + length));
      }
      if (read == length) {
        return new Frame(header, ByteBuffer.wrap(payload));
      }
      payload = java.util.Arrays.copyOf(payload, (int) Math.min(length, 2L * payload.length));
    }
  }

  /** The payload buffer's first size; it doubles as bytes arrive, up to the payload's length. */
  static final int FIRST_STEP_BYTES = 64 << 10;

  private static FramingException truncated(int got, String of) {
    return new FramingException("truncated frame after " + got + " of " + of + " bytes: the stream ended");
  }
}
