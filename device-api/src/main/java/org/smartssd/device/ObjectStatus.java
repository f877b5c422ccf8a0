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
 * @param owner the user who owns it; empty from a device of protocol version 3 or older, which
 *     keeps no owners
 * @param group its group; empty from a device of protocol version 3 or older
 * @param permission its mode: the sticky bit ({@code 01000}) and read, write and execute for the
 *     owner, the group and others ({@code 0777}); {@link #UNKNOWN_PERMISSION} from a device of
 *     protocol version 3 or older
 * @param accessTimeMillis last access, milliseconds since the epoch (as precise as the device's
 *     {@code smartssd.device.meta.access-time-precision-ms}); from a device of protocol version 3 or
 *     older, the modification time
 */
public record ObjectStatus(String path, boolean directory, long length, long modificationTimeMillis, long objectId,
    String owner, String group, int permission, long accessTimeMillis) {

  /** The bits a permission may have: the sticky bit and rwx for owner, group and others. */
  public static final int PERMISSION_BITS = 01777;
  /** The permission of an object from a device that keeps none (protocol version 3 or older). */
  public static final int UNKNOWN_PERMISSION = -1;

  public ObjectStatus {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(group, "group");
    if (length < 0) {
      throw new IllegalArgumentException("negative length " + length + " for " + path);
    }
    if (permission != UNKNOWN_PERMISSION && (permission & ~PERMISSION_BITS) != 0) {
      throw new IllegalArgumentException("permission " + Integer.toOctalString(permission) + " of " + path
          + " has bits beyond " + Integer.toOctalString(PERMISSION_BITS));
    }
  }

  /** The status as a device of protocol version 3 or older reports it: no owner, group or permission. */
  public ObjectStatus(String path, boolean directory, long length, long modificationTimeMillis, long objectId) {
    this(path, directory, length, modificationTimeMillis, objectId, "", "", UNKNOWN_PERMISSION,
        modificationTimeMillis);
  }

  /** Whether the device reported an owner, a group and a permission (protocol version 4 on). */
  public boolean hasPermission() {
    return permission != UNKNOWN_PERMISSION;
  }

  /** The last path component ("" for the root). */
  public String name() {
    int slash = path.lastIndexOf('/');
    return path.substring(slash + 1);
  }
}
