package org.smartssd.device;

import java.util.List;

/**
 * Counters of a device since it started. Times named "busy" and the horizon are modelled (on the
 * device's modelled clock), never measured; uptime is wall-clock time.
 *
 * @param uptimeNanos wall-clock time since the device started
 * @param commands host commands answered
 * @param hostBytesIn bytes that crossed the host link towards the device (frames included)
 * @param hostBytesOut bytes that crossed the host link towards the host (frames included)
 * @param linkBusyNanos modelled time the host link was busy
 * @param modelledHorizonNanos the latest modelled completion so far on the device's modelled clock
 * @param gcPagesMoved pages relocated by garbage collection
 * @param modelledInternalDelayNanos modelled time executions' internal reads delayed host commands, summed
 *     over the commands (each command's delay is the most any of its channels was delayed)
 * @param commandsDelayedByInternal host commands that internal reads delayed at all
 * @param answersBehindModelNanos on a paced device, how much later than their modelled completion the
 *     answers went out (the simulator was slower than the model), summed over the commands
 * @param modelledCommandNanos modelled time during which at least one host command was in progress
 *     (arrival to completion): how long the host's I/O took on the modelled device. Commands that
 *     overlap count once, so a host that sends its next read before the model has finished the last
 *     (an unpaced device answers at once) is charged each read's own service time, not its queueing
 * @param modelledExecutionNanos modelled time during which at least one execution was in progress
 *     (its start to its end, results delivered): executions that overlap count once, so that one an
 *     unpaced device starts before the model has finished the last is not charged its wait
 * @param channels per-channel counters, indexed by channel number
 * @param diskUse the flash files' disk use against live data, and whether space is reclaimed; null when
 *     the device did not report it (protocol version 1)
 * @param energy the device's modelled energy since it started, by component; null when the device did
 *     not report it (protocol versions 1 and 2)
 */
public record DeviceStatistics(
    long uptimeNanos,
    long commands,
    long hostBytesIn,
    long hostBytesOut,
    long linkBusyNanos,
    long modelledHorizonNanos,
    long gcPagesMoved,
    long modelledInternalDelayNanos,
    long commandsDelayedByInternal,
    long answersBehindModelNanos,
    long modelledCommandNanos,
    long modelledExecutionNanos,
    List<ChannelStatistics> channels,
    DiskUse diskUse,
    DeviceEnergy energy) {

  public DeviceStatistics {
    channels = List.copyOf(channels);
  }

  /** The counters without disk use and energy, as protocol version 1 carries them. */
  public DeviceStatistics(long uptimeNanos, long commands, long hostBytesIn, long hostBytesOut, long linkBusyNanos,
      long modelledHorizonNanos, long gcPagesMoved, long modelledInternalDelayNanos, long commandsDelayedByInternal,
      long answersBehindModelNanos, long modelledCommandNanos, long modelledExecutionNanos,
      List<ChannelStatistics> channels) {
    this(uptimeNanos, commands, hostBytesIn, hostBytesOut, linkBusyNanos, modelledHorizonNanos, gcPagesMoved,
        modelledInternalDelayNanos, commandsDelayedByInternal, answersBehindModelNanos, modelledCommandNanos,
        modelledExecutionNanos, channels, null, null);
  }

  /** These counters with {@code use} as their disk use (null: none). */
  public DeviceStatistics withDiskUse(DiskUse use) {
    return new DeviceStatistics(uptimeNanos, commands, hostBytesIn, hostBytesOut, linkBusyNanos, modelledHorizonNanos,
        gcPagesMoved, modelledInternalDelayNanos, commandsDelayedByInternal, answersBehindModelNanos,
        modelledCommandNanos, modelledExecutionNanos, channels, use, energy);
  }

  /** These counters with {@code account} as their energy (null: none). */
  public DeviceStatistics withEnergy(DeviceEnergy account) {
    return new DeviceStatistics(uptimeNanos, commands, hostBytesIn, hostBytesOut, linkBusyNanos, modelledHorizonNanos,
        gcPagesMoved, modelledInternalDelayNanos, commandsDelayedByInternal, answersBehindModelNanos,
        modelledCommandNanos, modelledExecutionNanos, channels, diskUse, account);
  }

  public long totalPagesRead() {
    return channels.stream().mapToLong(ChannelStatistics::pagesRead).sum();
  }

  public long totalPagesProgrammed() {
    return channels.stream().mapToLong(ChannelStatistics::pagesProgrammed).sum();
  }

  public long totalBlocksErased() {
    return channels.stream().mapToLong(ChannelStatistics::blocksErased).sum();
  }
}
