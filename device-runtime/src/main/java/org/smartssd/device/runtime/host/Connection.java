package org.smartssd.device.runtime.host;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.protocol.Frame;
import org.smartssd.device.protocol.FrameHeader;
import org.smartssd.device.protocol.FrameReader;
import org.smartssd.device.protocol.FrameTooLargeException;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.Opcode;
import org.smartssd.device.protocol.PayloadWriter;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.ProtocolException;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.objects.Caller;
import org.smartssd.device.runtime.objects.StoreException;
import org.smartssd.device.runtime.timing.Command;

/**
 * One host connection, over TCP or a Unix domain socket alike: a thread reads frames, the device's
 * workers carry them out in order, and each answer is queued at once or, paced, at its modelled
 * completion, for a sender thread that writes the connection's answers. A frame the device cannot
 * make sense of closes this connection only.
 *
 * <p>No worker ever writes to the socket, so a host that does not read its answers stalls nobody
 * else: its answers wait in its own queue, its next command waits once {@link #UNSENT_BOUND_BYTES}
 * of them are unsent, and {@link #watch} closes it when its answers
 * or a frame it started make no progress for {@link HostLimits#ioTimeoutMs}.
 */
final class Connection implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Connection.class);
  /** Commands read ahead of the workers; past this the reader stops and the socket pushes back. */
  private static final int MAX_QUEUED = 64;
  /**
   * Answer bytes a connection may leave unsent before its next command waits (it always gets the
   * answer of the command that crossed the bound too): four of objfs's 1 MiB reads, enough to keep
   * the link of a host that does read busy while they are written, and little to hold for one that
   * does not.
   */
  static final long UNSENT_BOUND_BYTES = 4L << 20;

  private final DeviceServer server;
  private final HostSocket socket;
  private final String peer;
  private final SerialExecutor serial;
  private final Semaphore queued = new Semaphore(MAX_QUEUED);
  private final OutputStream out;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final HostLimits limits;

  /** Answers waiting for the sender, in order; guards the fields after it. */
  private final ArrayDeque<Outgoing> outbox = new ArrayDeque<>();
  /** Bytes of answers made and not yet written, including those a paced device holds back. */
  private long unsentBytes;
  /** A sender task is writing the outbox. */
  private boolean sending;
  /** The commands wait because too many answer bytes are unsent. */
  private boolean outputPaused;
  /** Close once every answer made is written. */
  private boolean closing;

  /** The sender is in a write; when it last made progress. */
  private volatile boolean writing;
  private volatile long writeProgressNanos;
  /** The reader waits for bytes from the host; since when. */
  private volatile boolean readBlocked;
  private volatile long readBlockedSinceNanos;
  /** Bytes read from the socket, and bytes of whole frames taken from them. */
  private volatile long bytesReceived;
  private volatile long frameBytesReceived;
  /** When a frame last arrived or an answer was last written. */
  private volatile long lastActivityNanos = System.nanoTime();
  /** Frame memory reserved for the frame being read, not yet handed to its command. Reader thread only. */
  private int reservedForReading;
  /** This connection's share of frame memory: two largest frames. */
  private final java.util.concurrent.Semaphore ownFrameMemory;
  /** Whether this connection may be served: from the start on a device without a secret. Reader thread only. */
  private boolean authenticated;
  /** The device's nonce of the challenge in progress, or null. Reader thread only. */
  private ByteBuffer deviceNonce;
  /** The host's nonce of the challenge in progress. Reader thread only. */
  private ByteBuffer hostNonce;
  /**
   * Who the connection's commands run for: the device's own user until the host identifies (set on
   * the reader thread before the frames after IDENTIFY are read, so their commands see it).
   */
  private volatile Caller caller;
  private boolean identified;

  Connection(DeviceServer server, HostSocket socket, Executor workers, HostLimits limits) throws IOException {
    this.server = server;
    this.limits = limits;
    this.ownFrameMemory = new java.util.concurrent.Semaphore((int) Math.min(Integer.MAX_VALUE, 2L * limits.maxFrameBytes()));
    this.socket = socket;
    this.peer = socket.peer();
    this.serial = new SerialExecutor(workers);
    this.out = new BufferedOutputStream(socket.output(), 1 << 16);
    this.authenticated = server.secret() == null;
    this.caller = server.handler().policy().device();
  }

  @Override
  public void run() {
    try {
      FrameReader reader = new FrameReader(new BufferedInputStream(new Watched(socket.input()), 1 << 16));
      while (!closed.get()) {
        releaseFrameMemory(); // that of a frame answered on this thread
        Frame frame;
        try {
          frame = reader.read(limits.maxFrameBytes(), this::reserveFrameMemory);
        } catch (NoFrameMemory e) {
          FrameHeader h = e.header;
          answerInline(h, new Response.Error(Status.BUSY, "device " + server.name() + ": no room for a frame of "
              + h.payloadLength() + " bytes within " + limits.ioTimeoutMs() + " ms: frames from all connections hold "
              + "the device's frame memory (smartssd.device.host.frame-memory-bytes = " + limits.frameMemoryBytes()
              + "); the connection is closed, try again later"));
          LOG.warn("{}: no frame memory for {} bytes within {} ms; closing the connection", peer, h.payloadLength(),
              limits.ioTimeoutMs());
          break;
        } catch (FrameTooLargeException e) {
          FrameHeader h = e.header();
          PayloadWriter error = new PayloadWriter();
          Messages.encodeResponse(new Response.Error(Status.FRAME_TOO_LARGE, e.getMessage()), error);
          sendCounted(new FrameHeader(answerVersion(h.version()), h.opcode(), ProtocolConstants.FLAG_RESPONSE,
              Status.FRAME_TOO_LARGE.code(), error.size(), h.requestId(), 0), error.segments());
          LOG.warn("{}: {}; closing the connection", peer, e.getMessage());
          break;
        }
        if (frame == null) {
          break;
        }
        frameBytesReceived += ProtocolConstants.HEADER_BYTES + (long) frame.header().payloadLength();
        lastActivityNanos = System.nanoTime();
        if (frame.header().isResponse()) {
          LOG.warn("{}: a response frame arrived at the device; closing the connection", peer);
          break;
        }
        int op = frame.header().opcode();
        if (op == Opcode.AUTH_CHALLENGE.code() || op == Opcode.AUTHENTICATE.code()) {
          if (!authenticate(frame)) {
            break;
          }
          continue;
        }
        if (!authenticated && op != Opcode.API_VERSIONS.code()) {
          String what = Opcode.fromCode(op).map(Opcode::name).orElse(String.format("opcode 0x%04x", op));
          LOG.warn("{}: {} before authenticating; refused, closing the connection", peer, what);
          server.slowDownAfterFailedAuthentication();
          answerInline(frame.header(), new Response.Error(Status.AUTH_REQUIRED, what + ": device " + server.name()
              + " requires hosts to authenticate first (AUTH_CHALLENGE, AUTHENTICATE): give the client the device's"
              + " secret file (fs.objfs.secret-file, --secret-file, SMARTSSD_SECRET_FILE)"));
          break;
        }
        if (op == Opcode.IDENTIFY.code()) {
          identify(frame);
          continue;
        }
        queued.acquire();
        boolean hostIo = frame.header().opcode() == Opcode.READ.code() || frame.header().opcode() == Opcode.WRITE.code();
        if (hostIo) {
          server.hostIoWaiting().incrementAndGet();
        }
        int held = reservedForReading;
        try {
          serial.execute(() -> {
            try {
              process(frame);
            } finally {
              release(held);
              if (hostIo) {
                server.hostIoWaiting().decrementAndGet();
              }
              queued.release();
              pauseIfAnswersPileUp();
            }
          });
          reservedForReading = 0; // the command releases it
        } catch (RejectedExecutionException e) {
          if (hostIo) {
            server.hostIoWaiting().decrementAndGet();
          }
          queued.release();
          break; // the device is stopping
        }
      }
    } catch (ProtocolException e) {
      LOG.warn("{}: {}; closing the connection", peer, e.getMessage());
    } catch (IOException e) {
      if (!closed.get()) {
        LOG.debug("{}: connection ended: {}", peer, e.toString());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      releaseFrameMemory();
      // Let the commands already read finish, and their answers go out (the last may be a refusal
      // saying why the connection ends), before the handles of this connection are closed.
      try {
        serial.execute(this::closeAfterAnswers);
      } catch (RejectedExecutionException e) {
        close();
      }
    }
  }

  /**
   * Answers AUTH_CHALLENGE or AUTHENTICATE on the reading thread, before any later frame is read, so
   * that the commands after a successful AUTHENTICATE find the connection authenticated.
   *
   * @return false when the connection is to be closed (a failed proof)
   */
  private boolean authenticate(Frame frame) throws IOException, InterruptedException {
    FrameHeader h = frame.header();
    Opcode opcode = Opcode.fromCode(h.opcode()).orElseThrow();
    Request request;
    try {
      request = Messages.decodeRequest(opcode, frame.payload());
    } catch (ProtocolException e) {
      answerInline(h, new Response.Error(Status.BAD_REQUEST, opcode + ": " + e.getMessage()));
      return true;
    }
    HostSecret secret = server.secret();
    if (request instanceof Request.AuthChallenge challenge) {
      if (secret == null) {
        answerInline(h, new Response.AuthChallenge(false, ByteBuffer.allocate(0)));
      } else {
        deviceNonce = ByteBuffer.wrap(HostSecret.nonce());
        byte[] copy = new byte[HostSecret.NONCE_BYTES];
        challenge.hostNonce().duplicate().get(copy); // the frame's buffer may be reused for the next frame
        hostNonce = ByteBuffer.wrap(copy);
        answerInline(h, new Response.AuthChallenge(true, deviceNonce));
      }
      return true;
    }
    Request.Authenticate proof = (Request.Authenticate) request;
    if (secret == null) {
      answerInline(h, new Response.Error(Status.BAD_REQUEST, "AUTHENTICATE: device " + server.name()
          + " has no secret: it serves hosts without authentication"));
      return true;
    }
    ByteBuffer nonce = deviceNonce;
    deviceNonce = null; // a challenge answers one proof
    if (nonce != null && HostSecret.matches(secret.hostProof(nonce, hostNonce), proof.proof())) {
      authenticated = true;
      LOG.debug("{}: authenticated", peer);
      answerInline(h, new Response.Authenticated(ByteBuffer.wrap(secret.deviceProof(nonce, hostNonce))));
      return true;
    }
    String why = nonce == null ? "AUTHENTICATE without an AUTH_CHALLENGE before it"
        : "the proof does not match this device's secret";
    LOG.warn("{}: authentication failed ({}); closing the connection", peer, why);
    server.slowDownAfterFailedAuthentication();
    answerInline(h, new Response.Error(Status.AUTH_REQUIRED, "AUTHENTICATE: device " + server.name()
        + " refused the proof: " + why));
    return false;
  }

  /**
   * Answers IDENTIFY on the reading thread, before any later frame is read, so that the commands
   * after it run for the user it names (PROTOCOL.md, "Users and permissions").
   */
  private void identify(Frame frame) {
    FrameHeader h = frame.header();
    if (h.version() < Opcode.IDENTIFY.sinceVersion() || h.version() > ProtocolConstants.MAX_VERSION) {
      answerInline(h, new Response.Error(Status.UNSUPPORTED_VERSION, "IDENTIFY needs protocol version "
          + Opcode.IDENTIFY.sinceVersion() + " to " + ProtocolConstants.MAX_VERSION + "; the frame is version "
          + h.version()));
      return;
    }
    Request.Identify request;
    try {
      request = (Request.Identify) Messages.decodeRequest(h.version(), Opcode.IDENTIFY, frame.payload());
    } catch (ProtocolException e) {
      answerInline(h, new Response.Error(Status.BAD_REQUEST, "IDENTIFY: " + e.getMessage()));
      return;
    }
    if (identified) {
      answerInline(h, new Response.Error(Status.BAD_REQUEST, "IDENTIFY: this connection is "
          + caller.user() + "'s already; a connection identifies once"));
      return;
    }
    try {
      caller = server.handler().policy().caller(request.user(), request.groups());
    } catch (StoreException e) {
      answerInline(h, new Response.Error(e.status(), "IDENTIFY: " + e.getMessage()));
      return;
    }
    identified = true;
    LOG.debug("{}: identified as {}{}", peer, request.user(), caller.bypass() ? " (passes every check)" : "");
    answerInline(h, new Response.Empty());
  }

  /** Sends an answer from the reading thread, outside the timing model (the handshake's frames are not modelled). */
  private void answerInline(FrameHeader h, Response response) {
    PayloadWriter payload = new PayloadWriter();
    Messages.encodeResponse(response, payload);
    Status status = response instanceof Response.Error e ? e.status() : Status.OK;
    sendCounted(new FrameHeader(answerVersion(h.version()), h.opcode(), ProtocolConstants.FLAG_RESPONSE, status.code(),
        payload.size(), h.requestId(), 0), payload.segments());
  }

  private void process(Frame frame) {
    if (closed.get()) {
      return;
    }
    FrameHeader h = frame.header();
    Command cmd = server.timing().begin();
    cmd.transferIn(ProtocolConstants.HEADER_BYTES + (long) h.payloadLength());
    Optional<Opcode> opcode = Opcode.fromCode(h.opcode());
    Response response;
    if (opcode.isEmpty()) {
      response = new Response.Error(Status.UNKNOWN_OPCODE, String.format("opcode 0x%04x is not known", h.opcode()));
    } else if (opcode.get() != Opcode.API_VERSIONS
        && (h.version() < ProtocolConstants.MIN_VERSION || h.version() > ProtocolConstants.MAX_VERSION)) {
      response = new Response.Error(Status.UNSUPPORTED_VERSION, "protocol version " + h.version()
          + " is not spoken; this device speaks " + ProtocolConstants.MIN_VERSION + ".." + ProtocolConstants.MAX_VERSION);
    } else if (h.version() < opcode.get().sinceVersion()) {
      response = new Response.Error(Status.UNSUPPORTED_VERSION, opcode.get() + " needs protocol version "
          + opcode.get().sinceVersion() + " or later; the frame is version " + h.version());
    } else {
      response = decodeAndHandle(h.version(), opcode.get(), frame.payload(), cmd);
    }
    PayloadWriter payload = new PayloadWriter();
    Messages.encodeResponse(answerVersion(h.version()), response, payload);
    cmd.transferOut(ProtocolConstants.HEADER_BYTES + (long) payload.size());
    long completion = cmd.complete();
    Status status = response instanceof Response.Error e ? e.status() : Status.OK;
    FrameHeader answer = new FrameHeader(answerVersion(h.version()), h.opcode(), ProtocolConstants.FLAG_RESPONSE,
        status.code(), payload.size(), h.requestId(), cmd.durationNanos());
    answerMade(ProtocolConstants.HEADER_BYTES + (long) payload.size());
    if (status == Status.OK && h.opcode() == Opcode.SHUTDOWN.code()) {
      send(answer, payload.segments(), server::shutdownRequested); // stopping closes the connections
      return;
    }
    long delay = server.paced() ? completion - server.timing().now() : 0;
    if (delay < 0) {
      server.timing().answeredLate(-delay); // paced, but the simulator was slower than the model
    }
    if (delay > 0) {
      server.pacer().schedule(() -> send(answer, payload.segments()), delay, TimeUnit.NANOSECONDS);
    } else {
      send(answer, payload.segments());
    }
  }

  private Response decodeAndHandle(int version, Opcode opcode, ByteBuffer payload, Command cmd) {
    Request request;
    try {
      request = Messages.decodeRequest(version, opcode, payload);
    } catch (ProtocolException e) {
      return new Response.Error(Status.BAD_REQUEST, opcode + ": " + e.getMessage());
    }
    if (request instanceof Request.ExecuteObject r && version < ProtocolConstants.PROFILE_VERSION
        && r.options().containsKey("profile")) {
      // Its answer could not carry the profile: refused rather than silently left out.
      return new Response.Error(Status.BAD_REQUEST, "option profile needs protocol version "
          + ProtocolConstants.PROFILE_VERSION + " or later (its profile comes in READ_OBJECT's answer); the frame is"
          + " version " + version);
    }
    return server.handler().handle(request, this, caller, cmd);
  }

  private static int answerVersion(int requested) {
    return Math.max(ProtocolConstants.MIN_VERSION, Math.min(ProtocolConstants.MAX_VERSION, requested));
  }

  /**
   * Reserves memory for the next {@code moreBytes} of the payload being read, as its bytes arrive:
   * first from this connection's share (two largest frames: one being carried out, one being read),
   * waiting as long as its own commands take, then from the device's, waiting up to the I/O timeout
   * for other connections' frames to release some. The reader's thread only.
   */
  private void reserveFrameMemory(FrameHeader header, int moreBytes) throws IOException {
    try {
      ownFrameMemory.acquire(moreBytes);
      if (!server.frameMemory().tryAcquire(moreBytes, limits.ioTimeoutMs(), TimeUnit.MILLISECONDS)) {
        ownFrameMemory.release(moreBytes);
        throw new NoFrameMemory(header);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for frame memory");
    }
    reservedForReading += moreBytes;
  }

  private void releaseFrameMemory() {
    release(reservedForReading);
    reservedForReading = 0;
  }

  private void release(int frameBytes) {
    if (frameBytes > 0) {
      server.frameMemory().release(frameBytes);
      ownFrameMemory.release(frameBytes);
    }
  }

  /** A frame found no room in the device's frame memory in time; its payload is still unread. */
  private static final class NoFrameMemory extends IOException {
    private static final long serialVersionUID = 1L;
    final transient FrameHeader header;

    NoFrameMemory(FrameHeader header) {
      super("no frame memory for " + header.payloadLength() + " bytes");
      this.header = header;
    }
  }

  /** Counts what the host sends, and notes when the reader waits for it, for {@link #watch}. */
  private final class Watched extends InputStream {
    private final InputStream in;

    Watched(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      readBlockedSinceNanos = System.nanoTime();
      readBlocked = true;
      int n;
      try {
        n = in.read(b, off, len);
      } finally {
        readBlocked = false;
      }
      if (n > 0) {
        bytesReceived += n;
      }
      return n;
    }
  }

  /** One answer for the sender: a frame header and its payload, and what to do once it is written (or null). */
  private record Outgoing(FrameHeader header, List<ByteBuffer> payload, long bytes, Runnable written) { }

  /** Counts an answer as unsent from when it is made, before it is queued (paced, it may wait). */
  private void answerMade(long bytes) {
    synchronized (outbox) {
      unsentBytes += bytes;
    }
  }

  /**
   * After a command: once more than {@link #UNSENT_BOUND_BYTES} of answers pile up unsent (the host
   * does not read them fast enough), the connection's next command waits, without holding a worker, until
   * the sender has written them down to that bound.
   */
  private void pauseIfAnswersPileUp() {
    synchronized (outbox) {
      if (!closed.get() && unsentBytes > UNSENT_BOUND_BYTES) {
        outputPaused = true;
        serial.pause();
      }
    }
  }

  /** Queues an answer counted by {@link #answerMade}; a sender task writes it. */
  private void send(FrameHeader header, List<ByteBuffer> payload) {
    send(header, payload, null);
  }

  private void send(FrameHeader header, List<ByteBuffer> payload, Runnable written) {
    long bytes = ProtocolConstants.HEADER_BYTES + (long) header.payloadLength();
    boolean start;
    synchronized (outbox) {
      if (closed.get()) {
        return; // close() has forgotten every unsent answer
      }
      outbox.add(new Outgoing(header, payload, bytes, written));
      start = !sending;
      sending = true;
    }
    if (start) {
      try {
        server.senders().execute(this::sendAll);
      } catch (RejectedExecutionException e) {
        close(); // the device is stopping
      }
    }
  }

  /** Answers that take no worker (the handshake's, and refusals): counted and queued at once. */
  private void sendCounted(FrameHeader header, List<ByteBuffer> payload) {
    answerMade(ProtocolConstants.HEADER_BYTES + (long) header.payloadLength());
    send(header, payload);
  }

  /** The sender: writes queued answers in order until none is left; the only writer of {@link #out}. */
  private void sendAll() {
    while (true) {
      Outgoing next;
      synchronized (outbox) {
        next = outbox.poll();
        if (next == null) {
          sending = false;
          if (!closing || unsentBytes > 0 || closed.get()) {
            return;
          }
        }
      }
      if (next == null) {
        close(); // asked to close while this sender was finishing
        return;
      }
      try {
        write(next);
      } catch (IOException e) {
        if (!closed.get()) {
          LOG.debug("{}: cannot send the answer to request {}: {}", peer, next.header().requestId(), e.toString());
        }
        close();
        synchronized (outbox) {
          sending = false;
        }
        return;
      }
      lastActivityNanos = System.nanoTime();
      if (next.written() != null) {
        next.written().run();
      }
      boolean finished = false;
      synchronized (outbox) {
        if (!closed.get()) {
          unsentBytes -= next.bytes();
          if (outputPaused && unsentBytes <= UNSENT_BOUND_BYTES) {
            outputPaused = false;
            serial.resume();
          }
          finished = closing && unsentBytes == 0;
        }
      }
      if (finished) {
        close();
        synchronized (outbox) {
          sending = false;
        }
        return;
      }
    }
  }

  /** Closes the connection once every answer already made is written (or the host stops reading them). */
  private void closeAfterAnswers() {
    synchronized (outbox) {
      closing = true;
      if (unsentBytes > 0 || sending) {
        return; // the sender closes it
      }
    }
    close();
  }

  /** Writes one answer in pieces, noting progress after each, so that {@link #watch} sees a stall. */
  private void write(Outgoing o) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES);
    o.header().writeTo(head);
    writeProgressNanos = System.nanoTime();
    writing = true;
    try {
      out.write(head.array(), 0, head.capacity());
      for (ByteBuffer b : o.payload()) {
        ByteBuffer rest = b.duplicate();
        byte[] copy = rest.hasArray() ? null : new byte[Math.min(WRITE_PIECE_BYTES, rest.remaining())];
        while (rest.hasRemaining()) {
          int n = Math.min(WRITE_PIECE_BYTES, rest.remaining());
          writeProgressNanos = System.nanoTime();
          if (copy == null) {
            out.write(rest.array(), rest.arrayOffset() + rest.position(), n);
            rest.position(rest.position() + n);
          } else {
            rest.get(copy, 0, n);
            out.write(copy, 0, n);
          }
        }
      }
      writeProgressNanos = System.nanoTime();
      out.flush();
    } finally {
      writing = false;
    }
  }

  /** What {@link #write} hands the socket at a time: a stalled host shows as no progress within one. */
  private static final int WRITE_PIECE_BYTES = 64 << 10;

  /**
   * Called about every tenth of the I/O timeout by the server: closes this connection when its host
   * leaves an answer unread or a started frame unfinished past {@link HostLimits#ioTimeoutMs}, or
   * stays silent past {@link HostLimits#idleTimeoutMs} while it holds nothing on the device.
   */
  void watch(long now) {
    if (closed.get()) {
      return;
    }
    long ioTimeout = TimeUnit.MILLISECONDS.toNanos(limits.ioTimeoutMs());
    if (writing && now - writeProgressNanos > ioTimeout) {
      long unsent;
      synchronized (outbox) {
        unsent = unsentBytes;
      }
      LOG.warn("{}: the host has taken no bytes of its answers for {} ms ({} bytes unsent); closing the connection"
          + " (smartssd.device.host.io-timeout-ms)", peer, limits.ioTimeoutMs(), unsent);
      close();
      return;
    }
    boolean waiting = readBlocked;
    long since = readBlockedSinceNanos;
    boolean insideFrame = bytesReceived > frameBytesReceived;
    if (waiting && insideFrame && now - since > ioTimeout) {
      LOG.warn("{}: the host sent {} bytes of a frame and then nothing for {} ms; closing the connection"
          + " (smartssd.device.host.io-timeout-ms)", peer, bytesReceived - frameBytesReceived, limits.ioTimeoutMs());
      close();
      return;
    }
    long idleTimeout = TimeUnit.MILLISECONDS.toNanos(limits.idleTimeoutMs());
    if (idleTimeout > 0 && waiting && !insideFrame && now - lastActivityNanos > idleTimeout && holdsNothing()) {
      LOG.info("{}: idle for {} ms holding nothing on the device; closing the connection"
          + " (smartssd.device.host.idle-timeout-ms)", peer, limits.idleTimeoutMs());
      close();
    }
  }

  /** No command of this connection is queued or running, no answer unsent, and it owns nothing. */
  private boolean holdsNothing() {
    synchronized (outbox) {
      if (sending || unsentBytes > 0) {
        return false;
      }
    }
    return queued.availablePermits() == MAX_QUEUED && !server.ownsAnything(this);
  }

  /**
   * Closes the socket and the write handles this connection held (their data is kept), forgets its
   * unsent answers, and lets its queued commands run out (each returns at once).
   */
  void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        socket.close();
      } catch (IOException e) {
        LOG.debug("{}: close: {}", peer, e.toString());
      }
      synchronized (outbox) {
        outbox.clear();
        unsentBytes = 0;
        outputPaused = false;
      }
      try {
        serial.resume();
      } catch (RejectedExecutionException e) {
        // The device is stopping: its workers will run no more commands anyway.
      }
      server.connectionClosed(this);
    }
  }
}
