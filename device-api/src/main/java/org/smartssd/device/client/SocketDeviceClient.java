package org.smartssd.device.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.smartssd.device.DeviceException;
import org.smartssd.device.protocol.Frame;
import org.smartssd.device.protocol.FrameHeader;
import org.smartssd.device.protocol.FrameReader;
import org.smartssd.device.protocol.FramingException;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.Opcode;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.ProtocolException;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A device client over one connection, TCP or a Unix domain socket (as the {@link DeviceAddress}
 * says): both behave the same. Callers' threads write whole frames under a lock; one daemon reader
 * thread decodes replies and completes the pending request with the same id, so requests from many
 * threads are pipelined and may be answered in any order.
 */
public final class SocketDeviceClient extends AbstractDeviceClient {
  private static final Logger LOG = LoggerFactory.getLogger(SocketDeviceClient.class);

  /**
   * How much longer than the connect timeout the answer to AUTHENTICATE is waited for: a device
   * answers a refused proof late (a second, one refusal at a time), and the refusal says more than a
   * timeout would.
   */
  static final Duration AUTHENTICATE_GRACE = Duration.ofSeconds(5);

  /** Bytes copied at a time when a direct buffer is written to the socket's stream. */
  private static final int COPY_CHUNK = 64 * 1024;

  private final DeviceAddress address;
  private final ClientOptions options;
  private final StreamSocket socket;
  private final OutputStream out;
  private final FrameReader frames;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final AtomicLong nextRequestId = new AtomicLong(1);
  private final LongAdder modelledNanos = new LongAdder();
  /** Bytes written to the socket (by the thread holding the write lock) and read from it (by the reader). */
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong bytesReceived = new AtomicLong();
  /** Why the connection is unusable: set once, then every request fails with it. */
  private final AtomicReference<IOException> failure = new AtomicReference<>();
  private final Thread reader;
  private volatile int version = ProtocolConstants.MAX_VERSION;

  private SocketDeviceClient(DeviceAddress address, ClientOptions options, StreamSocket socket) {
    this.address = address;
    this.options = options;
    this.socket = socket;
    this.out = new BufferedOutputStream(CountingStreams.counting(socket.output(), bytesSent), COPY_CHUNK);
    this.frames = FrameReader.sizedByHeader(
        new BufferedInputStream(CountingStreams.counting(socket.input(), bytesReceived), COPY_CHUNK));
    this.reader = new Thread(this::readLoop, "smartssd-client-" + address);
    reader.setDaemon(true);
  }

