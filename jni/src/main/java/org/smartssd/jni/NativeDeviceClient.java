package org.smartssd.jni;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceException;
import org.smartssd.device.client.AbstractDeviceClient;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.TransferCounts;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.Opcode;
import org.smartssd.device.protocol.PayloadWriter;
import org.smartssd.device.protocol.ProtocolException;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;

/**
 * A {@link org.smartssd.device.client.DeviceClient} over the C library: the C side owns the socket,
 * the framing, the pipelining and the timeouts; payloads are encoded and decoded by the same Java
 * codec as {@link org.smartssd.device.client.SocketDeviceClient}'s (so both transports agree on
 * every message by construction, and the C codec is checked against the shared frame vectors on its
 * own). A READ into a direct buffer is received by the C library straight from the socket into that
 * buffer; into a heap buffer it goes through a direct buffer of this client, then one copy.
 *
 * <p>The blocking typed methods send and wait in the calling thread; requests submitted with {@link
 * #submit} complete on one thread of this client that takes the C library's queued completions.
 */
public final class NativeDeviceClient extends AbstractDeviceClient {
  private static final Logger LOG = LoggerFactory.getLogger(NativeDeviceClient.class);
  /** How long the completion thread waits in C before looking whether the client was closed. */
  private static final int COMPLETION_POLL_MILLIS = 1000;
  /** How long a synchronous call waits in native code before it looks whether its thread was interrupted. */
  private static final int WAIT_SLICE_MILLIS = 100;
  /** The heap reads' staging buffer is kept up to this size. */
  private static final int STAGING_KEEP_BYTES = 4 << 20;

  private final DeviceAddress address;
  private final ClientOptions options;
  private final NativeConnection connection;
  private final int version;
  /** Native calls hold it shared; {@link #close()} takes it exclusively to free the handle. */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private volatile boolean closed;
  /** The library reported the connection ended (the device closed it, or it failed). */
  private volatile boolean ended;
  /** Per request id: its future, or (when the completion came first) the completion. */
  private final ConcurrentHashMap<Long, Object> pending = new ConcurrentHashMap<>();
  private final LongAdder modelledNanos = new LongAdder();
  /** Time the blocking calls spent inside the C library (sending, and waiting for the reply). */
  private final LongAdder nativeNanos = new LongAdder();
  private final Thread completer;
  private final ThreadLocal<ByteBuffer> staging = new ThreadLocal<>();
  /** The C library's byte counts as {@link #close()} found them, for after the handle is freed. */
  private volatile TransferCounts countsAtClose = TransferCounts.ZERO;

  /** A queued request's outcome, as the completion thread took it. */
  private record Completion(long[] header, Object payload) {}

  private NativeDeviceClient(DeviceAddress address, ClientOptions options, NativeConnection connection) {
    this.address = address;
    this.options = options;
    this.connection = connection;
    this.version = connection.protocolVersion();
    this.completer = new Thread(this::completions, "smartssd-native-" + address);
    completer.setDaemon(true);
    completer.start();
  }

