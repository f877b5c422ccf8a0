package org.smartssd.device.runtime.isp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
        URI uri = classFile(c);
        if ("jar".equals(uri.getScheme())) { // from the test jar, in the modules above this one
          FileSystem zip;
          boolean opened = false;
          try {
            zip = FileSystems.newFileSystem(uri, Map.of());
            opened = true;
          } catch (FileSystemAlreadyExistsException e) {
            zip = FileSystems.getFileSystem(uri);
          }
          try {
            add(jar, c, zip.provider().getPath(uri));
          } finally {
            if (opened) {
              zip.close();
            }
          }
        } else {
          add(jar, c, Path.of(uri));
        }
      }
    }
    return ByteBuffer.wrap(bytes.toByteArray());
  }

  /** The class file and those of its nested classes, beside it. */
  private static void add(JarOutputStream jar, Class<?> c, Path file) throws IOException {
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

  private static URI classFile(Class<?> c) throws IOException {
    try {
      return c.getResource(c.getSimpleName() + ".class").toURI();
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
  }
}
