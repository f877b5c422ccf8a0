package org.smartssd.device.runtime.host;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
  private final TimingModel timing;
  private final CommandHandler handler;
  private final Runnable onShutdown;
  /** The secret hosts must prove they hold, or null. */
  private final HostSecret secret;
  /** What connections may hold: their number, frames, memory and time. */
  private final HostLimits limits;
  /** Request frame bytes held at once over all connections ({@link HostLimits#frameMemoryBytes}). */
  private final java.util.concurrent.Semaphore frameMemory;
  /** What connections own on the device (open files, tasklets, executions). */
  private final Ownership owns;

  /** What a connection owns on the device beyond its socket: its open files, tasklets and executions. */
  public interface Ownership {
    /** Whether {@code connection} owns anything: then it is not closed for being idle. */
    boolean owns(Object connection);

    /** {@code connection} ended: closes its files (keeping their data) and removes its tasklets. */
    void release(Object connection);
  }
  /** Connections refused for the limit since the last warning, and when that warning was logged. */
  private final java.util.concurrent.atomic.AtomicLong refusedSinceWarning = new java.util.concurrent.atomic.AtomicLong();
  private volatile long lastRefusalWarningNanos = System.nanoTime() - TimeUnit.SECONDS.toNanos(10);
  /**
   * Held while a failed authentication is answered, for {@link #AUTH_FAILURE_DELAY_MS}: the device
   * answers at most one failed attempt a second, over all its connections.
   */
  private final Object authFailures = new Object();
  /** How long a failed authentication, or a command before authenticating, waits for its answer. */
  static final long AUTH_FAILURE_DELAY_MS = 1000;
  private final boolean paced;
  private final ExecutorService workers;
  /** Threads writing answers to connections, one per connection with answers to write, kept a while. */
  private final ExecutorService senders;
  private final ScheduledExecutorService pacer;
  /** Checks each connection's time limits ({@link Connection#watch}). */
  private final ScheduledExecutorService watchdog;
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
   * {@code owns} tells what a connection owns on the device beyond its socket (which keeps an idle
   * connection open), and releases it when the connection ends.
   */
  public DeviceServer(String name, String bindAddress, int port, Path unixSocket, HostSecret secret, HostLimits limits,
      boolean paced, TimingModel timing, CommandHandler handler,
      AtomicInteger hostIoWaiting, Ownership owns, Runnable onShutdown) throws IOException {
    this.secret = secret;
    this.limits = limits;
    // Not fair: a small frame's first step may take room a larger one waits for (which is bounded by
    // the I/O timeout); in first-come order, a few large frames arriving slowly would hold up every other.
    this.frameMemory = new java.util.concurrent.Semaphore(limits.frameMemoryBytes(), false);
    this.owns = owns;
    this.hostIoWaiting = hostIoWaiting;
    this.name = name;
    this.timing = timing;
    this.paced = paced;
    this.handler = handler;
    this.onShutdown = onShutdown;
    this.listener = new ServerSocket();
    listener.setReuseAddress(true);
    try {
      listener.bind(new InetSocketAddress(InetAddress.getByName(bindAddress), port), BACKLOG);
    } catch (IOException e) {
      listener.close();
      throw new IOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage()
          + (e instanceof java.net.BindException ? " (another device or program has it; choose another with --port or"
              + " smartssd.device.host.port)" : ""), e);
    }
    try {
      this.unixListener = unixSocket == null ? null : UnixSocketListener.bind(unixSocket, BACKLOG);
    } catch (IOException | RuntimeException e) {
      listener.close();
      throw e;
    }
    this.workers = Executors.newFixedThreadPool(limits.workerThreads(), threads(name + "-worker"));
    this.senders = Executors.newCachedThreadPool(threads(name + "-send"));
    this.pacer = Executors.newSingleThreadScheduledExecutor(threads(name + "-pacer"));
    this.watchdog = Executors.newSingleThreadScheduledExecutor(threads(name + "-watchdog"));
    long tick = Math.max(10, Math.min(1000, limits.ioTimeoutMs() / 10));
    watchdog.scheduleWithFixedDelay(this::watchConnections, tick, tick, TimeUnit.MILLISECONDS);
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

  java.util.concurrent.Semaphore frameMemory() {
    return frameMemory;
  }

  ExecutorService senders() {
    return senders;
  }

  /** Whether {@code connection} owns open files, tasklets or executions on the device. */
  boolean ownsAnything(Connection connection) {
    return owns.owns(connection);
  }

  private void watchConnections() {
    long now = System.nanoTime();
    for (Connection c : connections) {
      try {
        c.watch(now);
      } catch (RuntimeException e) {
        LOG.error("{}: checking a connection's time limits failed", name, e);
      }
    }
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
    AcceptBackoff backoff = new AcceptBackoff(name, "TCP");
    while (!stopping) {
      Socket socket;
      try {
        socket = listener.accept();
      } catch (IOException e) {
        if (stopping || listener.isClosed()) {
          return;
        }
        backoff.failed(e); // out of descriptors, say: waits, so that the loop does not spin
        continue;
      }
      backoff.succeeded();
      try {
        socket.setTcpNoDelay(true);
        serve(HostSocket.of(socket));
      } catch (IOException e) {
        LOG.warn("{}: cannot serve a new connection: {}", name, e.toString());
      }
    }
  }

  /**
   * What an accept loop does after accept fails (the process is out of file descriptors, say): waits,
   * from 10 ms doubling to a second, and logs at most once a second, with how many failed since, so
   * that the loop neither spins nor floods the log; the next success starts over.
   */
  static final class AcceptBackoff {
    static final long FIRST_WAIT_MS = 10;
    static final long LONGEST_WAIT_MS = 1000;
    private final String device;
    private final String where;
    private long waitMs = FIRST_WAIT_MS;
    private long failures;
    private long lastLogNanos;
    private boolean logged;

    AcceptBackoff(String device, String where) {
      this.device = device;
      this.where = where;
    }

    void failed(IOException e) {
      failures++;
      long now = System.nanoTime();
      if (!logged || now - lastLogNanos >= TimeUnit.SECONDS.toNanos(1)) {
        LOG.warn("{}: accept on {} failed {} time(s) ({}); waiting {} ms before the next", device, where, failures,
            e.toString(), waitMs);
        logged = true;
        lastLogNanos = now;
        failures = 0;
      }
      try {
        Thread.sleep(waitMs);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      waitMs = Math.min(LONGEST_WAIT_MS, waitMs * 2);
    }

    void succeeded() {
      waitMs = FIRST_WAIT_MS;
      logged = false;
    }
  }

  private void acceptUnixLoop() {
    String where = "unix:" + unixListener.path();
    AcceptBackoff backoff = new AcceptBackoff(name, where);
    int count = 0;
    while (!stopping) {
      SocketChannel channel;
      try {
        channel = unixListener.accept();
      } catch (ClosedChannelException e) {
        if (!stopping) {
          LOG.error("{}: accept on {} failed", name, where, e);
        }
        return;
      } catch (IOException e) {
        backoff.failed(e);
        continue;
      }
      backoff.succeeded();
      try {
        // Unix domain peers have no address of their own: the connection's number names it.
        serve(HostSocket.of(channel, where + "#" + ++count));
      } catch (IOException e) {
        LOG.warn("{}: cannot serve a new connection on {}: {}", name, where, e.toString());
      }
    }
  }

  /** Starts serving an accepted connection on a thread of its own; closes it at once past the limit. */
  private synchronized void serve(HostSocket socket) throws IOException {
    if (connections.size() >= limits.maxConnections()) {
      socket.close();
      long refused = refusedSinceWarning.incrementAndGet();
      long now = System.nanoTime();
      if (now - lastRefusalWarningNanos >= TimeUnit.SECONDS.toNanos(1)) {
        lastRefusalWarningNanos = now;
        refusedSinceWarning.set(0);
        LOG.warn("{}: {} connection(s) closed as soon as accepted (the latest from {}): {} are open, the limit"
            + " (smartssd.device.host.max-connections)", name, refused, socket.peer(), limits.maxConnections());
      }
      return;
    }
    Connection c;
    try {
      c = new Connection(this, socket, workers, limits);
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
    owns.release(c);
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
    watchdog.shutdownNow();
    senders.shutdown();
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
