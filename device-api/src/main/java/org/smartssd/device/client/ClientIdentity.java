package org.smartssd.device.client;

import java.util.List;
import java.util.Objects;

/**
 * Who a client says its user is, and the user's groups: what it sends in IDENTIFY once connected
 * (PROTOCOL.md, "Users and permissions"). The device trusts it, as HDFS trusts the user a client
 * names under simple authentication; the secret decides which hosts may connect at all.
 *
 * @param user the user's short name (Hadoop's {@code UserGroupInformation.getShortUserName()})
 * @param groups the groups the user is in, the primary group first
 */
public record ClientIdentity(String user, List<String> groups) {
  public ClientIdentity {
    Objects.requireNonNull(user, "user");
    if (user.isEmpty()) {
      throw new IllegalArgumentException("a user name must not be empty");
    }
    groups = List.copyOf(groups);
  }

  @Override
  public String toString() {
    return user + (groups.isEmpty() ? "" : " (groups " + String.join(",", groups) + ")");
  }
}
