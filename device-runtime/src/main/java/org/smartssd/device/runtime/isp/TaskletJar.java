package org.smartssd.device.runtime.isp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/** A tasklet's jar, unpacked in memory: its entries by path. */
final class TaskletJar {

  /** The most a jar may unpack to, so that a small zip cannot fill the device's memory. */
  static final long MAX_UNPACKED_BYTES = 64L << 20;

  private static final byte[] ZIP_HEADER = {'P', 'K', 3, 4};

  private final Map<String, byte[]> entries;

  private TaskletJar(Map<String, byte[]> entries) {
    this.entries = Collections.unmodifiableMap(entries);
  }

  static TaskletJar read(ByteBuffer jar) throws TaskletRefusedException {
    byte[] bytes = new byte[jar.remaining()];
    jar.duplicate().get(bytes);
    if (bytes.length < ZIP_HEADER.length
        || !java.util.Arrays.equals(bytes, 0, ZIP_HEADER.length, ZIP_HEADER, 0, ZIP_HEADER.length)) {
      throw new TaskletRefusedException("the tasklet's code is not a jar: its " + bytes.length
          + " bytes do not start with a zip entry");
    }
    Map<String, byte[]> entries = new HashMap<>();
    long unpacked = 0;
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(bytes))) {
      for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        if (entry.isDirectory()) {
          continue;
        }
        byte[] content = readAtMost(in, MAX_UNPACKED_BYTES - unpacked);
        unpacked += content.length;
        if (entries.put(entry.getName(), content) != null) {
          throw new TaskletRefusedException("the tasklet's jar has two entries named " + entry.getName());
        }
      }
    } catch (IOException e) {
      throw new TaskletRefusedException("the tasklet's code is not a readable jar: " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      // ZipInputStream's word for an entry name that is not UTF-8 (and no flag says another charset).
      throw new TaskletRefusedException("the tasklet's jar is malformed: " + e.getMessage()
          + " (an entry's name is not UTF-8?)", e);
    }
    if (entries.isEmpty()) {
      throw new TaskletRefusedException("the tasklet's jar has no files");
    }
    return new TaskletJar(entries);
  }

  /** Every file of the jar, by path. */
  Map<String, byte[]> entries() {
    return entries;
  }

  /**
   * The class files a class loader can define, by binary name: outside META-INF (so not the
   * versions of a multi-release jar), module-info excluded.
   */
  SortedMap<String, byte[]> classes() {
    SortedMap<String, byte[]> classes = new TreeMap<>();
    entries.forEach((path, bytes) -> {
      if (path.endsWith(".class") && !path.startsWith("META-INF/") && !path.endsWith("module-info.class")) {
        classes.put(path.substring(0, path.length() - ".class".length()).replace('/', '.'), bytes);
      }
    });
    return classes;
  }

  private static byte[] readAtMost(InputStream in, long limit) throws IOException, TaskletRefusedException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      if (out.size() + (long) n > limit) {
        throw new TaskletRefusedException("the tasklet's jar unpacks to more than " + MAX_UNPACKED_BYTES + " bytes");
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }
}
