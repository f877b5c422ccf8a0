package org.smartssd.device.runtime.host;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
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
import org.smartssd.device.runtime.timing.Command;

/**
 * One host connection, over TCP or a Unix domain socket alike: a thread reads frames, the device's
 * workers carry them out in order, and each answer is sent at once or, paced, at its modelled
 * completion. A frame the device cannot make sense of closes this connection only.
 */
final class Connection implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Connection.class);
  /** Commands read ahead of the workers; past this the reader stops and the socket pushes back. */
  private static final int MAX_QUEUED = 64;

  private final DeviceServer server;
  private final HostSocket socket;
  private final String peer;
  private final SerialExecutor serial;
  private final Semaphore queued = new Semaphore(MAX_QUEUED);
  private final OutputStream out;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Whether this connection may be served: from the start on a device without a secret. Reader thread only. */
  private boolean authenticated;
  /** The device's nonce of the challenge in progress, or null. Reader thread only. */
  private ByteBuffer deviceNonce;
  /** The host's nonce of the challenge in progress. Reader thread only. */
  private ByteBuffer hostNonce;

  Connection(DeviceServer server, HostSocket socket, Executor workers) throws IOException {
    this.server = server;
    this.socket = socket;
    this.peer = socket.peer();
    this.serial = new SerialExecutor(workers);
    this.out = new BufferedOutputStream(socket.output(), 1 << 16);
    this.authenticated = server.secret() == null;
  }

  @Override
  public void run() {
    try {
      FrameReader reader = new FrameReader(new BufferedInputStream(socket.input(), 1 << 16));
      while (!closed.get()) {
        Frame frame;
        try {
          frame = reader.read(server.maxFrameBytes());
        } catch (FrameTooLargeException e) {
          FrameHeader h = e.header();
          PayloadWriter error = new PayloadWriter();
          Messages.encodeResponse(new Response.Error(Status.FRAME_TOO_LARGE, e.getMessage()), error);
          sendNow(new FrameHeader(answerVersion(h.version()), h.opcode(), ProtocolConstants.FLAG_RESPONSE,
              Status.FRAME_TOO_LARGE.code(), error.size(), h.requestId(), 0), error.segments());
          LOG.warn("{}: {}; closing the connection", peer, e.getMessage());
          break;
        }
        if (frame == null) {
          break;
        }
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
        queued.acquire();
        boolean hostIo = frame.header().opcode() == Opcode.READ.code() || frame.header().opcode() == Opcode.WRITE.code();
        if (hostIo) {
          server.hostIoWaiting().incrementAndGet();
        }
        try {
          serial.execute(() -> {
            try {
              process(frame);
            } finally {
              if (hostIo) {
                server.hostIoWaiting().decrementAndGet();
              }
              queued.release();
            }
          });
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
      // Let the commands already read finish before the handles of this connection are closed.
      try {
        serial.execute(this::close);
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

  /** Sends an answer from the reading thread, outside the timing model (the handshake's frames are not modelled). */
  private void answerInline(FrameHeader h, Response response) throws IOException {
    PayloadWriter payload = new PayloadWriter();
    Messages.encodeResponse(response, payload);
    Status status = response instanceof Response.Error e ? e.status() : Status.OK;
    sendNow(new FrameHeader(answerVersion(h.version()), h.opcode(), ProtocolConstants.FLAG_RESPONSE, status.code(),
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
    } else {
      response = decodeAndHandle(opcode.get(), frame.payload(), cmd);
    }
    PayloadWriter payload = new PayloadWriter();
    Messages.encodeResponse(answerVersion(h.version()), response, payload);
    cmd.transferOut(ProtocolConstants.HEADER_BYTES + (long) payload.size());
    long completion = cmd.complete();
    Status status = response instanceof Response.Error e ? e.status() : Status.OK;
    FrameHeader answer = new FrameHeader(answerVersion(h.version()), h.opcode(), ProtocolConstants.FLAG_RESPONSE,
        status.code(), payload.size(), h.requestId(), cmd.durationNanos());
    if (status == Status.OK && h.opcode() == Opcode.SHUTDOWN.code()) {
      sendQuietly(answer, payload.segments());
      server.shutdownRequested();
      return;
    }
    long delay = server.paced() ? completion - server.timing().now() : 0;
    if (delay < 0) {
      server.timing().answeredLate(-delay); // paced, but the simulator was slower than the model
    }
    if (delay > 0) {
      server.pacer().schedule(() -> sendQuietly(answer, payload.segments()), delay, TimeUnit.NANOSECONDS);
    } else {
      sendQuietly(answer, payload.segments());
    }
  }

  private Response decodeAndHandle(Opcode opcode, ByteBuffer payload, Command cmd) {
    Request request;
    try {
      request = Messages.decodeRequest(opcode, payload);
    } catch (ProtocolException e) {
      return new Response.Error(Status.BAD_REQUEST, opcode + ": " + e.getMessage());
    }
    return server.handler().handle(request, this, cmd);
  }

  private static int answerVersion(int requested) {
    return Math.max(ProtocolConstants.MIN_VERSION, Math.min(ProtocolConstants.MAX_VERSION, requested));
  }

  private void sendQuietly(FrameHeader header, List<ByteBuffer> payload) {
    try {
      sendNow(header, payload);
    } catch (IOException e) {
      LOG.debug("{}: cannot send the answer to request {}: {}", peer, header.requestId(), e.toString());
      close();
    }
  }

  private void sendNow(FrameHeader header, List<ByteBuffer> payload) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES);
    header.writeTo(head);
    synchronized (out) {
      out.write(head.array(), 0, head.capacity());
      for (ByteBuffer b : payload) {
        if (b.hasArray()) {
          out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
        } else {
          byte[] copy = new byte[b.remaining()];
          b.duplicate().get(copy);
          out.write(copy);
        }
      }
      out.flush();
    }
  }

  /** Closes the socket and the write handles this connection held (their data is kept). */
  void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        socket.close();
      } catch (IOException e) {
        LOG.debug("{}: close: {}", peer, e.toString());
      }
      server.connectionClosed(this);
    }
  }
}
