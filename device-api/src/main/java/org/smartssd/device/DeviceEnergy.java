package org.smartssd.device;

/**
 * A device's modelled energy since it started, by component (protocol version 3 on): what its work
 * added to its idle power, priced by the device's energy model from the work it counted, for all of
 * it: the host's commands (reads, writes, their frames) and the executions in it. Differences of two
 * answers give the energy of what happened between them.
 *
 * <p>Idle power is not in the account. It is drawn over a span of time, and the span that matters (a
 * run's modelled time, which includes the time the devices wait for the host's compute) is known only to
 * whoever times the run; the device's modelled clock follows the wall clock between commands, so idle
 * power over it would follow the machine, not the model. The device's idle power is in its configuration
 * ({@code smartssd.device.energy.device-idle-w}, in {@code DEVICE_INFO}).
 *
 * @param coreBusyNanos modelled time the device's cores computed, summed over the cores: the lanes
 *     running tasklets and the controller core's merge
 * @param coreNanojoules what the cores added to the idle power while they computed
 * @param flashReadNanojoules pages read from the cells, for the host and for executions
 * @param flashProgramNanojoules pages programmed
 * @param flashEraseNanojoules blocks erased
 * @param linkNanojoules bytes across the host link, both ways, frames included
 */
public record DeviceEnergy(long coreBusyNanos, long coreNanojoules, long flashReadNanojoules,
    long flashProgramNanojoules, long flashEraseNanojoules, long linkNanojoules) {

  /** No work: the account of a device that has done nothing. */
  public static final DeviceEnergy NONE = new DeviceEnergy(0, 0, 0, 0, 0, 0);

  /** The flash's operations: reads, programs and erases. */
  public long flashNanojoules() {
    return flashReadNanojoules + flashProgramNanojoules + flashEraseNanojoules;
  }

  /** Everything the work added to idle power: cores, flash and link. */
  public long totalNanojoules() {
    return coreNanojoules + flashNanojoules() + linkNanojoules;
  }

  /** This account less an earlier one of the same device: what the work between them cost. */
  public DeviceEnergy minus(DeviceEnergy before) {
    return new DeviceEnergy(coreBusyNanos - before.coreBusyNanos, coreNanojoules - before.coreNanojoules,
        flashReadNanojoules - before.flashReadNanojoules, flashProgramNanojoules - before.flashProgramNanojoules,
        flashEraseNanojoules - before.flashEraseNanojoules, linkNanojoules - before.linkNanojoules);
  }

  /** This account and another's together (several devices' work). */
  public DeviceEnergy plus(DeviceEnergy other) {
    return new DeviceEnergy(coreBusyNanos + other.coreBusyNanos, coreNanojoules + other.coreNanojoules,
        flashReadNanojoules + other.flashReadNanojoules, flashProgramNanojoules + other.flashProgramNanojoules,
        flashEraseNanojoules + other.flashEraseNanojoules, linkNanojoules + other.linkNanojoules);
  }

  /** Nanojoules as joules. */
  public static double joules(long nanojoules) {
    return nanojoules / 1e9;
  }
}
