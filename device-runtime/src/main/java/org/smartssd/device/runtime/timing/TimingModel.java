package org.smartssd.device.runtime.timing;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.runtime.config.TimingParameters;

/**
 * The device's modelled time, FEMU's way: every resource (the host link, each channel bus, each way
 * of each channel) has a busy-until time, and an operation starts at the later of its ready time and
 * that busy-until. The modelled clock counts nanoseconds since construction. One lock guards it all:
 * the bookkeeping is a few additions per page, far cheaper than the page I/O it accounts.
 *
 * <p>Host operations and executions' internal reads share the channels and ways. With internal reads
 * at low priority (the Smart SSD's design, the default), a host operation waits only for the internal
 * read in progress on its resource (a transfer is not interrupted), never for those booked after it;
 * an internal read waits for every host operation booked before it. (Internal reads booked ahead
 * of a host operation keep their times: an execution's timing, once reported, is never rewritten.)
 * With equal priority (first come, first served), a host operation waits behind every internal read
 * booked before it. How long each side delayed the other is counted: a command's delay by internal
 * reads, an internal read's delay by host operations (against an internal-only shadow of the same
 * resources).
 */
public final class TimingModel {

  private static final Logger LOG = LoggerFactory.getLogger(TimingModel.class);
  private static final double NANOS_PER_SECOND = 1e9;

  private final DeviceGeometry geometry;
  private final TimingParameters parameters;
  private final NanoClock clock;
  private final long startNanos;
  private final long pageBusNanos;
  private final Object lock = new Object();

  // Resources: busy-until times on the modelled clock.
  private long linkBusyUntil;
  private final long[] channelBusyUntil;
  private final long[] wayBusyUntil; // index channel * waysPerChannel + way
  // Internal reads of executions, per resource; and their shadow: the same reads without host operations.
  private final Occupancy[] internalChannel;
  private final Occupancy[] internalWay;
  private final long[] shadowChannelBusyUntil;
  private final long[] shadowWayBusyUntil;

  // Counters since construction.
  private long commands;
  private long hostBytesIn;
  private long hostBytesOut;
  private long linkBusyNanos;
  private long horizonNanos;
  private final long[] pagesRead;
  private final long[] pagesProgrammed;
  private final long[] blocksErased;
  private final long[] channelBusyNanos;
  private long internalDelayNanos;
  private long commandsDelayed;
  private long answersBehindNanos;
  private long commandNanos;
  private long commandsCoveredUntil;
  private long executionNanos;
  private long executionsCoveredUntil;
  /** Where the interval ending at {@link #executionsCoveredUntil} begins. */
  private long executionsCoveredFrom;
  /** Starts of the executions running now (a count each): they cover the modelled clock from there on. */
  private final java.util.TreeMap<Long, Integer> runningExecutionStarts = new java.util.TreeMap<>();
  private long coreBusyNanos;
  /** The latest arrival or modelled completion of a host command (not the device's own): idleness starts there. */
  private long hostActiveUntil;

  public TimingModel(DeviceGeometry geometry, TimingParameters parameters, NanoClock clock) {
    this.geometry = Objects.requireNonNull(geometry, "geometry");
    this.parameters = Objects.requireNonNull(parameters, "parameters");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.startNanos = clock.nanoTime();
    this.pageBusNanos = nanosFor(geometry.pageSizeBytes(), parameters.channelBytesPerSecond());
    int channels = geometry.channels();
    channelBusyUntil = new long[channels];
    wayBusyUntil = new long[channels * geometry.waysPerChannel()];
    internalChannel = new Occupancy[channels];
    internalWay = new Occupancy[channels * geometry.waysPerChannel()];
    for (int i = 0; i < internalChannel.length; i++) {
      internalChannel[i] = new Occupancy();
    }
    for (int i = 0; i < internalWay.length; i++) {
      internalWay[i] = new Occupancy();
    }
    shadowChannelBusyUntil = new long[channels];
    shadowWayBusyUntil = new long[channels * geometry.waysPerChannel()];
    pagesRead = new long[channels];
    pagesProgrammed = new long[channels];
    blocksErased = new long[channels];
    channelBusyNanos = new long[channels];
    LOG.debug("timing model: {}, {}, page bus transfer {} ns", geometry, parameters, pageBusNanos);
  }

  public DeviceGeometry geometry() {
    return geometry;
  }

