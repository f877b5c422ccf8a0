package org.smartssd.device.client;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Objects;

/**
 * The client's connection to a device as a pair of blocking streams: a TCP socket, or a Unix
 * domain socket. {@link SocketDeviceClient} reads from one thread and writes from its callers'
 * threads (one at a time), and closes from any thread, which fails a read or write in progress.
 * Neither kind reacts to interrupts (as {@link Socket}'s streams do not): a caller interrupted
 * while its frame is being written does not break the connection for the others.
 */
abstract class StreamSocket implements Closeable {

  abstract InputStream input();

  abstract OutputStream output();

  /** Closes the connection; a read or write blocked on it fails. Idempotent. */
  @Override
  public abstract void close() throws IOException;

  /** Connects to {@code address}, giving up with a {@link SocketTimeoutException} after {@code timeout}. */
  static StreamSocket connect(DeviceAddress address, Duration timeout) throws IOException {
    return address.isUnix() ? Unix.connect(address, timeout) : Tcp.connect(address, timeout);
  }

  /** Closes what a failed connect opened, keeping a failure to close with the first one. */
  private static void closeAfter(Exception failure, Closeable... opened) {
    for (Closeable c : opened) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (IOException e) {
        failure.addSuppressed(e);
      }
    }
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
  }

  /** TCP: {@link Socket}'s own streams. */
  private static final class Tcp extends StreamSocket {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private Tcp(Socket socket) throws IOException {
      this.socket = socket;
      this.in = socket.getInputStream();
      this.out = socket.getOutputStream();
    }

    static Tcp connect(DeviceAddress address, Duration timeout) throws IOException {
      Socket socket = new Socket();
      try {
        socket.setTcpNoDelay(true);
        socket.setKeepAlive(true);
        socket.connect(new InetSocketAddress(address.host(), address.port()), millis(timeout));
        return new Tcp(socket);
      } catch (IOException | RuntimeException e) {
        closeAfter(e, socket);
        throw e;
      }
    }

    @Override
    InputStream input() {
      return in;
    }

    @Override
    OutputStream output() {
      return out;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  /**
   * A Unix domain socket: a {@link SocketChannel} in non-blocking mode, each direction waiting on a
   * selector of its own. (A blocking channel would be closed by an interrupt of whichever thread is
   * reading or writing it, and {@code Channels.newInputStream} and {@code newOutputStream} of one
   * channel block each other.) A Unix domain connect completes at once or fails: when the device's
   * backlog of connections not yet accepted is full it fails ("Resource temporarily unavailable")
   * where a TCP connect would wait.
   */
  private static final class Unix extends StreamSocket {
    private final SocketChannel channel;
    private final Selector readable;
    private final Selector writable;
    private final InputStream in = new In();
    private final OutputStream out = new Out();

    private Unix(SocketChannel channel, Selector readable, Selector writable) {
      this.channel = channel;
      this.readable = readable;
      this.writable = writable;
    }

    static Unix connect(DeviceAddress address, Duration timeout) throws IOException {
      SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
      Selector readable = null;
      Selector writable = null;
      try {
        channel.configureBlocking(false);
        readable = Selector.open();
        writable = Selector.open();
        channel.register(readable, SelectionKey.OP_READ);
        SelectionKey key = channel.register(writable, SelectionKey.OP_CONNECT);
        if (!channel.connect(UnixDomainSocketAddress.of(address.unixSocket()))) {
          finishConnect(channel, writable, timeout);
        }
        key.interestOps(SelectionKey.OP_WRITE);
        return new Unix(channel, readable, writable);
      } catch (IOException | RuntimeException e) {
        closeAfter(e, channel, readable, writable);
        throw e;
      }
    }

    private static void finishConnect(SocketChannel channel, Selector selector, Duration timeout) throws IOException {
      long deadline = System.nanoTime() + timeout.toNanos();
      boolean interrupted = false;
      try {
        while (!channel.finishConnect()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw new SocketTimeoutException("connect timed out after " + timeout.toMillis() + " ms");
          }
          interrupted |= Thread.interrupted();
          selector.select(Math.max(1, left / 1_000_000));
          selector.selectedKeys().clear();
        }
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }

    /** Waits until the channel may be ready; an interrupt of the caller is kept for later. */
    private static boolean await(Selector selector) throws IOException {
      boolean interrupted = Thread.interrupted();
      try {
        selector.select();
        selector.selectedKeys().clear();
      } catch (ClosedSelectorException e) {
        throw new AsynchronousCloseException();
      }
      return interrupted;
    }

    @Override
    InputStream input() {
      return in;
    }

    @Override
    OutputStream output() {
      return out;
    }

    @Override
    public void close() throws IOException {
      try {
        channel.close();
      } finally {
        // Wakes a reader or writer waiting on them, which then finds the channel closed.
        closeAll(readable, writable);
      }
    }

    private static void closeAll(Selector... selectors) throws IOException {
      IOException failed = null;
      for (Selector s : selectors) {
        try {
          if (s != null) {
            s.close();
          }
        } catch (IOException e) {
          failed = e;
        }
      }
      if (failed != null) {
        throw failed;
      }
    }

    private final class In extends InputStream {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
          return 0;
        }
        ByteBuffer dst = ByteBuffer.wrap(b, off, len);
        boolean interrupted = false;
        try {
          while (true) {
            int n = channel.read(dst);
            if (n != 0) {
              return n; // -1 at the end of the stream
            }
            interrupted |= await(readable);
          }
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
      }
    }

    private final class Out extends OutputStream {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ByteBuffer src = ByteBuffer.wrap(b, off, len);
        boolean interrupted = false;
        try {
          while (src.hasRemaining()) {
            if (channel.write(src) == 0) {
              interrupted |= await(writable);
            }
          }
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
      }
    }
  }
}
