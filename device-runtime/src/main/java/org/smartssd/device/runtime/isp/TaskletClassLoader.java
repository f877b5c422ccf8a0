package org.smartssd.device.runtime.isp;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import org.smartssd.opcount.Instrumenter;

/**
 * The class loader of one installed tasklet: its own classes from its jar's bytes, the Java
 * platform's, and the device's only in the shared packages (the tasklet API, so that a tasklet's
 * {@code Tasklet} is the engine's). Nothing else of the device, and nothing of other tasklets.
 */
final class TaskletClassLoader extends ClassLoader {
  /** How a tasklet's loader's name begins (the tasklet's name follows). */
  static final String NAME_PREFIX = "tasklet:";

  static {
    registerAsParallelCapable();
  }

  private final Map<String, byte[]> entries;
  /**
   * The internal names of the jar's classes the device checked: the only ones this loader defines. A
   * class file the check did not read (under {@code META-INF/}, named like {@code module-info}) is
   * never defined, whatever asks for it by name.
   */
  private final java.util.Set<String> checked;
  private final List<String> sharedPackages;
  private final ClassLoader deviceLoader;
  /** Counts the work of the jar's classes as they are defined; null when not counting. */
  private final Instrumenter instrumenter;

  /**
   * @param entries the jar's files by path
   * @param checked the internal names of the classes the device checked, the only ones defined
   * @param sharedPackages package prefixes, dotted and ending with a dot
   * @param deviceLoader where the shared packages' classes come from
   * @param instrumenter rewrites the jar's classes to count their work, or null
   */
  TaskletClassLoader(String taskletName, Map<String, byte[]> entries, java.util.Set<String> checked,
      List<String> sharedPackages, ClassLoader deviceLoader, Instrumenter instrumenter) {
    super(NAME_PREFIX + taskletName, getPlatformClassLoader());
    this.entries = entries;
    this.checked = java.util.Set.copyOf(checked);
    this.sharedPackages = sharedPackages;
    this.deviceLoader = deviceLoader;
    this.instrumenter = instrumenter;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      Class<?> type = findLoadedClass(name);
      if (type == null) {
        type = shared(name) ? deviceLoader.loadClass(name) : platformOrOwn(name);
      }
      if (resolve) {
        resolveClass(type);
      }
      return type;
    }
  }

  private Class<?> platformOrOwn(String name) throws ClassNotFoundException {
    try {
      return getParent().loadClass(name);
    } catch (ClassNotFoundException notPlatform) {
      return findClass(name);
    }
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] bytes = checked.contains(name.replace('.', '/')) ? entries.get(name.replace('.', '/') + ".class") : null;
    if (bytes == null) {
      throw new ClassNotFoundException(name + " is not in the tasklet's jar, the Java platform or the device's "
          + "packages shared with tasklets " + sharedPackages);
    }
    if (instrumenter != null) {
      try {
        bytes = instrumenter.instrument(bytes);
      } catch (IllegalArgumentException e) {
        throw new ClassNotFoundException(name + " cannot be counted: " + e.getMessage(), e);
      }
    }
    return defineClass(name, bytes, 0, bytes.length);
  }

  @Override
  protected URL findResource(String name) {
    byte[] bytes = entries.get(name);
    if (bytes == null) {
      return null;
    }
    try {
      return new URL("tasklet", null, -1, "/" + name, new InMemory(bytes));
    } catch (MalformedURLException e) {
      return null;
    }
  }

  @Override
  protected Enumeration<URL> findResources(String name) {
    URL url = findResource(name);
    return url == null ? Collections.emptyEnumeration() : Collections.enumeration(List.of(url));
  }

  private boolean shared(String name) {
    for (String prefix : sharedPackages) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** Opens a jar entry held in memory. */
  private static final class InMemory extends URLStreamHandler {
    private final byte[] bytes;

    InMemory(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    protected URLConnection openConnection(URL url) {
      return new URLConnection(url) {
        @Override
        public void connect() {}

        @Override
        public InputStream getInputStream() {
          return new ByteArrayInputStream(bytes);
        }

        @Override
        public long getContentLengthLong() {
          return bytes.length;
        }
      };
    }
  }
}
