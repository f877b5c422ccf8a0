package org.smartssd.device.client;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.CodeDigest;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.InputRange;

/**
 * A connection to one device, whatever carries it (TCP here, the C library through JNI later).
 * Thread-safe: any number of threads may call at once, and their requests are pipelined.
 *
 * <p>Errors: a status other than OK raises the exception PROTOCOL.md lists for it (for example
 * {@link java.io.FileNotFoundException} for {@code NOT_FOUND}), with the message
 * {@code "<device>: <status message>"}. A request that gets no reply within the request timeout
 * raises {@link java.net.SocketTimeoutException}; the connection stays usable. A lost connection
 * fails every pending and later request with an {@link IOException} naming the device. An
 * interrupted wait restores the interrupt flag and raises {@link java.io.InterruptedIOException}.
 */
public interface DeviceClient extends Closeable {

  /** A reply with status OK and the command's modelled duration. */
  record Reply(Response response, long modelledNanos) {}

  DeviceAddress address();

  /** The protocol version negotiated with the device. */
  int protocolVersion();

  /**
   * Sends a request and returns its reply. The future completes exceptionally with the status'
   * exception on a non-OK status, or with the I/O failure. A request's buffers must not be changed
   * until its future completes. Callbacks attached without an executor may run on the transport's
   * reader thread: they must not block.
   */
  CompletableFuture<Reply> submit(Request request);

  /** Creates the directory and its missing parents; an existing directory is fine. */
  void mkdirs(String path) throws IOException;

  /**
   * Creates the directory with {@code permission} ({@code ObjectStatus.PERMISSION_BITS} at most; the
   * caller applies its umask), and its missing parents with it and the owner's write and execute
   * added, as HDFS makes them. A device of protocol version 3 or older gives its default, 0755.
   */
  void mkdirs(String path, int permission) throws IOException;

  Response.Opened create(String path, boolean overwrite, boolean createParents) throws IOException;

  /**
   * Creates a file with {@code permission} (the caller applies its umask; missing parents, with
   * {@code createParents}, get it with the owner's write and execute added). A device of protocol
   * version 3 or older gives its default, 0644.
   */
  Response.Opened create(String path, boolean overwrite, boolean createParents, int permission) throws IOException;

  /**
   * Sets the mode of a file or directory (SET_PERMISSION; the owner or a superuser may).
   *
   * @throws org.smartssd.device.DeviceException.UnsupportedVersion from a device of protocol version 3 or older
   * @throws org.smartssd.device.DeviceException.PermissionDenied when the user may not
   */
  void setPermission(String path, int permission) throws IOException;

  /**
   * Sets the owner, the group, or both (SET_OWNER; an empty one is left as it is). Only a superuser
   * may give an object away; its owner may change its group to one the owner is in.
   *
   * @throws org.smartssd.device.DeviceException.UnsupportedVersion from a device of protocol version 3 or older
   * @throws org.smartssd.device.DeviceException.PermissionDenied when the user may not
   */
  void setOwner(String path, String owner, String group) throws IOException;

  /**
   * Sets the modification and access times (SET_TIMES; milliseconds since the epoch, -1 leaves one
   * as it is); the user needs write access to the object.
   *
   * @throws org.smartssd.device.DeviceException.UnsupportedVersion from a device of protocol version 3 or older
   * @throws org.smartssd.device.DeviceException.PermissionDenied when the user may not
   */
  void setTimes(String path, long modificationTimeMillis, long accessTimeMillis) throws IOException;

  Response.Opened append(String path) throws IOException;

  /**
   * Appends the buffer's remaining bytes (its position is not changed), in several WRITE requests
   * one after the other when they do not fit one frame.
   *
   * @return the object's length after the write
   */
  long write(long handle, ByteBuffer data) throws IOException;

  long write(long handle, byte[] b, int off, int len) throws IOException;

  /** @return the length now visible to readers */
  long flush(long handle) throws IOException;

  /** @return the length now durable */
  long sync(long handle) throws IOException;

  /** Closes a write handle (not this client: that is {@link #close()}). @return the final length */
  long closeHandle(long handle) throws IOException;

  ObjectStatus open(String path) throws IOException;

  /**
   * Reads up to {@code dst.remaining()} bytes from {@code offset} into {@code dst} (fewer when the
   * object ends first, or when the request would not fit one frame).
   *
   * @return bytes read, or -1 when {@code offset} is the object's length
   * @throws java.io.EOFException when {@code offset} is past the end
   */
  int read(long objectId, long offset, ByteBuffer dst) throws IOException;

  ObjectStatus status(String path) throws IOException;

  /** One page of a directory listing ({@code startAfter} "" for the first page). */
  Response.Listing list(String path, String startAfter, int limit) throws IOException;

  /** The whole listing, following pages. */
  List<ObjectStatus> listAll(String path) throws IOException;

  void rename(String source, String destination) throws IOException;

  void delete(String path, boolean recursive) throws IOException;

  DeviceInfo info() throws IOException;

  DeviceStatistics statistics() throws IOException;

