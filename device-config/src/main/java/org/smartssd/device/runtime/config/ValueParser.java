package org.smartssd.device.runtime.config;

import java.math.BigInteger;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns the merged string values into typed ones, each error naming the key, the bad value and what
 * is expected. Used only by {@link DeviceConfig}, so that every value is parsed in one place.
 */
final class ValueParser {

  private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?[0-9]+");

  private final Map<String, String> values;

  ValueParser(Map<String, String> values) {
    this.values = values;
  }

  String text(String key) {
    return values.get(key);
  }

  String nonBlank(String key) {
    String value = text(key);
    if (value.isBlank()) {
      throw new ConfigException(key, "must not be empty");
    }
    return value;
  }

  int wholeNumber(String key, int min, int max) {
    return (int) wholeNumber(key, (long) min, (long) max);
  }

  long wholeNumber(String key, long min, long max) {
    String value = text(key);
    if (!WHOLE_NUMBER.matcher(value).matches()) {
      throw bad(key, value, "is not a whole number");
    }
    BigInteger number = new BigInteger(value);
    boolean unbounded = max == Integer.MAX_VALUE || max == Long.MAX_VALUE;
    if (number.compareTo(BigInteger.valueOf(min)) < 0) {
      throw bad(key, value, unbounded ? "must be at least " + min : between(min, max));
    }
    if (number.compareTo(BigInteger.valueOf(max)) > 0) {
      throw bad(key, value, unbounded ? "must be at most " + max : between(min, max));
    }
    return number.longValue();
  }

  /** A decimal number above zero, for instance MB per second. */
  double positiveDecimal(String key) {
    double number = decimal(key);
    if (!(number > 0) || Double.isInfinite(number)) {
      throw bad(key, text(key), "must be a positive number");
    }
    return number;
  }

  double nonNegativeDecimal(String key) {
    double number = decimal(key);
    if (!(number >= 0) || Double.isInfinite(number)) {
      throw bad(key, text(key), "must be zero or a positive number");
    }
    return number;
  }

  private double decimal(String key) {
    String value = nonBlank(key);
    double number;
    try {
      number = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw bad(key, value, "is not a number (expected a decimal such as 50 or 12.5)");
    }
    return number;
  }

  boolean bool(String key) {
    String value = text(key).toLowerCase(Locale.ROOT);
    if (value.equals("true") || value.equals("false")) {
      return Boolean.parseBoolean(value);
    }
    throw bad(key, text(key), "must be true or false");
  }

  Path path(String key) {
    String value = nonBlank(key);
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw bad(key, value, "is not a valid path: " + e.getReason());
    }
  }

  /** An absolute path, or null when the value is empty. */
  Path optionalAbsolutePath(String key) {
    String value = text(key);
    if (value.isEmpty()) {
      return null;
    }
    Path path;
    try {
      path = Path.of(value);
    } catch (InvalidPathException e) {
      throw bad(key, value, "is not a valid path: " + e.getReason());
    }
    if (!path.isAbsolute()) {
      throw bad(key, value, "is not an absolute path");
    }
    return path;
  }

  static ConfigException bad(String key, String value, String expected) {
    return new ConfigException(key, "'" + value + "' " + expected);
  }

  private static String between(long min, long max) {
    return "must be between " + min + " and " + max;
  }
}
