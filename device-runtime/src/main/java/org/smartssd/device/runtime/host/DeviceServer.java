package org.smartssd.device.runtime.host;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.device.runtime.objects.ObjectStore;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * The host interface: a TCP server, and optionally a Unix domain socket beside it, taking object
 * commands from many connections at once. A connection is served the same whichever carries it.
 * Each connection has a reading thread; a fixed pool of workers carries the commands out.
 */
public final class DeviceServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceServer.class);
  private static final int BACKLOG = 128;
  /**
   * The longest Unix domain socket path, in bytes: Linux's {@code sun_path} holds 108 with the
   * terminating NUL. (Systems that allow fewer refuse a longer path themselves.)
   */
  public static final int UNIX_PATH_MAX_BYTES = 107;

  private final String name;
  private final ServerSocket listener;
  /** The Unix domain socket listener, or null. */
  private final UnixSocketListener unixListener;
  private final ObjectStore store;
  private final TimingModel timing;
  private final CommandHandler handler;
  private final Runnable onShutdown;
  /** The secret hosts must prove they hold, or null. */
  private final HostSecret secret;
  /**
   * Held while a failed authentication is answered, for {@link #AUTH_FAILURE_DELAY_MS}: the device
   * answers at most one failed attempt a second, over all its connections.
   */
  private final Object authFailures = new Object();
  /** How long a failed authentication, or a command before authenticating, waits for its answer. */
  static final long AUTH_FAILURE_DELAY_MS = 1000;
  private final boolean paced;
  private final int maxFrameBytes;
  private final ExecutorService workers;
  private final ScheduledExecutorService pacer;
  private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
  /** Host reads and writes read from a socket and not yet carried out: internal reads yield to them. */
  private final AtomicInteger hostIoWaiting;
  private final Thread acceptor;
  private final Thread unixAcceptor;
  private final AtomicInteger connectionCount = new AtomicInteger();
  private volatile boolean stopping;

  /**
   * Binds the listening sockets and starts accepting; {@code port} 0 picks a free port. With a
   * {@code unixSocket} (an absolute path; null for none) the device also listens there: see
   * {@link UnixSocketListener#bind} for the file's creation. With a {@code secret} (null for none),
   * a connection is served only once it has proved it holds it (PROTOCOL.md, "Authentication").
   */
  public DeviceServer(String name, String bindAddress, int port, Path unixSocket, HostSecret secret, int workerThreads,
      int maxFrameBytes, boolean paced, ObjectStore store, TimingModel timing, CommandHandler handler,
      AtomicInteger hostIoWaiting, Runnable onShutdown) throws IOException {
    this.secret = secret;
    this.hostIoWaiting = hostIoWaiting;
    this.name = name;
    this.store = store;
    this.timing = timing;
    this.paced = paced;
    this.maxFrameBytes = maxFrameBytes;
    this.handler = handler;
    this.onShutdown = onShutdown;
    this.listener = new ServerSocket();
    listener.setReuseAddress(true);
    try {
      listener.bind(new InetSocketAddress(InetAddress.getByName(bindAddress), port), BACKLOG);
    } catch (IOException e) {
      listener.close();
      throw new IOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(), e);
    }
    try {
      this.unixListener = unixSocket == null ? null : UnixSocketListener.bind(unixSocket, BACKLOG);
    } catch (IOException | RuntimeException e) {
      listener.close();
      throw e;
    }
    this.workers = Executors.newFixedThreadPool(workerThreads, threads(name + "-worker"));
    this.pacer = Executors.newSingleThreadScheduledExecutor(threads(name + "-pacer"));
    this.acceptor = threads(name + "-accept").newThread(this::acceptLoop);
    acceptor.start();
    if (unixListener != null) {
      this.unixAcceptor = threads(name + "-accept-unix").newThread(this::acceptUnixLoop);
      unixAcceptor.start();
    } else {
      this.unixAcceptor = null;
    }
  }

  public int port() {
    return listener.getLocalPort();
  }

  public InetAddress address() {
    return listener.getInetAddress();
  }

  /** The Unix domain socket the device also listens on, if any. */
  public Optional<Path> unixSocket() {
    return unixListener == null ? Optional.empty() : Optional.of(unixListener.path());
  }

  /** The secret hosts must prove they hold, or null. */
  HostSecret secret() {
    return secret;
  }

  /**
   * Waits {@link #AUTH_FAILURE_DELAY_MS} holding the device-wide failure lock: one refused attempt a
   * second at most, whatever the number of connections trying.
   */
  void slowDownAfterFailedAuthentication() throws InterruptedException {
    synchronized (authFailures) {
      Thread.sleep(AUTH_FAILURE_DELAY_MS);
    }
  }

  String name() {
    return name;
  }

  int maxFrameBytes() {
    return maxFrameBytes;
  }

  boolean paced() {
    return paced;
  }

  TimingModel timing() {
    return timing;
  }

  CommandHandler handler() {
    return handler;
  }

  AtomicInteger hostIoWaiting() {
    return hostIoWaiting;
  }

  ScheduledExecutorService pacer() {
    return pacer;
  }

  private void acceptLoop() {
    while (!stopping) {
      try {
        Socket socket = listener.accept();
        socket.setTcpNoDelay(true);
        serve(HostSocket.of(socket));
      } catch (SocketException e) {
        if (!stopping) {
          LOG.error("{}: accept failed", name, e);
        }
        return;
      } catch (IOException e) {
        LOG.warn("{}: accept failed: {}", name, e.toString());
      }
    }
  }

  private void acceptUnixLoop() {
    String where = "unix:" + unixListener.path();
    int count = 0;
    while (!stopping) {
      try {
        SocketChannel channel = unixListener.accept();
        // Unix domain peers have no address of their own: the connection's number names it.
        serve(HostSocket.of(channel, where + "#" + ++count));
      } catch (ClosedChannelException e) {
        if (!stopping) {
          LOG.error("{}: accept on {} failed", name, where, e);
        }
        return;
      } catch (IOException e) {
        LOG.warn("{}: accept on {} failed: {}", name, where, e.toString());
      }
    }
  }

  /** Starts serving an accepted connection on a thread of its own. */
  private void serve(HostSocket socket) throws IOException {
    Connection c;
    try {
      c = new Connection(this, socket, workers);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
    connections.add(c);
    Thread t = new Thread(c, name + "-conn-" + connectionCount.incrementAndGet());
    t.setDaemon(true);
    t.start();
  }

  /** A SHUTDOWN command was answered. */
  void shutdownRequested() {
    onShutdown.run();
  }

  void connectionClosed(Connection c) {
    connections.remove(c);
    store.closeHandlesOf(c);
  }

  /**
   * Stops accepting (removing the Unix domain socket's file), closes every connection, and waits
   * for the workers to finish.
   */
  @Override
  public void close() throws IOException {
    stopping = true;
    try {
      listener.close();
    } finally {
      if (unixListener != null) {
        unixListener.close();
      }
    }
    for (Connection c : new ArrayList<>(connections)) {
      c.close();
    }
    workers.shutdown();
    pacer.shutdown();
    try {
      if (!workers.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("{}: workers still busy after 30 s", name);
      }
      acceptor.join(5000);
      if (unixAcceptor != null) {
        unixAcceptor.join(5000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory threads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
