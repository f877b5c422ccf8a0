package org.smartssd.device.runtime.ftl;

import java.io.IOException;

/** No logical or physical page is left for a write. */
public final class OutOfSpaceException extends IOException {
  private static final long serialVersionUID = 1L;

  public OutOfSpaceException(String message) {
    super(message);
  }
}
