package org.smartssd.jni;

import java.nio.ByteBuffer;

/**
 * One {@code ssd_client} of the C library: the JNI binding, nothing more. {@link
 * NativeDeviceClient} makes a {@code DeviceClient} of it. Calls may come from any thread until
 * {@link #close()}, which the owner calls once no other call can start.
 */
final class NativeConnection extends NativeHandle {
  /** Slots of the {@code long[]} a completion is described in. */
  static final int STATUS = 0;
  static final int OPCODE = 1;
  static final int REQUEST_ID = 2;
  static final int MODELLED_NANOS = 3;
  /** Bytes a READ placed straight into its destination buffer. */
  static final int DATA_LENGTH = 4;
  /** Nanoseconds the last native call of the caller spent inside C (for the benchmarks). */
  static final int NATIVE_NANOS = 5;
  static final int HEADER_SLOTS = 6;

  /** What {@link #nextCompletion0} returns. */
  static final int COMPLETED = 1;
  static final int NONE_YET = 0;
  static final int CLOSED = -1;

  private NativeConnection(long handle) {
    super(handle);
  }

  /**
   * Connects, negotiates the version and authenticates (the C library's {@code ssd_connect}).
   *
   * @param secret the device's secret, as {@code HostSecret.keyBytes()} gives it; null to leave it to
   *     the C library, which then reads the file {@code SMARTSSD_SECRET_FILE} names, if set
   */
  static NativeConnection connect(String address, int connectTimeoutMillis, int requestTimeoutMillis,
      int maxFrameBytes, byte[] secret) throws NativeException {
    NativeLibrary.ensureLoaded();
    return new NativeConnection(connect0(address, connectTimeoutMillis, requestTimeoutMillis, maxFrameBytes, secret));
  }

  int protocolVersion() {
    return protocolVersion0(nativeHandle);
  }

  /**
   * The bytes the C library has written to the socket and read from it since it connected, whole
   * frames ({@code ssd_bytes_sent}, {@code ssd_bytes_received}): {@code {sent, received}}.
   */
  long[] transferCounts() {
    long[] counts = new long[2];
    transferCounts0(nativeHandle, counts);
    return counts;
  }

  /** Closes the socket; waiting calls return, later ones fail; the handle stays valid until {@link #close()}. */
  void disconnect() {
    disconnect0(nativeHandle);
  }

  /**
   * Sends a request whose payload is the given pieces (each a {@code byte[]} or a direct {@code
   * ByteBuffer}, from its offset for its length).
   *
   * @param dst for a READ, a direct buffer its data goes straight into, at {@code dstOffset} for at
   *     most {@code dstLength} bytes; null otherwise
   * @param queued whether the outcome goes to {@link #nextCompletion0} rather than to {@link #await}
   * @param header receives, in {@link #NATIVE_NANOS}, the time spent inside C
   * @return the request id
   */
  long submit(int opcode, Object[] pieces, int[] offsets, int[] lengths, int count, ByteBuffer dst, int dstOffset,
      int dstLength, boolean queued, long[] header) throws NativeException {
    return submit0(nativeHandle, opcode, pieces, offsets, lengths, count, dst, dstOffset, dstLength, queued, header);
  }

  /**
   * Waits at most {@code timeoutMillis} for a request submitted without {@code queued}; fills
   * {@code header}. When no outcome came in that time, the status slot is {@link
   * NativeException#E_AGAIN} and the request is still pending: wait again, or {@link #abandon} it.
   *
   * @return the OK reply's payload (null when empty or placed in dst), or the failure's message in
   *     UTF-8 when the status is not OK
   */
  byte[] await(long requestId, int timeoutMillis, long[] header) {
    return await0(nativeHandle, requestId, timeoutMillis, header);
  }

  /**
   * Gives up a pending request: its reply is dropped, and once this returns nothing is written into
   * its destination buffer any more (if the reply was being received into it, the connection is
   * closed).
   */
  void abandon(long requestId) {
    abandon0(nativeHandle, requestId);
  }

  /**
   * The next completed queued request.
   *
   * @param out receives in {@code out[0]} what {@link #await} returns
   * @return {@link #COMPLETED}, {@link #NONE_YET} within the timeout, or {@link #CLOSED}
   */
  int nextCompletion(int timeoutMillis, long[] header, Object[] out) {
    return nextCompletion0(nativeHandle, timeoutMillis, header, out);
  }

  @Override
  protected void disposeInternal(long handle) {
    close0(handle);
  }

  /** The name of a status code of the C library ("NOT_FOUND", "TIMEOUT", ...). */
  static String statusName(int code) {
    NativeLibrary.ensureLoaded();
    return statusName0(code);
  }

  /** Does nothing, in C: for measuring what a JNI call costs. */
  static native void noop0();

  private static native long connect0(String address, int connectTimeoutMillis, int requestTimeoutMillis,
      int maxFrameBytes, byte[] secret) throws NativeException;

  private static native int protocolVersion0(long handle);

  private static native void transferCounts0(long handle, long[] out);

  private static native void disconnect0(long handle);

  private static native void close0(long handle);

  private static native long submit0(long handle, int opcode, Object[] pieces, int[] offsets, int[] lengths,
      int count, ByteBuffer dst, int dstOffset, int dstLength, boolean queued, long[] header) throws NativeException;

  private static native byte[] await0(long handle, long requestId, int timeoutMillis, long[] header);

  private static native int abandon0(long handle, long requestId);

  private static native int nextCompletion0(long handle, int timeoutMillis, long[] header, Object[] out);

  private static native String statusName0(int code);
}
