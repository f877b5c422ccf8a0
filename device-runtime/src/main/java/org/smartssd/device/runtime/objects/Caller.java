package org.smartssd.device.runtime.objects;

import java.util.Set;

/**
 * The user a command runs for, as its connection identified itself (PROTOCOL.md, "Users and
 * permissions"), and whether the checks pass it by: a superuser, or any user while the device's
 * permission checks are off. Made by {@link AccessPolicy}.
 *
 * @param user the user's short name: owner of what it makes
 * @param groups the groups the user said it is in
 * @param bypass whether every check passes (superuser, or checks off)
 */
public record Caller(String user, Set<String> groups, boolean bypass) {
  public Caller {
    groups = Set.copyOf(groups);
  }

  boolean isIn(String group) {
    return groups.contains(group);
  }
}
