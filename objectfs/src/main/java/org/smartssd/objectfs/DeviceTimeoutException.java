package org.smartssd.objectfs;

import java.io.IOException;

/**
 * The device did not answer within {@code fs.objfs.connect-timeout} or {@code fs.objfs.request-timeout}.
 *
 * <p>Deliberately not a {@link java.io.InterruptedIOException}, as the client's
 * {@link java.net.SocketTimeoutException} is: Hadoop's shell takes an interrupted I/O for Ctrl-C,
 * prints "Interrupted" and exits 130, hiding which device did not answer and for how long. This is
 * an error like any other, whose message says "timed out", the device and the time waited.
 */
public class DeviceTimeoutException extends IOException {
  private static final long serialVersionUID = 1L;

  public DeviceTimeoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
