package org.smartssd.jni;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * Loads {@code libsmartssd} once per class loader: first from {@code java.library.path} ({@code
 * System.loadLibrary("smartssd")}), then from this jar (copied to a temporary file, deleted when
 * the JVM exits). When neither works, {@link #unavailable()} says why, with both reasons.
 */
public final class NativeLibrary {
  /** The library's base name: {@code libsmartssd.so}. */
  public static final String NAME = "smartssd";

  private static final Object LOCK = new Object();
  private static volatile Optional<String> state;
  /** Where the library was loaded from: {@code java.library.path} or {@code jar}; null until it is. */
  private static volatile String origin;

  private NativeLibrary() {}

  /** The directory of this platform's library inside the jar, e.g. {@code org/smartssd/jni/native/linux-amd64}. */
  public static String resourceDirectory() {
    String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT).replace(' ', '_');
    String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
    return "org/smartssd/jni/native/" + os + "-" + arch;
  }

  /** Loads the library if it is not loaded yet; empty when it is loaded, otherwise why it cannot be. */
  public static Optional<String> unavailable() {
    Optional<String> s = state;
    if (s == null) {
      synchronized (LOCK) {
        s = state;
        if (s == null) {
          s = load();
          state = s;
        }
      }
    }
    return s;
  }

  /** Where the loaded library came from: {@code java.library.path} or {@code jar}; null when none loaded. */
  public static String origin() {
    unavailable();
    return origin;
  }

  /** Loads the library or throws, naming why. */
  static void ensureLoaded() {
    Optional<String> why = unavailable();
    if (why.isPresent()) {
      throw new UnsatisfiedLinkError("lib" + NAME + " is not available: " + why.get());
    }
  }

  private static Optional<String> load() {
    String fromPath;
    try {
      System.loadLibrary(NAME);
      origin = "java.library.path";
      return Optional.empty();
    } catch (UnsatisfiedLinkError | SecurityException e) {
      fromPath = "not on java.library.path (" + e.getMessage() + ")";
    }
    String resource = resourceDirectory() + "/" + System.mapLibraryName(NAME);
    try (InputStream in = NativeLibrary.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return Optional.of(fromPath + "; not in the jar either (no " + resource + ": built with -DskipNative,"
            + " or not for this platform)");
      }
      Path file = Files.createTempFile("lib" + NAME + "-", ".so");
      file.toFile().deleteOnExit();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      System.load(file.toAbsolutePath().toString());
      origin = "jar";
      return Optional.empty();
    } catch (IOException | UnsatisfiedLinkError | SecurityException e) {
      return Optional.of(fromPath + "; the jar's " + resource + " did not load: " + e.getMessage());
    }
  }
}
