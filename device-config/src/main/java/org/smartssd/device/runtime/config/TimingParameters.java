package org.smartssd.device.runtime.config;

/**
 * The figures the timing model needs: flash cell times, the channel bus bandwidth, and the host link.
 * It lives in {@code config}, the lowest layer, so that {@link DeviceConfig#timing()} can return it
 * and the {@code timing} layer can consume it without an upward import.
 *
 * @param cellReadNanos page read from the cells into the die's register
 * @param cellProgramNanos page program from the die's register into the cells
 * @param blockEraseNanos erase of one block
 * @param channelBytesPerSecond bus bandwidth of one channel
 * @param linkBytesPerSecond host link bandwidth, each way
 * @param linkCommandNanos fixed cost of a command on the host interface; zero models an ideal one
 * @param internalReadsYield whether executions' internal reads yield to host operations (low priority)
 *     rather than being served with them first come, first served
 */
public record TimingParameters(
    long cellReadNanos,
    long cellProgramNanos,
    long blockEraseNanos,
    double channelBytesPerSecond,
    double linkBytesPerSecond,
    long linkCommandNanos,
    boolean internalReadsYield) {

  public TimingParameters {
    positive("cellReadNanos", cellReadNanos);
    positive("cellProgramNanos", cellProgramNanos);
    positive("blockEraseNanos", blockEraseNanos);
    positive("channelBytesPerSecond", channelBytesPerSecond);
    positive("linkBytesPerSecond", linkBytesPerSecond);
    if (linkCommandNanos < 0) {
      throw new IllegalArgumentException("linkCommandNanos must not be negative, was " + linkCommandNanos);
    }
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }

  private static void positive(String name, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " must be a positive finite number, was " + value);
    }
  }
}
