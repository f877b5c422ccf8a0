package org.smartssd.device.runtime.timing;

/** A source of wall-clock nanoseconds, injected so that tests can drive time by hand. */
@FunctionalInterface
public interface NanoClock {

  /** Nanoseconds from an arbitrary origin, as {@link System#nanoTime()}. */
  long nanoTime();

  /** The JVM's monotonic clock. */
  static NanoClock system() {
    return System::nanoTime;
  }
}
