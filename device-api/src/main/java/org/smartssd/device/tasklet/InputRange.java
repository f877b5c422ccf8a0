package org.smartssd.device.tasklet;

import java.util.Objects;

/**
 * A byte range of an object to execute over. With a record format, the records whose first byte
 * lies in the range are processed; the last one is read past the range's end when needed, so that
 * adjacent ranges process every record exactly once (as Hadoop's input splits do).
 *
 * @param path the object's path on the device
 * @param offset first byte of the range
 * @param length bytes in the range; {@link #TO_END} for the rest of the object
 */
public record InputRange(String path, long offset, long length) {
  public static final long TO_END = -1;

  public InputRange {
    Objects.requireNonNull(path, "path");
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset + " for " + path);
    }
    if (length < 0 && length != TO_END) {
      throw new IllegalArgumentException("negative length " + length + " for " + path);
    }
  }

  /** The whole object. */
  public static InputRange whole(String path) {
    return new InputRange(path, 0, TO_END);
  }
}
