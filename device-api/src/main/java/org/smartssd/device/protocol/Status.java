package org.smartssd.device.protocol;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NotDirectoryException;
import java.util.function.Function;
import org.smartssd.device.DeviceException;

/**
 * Response statuses, each with a default message and the exception the client raises for it.
 * Codes are stable: the names can change, the codes cannot. Keep in sync with PROTOCOL.md and the
 * C codec.
 */
public enum Status {
  OK(0, "success", null),
  NOT_FOUND(1, "no such file or directory", FileNotFoundException::new),
  ALREADY_EXISTS(2, "the path already exists", FileAlreadyExistsException::new),
  PARENT_NOT_DIRECTORY(3, "a parent of the path is not a directory", NotDirectoryException::new),
  DIRECTORY_NOT_EMPTY(4, "the directory is not empty", DirectoryNotEmptyException::new),
  IS_DIRECTORY(5, "the path is a directory", DeviceException.IsDirectory::new),
  PAST_END(6, "the offset is past the end of the object", EOFException::new),
  BAD_REQUEST(7, "the request is malformed or its arguments invalid", DeviceException.BadRequest::new),
  OUT_OF_SPACE(8, "the device has no space left", DeviceException.OutOfSpace::new),
  BUSY(9, "the device is busy; try again later", DeviceException.Busy::new),
  INTERNAL(10, "the device failed", DeviceException.Internal::new),
  UNSUPPORTED_VERSION(11, "the protocol version is not supported", DeviceException.UnsupportedVersion::new),
  UNKNOWN_OPCODE(12, "the opcode is not known", DeviceException.UnknownOpcode::new),
  FRAME_TOO_LARGE(13, "the frame is larger than the device accepts", DeviceException.FrameTooLarge::new),
  LEASE_CONFLICT(14, "the file already has a writer", DeviceException.LeaseConflict::new),
  BAD_HANDLE(15, "the write handle is closed or unknown", DeviceException.BadHandle::new),
  AUTH_REQUIRED(16, "the device requires the host to authenticate first", DeviceException.AuthRequired::new),
  CORRUPT(17, "the data failed its checksum on the device; it is lost", DeviceException.Corrupt::new),
  PERMISSION_DENIED(18, "the user may not do this to the path", DeviceException.PermissionDenied::new);

  private static final Status[] BY_CODE = new Status[19];

  static {
    for (Status s : values()) {
      if (BY_CODE[s.code] != null) {
        throw new ExceptionInInitializerError("duplicate status code " + s.code);
      }
      BY_CODE[s.code] = s;
    }
  }

  private final int code;
  private final String defaultMessage;
  private final Function<String, IOException> exceptionFactory;

  Status(int code, String defaultMessage, Function<String, IOException> exceptionFactory) {
    this.code = code;
    this.defaultMessage = defaultMessage;
    this.exceptionFactory = exceptionFactory;
  }

  public int code() {
    return code;
  }

  /** A message for when nothing more specific is known. */
  public String defaultMessage() {
    return defaultMessage;
  }

  public boolean isError() {
    return this != OK;
  }

  /**
   * The exception the client raises for this status.
   *
   * @throws IllegalStateException for {@link #OK}, which is not an error
   */
  public IOException toException(String message) {
    if (exceptionFactory == null) {
      throw new IllegalStateException("status " + this + " is not an error");
    }
    return exceptionFactory.apply(message);
  }

  /** The status with this code; a code this version does not know is a protocol error. */
  public static Status fromCode(int code) throws ProtocolException {
    if (code < 0 || code >= BY_CODE.length || BY_CODE[code] == null) {
      throw new ProtocolException("unknown status code " + code);
    }
    return BY_CODE[code];
  }
}
