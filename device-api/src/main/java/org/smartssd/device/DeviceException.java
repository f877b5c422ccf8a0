package org.smartssd.device;

import java.io.IOException;

/**
 * Errors a device reports that have no standard Java exception of their own. Statuses with a
 * standard exception (not found, already exists, ...) are raised as that exception; see
 * {@code org.smartssd.device.protocol.Status}.
 */
public class DeviceException extends IOException {
  private static final long serialVersionUID = 1L;

  public DeviceException(String message) {
    super(message);
  }

  public DeviceException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The path names a directory where a file was needed. */
  public static final class IsDirectory extends DeviceException {
    private static final long serialVersionUID = 1L;
    public IsDirectory(String message) { super(message); }
  }

  /** The request was malformed or its arguments invalid. */
  public static final class BadRequest extends DeviceException {
    private static final long serialVersionUID = 1L;
    public BadRequest(String message) { super(message); }
  }

  /** The device has no free space left for the write. */
  public static final class OutOfSpace extends DeviceException {
    private static final long serialVersionUID = 1L;
    public OutOfSpace(String message) { super(message); }
  }

  /** The device cannot take the request now; it may later. */
  public static final class Busy extends DeviceException {
    private static final long serialVersionUID = 1L;
    public Busy(String message) { super(message); }
  }

  /** The device failed for a reason of its own. */
  public static final class Internal extends DeviceException {
    private static final long serialVersionUID = 1L;
    public Internal(String message) { super(message); }
  }

  /** No protocol version is spoken by both sides. */
  public static final class UnsupportedVersion extends DeviceException {
    private static final long serialVersionUID = 1L;
    public UnsupportedVersion(String message) { super(message); }
  }

  /** The device does not know the request's opcode. */
  public static final class UnknownOpcode extends DeviceException {
    private static final long serialVersionUID = 1L;
    public UnknownOpcode(String message) { super(message); }
  }

  /** The frame was larger than the device accepts. */
  public static final class FrameTooLarge extends DeviceException {
    private static final long serialVersionUID = 1L;
    public FrameTooLarge(String message) { super(message); }
  }

  /** The file already has a writer. */
  public static final class LeaseConflict extends DeviceException {
    private static final long serialVersionUID = 1L;
    public LeaseConflict(String message) { super(message); }
  }

  /**
   * The device requires the host to prove it holds the device's secret, and this connection has not
   * (or its proof was wrong); the device has closed the connection.
   */
  public static final class AuthRequired extends DeviceException {
    private static final long serialVersionUID = 1L;
    public AuthRequired(String message) { super(message); }
  }

  /**
   * The device read a page whose checksum failed: the bytes are lost (the device keeps one copy),
   * and it never returns them. The device's message names the object and the byte offset of the
   * damaged page ({@code 'PATH' is corrupt at offset N: ...}); {@link #offset()} reads it back.
   */
  public static final class Corrupt extends DeviceException {
    private static final long serialVersionUID = 1L;
    private static final java.util.regex.Pattern OFFSET = java.util.regex.Pattern.compile(" is corrupt at offset (\\d+)");

    public Corrupt(String message) { super(message); }

    /** The byte offset in the object of the damaged page the message names, or -1 when it names none. */
    public long offset() {
      java.util.regex.Matcher m = OFFSET.matcher(String.valueOf(getMessage()));
      if (!m.find()) {
        return -1;
      }
      try {
        return Long.parseLong(m.group(1));
      } catch (NumberFormatException e) {
        return -1;
      }
    }
  }

  /** The write handle is closed or unknown. */
  public static final class BadHandle extends DeviceException {
    private static final long serialVersionUID = 1L;
    public BadHandle(String message) { super(message); }
  }

  /**
   * The connection's user may not do this (PROTOCOL.md, "Users and permissions"): the message names
   * the user, the access wanted and the object, as HDFS's does. objfs raises it as Hadoop's
   * {@code AccessControlException}.
   */
  public static final class PermissionDenied extends DeviceException {
    private static final long serialVersionUID = 1L;
    public PermissionDenied(String message) { super(message); }
  }
}