  public TimingParameters parameters() {
    return parameters;
  }

  /** Modelled nanoseconds since the model was built (the wall clock's elapsed time). */
  public long now() {
    return clock.nanoTime() - startNanos;
  }

  /** Starts the timing of a host command arriving now. */
  public Command begin() {
    long arrival = now();
    synchronized (lock) {
      hostActiveUntil = Math.max(hostActiveUntil, arrival);
    }
    return new Command(this, arrival, arrival + parameters.linkCommandNanos(), geometry.channels(), false);
  }

  /**
   * Starts the timing of work the device does on its own (closing abandoned writers, shutdown, garbage
   * collection in idle time): counted like a command, but it does not end the device's idleness.
   */
  public Command beginInternal() {
    long arrival = now();
    return new Command(this, arrival, arrival + parameters.linkCommandNanos(), geometry.channels(), true);
  }

  /**
   * The latest arrival or modelled completion of a host command: the device is idle from there on (Active
   * Flash's idle time), until the next host command arrives. May lie ahead of {@link #now()}.
   */
  public long hostActiveUntil() {
    synchronized (lock) {
      return hostActiveUntil;
    }
  }

  /**
   * Whether host operations are booked on a channel past {@code t}: the channel is loaded by host
   * traffic then, and internal reads are cut into single pages.
   */
  public boolean hostBusy(int channel, long t) {
    synchronized (lock) {
      return channelBusyUntil[channel] > t;
    }
  }

  /** The clock's {@link NanoClock#nanoTime()} at which a modelled time is reached (for pacing). */
  public long wallNanosAt(long modelledNanos) {
    return startNanos + modelledNanos;
  }

  /** Time to move one page over a channel bus. */
  public long pageBusNanos() {
    return pageBusNanos;
  }

  /** Time to move these bytes over the host link. */
  public long linkNanos(long bytes) {
    return nanosFor(bytes, parameters.linkBytesPerSecond());
  }

  /** The latest modelled completion of any command so far. */
  public long horizonNanos() {
    synchronized (lock) {
      return horizonNanos;
    }
  }

  /** A snapshot of the counters, without an energy account; garbage collection's page moves are counted by the FTL. */
  public DeviceStatistics statistics(long gcPagesMoved) {
    return statistics(gcPagesMoved, null);
  }

  /**
   * A snapshot of the counters and, with {@code energy}, the energy of the work they count, priced by it
   * from the same snapshot; garbage collection's page moves are counted by the FTL.
   */
  public DeviceStatistics statistics(long gcPagesMoved, EnergyModel energy) {
    long uptime = now();
    synchronized (lock) {
      List<ChannelStatistics> channels = new ArrayList<>(geometry.channels());
      long read = 0;
      long programmed = 0;
      long erased = 0;
      for (int c = 0; c < geometry.channels(); c++) {
        channels.add(new ChannelStatistics(pagesRead[c], pagesProgrammed[c], blocksErased[c], channelBusyNanos[c]));
        read += pagesRead[c];
        programmed += pagesProgrammed[c];
        erased += blocksErased[c];
      }
      return new DeviceStatistics(uptime, commands, hostBytesIn, hostBytesOut, linkBusyNanos, horizonNanos,
          gcPagesMoved, internalDelayNanos, commandsDelayed, answersBehindNanos, commandNanos, executionNanos,
          channels, null, energy == null ? null
              : energy.account(coreBusyNanos, read, programmed, erased, hostBytesIn + hostBytesOut));
    }
  }

  // The operations below are called by Command; each returns the end time it computed.

  long transferIn(long readyAt, long bytes) {
    long duration = linkNanos(bytes);
    synchronized (lock) {
      long start = Math.max(readyAt, linkBusyUntil);
      linkBusyUntil = start + duration;
      linkBusyNanos += duration;
      hostBytesIn += bytes;
      return linkBusyUntil;
    }
  }

  /** Device to host, streamed behind the command's page reads: the last page leaves after flashDone. */
  long transferOut(long readyAt, long flashDoneAt, long bytes) {
    long duration = linkNanos(bytes);
    long tail = linkNanos(Math.min(bytes, geometry.pageSizeBytes()));
    synchronized (lock) {
      long start = Math.max(readyAt, linkBusyUntil);
      linkBusyUntil = Math.max(start + duration, flashDoneAt + tail);
      linkBusyNanos += duration;
      hostBytesOut += bytes;
      return linkBusyUntil;
    }
  }

