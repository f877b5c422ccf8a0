package org.smartssd.device.protocol;

import java.io.IOException;

/**
 * Bytes that do not follow the protocol. A plain {@code ProtocolException} concerns one frame's
 * payload: the frame boundary is intact, so a device answers {@code BAD_REQUEST} and goes on. The
 * subclass {@link FramingException} means the stream itself is unusable and must be closed.
 */
public class ProtocolException extends IOException {
  private static final long serialVersionUID = 1L;

  public ProtocolException(String message) {
    super(message);
  }

  public ProtocolException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Whether the connection must be closed because the next frame's start is unknown. */
  public boolean mustClose() {
    return false;
  }
}
