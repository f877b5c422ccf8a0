package org.smartssd.jni;

import java.nio.charset.StandardCharsets;

/**
 * A failure reported by the C library: its status code (a device status, 0..17 as in {@code
 * org.smartssd.device.protocol.Status}, or a local error, negative, as {@code enum ssd_status} in
 * {@code smartssd.h}) and its message. Thrown by the JNI binding; {@link NativeDeviceClient} turns
 * it into the exception the Java transport raises for the same failure.
 */
public final class NativeException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Local errors, mirrored from {@code smartssd.h}. */
  public static final int E_IO = -1;
  public static final int E_CLOSED = -2;
  public static final int E_TIMEOUT = -3;
  public static final int E_PROTOCOL = -4;
  public static final int E_NOMEM = -5;
  public static final int E_ARG = -6;
  public static final int E_VERSION = -7;
  public static final int E_INTERRUPTED = -8;
  public static final int E_AGAIN = -9;
  public static final int E_SECRET = -10;

  private final int code;

  public NativeException(int code, String message) {
    super(message);
    this.code = code;
  }

  /** Called from C, with the message in UTF-8. */
  NativeException(int code, byte[] utf8Message) {
    this(code, new String(utf8Message, StandardCharsets.UTF_8));
  }

  public int code() {
    return code;
  }
}
