package org.smartssd.device.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.smartssd.device.runtime.host.DeviceServer;

/**
 * Where a test puts Unix domain sockets: its own temporary directory when socket paths in it are
 * short enough ({@link DeviceServer#UNIX_PATH_MAX_BYTES}), else a short directory made under
 * {@code /tmp}, which {@link #close()} deletes.
 */
public final class SocketDirectory implements AutoCloseable {
  /** Bytes kept for the socket's own name. */
  private static final int NAME_ROOM = 32;

  private final Path directory;
  private final boolean own;

  private SocketDirectory(Path directory, boolean own) {
    this.directory = directory;
    this.own = own;
  }

  public static SocketDirectory in(Path tempDir) throws IOException {
    Path candidate = tempDir.toAbsolutePath();
    if (candidate.toString().getBytes(StandardCharsets.UTF_8).length + NAME_ROOM <= DeviceServer.UNIX_PATH_MAX_BYTES) {
      return new SocketDirectory(candidate, false);
    }
    return new SocketDirectory(Files.createTempDirectory(Path.of("/tmp"), "ssd"), true);
  }

  /** A socket path in the directory; {@code name} at most 32 bytes. */
  public Path socket(String name) {
    return directory.resolve(name);
  }

  @Override
  public void close() throws IOException {
    if (!own) {
      return;
    }
    List<Path> all;
    try (Stream<Path> walk = Files.walk(directory)) {
      all = walk.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path p : all) {
      Files.deleteIfExists(p);
    }
  }
}
