package org.smartssd.device.runtime.objects;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.smartssd.device.protocol.Status;

/** Checks and splits device paths: absolute, '/'-separated, no empty, '.' or '..' components. */
final class PathNames {
  static final int MAX_PATH_BYTES = 4096;
  static final int MAX_NAME_BYTES = 255;

  private PathNames() {}

  /** The components of {@code path}; empty for the root. */
  static List<String> split(String path) throws StoreException {
    if (path == null || path.isEmpty() || path.charAt(0) != '/') {
      throw bad(path, "is not absolute");
    }
    if (path.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
      throw bad(path, "is longer than " + MAX_PATH_BYTES + " bytes");
    }
    if (path.indexOf('\0') >= 0) {
      throw bad(path, "contains a NUL character");
    }
    List<String> names = new ArrayList<>();
    if (path.equals("/")) {
      return names;
    }
    if (path.endsWith("/")) {
      throw bad(path, "ends with '/'");
    }
    for (String name : path.substring(1).split("/", -1)) {
      if (name.isEmpty()) {
        throw bad(path, "has an empty component");
      }
      if (name.equals(".") || name.equals("..")) {
        throw bad(path, "has a '" + name + "' component");
      }
      if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
        throw bad(path, "has a component longer than " + MAX_NAME_BYTES + " bytes");
      }
      names.add(name);
    }
    return names;
  }

  static String join(String parent, String name) {
    return parent.equals("/") ? "/" + name : parent + "/" + name;
  }

  private static StoreException bad(String path, String why) {
    return new StoreException(Status.BAD_REQUEST, "path '" + path + "' " + why);
  }
}
