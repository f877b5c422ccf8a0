package org.smartssd.device.runtime.host;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * One host connection's byte streams, whatever carries them: a TCP socket or a Unix domain socket.
 * A {@link Connection} reads on its own thread and writes from the workers (one at a time), and
 * closing it fails a read or write in progress.
 */
abstract class HostSocket implements Closeable {
  private final String peer;

  private HostSocket(String peer) {
    this.peer = peer;
  }

  /** Who is at the other end, for logs. */
  final String peer() {
    return peer;
  }

  abstract InputStream input() throws IOException;

  abstract OutputStream output() throws IOException;

  static HostSocket of(Socket socket) {
    return new Tcp(socket);
  }

  /** A connected Unix domain socket channel, in blocking mode; {@code peer} names it in logs. */
  static HostSocket of(SocketChannel channel, String peer) {
    return new Unix(channel, peer);
  }

  private static final class Tcp extends HostSocket {
    private final Socket socket;

    Tcp(Socket socket) {
      super(String.valueOf(socket.getRemoteSocketAddress()));
      this.socket = socket;
    }

    @Override
    InputStream input() throws IOException {
      return socket.getInputStream();
    }

    @Override
    OutputStream output() throws IOException {
      return socket.getOutputStream();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  /**
   * Streams straight over the channel: {@code Channels.newInputStream} and {@code newOutputStream}
   * would hold the channel's blocking lock while reading, so a worker could not answer until the
   * next request arrived. The channel reads and writes on different threads at once by itself.
   * (A worker interrupted mid-write would close the channel; the device never interrupts them.)
   */
  private static final class Unix extends HostSocket {
    private final SocketChannel channel;

    Unix(SocketChannel channel, String peer) {
      super(peer);
      this.channel = channel;
    }

    @Override
    InputStream input() {
      return new InputStream() {
        @Override
        public int read() throws IOException {
          byte[] one = new byte[1];
          int n = read(one, 0, 1);
          return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          Objects.checkFromIndexSize(off, len, b.length);
          return len == 0 ? 0 : channel.read(ByteBuffer.wrap(b, off, len));
        }
      };
    }

    @Override
    OutputStream output() {
      return new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          Objects.checkFromIndexSize(off, len, b.length);
          ByteBuffer src = ByteBuffer.wrap(b, off, len);
          while (src.hasRemaining()) {
            channel.write(src);
          }
        }
      };
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
