package org.smartssd.device.runtime.isp;

import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * Tasklets loaded from jars, kept by the jar's SHA-256 and the class name
 * ({@code smartssd.device.isp.loaded-code-entries}), so that installing the same code again reuses
 * its classes: the JVM keeps the machine code it compiled for them, where new classes would be
 * interpreted, profiled and compiled again at every install (a MapReduce job installs its tasklet
 * once a job; before this, the device's JIT compiler used about a third as much CPU as the lanes
 * during each job of the log analysis). As in a JVM that Hadoop reuses for several tasks, the
 * classes' static fields keep their values from one install to the next.
 *
 * <p>An execution that fails or is stopped drops its tasklet's entry ({@link #forget}): a class
 * whose initializer did not finish, or whose static state a failure left half-made, is never handed
 * to a later install. The least recently used entry goes first when more are kept than the bound.
 */
final class LoadedCode {
  private final int capacity;
  private final LinkedHashMap<String, LoadedTasklet> entries = new LinkedHashMap<>(16, 0.75f, true);

  LoadedCode(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("negative capacity " + capacity);
    }
    this.capacity = capacity;
  }

  /** The key of a class in a jar of this SHA-256. */
  static String key(String digest, String className) {
    return digest + " " + className;
  }

  /** The tasklet loaded under this key, or null. */
  synchronized LoadedTasklet get(String key) {
    return entries.get(key);
  }

  /** Keeps {@code tasklet} under {@code key}, the least recently used going past the bound. */
  synchronized void put(String key, LoadedTasklet tasklet) {
    if (capacity == 0) {
      return;
    }
    entries.put(key, tasklet);
    Iterator<LoadedTasklet> oldest = entries.values().iterator();
    while (entries.size() > capacity && oldest.hasNext()) {
      oldest.next();
      oldest.remove();
    }
  }

  /** Drops every entry holding {@code tasklet}'s classes. */
  synchronized void forget(LoadedTasklet tasklet) {
    entries.values().removeIf(t -> t == tasklet);
  }

  synchronized int size() {
    return entries.size();
  }
}
