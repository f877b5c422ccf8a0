package org.smartssd.device.client;

import java.io.IOException;
import java.util.Optional;

/**
 * A way to reach a device: the pure-Java client ({@value DeviceTransports#JAVA}) or another one
 * found through {@link java.util.ServiceLoader} (the native library of module {@code jni},
 * {@value DeviceTransports#NATIVE}). Every transport speaks the same protocol and gives a {@link
 * DeviceClient} that behaves the same.
 */
public interface DeviceTransport {
  /** The name configuration selects it by ({@code smartssd.transport}). */
  String name();

  /** Why this transport cannot be used here (its native library did not load, say); empty when it can. */
  default Optional<String> unavailable() {
    return Optional.empty();
  }

  /** Connects, negotiating the protocol version. */
  DeviceClient connect(DeviceAddress address, ClientOptions options) throws IOException;
}
