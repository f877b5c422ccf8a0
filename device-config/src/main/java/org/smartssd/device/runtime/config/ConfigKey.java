package org.smartssd.device.runtime.config;

import java.util.Objects;

/**
 * One configuration key: its name, its default (as written in configuration), its unit, what it
 * means, and where the default comes from ("source: ..." for a paper or datasheet, "choice" for ours).
 */
public record ConfigKey(String name, String defaultValue, String unit, String description, String source) {

  public ConfigKey {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(source, "source");
  }
}
