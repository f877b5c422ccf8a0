package org.smartssd.device.runtime.objects;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.smartssd.device.protocol.Status;

/**
 * Who passes the device's permission checks, and how it keeps access times: HDFS's rules
 * ({@code dfs.permissions.enabled}, {@code dfs.permissions.superusergroup},
 * {@code dfs.namenode.accesstime.precision}) with the device's own user as HDFS's is the name
 * node's.
 *
 * @param enabled whether permissions are checked ({@code smartssd.device.permissions.enabled})
 * @param deviceUser the user the device runs as: a superuser, owner of the root and of what a data
 *     directory from before permissions held
 * @param superGroup its members are superusers ({@code smartssd.device.permissions.superusergroup})
 * @param accessTimePrecisionMs an open sets a file's access time when it is older than this; 0 never
 *     ({@code smartssd.device.meta.access-time-precision-ms})
 */
public record AccessPolicy(boolean enabled, String deviceUser, String superGroup, long accessTimePrecisionMs) {
  /** Longest user or group name accepted, in bytes of UTF-8 (Linux's own limit is 32; LDAP's are longer). */
  public static final int MAX_NAME_BYTES = 256;

  public AccessPolicy {
    if (deviceUser == null || deviceUser.isEmpty()) {
      throw new IllegalArgumentException("the device's user must have a name");
    }
    if (superGroup == null || superGroup.isEmpty()) {
      throw new IllegalArgumentException("the supergroup must have a name");
    }
    if (accessTimePrecisionMs < 0) {
      throw new IllegalArgumentException("negative access time precision " + accessTimePrecisionMs);
    }
  }

  /** The policy of a device run by this process's user ({@code user.name}). */
  public static AccessPolicy of(boolean enabled, String superGroup, long accessTimePrecisionMs) {
    return new AccessPolicy(enabled, System.getProperty("user.name", "smartssd"), superGroup, accessTimePrecisionMs);
  }

  /** Checks on, this process's user, HDFS's supergroup and access time precision (one hour). */
  public static AccessPolicy defaults() {
    return of(true, "supergroup", 3_600_000L);
  }

  /** The device's own user: a connection that never identified acts as it. */
  public Caller device() {
    return new Caller(deviceUser, Set.of(superGroup), true);
  }

  /**
   * The caller a connection that identified as {@code user} in {@code groups} acts as.
   *
   * @throws StoreException BAD_REQUEST for an empty or too long name
   */
  public Caller caller(String user, List<String> groups) throws StoreException {
    checkName("user", user);
    Set<String> set = new LinkedHashSet<>();
    for (String g : groups) {
      checkName("group", g);
      set.add(g);
    }
    boolean superuser = user.equals(deviceUser) || set.contains(superGroup);
    return new Caller(user, set, superuser || !enabled);
  }

  /** @throws StoreException BAD_REQUEST for a name that is empty or longer than {@link #MAX_NAME_BYTES} */
  static void checkName(String what, String name) throws StoreException {
    if (name.isEmpty()) {
      throw new StoreException(Status.BAD_REQUEST, "a " + what + " name must not be empty");
    }
    if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
      throw new StoreException(Status.BAD_REQUEST, what + " name '" + name.substring(0, 32) + "...' is longer than "
          + MAX_NAME_BYTES + " bytes");
    }
    if (name.indexOf('\0') >= 0) {
      throw new StoreException(Status.BAD_REQUEST, what + " name '" + name.replace('\0', '?') + "' contains a NUL");
    }
  }
}
