package org.smartssd.device.runtime.timing;

import java.util.Objects;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.runtime.config.EnergyParameters;

/**
 * The device's energy model: the one place its work is priced in energy, by component. The work is
 * counted where it happens, as exact integers on the modelled clock ({@link TimingModel}: the pages
 * read, programmed and erased, the bytes across the host link, the time the cores computed), and is
 * priced here from the profile's {@link EnergyParameters} whenever it is asked for: the account never
 * drifts by rounding, however long the device runs.
 *
 * <p>Idle power is not priced here: it is drawn over a run's time, which only whoever times the run
 * knows (see {@link DeviceEnergy}).
 */
public final class EnergyModel {
  private static final double NANOJOULES_PER_JOULE = 1e9;

  private final EnergyParameters parameters;

  public EnergyModel(EnergyParameters parameters) {
    this.parameters = Objects.requireNonNull(parameters, "parameters");
  }

  public EnergyParameters parameters() {
    return parameters;
  }

  /**
   * The energy of this work, by component, each rounded to the nearest nanojoule.
   *
   * @param coreBusyNanos modelled time the device's cores computed, summed over the cores
   * @param pagesRead pages read from the cells (host reads and internal reads)
   * @param pagesProgrammed pages programmed
   * @param blocksErased blocks erased
   * @param linkBytes bytes across the host link, both ways
   */
  public DeviceEnergy account(long coreBusyNanos, long pagesRead, long pagesProgrammed, long blocksErased,
      long linkBytes) {
    return new DeviceEnergy(coreBusyNanos, nanojoules(parameters.deviceCoreJoules(coreBusyNanos)),
        nanojoules(parameters.flashJoules(pagesRead, 0, 0)), nanojoules(parameters.flashJoules(0, pagesProgrammed, 0)),
        nanojoules(parameters.flashJoules(0, 0, blocksErased)), nanojoules(parameters.linkJoules(linkBytes)));
  }

  /** The device's idle power over {@code nanos} of modelled time, in joules (an execution's own span). */
  public double idleJoules(long nanos) {
    return parameters.deviceIdleWatts() * nanos / 1e9;
  }

  private static long nanojoules(double joules) {
    return Math.round(joules * NANOJOULES_PER_JOULE);
  }
}
