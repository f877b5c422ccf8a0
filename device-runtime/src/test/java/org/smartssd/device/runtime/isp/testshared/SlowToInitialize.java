package org.smartssd.device.runtime.isp.testshared;

/**
 * A shared class whose static initializer runs for two and a half seconds (on the wall clock): past a
 * time limit of 100 ms, the engine's grace of a second before it tells a lane to stop, and the second
 * after that before it stops a lane by force.
 */
public final class SlowToInitialize {
  private static final int READY;

  static {
    long until = System.nanoTime() + 2_500_000_000L;
    long spins = 0;
    while (System.nanoTime() < until) {
      spins++;
    }
    READY = spins > 0 ? 1 : 0;
  }

  private SlowToInitialize() {}

  public static int ready() {
    return READY;
  }
}
