package org.smartssd.device.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.smartssd.device.protocol.HostSecret;

/**
 * Settings of a device client.
 *
 * @param connectTimeout how long to wait for the connection and the version handshake
 * @param requestTimeout how long to wait for each reply, from when the request is submitted
 * @param maxFrameBytes the largest payload accepted in a reply, and the largest sent in a request:
 *     writes and reads larger than this are split. Keep it at most the device's
 *     {@code smartssd.device.host.max-frame-bytes}.
 * @param secret the device's secret, with which the client authenticates each connection; null for
 *     none (then a device that requires authentication refuses the connection, saying so)
 * @param identity who the client says its user is, sent in IDENTIFY on each connection to a device
 *     of protocol version 4 or later; null sends none, and the device then serves the connection as
 *     its own user (its superuser, as it served every connection before version 4)
 */
public record ClientOptions(Duration connectTimeout, Duration requestTimeout, int maxFrameBytes, HostSecret secret,
    ClientIdentity identity) {
  public static final Duration CONNECT_TIMEOUT_DEFAULT = Duration.ofSeconds(5);
  public static final Duration REQUEST_TIMEOUT_DEFAULT = Duration.ofSeconds(60);
  public static final int MAX_FRAME_BYTES_DEFAULT = 64 << 20;
  /** Room for the fixed fields around the data of a WRITE or READ, and then some. */
  public static final int MAX_FRAME_BYTES_MIN = 1024;

  public ClientOptions {
    positive("connectTimeout", connectTimeout);
    positive("requestTimeout", requestTimeout);
    if (maxFrameBytes < MAX_FRAME_BYTES_MIN) {
      throw new IllegalArgumentException(
          "maxFrameBytes must be at least " + MAX_FRAME_BYTES_MIN + ", was " + maxFrameBytes);
    }
  }

  private static void positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }

  /** Without an identity. */
  public ClientOptions(Duration connectTimeout, Duration requestTimeout, int maxFrameBytes, HostSecret secret) {
    this(connectTimeout, requestTimeout, maxFrameBytes, secret, null);
  }

  /** Without a secret or an identity. */
  public ClientOptions(Duration connectTimeout, Duration requestTimeout, int maxFrameBytes) {
    this(connectTimeout, requestTimeout, maxFrameBytes, null, null);
  }

  public static ClientOptions defaults() {
    return new ClientOptions(CONNECT_TIMEOUT_DEFAULT, REQUEST_TIMEOUT_DEFAULT, MAX_FRAME_BYTES_DEFAULT, null, null);
  }

  public ClientOptions withConnectTimeout(Duration value) {
    return new ClientOptions(value, requestTimeout, maxFrameBytes, secret, identity);
  }

  public ClientOptions withRequestTimeout(Duration value) {
    return new ClientOptions(connectTimeout, value, maxFrameBytes, secret, identity);
  }

  public ClientOptions withMaxFrameBytes(int value) {
    return new ClientOptions(connectTimeout, requestTimeout, value, secret, identity);
  }

  /** With the device's secret (null: none). */
  public ClientOptions withSecret(HostSecret value) {
    return new ClientOptions(connectTimeout, requestTimeout, maxFrameBytes, value, identity);
  }

  /** With who the client says its user is (null: none; see {@link ClientIdentity}). */
  public ClientOptions withIdentity(ClientIdentity value) {
    return new ClientOptions(connectTimeout, requestTimeout, maxFrameBytes, secret, value);
  }

  /** The device's secret, if the client has one. */
  public Optional<HostSecret> secretIfAny() {
    return Optional.ofNullable(secret);
  }
}
