package org.smartssd.device.runtime.host;

import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.client.DeviceAddress;

/**
 * The host interface's Unix domain socket: creates the socket file (replacing one a dead device
 * left), accepts connections on it, and removes the file when closed.
 */
final class UnixSocketListener implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(UnixSocketListener.class);
  /** File type bits of {@code unix:mode}, and the type of a socket. */
  private static final int S_IFMT = 0170000;
  private static final int S_IFSOCK = 0140000;

  private final Path path;
  private final ServerSocketChannel channel;
  /** The file as bound, so that close removes it only if it is still this one. */
  private final Object fileKey;

  private UnixSocketListener(Path path, ServerSocketChannel channel, Object fileKey) {
    this.path = path;
    this.channel = channel;
    this.fileKey = fileKey;
  }

  /**
   * Creates the socket file at {@code path} and listens on it. A socket file nothing listens on
   * (left by a device that was killed) is replaced.
   *
   * @throws IOException "cannot listen on unix:PATH: reason" when the path is relative or too long,
   *     its directory is missing, it is something else than a socket, or a device listens on it
   */
  static UnixSocketListener bind(Path path, int backlog) throws IOException {
    if (!path.isAbsolute()) {
      throw new IOException("cannot listen on unix:" + path + ": the path is not absolute");
    }
    String where = DeviceAddress.unix(path).toString();
    int bytes = path.toString().getBytes(StandardCharsets.UTF_8).length;
    if (bytes > DeviceServer.UNIX_PATH_MAX_BYTES) {
      throw new IOException("cannot listen on " + where + ": the path is " + bytes
          + " bytes long; a Unix domain socket path may have at most " + DeviceServer.UNIX_PATH_MAX_BYTES
          + " bytes; choose a shorter one");
    }
    Path directory = path.getParent();
    if (directory == null || !Files.isDirectory(directory)) {
      throw new IOException("cannot listen on " + where + ": directory " + directory + " does not exist");
    }
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      removeStale(path, where);
    }
    ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    Object fileKey;
    try {
      bindOwnerOnly(channel, path, backlog);
      fileKey = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    } catch (IOException e) {
      channel.close();
      throw new IOException("cannot listen on " + where + ": " + e.getMessage(), e);
    }
    return new UnixSocketListener(path, channel, fileKey);
  }

  /**
   * Binds {@code channel} to {@code path} with a socket file of mode 0600 (only the device's user may
   * connect): bound in a new directory of mode 0700 beside it, made 0600 there, then renamed into
   * place, so that the file is never reachable with a wider mode. Where that directory's path would
   * be too long for a socket, the file is bound in place and made 0600 at once, before the device
   * accepts on it.
   */
  private static void bindOwnerOnly(ServerSocketChannel channel, Path path, int backlog) throws IOException {
    Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
    boolean posix = path.getParent().getFileSystem().supportedFileAttributeViews().contains("posix");
    if (!posix) {
      channel.bind(UnixDomainSocketAddress.of(path), backlog);
      return;
    }
    Path staging = path.getParent().resolve(".smartssd-" + Long.toHexString(System.nanoTime() & 0xFFFFFFFFL));
    Path temporary = staging.resolve("s");
    if (temporary.toString().getBytes(StandardCharsets.UTF_8).length > DeviceServer.UNIX_PATH_MAX_BYTES) {
      channel.bind(UnixDomainSocketAddress.of(path), backlog);
      Files.setPosixFilePermissions(path, ownerOnly);
      return;
    }
    Files.createDirectory(staging, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try {
      channel.bind(UnixDomainSocketAddress.of(temporary), backlog);
      Files.setPosixFilePermissions(temporary, ownerOnly);
      Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
      Files.deleteIfExists(staging);
    }
  }

  /** Removes a socket file nothing listens on; refuses anything else. */
  private static void removeStale(Path path, String where) throws IOException {
    if (!isSocket(path)) {
      throw new IOException("cannot listen on " + where + ": " + path
          + " exists and is not a socket; remove it or choose another path");
    }
    try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      probe.connect(UnixDomainSocketAddress.of(path));
    } catch (ConnectException e) {
      LOG.info("removing {}: a socket nothing listens on, left by a device that stopped without closing", path);
      Files.delete(path);
      return;
    } catch (IOException e) {
      throw new IOException("cannot listen on " + where + ": " + path + " exists, and connecting to it failed: "
          + e.getMessage(), e);
    }
    throw new IOException("cannot listen on " + where + ": another device is listening on it");
  }

  private static boolean isSocket(Path path) throws IOException {
    try {
      int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      return (mode & S_IFMT) == S_IFSOCK;
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // No "unix" attribute view: a socket is at least neither a file, a directory nor a link.
      return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther();
    }
  }

  Path path() {
    return path;
  }

  /** The next connection, a blocking channel. */
  SocketChannel accept() throws IOException {
    return channel.accept();
  }

  /** Stops accepting and removes the socket file, unless another socket has taken its place. */
  @Override
  public void close() throws IOException {
    try {
      channel.close();
    } finally {
      removeFile();
    }
  }

  private void removeFile() {
    try {
      Object now = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
      if (fileKey != null && !fileKey.equals(now)) {
        LOG.warn("{} is no longer this device's socket; it is left in place", path);
        return;
      }
      Files.delete(path);
    } catch (NoSuchFileException e) {
      LOG.debug("{} was already removed", path);
    } catch (IOException e) {
      LOG.warn("cannot remove the socket file {}: {}", path, e.toString());
    }
  }
}
