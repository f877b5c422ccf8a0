package org.smartssd.device;

import java.util.Objects;

/**
 * What the device knows of one file or directory.
 *
 * @param path absolute path on the device
 * @param directory true for a directory
 * @param length bytes in the file (0 for a directory)
 * @param modificationTimeMillis last modification, milliseconds since the epoch
 * @param objectId the device's stable id of the object; survives rename, used by {@code READ}
 */
public record ObjectStatus(String path, boolean directory, long length, long modificationTimeMillis, long objectId) {

  public ObjectStatus {
    Objects.requireNonNull(path, "path");
    if (length < 0) {
      throw new IllegalArgumentException("negative length " + length + " for " + path);
    }
  }

  /** The last path component ("" for the root). */
  public String name() {
    int slash = path.lastIndexOf('/');
    return path.substring(slash + 1);
  }
}
