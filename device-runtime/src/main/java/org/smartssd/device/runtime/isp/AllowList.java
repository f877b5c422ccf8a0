package org.smartssd.device.runtime.isp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What tasklet code may use of the classes that are not its own, read from {@code
 * tasklet-allow-list.txt} (its header gives the format and the rule for adding a line): members by
 * the class that declares them, and the classes tasklet classes may extend or implement.
 */
final class AllowList {
  static final String RESOURCE = "tasklet-allow-list.txt";

  /**
   * One line: every member (but {@code except}), or only {@code only} (names, or names followed by
   * their descriptor).
   */
  private record Entry(boolean extendable, Set<String> only, Set<String> except) {
    boolean allows(String name, String descriptor) {
      if (!only.isEmpty()) {
        return only.contains(name) || only.contains(name + descriptor);
      }
      return !except.contains("*") && !except.contains(name);
    }
  }

  /** By internal class name. */
  private final Map<String, Entry> classes;
  /** By internal package name with its final slash ({@code java/util/}). */
  private final Map<String, Entry> packages;

  private AllowList(Map<String, Entry> classes, Map<String, Entry> packages) {
    this.classes = classes;
    this.packages = packages;
  }

  /** The device's allow list. */
  static AllowList load() {
    try (InputStream in = AllowList.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the device's classes");
      }
      return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  static AllowList parse(BufferedReader text) throws IOException {
    Map<String, Entry> classes = new HashMap<>();
    Map<String, Entry> packages = new HashMap<>();
    int number = 0;
    for (String line = text.readLine(); line != null; line = text.readLine()) {
      number++;
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      String[] words = trimmed.split("\\s+");
      String target = words[0];
      boolean extendable = target.startsWith("+");
      if (extendable) {
        target = target.substring(1);
      }
      Set<String> only = new HashSet<>();
      Set<String> except = new HashSet<>();
      for (int i = 1; i < words.length; i++) {
        if (words[i].startsWith("-")) {
          except.add(words[i].substring(1));
        } else {
          only.add(words[i]);
        }
      }
      if (!only.isEmpty() && !except.isEmpty()) {
        throw new IllegalStateException(RESOURCE + " line " + number + ": names members both to allow and to leave out");
      }
      Entry entry = new Entry(extendable, Set.copyOf(only), Set.copyOf(except));
      if (target.endsWith(".*")) {
        packages.put(target.substring(0, target.length() - 1).replace('.', '/'), entry);
      } else if (classes.put(target.replace('.', '/'), entry) != null) {
        throw new IllegalStateException(RESOURCE + " line " + number + ": " + target + " is listed twice");
      }
    }
    return new AllowList(Map.copyOf(classes), Map.copyOf(packages));
  }

  private Entry entry(String internalName) {
    Entry e = classes.get(internalName);
    if (e == null) {
      int slash = internalName.lastIndexOf('/');
      e = packages.get(internalName.substring(0, slash + 1));
    }
    return e;
  }

  /** Whether tasklet code may use the member {@code declaring} declares. */
  boolean allows(String declaring, String name, String descriptor) {
    Entry e = entry(declaring);
    return e != null && e.allows(name, descriptor);
  }

  /** Whether tasklet classes may extend or implement {@code internalName}. */
  boolean extendable(String internalName) {
    Entry e = entry(internalName);
    return e != null && e.extendable();
  }
}
