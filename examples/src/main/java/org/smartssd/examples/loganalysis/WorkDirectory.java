package org.smartssd.examples.loganalysis;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A temporary directory of a command's (its devices' data, their logs), deleted with all it holds when closed. */
public final class WorkDirectory implements Closeable {
  private final Path path;

  private WorkDirectory(Path path) {
    this.path = path;
  }

  /** A new directory in the system's temporary directory, named with {@code prefix}. */
  public static WorkDirectory create(String prefix) throws IOException {
    return new WorkDirectory(Files.createTempDirectory(prefix));
  }

  public Path path() {
    return path;
  }

  @Override
  public void close() throws IOException {
    delete(path);
  }

  /** Deletes {@code dir} and all it holds, deepest first; nothing when it does not exist. */
  public static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