  /**
   * Connects through the C library, which negotiates the protocol version and runs the
   * authentication handshake (PROTOCOL.md, "Authentication") as {@link
   * org.smartssd.device.client.SocketDeviceClient} does.
   *
   * <p>The secret is {@code options.secret()} when it is set. When it is not, the C library's own
   * default applies: the secret file named by the environment variable {@code SMARTSSD_SECRET_FILE},
   * if set and not empty, read with the rules of {@link org.smartssd.device.protocol.HostSecret#read}
   * (a bad file fails the connect whether the device requires authentication or not); else there is
   * no secret. So a process the Java transport would connect without a secret may authenticate
   * through this one.
   *
   * @throws DeviceException.AuthRequired when the device requires authentication and there is no
   *     secret, when it refuses the proof (the secret is not its), or when its own proof is wrong
   * @throws IOException as the Java transport would: naming the device and what failed
   * @throws UnsatisfiedLinkError when the library cannot be loaded (see {@link NativeLibrary#unavailable()})
   */
  public static NativeDeviceClient connect(DeviceAddress address, ClientOptions options) throws IOException {
    NativeConnection connection;
    byte[] secret = options.secret() == null ? null : options.secret().keyBytes();
    try {
      connection = NativeConnection.connect(address.toString(), millis(options.connectTimeout().toMillis()),
          millis(options.requestTimeout().toMillis()), options.maxFrameBytes(), secret);
    } catch (NativeException e) {
      throw translate(address, e.code(), e.getMessage(), "connect");
    } finally {
      if (secret != null) {
        Arrays.fill(secret, (byte) 0); // keyBytes() made this copy for the C library alone
      }
    }
    NativeDeviceClient client = new NativeDeviceClient(address, options, connection);
    try {
      client.identify(options.identity());
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
    return client;
  }

  private static int millis(long millis) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, millis));
  }

  @Override
  public DeviceAddress address() {
    return address;
  }

  @Override
  public int protocolVersion() {
    return version;
  }

  @Override
  public long modelledNanosTotal() {
    return modelledNanos.sum();
  }

  /** Counted by the C library as bytes go onto its socket and come off it. */
  @Override
  public TransferCounts transferCounts() {
    lifecycle.readLock().lock();
    try {
      if (!connection.isOwningHandle()) {
        return countsAtClose;
      }
      long[] counts = connection.transferCounts();
      return new TransferCounts(counts[0], counts[1]);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Nanoseconds the blocking calls of this client have spent inside the C library so far: a call's
   * round trip less this is its time in Java and in crossing JNI (for the benchmarks).
   */
  public long nanosInNativeCode() {
    return nativeNanos.sum();
  }

  @Override
  protected int maxPayloadBytes() {
    return options.maxFrameBytes();
  }

  // ---- submit: queued requests, completed on the completion thread ----

  @Override
  public CompletableFuture<Reply> submit(Request request) {
    CompletableFuture<Reply> future = new CompletableFuture<>();
    Pieces pieces;
    try {
      pieces = Pieces.of(version, request);
    } catch (IllegalArgumentException e) {
      future.completeExceptionally(new DeviceException.BadRequest(address + ": cannot encode " + request.opcode()
          + ": " + e.getMessage()));
      return future;
    }
    long id;
    if (!lifecycle.readLock().tryLock()) {
      future.completeExceptionally(closedException());
      return future;
    }
    try {
      if (closed) {
        future.completeExceptionally(closedException());
        return future;
      }
      id = connection.submit(request.opcode().code(), pieces.arrays, pieces.offsets, pieces.lengths, pieces.count,
          null, 0, 0, true, new long[NativeConnection.HEADER_SLOTS]);
    } catch (NativeException e) {
      future.completeExceptionally(translate(address, e.code(), e.getMessage(), request.opcode().name()));
      return future;
    } finally {
      lifecycle.readLock().unlock();
    }
    Opcode opcode = request.opcode();
    // The completion may have come first: whichever of the two arrives second completes the future.
    Object early = pending.compute(id, (k, v) -> v == null ? new Waiting(future, opcode) : v);
    if (early instanceof Completion c) {
      pending.remove(id);
      complete(future, opcode, c);
    }
    return future;
  }

  @Override
  public boolean isOpen() {
    return !closed && !ended;
  }

  private record Waiting(CompletableFuture<Reply> future, Opcode opcode) {}

  private void completions() {
    long[] header = new long[NativeConnection.HEADER_SLOTS];
    Object[] out = new Object[1];
    while (true) {
      int got;
      lifecycle.readLock().lock();
      try {
        got = connection.nextCompletion(COMPLETION_POLL_MILLIS, header, out);
      } finally {
        lifecycle.readLock().unlock();
      }
      if (got == NativeConnection.CLOSED) {
        break;
      }
      if (got == NativeConnection.NONE_YET) {
        continue;
      }
      Completion c = new Completion(header.clone(), out[0]);
      out[0] = null;
      long id = header[NativeConnection.REQUEST_ID];
      Object waiting = pending.compute(id, (k, v) -> v == null ? c : v);
      if (waiting instanceof Waiting w) {
        pending.remove(id);
        complete(w.future(), w.opcode(), c);
      }
    }
    ended = true;
    IOException lost = closed ? closedException() : new IOException("connection to " + address + " lost");
    for (Object v : pending.values()) {
      if (v instanceof Waiting w) {
        w.future().completeExceptionally(lost);
      }
    }
    pending.clear();
  }

  private void complete(CompletableFuture<Reply> future, Opcode opcode, Completion c) {
    try {
      future.complete(decode(opcode, c.header(), c.payload()));
    } catch (IOException e) {
      future.completeExceptionally(e);
    }
  }

  private Reply decode(Opcode opcode, long[] header, Object payload) throws IOException {
    int status = (int) header[NativeConnection.STATUS];
    long nanos = header[NativeConnection.MODELLED_NANOS];
    modelledNanos.add(nanos);
    if (status != 0) {
      throw translate(address, status, message(payload), opcode.name());
    }
    byte[] bytes = payload instanceof byte[] b ? b : new byte[0];
    // The device answers in the request's version: the one the C library negotiated.
    Response response = Messages.decodeResponse(version, opcode, Status.OK, ByteBuffer.wrap(bytes));
    return new Reply(response, nanos);
  }

  // ---- read: straight into a direct buffer ----

  @Override
  public int read(long objectId, long offset, ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining()) {
      return 0;
    }
    int asked = Math.min(dst.remaining(), maxPayloadBytes() - 4);
    if (dst.isDirect()) {
      return readInto(objectId, offset, dst, asked);
    }
    ByteBuffer stage = stagingBuffer(asked);
    int got = readInto(objectId, offset, stage, asked);
    if (got > 0) {
      stage.flip();
      dst.put(stage);
    }
    if (stage.capacity() > STAGING_KEEP_BYTES) {
      staging.remove();
    }
    return got;
  }

  /** A READ whose data lands in {@code dst} at its position; advances it. */
  private int readInto(long objectId, long offset, ByteBuffer dst, int asked) throws IOException {
    long[] header = new long[NativeConnection.HEADER_SLOTS];
    exchange(new Request.Read(objectId, offset, asked), dst, asked, header);
    int got = (int) header[NativeConnection.DATA_LENGTH];
    if (got > asked) {
      throw new ProtocolException(address + ": READ of object " + objectId + " returned " + got + " bytes; " + asked
          + " were asked for");
    }
    if (got == 0) {
      return -1;
    }
    dst.position(dst.position() + got);
    return got;
  }

  // ---- blocking calls: sent and waited for in the calling thread ----

  /**
   * The typed methods' request and reply, in the calling thread (no hand-over to another thread, as
   * the C library wakes the waiting thread itself). A thread waiting here is not interrupted by
   * {@code Thread.interrupt}: it waits for the reply or the request timeout.
   */
  @Override
  protected <T extends Response> T call(Request request, Class<T> type) throws IOException {
    long[] header = new long[NativeConnection.HEADER_SLOTS];
    byte[] payload = exchange(request, null, 0, header);
    Response response = Messages.decodeResponse(version, request.opcode(), Status.OK,
        ByteBuffer.wrap(payload == null ? new byte[0] : payload));
    if (!type.isInstance(response)) {
      throw new ProtocolException(address + ": " + request.opcode() + " answered with a "
          + response.getClass().getSimpleName() + ", expected " + type.getSimpleName());
    }
    return type.cast(response);
  }

  /**
   * Sends a request and waits for its reply; fills {@code header}.
   *
   * @param dst for a READ, the direct buffer its data goes into at its position (at most {@code dstLength} bytes)
   * @return the OK reply's payload (null when empty or placed in dst)
   * @throws IOException the status' exception, or the transport's failure
   */
  private byte[] exchange(Request request, ByteBuffer dst, int dstLength, long[] header) throws IOException {
    Pieces pieces;
    try {
      pieces = Pieces.of(version, request);
    } catch (IllegalArgumentException e) {
      throw new DeviceException.BadRequest(address + ": cannot encode " + request.opcode() + ": " + e.getMessage());
    }
    byte[] result;
    if (!lifecycle.readLock().tryLock()) {
      throw closedException();
    }
    try {
      if (closed) {
        throw closedException();
      }
      long id = connection.submit(request.opcode().code(), pieces.arrays, pieces.offsets, pieces.lengths, pieces.count,
          dst, dst == null ? 0 : dst.position(), dstLength, false, header);
      long inSubmit = header[NativeConnection.NATIVE_NANOS];
      result = awaitInterruptibly(id, request, header);
      nativeNanos.add(inSubmit + header[NativeConnection.NATIVE_NANOS]);
    } catch (NativeException e) {
      throw translate(address, e.code(), e.getMessage(), request.opcode().name());
    } finally {
      lifecycle.readLock().unlock();
    }
    int status = (int) header[NativeConnection.STATUS];
    modelledNanos.add(header[NativeConnection.MODELLED_NANOS]);
    if (status != 0) {
      throw translate(address, status, message(result), request.opcode().name());
    }
    return result;
  }

  /**
   * Waits for a submitted request in slices of {@link #WAIT_SLICE_MILLIS}, so that an interrupt of
   * the calling thread is seen: the request is then given up (its reply dropped, its buffer no
   * longer written) and the call ends with {@link InterruptedIOException}, the thread's interrupt
   * status kept, as the Java transport does.
   */
  private byte[] awaitInterruptibly(long id, Request request, long[] header) throws InterruptedIOException {
    long inNative = 0;
    while (true) {
      byte[] result = connection.await(id, WAIT_SLICE_MILLIS, header);
      inNative += header[NativeConnection.NATIVE_NANOS];
      if (header[NativeConnection.STATUS] != NativeException.E_AGAIN) {
        header[NativeConnection.NATIVE_NANOS] = inNative;
        return result;
      }
      if (Thread.currentThread().isInterrupted()) {
        connection.abandon(id);
        throw new InterruptedIOException("interrupted while waiting for " + address + " to answer "
            + request.opcode() + " (request " + id + "); the request was given up");
      }
    }
  }

  private ByteBuffer stagingBuffer(int bytes) {
    ByteBuffer b = staging.get();
    if (b == null || b.capacity() < bytes) {
      b = ByteBuffer.allocateDirect(Math.max(bytes, 64 << 10));
      staging.set(b);
    }
    b.clear().limit(bytes);
    return b;
  }

  // ---- errors ----

  private static String message(Object utf8) {
    return utf8 instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : "";
  }

  /** The exception the Java transport raises for the same failure. */
  static IOException translate(DeviceAddress address, int code, String message, String what) {
    // The C library's own messages name the device already ("device host:port: ..."); the device's do not.
    String text = message.startsWith(address.toString()) || message.contains(" " + address + ":") ? message
        : address + ": " + message;
    if (code > 0) {
      Status status;
      try {
        status = Status.fromCode(code);
      } catch (ProtocolException e) {
        return new ProtocolException(address + ": unknown status " + code + ": " + message);
      }
      return status.toException(text);
    }
    switch (code) {
      case NativeException.E_TIMEOUT:
        return new SocketTimeoutException(text);
      case NativeException.E_CLOSED:
        // As the Java transport says it: a plain IOException is how callers (objfs's pool) know
        // that the connection is gone and the next request needs a new one.
        return new IOException("connection to " + address + " lost: " + message);
      case NativeException.E_INTERRUPTED:
        return new InterruptedIOException(text);
      case NativeException.E_IO:
        return new IOException("connection to " + address + " failed (" + what + "): " + message);
      case NativeException.E_PROTOCOL:
        return new ProtocolException(text);
      case NativeException.E_VERSION:
        return new DeviceException.UnsupportedVersion(text);
      case NativeException.E_NOMEM:
        return new IOException(text + " (the C library is out of memory)");
      case NativeException.E_ARG:
        return new IOException("bad argument to the C library (" + what + "): " + text);
      case NativeException.E_SECRET:
        // As HostSecret.read's failure: the message names the secret file and what is wrong with it.
        return new IOException(message);
      default:
        return new IOException(text + " (status " + code + ")");
    }
  }

  private IOException closedException() {
    return new IOException("connection to " + address + " closed by the client");
  }

  // ---- close ----

  /** Fails pending requests, closes the connection and frees the native client. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    lifecycle.readLock().lock();
    try {
      if (connection.isOwningHandle()) {
        connection.disconnect(); // wakes every waiting native call
      }
    } finally {
      lifecycle.readLock().unlock();
    }
    try {
      completer.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    lifecycle.writeLock().lock();
    try {
      if (connection.isOwningHandle()) {
        long[] counts = connection.transferCounts();
        countsAtClose = new TransferCounts(counts[0], counts[1]);
      }
      connection.close();
    } finally {
      lifecycle.writeLock().unlock();
    }
    for (Object v : pending.values()) {
      if (v instanceof Waiting w) {
        w.future().completeExceptionally(closedException());
      }
    }
    LOG.debug("closed native connection to {}", address);
  }

  @Override
  public String toString() {
    return "NativeDeviceClient[" + address + ", version " + version + "]";
  }

  /** A request's payload as the pieces the C library sends in order: heap arrays or direct buffers. */
  private static final class Pieces {
    /** The C library's limit on the pieces of one payload ({@code ssd_submitv}). */
    static final int MAX_PIECES = 16;
    Object[] arrays;
    int[] offsets;
    int[] lengths;
    int count;

    static Pieces of(int version, Request request) {
      PayloadWriter writer = new PayloadWriter();
      Messages.encodeRequest(version, request, writer);
      List<ByteBuffer> segments = writer.segments();
      Pieces p = new Pieces();
      p.arrays = new Object[segments.size()];
      p.offsets = new int[segments.size()];
      p.lengths = new int[segments.size()];
      for (ByteBuffer s : segments) {
        if (!s.hasRemaining()) {
          continue;
        }
        int i = p.count++;
        if (s.isDirect()) {
          p.arrays[i] = s;
          p.offsets[i] = s.position();
        } else if (s.hasArray()) {
          p.arrays[i] = s.array();
          p.offsets[i] = s.arrayOffset() + s.position();
        } else {
          byte[] copy = new byte[s.remaining()]; // a read-only heap buffer
          s.duplicate().get(copy);
          p.arrays[i] = copy;
          p.offsets[i] = 0;
        }
        p.lengths[i] = s.remaining();
      }
      if (p.count > MAX_PIECES) { // more than the C library sends in one go: one piece
        byte[] all = Messages.concat(segments).array();
        p.arrays = new Object[] {all};
        p.offsets = new int[] {0};
        p.lengths = new int[] {all.length};
        p.count = 1;
      }
      return p;
    }
  }
}
