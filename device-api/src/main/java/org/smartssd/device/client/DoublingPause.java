package org.smartssd.device.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.smartssd.device.protocol.Response;

/** {@link PausePolicy#doubling}: min, 2 min, 4 min, ... up to max, whatever the answers say. */
final class DoublingPause implements PausePolicy {
  private final Duration min;
  private final Duration max;
  /** The last pause given, or null when the next is the first. */
  private Duration previous;

  DoublingPause(Duration min, Duration max) {
    checkBounds(min, max);
    this.min = min;
    this.max = max;
  }

  /** A positive {@code min}, and a {@code max} not below it. */
  static void checkBounds(Duration min, Duration max) {
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(max, "max");
    if (min.isNegative() || min.isZero()) {
      throw new IllegalArgumentException("min pause must be positive, was " + min);
    }
    if (max.compareTo(min) < 0) {
      throw new IllegalArgumentException("max pause " + max + " is below min pause " + min);
    }
  }

  @Override
  public Optional<Duration> next(Response.ExecutionProgress last) {
    if (previous == null) {
      previous = min;
    } else {
      Duration doubled = previous.multipliedBy(2);
      previous = doubled.compareTo(max) > 0 ? max : doubled;
    }
    return Optional.of(previous);
  }

  @Override
  public void reset() {
    previous = null;
  }
}