  /** Asks the device to stop; it answers, then closes its connections and exits. */
  void shutdown() throws IOException;

  /**
   * False once the connection is known to be gone (the device closed it, an idle one for instance,
   * or it failed): a pool connects afresh instead of sending on it. True does not promise the next
   * request gets through.
   */
  default boolean isOpen() {
    return true;
  }

  /**
   * Installs a tasklet (CREATE_OBJECT).
   *
   * @param code a jar's bytes (the buffer's remaining bytes; its position is not changed), or none
   *     for a tasklet built into the device
   * @param className the class implementing {@link org.smartssd.device.tasklet.Tasklet}
   * @param parameters what the tasklet's {@code onCreate} sees
   * @return the tasklet id
   * @throws org.smartssd.device.DeviceException.BadRequest when the device refuses the tasklet (class
   *     missing, not a tasklet, forbidden API, constructor failed); the message says why
   */
  long createObject(ByteBuffer code, String className, Map<String, String> parameters) throws IOException;

  /**
   * What {@link #installTasklet} did: the tasklet id, and whether the code had to be sent (then
   * {@code notKept} is the device's answer to the digest alone, for callers that count bytes).
   */
  record Installed(long taskletId, boolean codeSent, String notKept) {}

  /**
   * Installs a tasklet sending its code only when the device does not keep that code already: a
   * CREATE_OBJECT with the code's SHA-256 and no code first, and with the code when the device
   * answers that it does not have it ({@link CodeDigest}).
   *
   * @param code a jar's bytes (the buffer's remaining bytes; its position is not changed), or none
   *     for a tasklet built into the device (then this is {@link #createObject})
   * @throws org.smartssd.device.DeviceException.BadRequest when the device refuses the tasklet
   */
  default Installed installTasklet(ByteBuffer code, String className, Map<String, String> parameters)
      throws IOException {
    if (!code.hasRemaining()) {
      return new Installed(createObject(code, className, parameters), false, null);
    }
    Map<String, String> withDigest = new TreeMap<>(parameters);
    withDigest.put(CodeDigest.PARAMETER, CodeDigest.of(code));
    try {
      return new Installed(createObject(ByteBuffer.allocate(0), className, withDigest), false, null);
    } catch (FileNotFoundException notKept) {
      return new Installed(createObject(code, className, withDigest), true, notKept.getMessage());
    }
  }

  /**
   * Starts an execution of an installed tasklet (EXECUTE_OBJECT).
   *
   * @return the execution id, for {@link #readObject} and {@link #cancel}
   * @throws java.io.FileNotFoundException for an unknown tasklet id, or a missing input object
   * @throws org.smartssd.device.DeviceException.Busy when the device runs as many executions as it can
   */
  long executeObject(long taskletId, List<InputRange> inputs, Map<String, String> options) throws IOException;

  /**
   * Starts an execution that writes an output object on the device's flash (EXECUTE_OBJECT of protocol
   * version 5): the tasklet writes it through {@link org.smartssd.device.tasklet.ResultSink#flash()}, and
   * it appears at {@code outputPath}, complete and durable, when the execution is done (an execution
   * that fails or is cancelled leaves nothing there). It is made as CREATE makes a file, by this
   * client's user, with {@code outputPermission} (parents made as needed); it must not exist.
   *
   * @throws org.smartssd.device.DeviceException.UnsupportedVersion when the device speaks a version
   *     before 5
   * @throws java.nio.file.FileAlreadyExistsException when {@code outputPath} exists
   */
  long executeObject(long taskletId, List<InputRange> inputs, Map<String, String> options, String outputPath,
      int outputPermission) throws IOException;

  /**
   * Polls an execution (READ_OBJECT): its state, statistics and the result records ready so far,
   * about {@code maxBytes} of them (capped so that the reply fits this client's frame limit). A
   * failed execution is not an exception: its state is {@code FAILED} with the device's message.
   * See {@link ExecutionPoller} to poll until the execution is finished.
   *
   * @throws java.io.FileNotFoundException for an unknown execution id
   */
  Response.ExecutionProgress readObject(long executionId, int maxBytes) throws IOException;

  /**
   * Stops an execution (CANCEL); nothing changes when it has already ended.
   *
   * @throws java.io.FileNotFoundException for an unknown execution id
   */
  void cancel(long executionId) throws IOException;

  /**
   * Uninstalls a tasklet (REMOVE_OBJECT); its executions already running go on.
   *
   * @throws java.io.FileNotFoundException for an unknown tasklet id
   */
  void removeObject(long taskletId) throws IOException;

  /** The sum of the modelled durations of all replies received on this client. */
  long modelledNanosTotal();

  /**
   * The bytes this client has sent and received so far, counted as they go on and off its
   * connection. A request's bytes are counted by the time the call that sent it returns, a reply's
   * by the time its caller has it; so the difference of two snapshots around a call is that call's
   * frames, provided no other thread uses this client meanwhile (the counts are the connection's,
   * for all its callers).
   */
  TransferCounts transferCounts();
}
