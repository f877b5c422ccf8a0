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
  /** The payload buffer's first size: {@link #FIRST_STEP_BYTES}, or any length for {@link #sizedByHeader}. */
  private final int firstStepBytes;

  /**
   * A reader whose payload buffers grow with the bytes that arrive ({@link #FIRST_STEP_BYTES}, then
   * doubling): for a device, which must not allocate on the word of a header from anyone.
   */
  public FrameReader(InputStream in) {
    this(in, FIRST_STEP_BYTES);
  }

  private FrameReader(InputStream in, int firstStepBytes) {
    this.in = Objects.requireNonNull(in, "in");
    this.firstStepBytes = firstStepBytes;
  }

  /**
   * A reader that allocates each payload at the length its header announces, within the limit given
   * to {@link #read(int)}: for a client reading its device's answers, which it asked for, where
   * growing a large answer step by step would copy it several times over.
   */
  public static FrameReader sizedByHeader(InputStream in) {
    return new FrameReader(in, Integer.MAX_VALUE);
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
    return read(maxPayloadBytes, (header, moreBytes) -> { });
  }

  /** Memory a reader takes for a payload, step by step as its bytes arrive. */
  @FunctionalInterface
  public interface PayloadMemory {
    /**
     * Called before the payload's buffer grows by {@code moreBytes} (first from nothing): throwing
     * leaves the rest of the payload unread (the connection must then be closed). A device reserves
     * the memory here, so that a payload costs what has arrived of it, not what its header announces.
     */
    void grow(FrameHeader header, int moreBytes) throws IOException;
  }

  /**
   * Reads the next frame as {@link #read(int)} does, asking {@code memory} before each step of the
   * payload's buffer (none for an empty payload).
   */
  public Frame read(int maxPayloadBytes, PayloadMemory memory) throws IOException {
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
    // The payload's buffer grows with the bytes that arrive, not with what the header announces: a
    // header alone, announcing the largest payload, costs a first step of memory, not the payload.
    int first = Math.min(length, firstStepBytes);
    if (first > 0) {
      memory.grow(header, first);
    }
    byte[] payload = new byte[first];
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
      int next = (int) Math.min(length, 2L * payload.length);
      memory.grow(header, next - payload.length);
      payload = java.util.Arrays.copyOf(payload, next);
    }
  }

  /** The payload buffer's first size; it doubles as bytes arrive, up to the payload's length. */
  static final int FIRST_STEP_BYTES = 64 << 10;

  private static FramingException truncated(int got, String of) {
    return new FramingException("truncated frame after " + got + " of " + of + " bytes: the stream ended");
  }
}
