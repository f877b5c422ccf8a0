package org.smartssd.device.tasklet.builtin;

import java.util.Map;

/** Reads a built-in tasklet's parameters, with errors that name the parameter. */
final class Parameters {
  private final String tasklet;
  private final Map<String, String> values;

  Parameters(String tasklet, Map<String, String> values) {
    this.tasklet = tasklet;
    this.values = values;
  }

  boolean has(String name) {
    return values.containsKey(name);
  }

  long number(String name, long min, long max) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException(tasklet + " needs parameter " + name);
    }
    return parse(name, value, min, max);
  }

  long number(String name, long min, long max, long fallback) {
    String value = values.get(name);
    return value == null ? fallback : parse(name, value, min, max);
  }

  String text(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  private long parse(String name, String value, long min, long max) {
    long v;
    try {
      v = value.startsWith("0x") ? Long.parseUnsignedLong(value.substring(2), 16) : Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(tasklet + ": parameter " + name + "='" + value + "' is not a whole number");
    }
    if (v < min || v > max) {
      throw new IllegalArgumentException(tasklet + ": parameter " + name + "=" + v + " must be between " + min
          + " and " + max);
    }
    return v;
  }
}
