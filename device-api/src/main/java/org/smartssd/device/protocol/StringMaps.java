package org.smartssd.device.protocol;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** The {@code string} to {@code string} maps of the protocol: kept and sent in key order. */
final class StringMaps {
  private StringMaps() {}

  /**
   * An unmodifiable copy sorted by key ({@link String#compareTo}).
   *
   * @throws NullPointerException for a null map, key or value
   */
  static Map<String, String> sortedCopy(Map<String, String> map, String name) {
    Objects.requireNonNull(map, name);
    TreeMap<String, String> sorted = new TreeMap<>();
    map.forEach((key, value) -> {
      Objects.requireNonNull(key, () -> name + ": null key");
      Objects.requireNonNull(value, () -> name + ": null value for key " + key);
      sorted.put(key, value);
    });
    return Collections.unmodifiableMap(sorted);
  }
}