  /**
   * A host page read. Returns its end and, in {@code delay[0]}, how much later it ends than it would
   * without internal reads on its resources.
   */
  long readPage(long readyAt, int channel, int way, long[] delay) {
    int die = die(channel, way);
    long cellRead = parameters.cellReadNanos();
    synchronized (lock) {
      long cellReady = Math.max(readyAt, wayBusyUntil[die]);
      long cellStart = afterInternal(internalWay[die], cellReady);
      long cellEnd = cellStart + cellRead;
      long busReady = Math.max(cellEnd, channelBusyUntil[channel]);
      long busStart = afterInternal(internalChannel[channel], busReady);
      long busEnd = busStart + pageBusNanos;
      long alone = Math.max(cellReady + cellRead, channelBusyUntil[channel]) + pageBusNanos;
      delay[0] = busEnd - alone;
      // The die's register holds the page until the bus has carried it out.
      wayBusyUntil[die] = busEnd;
      channelBusyUntil[channel] = busEnd;
      pagesRead[channel]++;
      channelBusyNanos[channel] += pageBusNanos;
      return busEnd;
    }
  }

  /**
   * A host page program; the caller need not wait for the cells (write-back buffer). Returns the end
   * of the program and, in {@code delay[0]}, how much later its bus transfer ends because of internal reads.
   */
  long programPage(long dataReadyAt, int channel, int way, long[] delay) {
    int die = die(channel, way);
    synchronized (lock) {
      long busReady = Math.max(dataReadyAt, channelBusyUntil[channel]);
      long busStart = afterInternal(internalChannel[channel], busReady);
      long busEnd = busStart + pageBusNanos;
      long programReady = Math.max(busEnd, wayBusyUntil[die]);
      long programStart = afterInternal(internalWay[die], programReady);
      long programEnd = programStart + parameters.cellProgramNanos();
      channelBusyUntil[channel] = busEnd;
      wayBusyUntil[die] = programEnd;
      pagesProgrammed[channel]++;
      channelBusyNanos[channel] += pageBusNanos;
      delay[0] = busStart - busReady;
      return programEnd;
    }
  }

  /**
   * When a host operation ready at {@code t} may start on a resource with internal reads: at low
   * priority, after the one in progress; at equal priority, after all of them.
   */
  private long afterInternal(Occupancy internal, long t) {
    return parameters.internalReadsYield() ? internal.inProgressEnd(t) : Math.max(t, internal.busyUntil());
  }

  /**
   * An internal read at low priority: it starts only when the die and the bus are free of host work
   * booked before it and of earlier internal reads.
   * Returns its end; {@code shadow[0]} is its end in the shadow without host operations.
   */
  long internalReadPage(long readyAt, int channel, int way, long[] shadow) {
    int die = die(channel, way);
    long cellRead = parameters.cellReadNanos();
    synchronized (lock) {
      long cellStart = Math.max(readyAt, Math.max(wayBusyUntil[die], internalWay[die].busyUntil()));
      long cellEnd = cellStart + cellRead;
      long busEnd = Math.max(cellEnd, Math.max(channelBusyUntil[channel], internalChannel[channel].busyUntil()))
          + pageBusNanos;
      internalWay[die].book(cellStart, busEnd);
      internalChannel[channel].book(busEnd - pageBusNanos, busEnd);
      long shadowCellEnd = Math.max(readyAt, shadowWayBusyUntil[die]) + cellRead;
      long shadowBusEnd = Math.max(shadowCellEnd, shadowChannelBusyUntil[channel]) + pageBusNanos;
      shadowWayBusyUntil[die] = shadowBusEnd;
      shadowChannelBusyUntil[channel] = shadowBusEnd;
      shadow[0] = shadowBusEnd;
      pagesRead[channel]++;
      channelBusyNanos[channel] += pageBusNanos;
      return busEnd;
    }
  }

  /** Starts a timeline of internal reads that may begin at {@code readyAt} on the modelled clock. */
  public InternalTimeline internalReads(long readyAt) {
    return new InternalTimeline(this, readyAt);
  }

  long eraseBlock(long readyAt, int channel, int way) {
    int die = die(channel, way);
    synchronized (lock) {
      long end = afterInternal(internalWay[die], Math.max(readyAt, wayBusyUntil[die])) + parameters.blockEraseNanos();
      wayBusyUntil[die] = end;
      blocksErased[channel]++;
      return end;
    }
  }

