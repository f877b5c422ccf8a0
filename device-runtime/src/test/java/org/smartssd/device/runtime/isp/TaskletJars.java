package org.smartssd.device.runtime.isp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.tasklet.Tasklet;

/** Tasklet jars built in the test: Java sources compiled with the JDK's compiler, zipped in memory. */
final class TaskletJars {

  private TaskletJars() {}

  /**
   * Compiles the sources (binary class name to source) against the tasklet API and the device's
   * own classes, into {@code dir}.
   *
   * @return the class files, by jar entry path ({@code t/good/GoodTasklet.class})
   */
  static Map<String, byte[]> compile(Path dir, Map<String, String> sources) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "these tests need a JDK's compiler");
    Path src = dir.resolve("src");
    Path out = Files.createDirectories(dir.resolve("classes"));
    List<Path> files = new ArrayList<>();
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      files.add(Files.writeString(file, source.getValue()));
    }
    String classPath = location(Tasklet.class) + File.pathSeparator + location(SimulatedDevice.class);
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fileManager = javac.getStandardFileManager(diagnostics, null, UTF_8)) {
      boolean compiled = javac.getTask(null, fileManager, diagnostics,
          List.of("--release", "17", "-proc:none", "-classpath", classPath, "-d", out.toString()),
          null, fileManager.getJavaFileObjectsFromPaths(files)).call();
      if (!compiled) {
        fail("test tasklets do not compile: " + diagnostics.getDiagnostics());
      }
    }
    Map<String, byte[]> classes = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(out)) {
      walk.filter(Files::isRegularFile).forEach(file -> {
        try {
          classes.put(out.relativize(file).toString().replace(File.separatorChar, '/'), Files.readAllBytes(file));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    return classes;
  }

  /** The entries under a folder ({@code "t/good/"}). */
  static Map<String, byte[]> under(Map<String, byte[]> entries, String folder) {
    Map<String, byte[]> selected = new TreeMap<>();
    entries.forEach((path, bytes) -> {
      if (path.startsWith(folder)) {
        selected.put(path, bytes);
      }
    });
    if (selected.isEmpty()) {
      fail("no compiled classes under " + folder);
    }
    return selected;
  }

  /** A jar of these entries, with a manifest. */
  static ByteBuffer jar(Map<String, byte[]> entries) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (JarOutputStream out = new JarOutputStream(bytes, manifest)) {
      for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
        out.putNextEntry(new JarEntry(entry.getKey()));
        out.write(entry.getValue());
        out.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ByteBuffer.wrap(bytes.toByteArray());
  }

  private static String location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
