package org.smartssd.device.runtime.config;

/**
 * A configuration value that cannot be used. Unchecked, so that a caller far from the command line
 * need not declare it; the command line turns it into a message naming the key.
 */
public class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;

  /** An error about one key; the message is prefixed with the key. */
  public ConfigException(String key, String message) {
    super(key + ": " + message);
    this.key = key;
  }

  /** An error not tied to a single key (for instance an unknown profile name). */
  public ConfigException(String message) {
    super(message);
    this.key = null;
  }

  /** The key the error is about, or {@code null} when it is not about a single key. */
  public String key() {
    return key;
  }
}
