package org.smartssd.device.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import org.smartssd.device.protocol.Frame;
import org.smartssd.device.protocol.FrameReader;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.Opcode;
import org.smartssd.device.protocol.ProtocolException;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;

/**
 * A device for client tests: a loopback TCP server socket, or a Unix domain socket in a temporary
 * directory, that answers API_VERSIONS with a given range and AUTH_CHALLENGE as a device without a
 * secret does, and hands every other request frame to
 * the test's handler, on the connection's own thread.
 */
final class FakeDevice implements Closeable {
  /** Handles one request frame; may reply at once, later, or never. */
  interface Handler {
    void handle(Connection connection, Frame request) throws IOException;
  }

  /** What the device listens on. */
  enum Listener { TCP, UNIX }

  private final ServerSocket server;
  private final ServerSocketChannel unixServer;
  private final Path unixSocket;
  private volatile boolean closed;
  private final Handler handler;
  private final Response.Versions versions;
  /** Connections accepted, in order. */
  final BlockingQueue<Connection> connections = new LinkedBlockingQueue<>();

  FakeDevice(Handler handler) throws IOException {
    this(Listener.TCP, handler);
  }

  FakeDevice(Listener listener, Handler handler) throws IOException {
    this(listener, new Response.Versions(1, 1), handler);
  }

  FakeDevice(Response.Versions versions, Handler handler) throws IOException {
    this(Listener.TCP, versions, handler);
  }

  FakeDevice(Listener listener, Response.Versions versions, Handler handler) throws IOException {
    this.versions = versions;
    this.handler = handler;
    if (listener == Listener.TCP) {
      this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      this.unixServer = null;
      this.unixSocket = null;
    } else {
      this.server = null;
      // Under the system's temporary directory (/tmp): short, as a Unix domain socket path must be.
      this.unixSocket = Files.createTempDirectory("fake-device").resolve("device.sock");
      this.unixServer = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      unixServer.bind(UnixDomainSocketAddress.of(unixSocket), 50);
    }
    Thread acceptor = new Thread(this::acceptLoop, "fake-device-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  DeviceAddress address() {
    return server != null ? new DeviceAddress("127.0.0.1", server.getLocalPort()) : DeviceAddress.unix(unixSocket);
  }

  /** A handler answering every request with what {@code answer} gives for it. */
  static Handler answering(java.util.function.Function<Request, Response> answer) {
    return (connection, frame) -> connection.reply(frame, answer.apply(request(frame)), 0);
  }

  static Request request(Frame frame) throws ProtocolException {
    return Messages.decodeRequest(frame.header().version(), opcode(frame), frame.payload());
  }

  static Opcode opcode(Frame frame) {
    return Opcode.fromCode(frame.header().opcode()).orElseThrow();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Connection c = server != null ? new Connection(server.accept()) : new Connection(unixServer.accept());
        connections.add(c);
        Thread t = new Thread(c::serve, "fake-device-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    if (server != null) {
      server.close();
    } else {
      unixServer.close();
      Files.deleteIfExists(unixSocket);
      Files.deleteIfExists(unixSocket.getParent());
    }
    for (Connection c : connections) {
      c.close();
    }
  }

  final class Connection {
    private final Closeable socket;
    private final InputStream in;
    private final OutputStream out;
    /** Counted down when the client closed the connection (or it failed). */
    final CountDownLatch ended = new CountDownLatch(1);
    /** Versions of the request frames, in order of arrival. */
    final BlockingQueue<Integer> versionsSeen = new LinkedBlockingQueue<>();

    Connection(Socket socket) throws IOException {
      this.socket = socket;
      // Without it, a small frame written after another waits for the client's delayed ACK (~40 ms).
      socket.setTcpNoDelay(true);
      this.in = socket.getInputStream();
      this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /** The channel's streams block each other; fine here, where one thread reads and replies. */
    Connection(SocketChannel channel) {
      this.socket = channel;
      this.in = Channels.newInputStream(channel);
      this.out = new BufferedOutputStream(Channels.newOutputStream(channel));
    }

    private void serve() {
      try {
        FrameReader reader = new FrameReader(new BufferedInputStream(in));
        Frame frame;
        while ((frame = reader.read(1 << 24)) != null) {
          versionsSeen.add(frame.header().version());
          if (opcode(frame) == Opcode.API_VERSIONS) {
            reply(frame, versions, 0);
          } else if (opcode(frame) == Opcode.AUTH_CHALLENGE) {
            reply(frame, new Response.AuthChallenge(false, ByteBuffer.allocate(0)), 0); // a device without a secret
          } else {
            handler.handle(this, frame);
          }
        }
      } catch (IOException e) {
        // the client went away, or the test closed the socket
      } finally {
        close();
        ended.countDown();
      }
    }

    synchronized void reply(Frame request, Response response, long modelledNanos) throws IOException {
      List<ByteBuffer> segments = Messages.responseFrameSegments(
          request.header().version(), request.header().requestId(), opcode(request), response, modelledNanos);
      for (ByteBuffer b : segments) {
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        out.write(bytes);
      }
      out.flush();
    }

    synchronized void writeRaw(byte[] bytes) {
      try {
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void close() {
      try {
        socket.close();
      } catch (IOException e) {
        // already closed
      }
    }
  }
}