  /** The time every die is done with what it was given so far: what a sync waits for. */
  long allWaysIdleAt() {
    synchronized (lock) {
      long latest = 0;
      for (long busyUntil : wayBusyUntil) {
        latest = Math.max(latest, busyUntil);
      }
      return latest;
    }
  }

  /**
   * A command that arrived at {@code arrival} completed at {@code completion}; internal reads delayed it
   * {@code delayedNanos}. The command time grows by what of the command's interval no command counted
   * before covers, kept as one interval ending at {@link #commandsCoveredUntil} (commands are timed
   * about in the order they arrive; one ending inside that interval adds nothing), and no execution
   * either: the host interface serves commands while the cores compute, so a command during an
   * execution (the host's polls for results among them) adds nothing to the device's busy time that the
   * execution's does not hold already.
   */
  void complete(long arrival, long completion, long delayedNanos, boolean internal) {
    synchronized (lock) {
      commands++;
      if (!internal) {
        hostActiveUntil = Math.max(hostActiveUntil, completion);
      }
      long from = Math.max(arrival, commandsCoveredUntil);
      if (completion > from) {
        commandNanos += completion - from - coveredByExecutions(from, completion);
        commandsCoveredUntil = completion;
      }
      horizonNanos = Math.max(horizonNanos, completion);
      if (delayedNanos > 0) {
        internalDelayNanos += delayedNanos;
        commandsDelayed++;
      }
    }
  }

  /** A paced device answered {@code nanos} later than the command's modelled completion. */
  public void answeredLate(long nanos) {
    synchronized (lock) {
      answersBehindNanos += nanos;
    }
  }

  /**
   * An execution ran from {@code start} to {@code end} on the modelled clock, its cores computing for
   * {@code coreBusyNanos} (summed over them): nothing after it starts earlier, the execution time grows
   * by what of it no execution counted before covers (kept as one interval, as the command time is), and
   * the cores' compute joins the device's energy account.
   */
  public void executionDone(long start, long end, long coreBusyNanos) {
    synchronized (lock) {
      runningExecutionStarts.computeIfPresent(start, (k, n) -> n > 1 ? n - 1 : null);
      horizonNanos = Math.max(horizonNanos, end);
      if (end > executionsCoveredUntil) {
        if (start > executionsCoveredUntil) {
          executionsCoveredFrom = start;
        }
        executionNanos += end - Math.max(start, executionsCoveredUntil);
        executionsCoveredUntil = end;
      }
      this.coreBusyNanos += coreBusyNanos;
    }
  }

  /**
   * An execution started at {@code start} on the modelled clock: until it is {@link #executionDone done},
   * it covers the modelled clock from there on, and commands in that time add no command time.
   */
  public void executionStarted(long start) {
    synchronized (lock) {
      runningExecutionStarts.merge(start, 1, Integer::sum);
    }
  }

  /** What of [from, to) the executions cover: those done (one interval) and those running (from their start on). */
  private long coveredByExecutions(long from, long to) {
    long done = Math.max(0, Math.min(to, executionsCoveredUntil) - Math.max(from, executionsCoveredFrom));
    if (runningExecutionStarts.isEmpty()) {
      return done;
    }
    long runningFrom = runningExecutionStarts.firstKey();
    long running = Math.max(0, to - Math.max(from, runningFrom));
    long both = Math.max(0, Math.min(to, executionsCoveredUntil) - Math.max(from,
        Math.max(runningFrom, executionsCoveredFrom)));
    return done + running - both;
  }

  private int die(int channel, int way) {
    if (channel < 0 || channel >= geometry.channels()) {
      throw new IllegalArgumentException("channel " + channel + " out of range 0.." + (geometry.channels() - 1));
    }
    if (way < 0 || way >= geometry.waysPerChannel()) {
      throw new IllegalArgumentException("way " + way + " out of range 0.." + (geometry.waysPerChannel() - 1));
    }
    return channel * geometry.waysPerChannel() + way;
  }

  /** Rounded up, so that no operation is free and the result is the same on every run. */
  private static long nanosFor(long bytes, double bytesPerSecond) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative, was " + bytes);
    }
    return (long) Math.ceil(bytes * NANOS_PER_SECOND / bytesPerSecond);
  }
}
