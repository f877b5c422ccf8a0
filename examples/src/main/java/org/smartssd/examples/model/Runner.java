package org.smartssd.examples.model;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;

/**
 * Runs one job of a workload in the simulator, on devices of its own in this JVM ({@link SampledJob#open}):
 * what the sampler measures and what a sweep runs at each point.
 */
public interface Runner extends Closeable {
  /**
   * Makes a data set of {@code records} records (seeded), spreads it over the runner's devices and runs the
   * job in each of {@code modes}, one after the other.
   *
   * @return each mode's run statistics
   * @throws IOException if a mode's result differs from the direct computation's, or a split of device mode
   *     ran on the host (the model measures the device: a split that ran on the host would be priced as the
   *     device's)
   */
  Map<Mode, RunStatistics> run(long records, long seed, List<Mode> modes) throws IOException, InterruptedException;

  /**
   * A run's statistics, once it is known that every split of device mode ran in the device.
   *
   * @param name the workload, for the error
   * @throws IOException if a split of device mode ran on the host (fallback)
   */
  static RunStatistics ranInTheDevice(String name, Mode mode, RunStatistics statistics) throws IOException {
    if (statistics.fallbackSplits() > 0) {
      // The model measures the device: a split that ran on the host instead would be priced as the device's.
      throw new IOException(name + " " + mode.optionName() + ": " + statistics.fallbackSplits()
          + " split(s) of device mode ran on the host, not in the device (fallback; the log says why): the "
          + "simulator's device time would not be the device's");
    }
    return statistics;
  }
}
