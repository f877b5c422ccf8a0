package org.smartssd.device.runtime.flash;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * The device's native helpers for its backing files, {@code libsmartssd-device} (built from
 * {@code src/main/c} by the Maven build unless {@code -DskipNative}, and carried in the jar under
 * {@link #RESOURCE_DIRECTORY}): punching a hole (Linux {@code fallocate} with
 * {@code FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE}) and the bytes a file takes on disk
 * ({@code st_blocks x 512}). Java 17 has neither; JNI is used rather than the foreign function API,
 * which Java 17 has only as an incubator module with another API than its final one (Java 22).
 *
 * <p>The library is loaded once per class loader, when this class is first used. When it cannot be
 * ({@code -DskipNative}, another operating system or architecture, a load error), {@link #unavailable()}
 * says why and every other method must not be called. The functions answer a negative errno on
 * failure and never throw for one: the caller decides what it means.
 */
final class NativeFiles {
  /** The library's base name: {@code libsmartssd-device.so}. */
  static final String LIBRARY = "smartssd-device";
  /** Where the library lies on the class path, per platform ({@code linux-amd64}, ...). */
  static final String RESOURCE_DIRECTORY = "org/smartssd/device/runtime/flash/native/";

  private static final Optional<String> UNAVAILABLE = load();
  /** The encoding of file names, as the JDK's own file I/O uses it. */
  private static final Charset FILE_NAME_CHARSET = fileNameCharset();

  private NativeFiles() {}

  /** Empty when the library is loaded; otherwise why it is not. */
  static Optional<String> unavailable() {
    return UNAVAILABLE;
  }

  /** Opens the file for reading and writing; the descriptor, or a negative errno. */
  static int open(Path path) {
    byte[] name = path.toAbsolutePath().toString().getBytes(FILE_NAME_CHARSET);
    return open0(name);
  }

  /**
   * Deallocates {@code length} bytes at {@code offset}, keeping the file's size: they read as zeros
   * afterwards. 0, or a negative errno.
   */
  static int punchHole(int fd, long offset, long length) {
    return punchHole0(fd, offset, length);
  }

  /** Bytes the file takes on disk, or a negative errno. */
  static long allocatedBytes(int fd) {
    return allocatedBytes0(fd);
  }

  /** What {@link #seek} answers when there is no data at or after the offset. */
  static final long NO_MORE_DATA = Long.MIN_VALUE;

  /**
   * The offset of the next byte of data ({@code data}) or of the next hole at or after {@code offset}
   * (lseek's SEEK_DATA, SEEK_HOLE); {@link #NO_MORE_DATA}; or a negative errno. A file system that
   * cannot tell answers as if the whole file were data.
   */
  static long seek(int fd, long offset, boolean data) {
    return seek0(fd, offset, data);
  }

  /** Closes the descriptor: 0, or a negative errno. */
  static int close(int fd) {
    return close0(fd);
  }

  /** Whether the errno says holes cannot be punched here at all (EOPNOTSUPP, ENOSYS), not a passing failure. */
  static boolean isUnsupported(int errno) {
    return unsupported0(errno);
  }

  /** The system's text for an errno, with its number. */
  static String describe(int errno) {
    return describe0(errno);
  }

  private static native int open0(byte[] path);

  private static native int punchHole0(int fd, long offset, long length);

  private static native long allocatedBytes0(int fd);

  private static native long seek0(int fd, long offset, boolean data);

  private static native int close0(int fd);

  private static native boolean unsupported0(int errno);

  private static native String describe0(int errno);

  private static Charset fileNameCharset() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name()));
    } catch (IllegalArgumentException e) {
      return Charset.defaultCharset();
    }
  }

  /** The platform directory the build names {@code linux-${os.arch}}. */
  static String platform() {
    String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT).replace(' ', '_');
    return os + "-" + System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
  }

  private static Optional<String> load() {
    String os = System.getProperty("os.name", "unknown");
    if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return Optional.of("punching holes needs Linux, and this is " + os);
    }
    String resource = RESOURCE_DIRECTORY + platform() + "/" + System.mapLibraryName(LIBRARY);
    ClassLoader loader = NativeFiles.class.getClassLoader();
    URL url = loader == null ? null : loader.getResource(resource);
    if (url == null) {
      return Optional.of("the native library " + resource + " is not on the class path (built with -DskipNative,"
          + " or not for " + platform() + ")");
    }
    try {
      if (url.getProtocol().equals("file")) {
        System.load(Path.of(url.toURI()).toString());
      } else {
        loadCopy(url);
      }
      return Optional.empty();
    } catch (IOException | URISyntaxException | UnsatisfiedLinkError | SecurityException e) {
      return Optional.of("the native library " + url + " did not load: " + e);
    }
  }

  /** A library inside a jar is loaded from a copy, removed at once: the loaded mapping outlives the name. */
  private static void loadCopy(URL url) throws IOException {
    Path copy = Files.createTempFile("lib" + LIBRARY + "-", ".so");
    try {
      try (InputStream in = url.openStream()) {
        Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
      }
      System.load(copy.toAbsolutePath().toString());
    } finally {
      Files.deleteIfExists(copy);
    }
  }
}
