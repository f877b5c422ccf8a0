package org.smartssd.device.runtime.host;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
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
import org.smartssd.device.runtime.objects.ObjectStore;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * The host interface: a TCP server taking object commands from many connections at once. Each
 * connection has a reading thread; a fixed pool of workers carries the commands out.
 */
public final class DeviceServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceServer.class);

  private final String name;
  private final ServerSocket listener;
  private final ObjectStore store;
  private final TimingModel timing;
  private final CommandHandler handler;
  private final Runnable onShutdown;
  private final boolean paced;
  private final int maxFrameBytes;
  private final ExecutorService workers;
  private final ScheduledExecutorService pacer;
  private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
  /** Host reads and writes read from a socket and not yet carried out: internal reads yield to them. */
  private final AtomicInteger hostIoWaiting;
  private final Thread acceptor;
  private volatile boolean stopping;

  /** Binds the listening socket and starts accepting; {@code port} 0 picks a free port. */
  public DeviceServer(String name, String bindAddress, int port, int workerThreads, int maxFrameBytes,
      boolean paced, ObjectStore store, TimingModel timing, CommandHandler handler, AtomicInteger hostIoWaiting,
      Runnable onShutdown) throws IOException {
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
      listener.bind(new InetSocketAddress(InetAddress.getByName(bindAddress), port), 128);
    } catch (IOException e) {
      listener.close();
      throw new IOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(), e);
    }
    this.workers = Executors.newFixedThreadPool(workerThreads, threads(name + "-worker"));
    this.pacer = Executors.newSingleThreadScheduledExecutor(threads(name + "-pacer"));
    this.acceptor = threads(name + "-accept").newThread(this::acceptLoop);
    acceptor.start();
  }

  public int port() {
    return listener.getLocalPort();
  }

  public InetAddress address() {
    return listener.getInetAddress();
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
    AtomicInteger count = new AtomicInteger();
    while (!stopping) {
      try {
        Socket socket = listener.accept();
        socket.setTcpNoDelay(true);
        Connection c = new Connection(this, socket, workers);
        connections.add(c);
        Thread t = new Thread(c, name + "-conn-" + count.incrementAndGet());
        t.setDaemon(true);
        t.start();
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

  /** A SHUTDOWN command was answered. */
  void shutdownRequested() {
    onShutdown.run();
  }

  void connectionClosed(Connection c) {
    connections.remove(c);
    store.closeHandlesOf(c);
  }

  /** Stops accepting, closes every connection, and waits for the workers to finish. */
  @Override
  public void close() throws IOException {
    stopping = true;
    listener.close();
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
