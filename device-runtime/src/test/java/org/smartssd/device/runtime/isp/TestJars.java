package org.smartssd.device.runtime.isp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** Packs compiled test classes (with their nested classes) into a jar, as a host would upload it. */
public final class TestJars {
  private TestJars() {}

  public static ByteBuffer of(Class<?>... classes) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(bytes)) {
      for (Class<?> c : classes) {
        Path file = classFile(c);
        String prefix = c.getSimpleName();
        try (Stream<Path> siblings = Files.list(file.getParent())) {
          for (Path f : (Iterable<Path>) siblings::iterator) {
            String name = f.getFileName().toString();
            if (name.equals(prefix + ".class") || name.startsWith(prefix + "$")) {
              jar.putNextEntry(new JarEntry(c.getPackageName().replace('.', '/') + "/" + name));
              try (InputStream in = Files.newInputStream(f)) {
                in.transferTo(jar);
              }
              jar.closeEntry();
            }
          }
        }
      }
    }
    return ByteBuffer.wrap(bytes.toByteArray());
  }

  private static Path classFile(Class<?> c) throws IOException {
    try {
      return Path.of(c.getResource(c.getSimpleName() + ".class").toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
  }
}
