package org.smartssd.device.runtime.objects;

import java.util.List;

/** The access policy and callers the store's tests use: checks on, the device's user passes them. */
final class TestCallers {
  static final AccessPolicy POLICY = new AccessPolicy(true, "device", "supergroup", 3_600_000L);
  static final Caller DEVICE = POLICY.device();

  private TestCallers() {}

  static Caller user(String name, String... groups) {
    try {
      return POLICY.caller(name, List.of(groups));
    } catch (StoreException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
