package org.smartssd.devicemapper;

import java.io.IOException;

/** The job, or this split of it, cannot run in a device (the host can run it: see fallback). */
final class UnsupportedJobException extends IOException {
  private static final long serialVersionUID = 1L;

  UnsupportedJobException(String message) {
    super(message);
  }
}
