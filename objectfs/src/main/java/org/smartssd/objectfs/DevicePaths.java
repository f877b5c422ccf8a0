package org.smartssd.objectfs;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.InvalidPathException;

/**
 * The device's path rules (PROTOCOL.md), checked before a request is sent so that a path the
 * device cannot store fails with a message saying why, not with a BAD_REQUEST from the device.
 */
final class DevicePaths {
  /** Keep in sync with the device: PROTOCOL.md, "Paths". */
  static final int MAX_PATH_BYTES = 4096;
  static final int MAX_NAME_BYTES = 255;

  private DevicePaths() {}

  /**
   * Checks an absolute path as Hadoop's {@code Path} normalised it (no trailing or double '/').
   *
   * @param path the path part of a qualified objfs URI ("" for the root)
   * @param uri the whole URI, for the message
   * @return the device path
   * @throws InvalidPathException naming the URI and the rule it breaks
   */
  static String check(String path, String uri) {
    String p = path.isEmpty() ? "/" : path;
    if (p.charAt(0) != '/') {
      throw new InvalidPathException(uri, "objfs paths are absolute");
    }
    if (p.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
      throw new InvalidPathException(uri, "the device stores paths of at most " + MAX_PATH_BYTES + " bytes");
    }
    if (p.indexOf('\0') >= 0) {
      throw new InvalidPathException(uri, "the device does not store a NUL character in a path");
    }
    if (p.equals("/")) {
      return p;
    }
    for (String name : p.substring(1).split("/", -1)) {
      if (name.isEmpty() || name.equals(".") || name.equals("..")) {
        throw new InvalidPathException(uri, "the device does not store a path with an empty, '.' or '..' component");
      }
      if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
        throw new InvalidPathException(uri, "the device stores names of at most " + MAX_NAME_BYTES + " bytes");
      }
    }
    return p;
  }

  /** The child {@code name} of directory {@code parent}. */
  static String join(String parent, String name) {
    return parent.equals("/") ? "/" + name : parent + "/" + name;
  }

  /** The last component ("" for the root). */
  static String name(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
