package org.smartssd.device.runtime.timing;

/** A clock that moves only when a test says so. */
final class FakeClock implements NanoClock {

  private long nanos;

  FakeClock(long startNanos) {
    this.nanos = startNanos;
  }

  @Override
  public synchronized long nanoTime() {
    return nanos;
  }

  synchronized void advance(long deltaNanos) {
    nanos += deltaNanos;
  }
}
