package org.smartssd.device.runtime.config;

/**
 * The energy model's costs by component, the one place they are derived from configuration. The
 * device and the host each draw their idle power for the whole of a run; on top of it, each busy
 * core draws its share of the difference between active and idle power; every page read or
 * programmed and every block erased costs its flash operation's energy (supply voltage x active
 * current x the operation's time); every byte on the host link costs the link's energy per bit.
 *
 * @param deviceActiveWatts the device's power with all its cores busy (Kang et al.: 1.2 W)
 * @param deviceIdleWatts the device's power when idle (Kang et al.: 0.9 W)
 * @param hostActiveWatts the host's power while it computes (Kang et al.: 40 W)
 * @param hostIdleWatts the host's power while it waits (Kang et al.: 35 W)
 * @param deviceCores the device's cores (lanes), which share its active power
 * @param hostCores the host's cores, which share its active power
 * @param pageReadJoules energy of reading one page from the cells
 * @param pageProgramJoules energy of programming one page
 * @param blockEraseJoules energy of erasing one block
 * @param linkJoulesPerByte energy of moving one byte over the host link
 */
public record EnergyParameters(double deviceActiveWatts, double deviceIdleWatts, double hostActiveWatts,
    double hostIdleWatts, int deviceCores, int hostCores, double pageReadJoules, double pageProgramJoules,
    double blockEraseJoules, double linkJoulesPerByte) {

  /** What one busy device core adds to the device's idle power. */
  public double deviceCoreWatts() {
    return Math.max(0, deviceActiveWatts - deviceIdleWatts) / deviceCores;
  }

  /** What one busy host core adds to the host's idle power. */
  public double hostCoreWatts() {
    return Math.max(0, hostActiveWatts - hostIdleWatts) / hostCores;
  }

  /** Joules of the device's cores busy for {@code coreNanos}, summed over the cores. */
  public double deviceCoreJoules(long coreNanos) {
    return deviceCoreWatts() * coreNanos / 1e9;
  }

  /** Joules of the flash: pages read and programmed, blocks erased. */
  public double flashJoules(long pagesRead, long pagesProgrammed, long blocksErased) {
    return pagesRead * pageReadJoules + pagesProgrammed * pageProgramJoules + blocksErased * blockEraseJoules;
  }

  public double linkJoules(long bytes) {
    return bytes * linkJoulesPerByte;
  }
}
