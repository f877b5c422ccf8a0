package org.smartssd.device.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.smartssd.device.protocol.Response;

/**
 * {@link PausePolicy#bounded}: another policy's pauses, until more than the bound has passed since
 * this one was made or last reset (the BUSY retries of an EXECUTE_OBJECT: {@code
 * smartssd.mapper.busy-timeout}).
 */
final class BoundedPause implements PausePolicy {
  private final PausePolicy pauses;
  private final long boundNanos;
  /** Monotonic nanoseconds: {@code System::nanoTime}, or a test's. */
  private final LongSupplier nanoClock;
  private long since;

  BoundedPause(PausePolicy pauses, Duration bound, LongSupplier nanoClock) {
    this.pauses = Objects.requireNonNull(pauses, "pauses");
    if (bound.isNegative()) {
      throw new IllegalArgumentException("negative bound " + bound);
    }
    this.boundNanos = bound.toNanos();
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.since = nanoClock.getAsLong();
  }

  @Override
  public Optional<Duration> next(Response.ExecutionProgress last) {
    if (nanoClock.getAsLong() - since > boundNanos) {
      return Optional.empty();
    }
    return pauses.next(last);
  }

  @Override
  public void reset() {
    since = nanoClock.getAsLong();
    pauses.reset();
  }
}
