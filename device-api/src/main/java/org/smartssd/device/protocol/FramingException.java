package org.smartssd.device.protocol;

/**
 * The byte stream lost its frame boundaries (bad magic, a frame cut short by the end of the
 * stream) or cannot be read on: the connection must be closed.
 */
public class FramingException extends ProtocolException {
  private static final long serialVersionUID = 1L;

  public FramingException(String message) {
    super(message);
  }

  @Override
  public boolean mustClose() {
    return true;
  }
}