  /**
   * Connects, then asks the device for its protocol versions and picks the highest both speak.
   *
   * @throws IOException "cannot connect to device host:port: reason" ({@code unix:/path} for a Unix
   *     domain socket) when the connection fails
   * @throws DeviceException.UnsupportedVersion when there is no common version (the connection is
   *     closed)
   */
  public static SocketDeviceClient connect(DeviceAddress address, ClientOptions options) throws IOException {
    SocketDeviceClient client;
    try {
      client = new SocketDeviceClient(address, options, StreamSocket.connect(address, options.connectTimeout()));
    } catch (IOException e) {
      throw new IOException("cannot connect to device " + address + ": " + e.getMessage(), e);
    }
    try {
      client.reader.start();
      client.negotiateVersion();
      client.authenticate();
      client.identify(options.identity());
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
    LOG.debug("connected to device {}, protocol version {}", address, client.version);
    return client;
  }

  private void negotiateVersion() throws IOException {
    Reply reply = await(submit(new Request.ApiVersions(), options.connectTimeout()));
    if (!(reply.response() instanceof Response.Versions device)) {
      throw new ProtocolException(address + ": API_VERSIONS answered with " + reply.response());
    }
    int low = Math.max(ProtocolConstants.MIN_VERSION, device.minVersion());
    int high = Math.min(ProtocolConstants.MAX_VERSION, device.maxVersion());
    if (low > high) {
      throw new DeviceException.UnsupportedVersion(address + ": no common protocol version: this client speaks "
          + ProtocolConstants.MIN_VERSION + ".." + ProtocolConstants.MAX_VERSION + ", the device "
          + device.minVersion() + ".." + device.maxVersion());
    }
    version = high;
  }

  /**
   * Asks whether the device requires hosts to authenticate and, if it does, proves this client holds
   * the secret and checks the device's proof in turn (PROTOCOL.md, "Authentication").
   */
  private void authenticate() throws IOException {
    ByteBuffer hostNonce = ByteBuffer.wrap(HostSecret.nonce());
    Reply reply = await(submit(new Request.AuthChallenge(hostNonce), options.connectTimeout()));
    if (!(reply.response() instanceof Response.AuthChallenge challenge)) {
      throw new ProtocolException(address + ": AUTH_CHALLENGE answered with " + reply.response());
    }
    HostSecret secret = options.secret();
    if (!challenge.required()) {
      if (secret != null) {
        LOG.warn("device {} does not authenticate hosts (it was started without smartssd.device.host.secret-file):"
            + " the {} is not used, and the device has not proved who it is", address, secret);
      }
      return;
    }
    if (secret == null) {
      throw new DeviceException.AuthRequired(address + ": the device requires hosts to authenticate, and this client"
          + " has no secret: give it the device's secret file (fs.objfs.secret-file, --secret-file,"
          + " SMARTSSD_SECRET_FILE)");
    }
    byte[] proof = secret.hostProof(challenge.deviceNonce(), hostNonce);
    Reply answer;
    try {
      answer = await(submit(new Request.Authenticate(ByteBuffer.wrap(proof)),
          options.connectTimeout().plus(AUTHENTICATE_GRACE)));
    } catch (DeviceException.AuthRequired e) {
      throw new DeviceException.AuthRequired(e.getMessage() + " (the " + secret + " is not this device's)");
    }
    if (!(answer.response() instanceof Response.Authenticated device)) {
      throw new ProtocolException(address + ": AUTHENTICATE answered with " + answer.response());
    }
    if (!HostSecret.matches(secret.deviceProof(challenge.deviceNonce(), hostNonce), device.proof())) {
      throw new DeviceException.AuthRequired(address + ": the device did not prove it holds the " + secret
          + ": it is not the device this secret was made for");
    }
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

  /**
   * Counted below the buffers: a request's bytes are in once {@link #submit} has sent it, a reply's
   * once its future completes (the reader reads the whole frame first).
   */
  @Override
  public TransferCounts transferCounts() {
    return new TransferCounts(bytesSent.get(), bytesReceived.get());
  }

  @Override
  protected int maxPayloadBytes() {
    return options.maxFrameBytes();
  }

  @Override
  public CompletableFuture<Reply> submit(Request request) {
    return submit(request, options.requestTimeout());
  }

  private CompletableFuture<Reply> submit(Request request, Duration timeout) {
    long id = nextRequestId.getAndIncrement();
    List<ByteBuffer> frame;
    try {
      frame = Messages.requestFrameSegments(version, id, request);
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(new DeviceException.BadRequest(
          address + ": cannot encode " + request.opcode() + ": " + e.getMessage()));
    }
    Pending p = new Pending(id, request.opcode());
    pending.put(id, p);
    p.future.whenComplete((reply, error) -> pending.remove(id, p));
    ScheduledFuture<?> timer = Timeouts.EXECUTOR.schedule(() -> onTimeout(p), timeout.toNanos(), TimeUnit.NANOSECONDS);
    p.future.whenComplete((reply, error) -> timer.cancel(false));
    // Checked after registering, so that a concurrent connectionLost either sees p or is seen here.
    IOException failed = failure.get();
    if (failed != null) {
      p.future.completeExceptionally(copy(failed));
      return p.future;
    }
    send(p, frame);
    return p.future;
  }

  private void send(Pending p, List<ByteBuffer> frame) {
    try {
      writeLock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.future.completeExceptionally(new InterruptedIOException(address + ": interrupted before sending " + p.opcode));
      return;
    }
    try {
      if (p.future.isDone()) {
        return; // timed out, cancelled or failed while waiting for the lock: never sent
      }
      p.state = Pending.WRITING;
      for (ByteBuffer segment : frame) {
        write(segment);
      }
      out.flush();
      p.state = Pending.SENT;
    } catch (IOException e) {
      // A frame may be half written: the stream cannot carry another one.
      connectionLost(e);
    } finally {
      writeLock.unlock();
    }
  }

  private void write(ByteBuffer segment) throws IOException {
    if (segment.hasArray()) {
      out.write(segment.array(), segment.arrayOffset() + segment.position(), segment.remaining());
      return;
    }
    byte[] chunk = new byte[Math.min(COPY_CHUNK, segment.remaining())];
    ByteBuffer rest = segment.duplicate();
    while (rest.hasRemaining()) {
      int n = Math.min(chunk.length, rest.remaining());
      rest.get(chunk, 0, n);
      out.write(chunk, 0, n);
    }
  }

  private void onTimeout(Pending p) {
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - p.startNanos);
    boolean timedOut = p.future.completeExceptionally(new SocketTimeoutException(address + ": no reply to "
        + p.opcode + " (request " + p.id + ") after " + elapsedMillis + " ms"));
    if (timedOut && p.state == Pending.WRITING) {
      // Stuck mid-frame: the frame cannot be abandoned half written, so the stream is unusable.
      // (Requests still waiting for the lock just fail, and are skipped when their turn comes.)
      connectionLost(new SocketTimeoutException("could not send " + p.opcode + " within " + elapsedMillis + " ms"));
    }
  }

  private void readLoop() {
    try {
      while (true) {
        Frame frame = frames.read(options.maxFrameBytes());
        if (frame == null) {
          throw new EOFException("the device closed the connection");
        }
        dispatch(frame);
      }
    } catch (IOException e) {
      connectionLost(e);
    } catch (RuntimeException | Error e) {
      connectionLost(new IOException("reader failed: " + e, e));
      throw e;
    }
  }

  private void dispatch(Frame frame) throws FramingException {
    FrameHeader header = frame.header();
    if (!header.isResponse()) {
      throw new FramingException("the device sent a frame without the response flag (opcode 0x"
          + Integer.toHexString(header.opcode()) + ", request " + header.requestId() + ")");
    }
    modelledNanos.add(header.modelledNanos());
    Pending p = pending.remove(header.requestId());
    if (p == null) {
      LOG.debug("{}: dropping a reply to request {}: it timed out or was cancelled", address, header.requestId());
      return;
    }
    if (header.opcode() != p.opcode.code()) {
      p.future.completeExceptionally(new ProtocolException(address + ": the reply to request " + p.id
          + " has opcode 0x" + Integer.toHexString(header.opcode()) + "; it was " + p.opcode));
      return;
    }
    try {
      Status status = Status.fromCode(header.status());
      Response response = Messages.decodeResponse(header.version(), p.opcode, status, frame.payload());
      if (response instanceof Response.Error error) {
        p.future.completeExceptionally(error.status().toException(address + ": " + error.message()));
      } else {
        p.future.complete(new Reply(response, header.modelledNanos()));
      }
    } catch (ProtocolException e) {
      // The frame was whole, so only this request is lost, not the connection.
      p.future.completeExceptionally(new ProtocolException(address + ": " + e.getMessage(), e));
    }
  }

  private void connectionLost(IOException cause) {
    fail(new IOException("connection to " + address + " lost: " + cause.getMessage(), cause));
  }

  private void fail(IOException failed) {
    if (!failure.compareAndSet(null, failed)) {
      return;
    }
    closeQuietly(socket);
    int lost = pending.size();
    if (lost > 0) {
      LOG.warn("{}; failing {} pending requests", failed.getMessage(), lost);
    } else {
      LOG.debug("{}", failed.getMessage());
    }
    for (Pending p : pending.values()) {
      p.future.completeExceptionally(copy(failed));
    }
  }

  /** A fresh exception per request, so that one caller's stack or suppressions do not reach another's. */
  private static IOException copy(IOException failed) {
    return new IOException(failed.getMessage(), failed.getCause() != null ? failed.getCause() : failed);
  }

  @Override
  public boolean isOpen() {
    return failure.get() == null;
  }

  /** Fails pending requests and closes the connection. Idempotent. */
  @Override
  public void close() {
    fail(new IOException("connection to " + address + " closed by the client"));
  }

  @Override
  public String toString() {
    return "SocketDeviceClient[" + address + ", version " + version + "]";
  }

  private static void closeQuietly(StreamSocket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      LOG.debug("closing socket: {}", e.toString());
    }
  }

  /** A request sent, or about to be, and waiting for its reply. */
  private static final class Pending {
    final long id;
    final Opcode opcode;
    final long startNanos = System.nanoTime();
    final CompletableFuture<Reply> future = new CompletableFuture<>();
    static final int WAITING = 0;
    static final int WRITING = 1;
    static final int SENT = 2;

    /** How far its frame got: WAITING for the write lock, WRITING, or SENT. */
    volatile int state = WAITING;

    Pending(long id, Opcode opcode) {
      this.id = id;
      this.opcode = opcode;
    }
  }

  /** Request timeouts of all clients; one daemon thread, created on first use. */
  private static final class Timeouts {
    static final ScheduledThreadPoolExecutor EXECUTOR = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread t = new Thread(runnable, "smartssd-client-timeouts");
      t.setDaemon(true);
      return t;
    });

    static {
      // Replies usually beat the timeout; cancelled timers must not pile up until they would fire.
      EXECUTOR.setRemoveOnCancelPolicy(true);
    }
  }
}
