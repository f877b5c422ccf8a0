package org.smartssd.device.client;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a device listens: a TCP {@code host:port}, or a Unix domain socket. A TCP address has a
 * host and a port and no {@code unixSocket} (null); a Unix one has only {@code unixSocket}, an
 * absolute path, with a null host and port 0. {@code new DeviceAddress(host, port)} makes a TCP
 * address, {@link #unix} a Unix one.
 *
 * <p>{@link #toString()} gives {@code host:port} ({@code [v6]:port} for an IPv6 literal) or
 * {@code unix:/path}, the form exceptions use to name the device and {@link #parse} accepts.
 */
public record DeviceAddress(String host, int port, Path unixSocket) {
  /** What {@link #parse} and {@link #toString()} put before a Unix domain socket's path. */
  public static final String UNIX_PREFIX = "unix:";

  public DeviceAddress {
    if (unixSocket != null) {
      if (host != null || port != 0) {
        throw new IllegalArgumentException("a Unix domain socket address has no host or port: " + host + ":" + port
            + " and " + UNIX_PREFIX + unixSocket);
      }
      if (!unixSocket.isAbsolute()) {
        throw new IllegalArgumentException("Unix domain socket path '" + unixSocket + "' is not absolute");
      }
    } else {
      Objects.requireNonNull(host, "host");
      if (host.isEmpty()) {
        throw new IllegalArgumentException("device address without a host");
      }
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("device port " + port + " is not in 1..65535");
      }
    }
  }

  /** A TCP address. */
  public DeviceAddress(String host, int port) {
    this(host, port, null);
  }

  /** The address of a Unix domain socket; {@code socket} must be absolute. */
  public static DeviceAddress unix(Path socket) {
    return new DeviceAddress(null, 0, Objects.requireNonNull(socket, "socket"));
  }

  /** Whether this is a Unix domain socket (then {@link #unixSocket()} is its path), else TCP. */
  public boolean isUnix() {
    return unixSocket != null;
  }

  /**
   * Parses {@code host:port}, with an IPv6 literal in brackets ({@code [::1]:7070}), or
   * {@code unix:/absolute/path} for a Unix domain socket.
   *
   * @throws IllegalArgumentException naming the text when the host, port or path is missing or invalid
   */
  public static DeviceAddress parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.startsWith(UNIX_PREFIX)) {
      return parseUnix(text);
    }
    String host;
    String port;
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0 || !text.startsWith(":", close + 1)) {
        throw bad(text, "expected [ipv6]:port");
      }
      host = text.substring(1, close);
      port = text.substring(close + 2);
    } else {
      int colon = text.lastIndexOf(':');
      if (colon < 0) {
        throw bad(text, "no port");
      }
      host = text.substring(0, colon);
      port = text.substring(colon + 1);
      if (host.indexOf(':') >= 0) {
        throw bad(text, "an IPv6 address must be in brackets, as in [::1]:7070");
      }
    }
    if (host.isEmpty()) {
      throw bad(text, "no host");
    }
    if (port.isEmpty()) {
      throw bad(text, "no port");
    }
    int number;
    try {
      number = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw bad(text, "port '" + port + "' is not a number");
    }
    if (number < 1 || number > 65535) {
      throw bad(text, "port " + number + " is not in 1..65535");
    }
    return new DeviceAddress(host, number);
  }

  private static DeviceAddress parseUnix(String text) {
    String path = text.substring(UNIX_PREFIX.length());
    if (path.isEmpty()) {
      throw bad(text, "no socket path; expected " + UNIX_PREFIX + "/absolute/path");
    }
    Path socket;
    try {
      socket = Path.of(path);
    } catch (InvalidPathException e) {
      throw bad(text, "'" + path + "' is not a valid path: " + e.getReason());
    }
    if (!socket.isAbsolute()) {
      throw bad(text, "the socket path '" + path + "' is not absolute; expected " + UNIX_PREFIX + "/absolute/path");
    }
    return unix(socket);
  }

  private static IllegalArgumentException bad(String text, String problem) {
    return new IllegalArgumentException("bad device address '" + text + "': " + problem);
  }

  @Override
  public String toString() {
    if (unixSocket != null) {
      return UNIX_PREFIX + unixSocket;
    }
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
