package org.smartssd.device.client;

import java.util.Objects;

/**
 * Where a device listens. {@link #toString()} gives {@code host:port} ({@code [v6]:port} for an
 * IPv6 literal), the form exceptions use to name the device and {@link #parse} accepts.
 */
public record DeviceAddress(String host, int port) {

  public DeviceAddress {
    Objects.requireNonNull(host, "host");
    if (host.isEmpty()) {
      throw new IllegalArgumentException("device address without a host");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("device port " + port + " is not in 1..65535");
    }
  }

  /**
   * Parses {@code host:port}, with an IPv6 literal in brackets ({@code [::1]:7070}).
   *
   * @throws IllegalArgumentException naming the text when the host or port is missing or invalid
   */
  public static DeviceAddress parse(String text) {
    Objects.requireNonNull(text, "text");
    String host;
    String port;
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0 || !text.startsWith(":", close + 1)) {
        throw bad(text, "expected [ipv6]:port");
      }
      host = text.substring(1, close);
      port = text.substring(close + 2);
    } else {
      int colon = text.lastIndexOf(':');
      if (colon < 0) {
        throw bad(text, "no port");
      }
      host = text.substring(0, colon);
      port = text.substring(colon + 1);
      if (host.indexOf(':') >= 0) {
        throw bad(text, "an IPv6 address must be in brackets, as in [::1]:7070");
      }
    }
    if (host.isEmpty()) {
      throw bad(text, "no host");
    }
    if (port.isEmpty()) {
      throw bad(text, "no port");
    }
    int number;
    try {
      number = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw bad(text, "port '" + port + "' is not a number");
    }
    if (number < 1 || number > 65535) {
      throw bad(text, "port " + number + " is not in 1..65535");
    }
    return new DeviceAddress(host, number);
  }

  private static IllegalArgumentException bad(String text, String problem) {
    return new IllegalArgumentException("bad device address '" + text + "': " + problem);
  }

  @Override
  public String toString() {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }
}
