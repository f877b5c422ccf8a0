package org.smartssd.device.runtime.timing;

import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.opcount.CoreCost;
import org.smartssd.opcount.OpCounts;

/**
 * The modelled time of one execution: when each channel may start its next internal read request,
 * when each device core is free, the controller core's merge, and the results' trips over the host
 * link. Channels stream into the device buffer while cores compute (a request's compute starts when
 * its data is in and its core is free). All times are on the device's modelled clock.
 */
public final class ExecutionModel {
  private final IspParameters isp;
  private final EnergyModel energy;
  private final long startNanos;
  private final long[] channelReadyNanos;
  private final long[] coreFreeNanos;
  private long readEndNanos;
  private long computeNanos;
  private long processingEndNanos;
  private long mergeNanos;
  private long transferNanos;
  private long deliveredEndNanos;
  /** Per channel, how long host operations delayed its internal reads. */
  private final long[] hostDelayNanos;
  private long behindModelNanos;
  private long writeNanos;

  public ExecutionModel(IspParameters isp, EnergyModel energy, int channels, long startNanos) {
    this.isp = isp;
    this.energy = energy;
    this.startNanos = startNanos;
    this.channelReadyNanos = new long[channels];
    java.util.Arrays.fill(channelReadyNanos, startNanos);
    this.coreFreeNanos = new long[isp.cores()];
    java.util.Arrays.fill(coreFreeNanos, startNanos);
    this.readEndNanos = startNanos;
    this.processingEndNanos = startNanos;
    this.deliveredEndNanos = startNanos;
    this.hostDelayNanos = new long[channels];
  }

  public long startNanos() {
    return startNanos;
  }

  /** When channel {@code c}'s next internal request may start. */
  public synchronized long channelReady(int channel) {
    return channelReadyNanos[channel];
  }

  /**
   * A request's pages reached the device buffer at {@code doneNanos}, {@code hostDelayNanos} later
   * than they would have without host operations.
   */
  public synchronized void readDone(int channel, long doneNanos, long hostDelayNanos) {
    channelReadyNanos[channel] = Math.max(channelReadyNanos[channel], doneNanos);
    readEndNanos = Math.max(readEndNanos, doneNanos);
    this.hostDelayNanos[channel] += hostDelayNanos;
  }

  /** How long host operations delayed the reads: its channels read in parallel, so the most any was. */
  public synchronized long hostDelayNanos() {
    long most = 0;
    for (long d : hostDelayNanos) {
      most = Math.max(most, d);
    }
    return most;
  }

  /** The execution really ended this much later than its modelled processing (paced devices). */
  public synchronized void behindModel(long nanos) {
    behindModelNanos = Math.max(0, nanos);
  }

  public synchronized long behindModelNanos() {
    return behindModelNanos;
  }

  /** When a core may start computing on data that arrived at {@code dataNanos}. */
  public synchronized long computeStart(int core, long dataNanos) {
    return Math.max(coreFreeNanos[core], dataNanos);
  }

  /** Runs {@code nanos} of compute on {@code core} from {@code computeStart}; returns its end. */
  public synchronized long compute(int core, long computeStart, long nanos) {
    long end = Math.max(computeStart, coreFreeNanos[core]) + nanos;
    coreFreeNanos[core] = end;
    computeNanos += nanos;
    processingEndNanos = Math.max(processingEndNanos, end);
    return end;
  }

  /**
   * Device-core time of some of a lane's work: {@code bytes} read, {@code measuredCpuNanos} of this
   * machine's CPU spent on them, {@code counted} the work its code did.
   */
  public long coreNanos(long bytes, long measuredCpuNanos, OpCounts counted) {
    return nanos(bytes, measuredCpuNanos, counted, isp.core());
  }

  /** The controller core's merge, after every lane; returns its end. */
  public synchronized long merge(long resultBytes, long measuredCpuNanos, OpCounts counted) {
    mergeNanos = nanos(resultBytes, measuredCpuNanos, counted, isp.controller());
    processingEndNanos += mergeNanos;
    return processingEndNanos;
  }

  private long nanos(long bytes, long measuredCpuNanos, OpCounts counted, CoreCost core) {
    return switch (isp.computeModel()) {
      case COUNTED -> core.nanos(counted);
      case MEASURED -> (long) Math.ceil(measuredCpuNanos * isp.hostMhz() / core.mhz());
      case CYCLES -> (long) Math.ceil(bytes * isp.cyclesPerByte() * 1000.0 / core.mhz());
    };
  }

  /**
   * Results taking {@code linkNanos} on the host link, ready at {@code readyNanos}: they cross as
   * soon as they are ready and the link has carried the ones before (a host that polls promptly).
   */
  public synchronized void delivered(long readyNanos, long linkNanos) {
    if (linkNanos == 0) {
      return;
    }
    deliveredEndNanos = Math.max(deliveredEndNanos, readyNanos) + linkNanos;
    transferNanos += linkNanos;
  }

  /**
   * The execution's output object was durable at {@code durableNanos}: the execution ends no earlier.
   * What it adds after the cores and the merge is its write time.
   */
  public synchronized void outputDurable(long durableNanos) {
    writeNanos = Math.max(0, durableNanos - processingEndNanos);
    processingEndNanos = Math.max(processingEndNanos, durableNanos);
  }

  /** How much later than the cores and the merge the output object was durable (0 without one). */
  public synchronized long writeNanos() {
    return writeNanos;
  }

  /** The latest modelled completion of the processing (cores, merge, and the output object's programs). */
  public synchronized long processingEndNanos() {
    return processingEndNanos;
  }

  public synchronized long modelledNanos() {
    return Math.max(processingEndNanos, deliveredEndNanos) - startNanos;
  }

  public synchronized long readNanos() {
    return readEndNanos - startNanos;
  }

  public synchronized long computeNanos() {
    return computeNanos;
  }

  public synchronized long mergeNanos() {
    return mergeNanos;
  }

  public synchronized long transferNanos() {
    return transferNanos;
  }

  /** Modelled time the device's cores computed for the execution, summed over the cores: the lanes, then the merge. */
  public synchronized long coreBusyNanos() {
    return computeNanos + mergeNanos;
  }

  /**
   * Device energy over the execution: idle power over its modelled duration, and the device's energy
   * model's price of its work (its cores' compute, the pages it read, the pages and erases of its output
   * object, its results on the link).
   */
  public long deviceMicrojoules(long pagesRead, long pagesProgrammed, long blocksErased, long resultBytes) {
    long work = energy.account(coreBusyNanos(), pagesRead, pagesProgrammed, blocksErased, resultBytes)
        .totalNanojoules();
    return (long) ((energy.idleJoules(modelledNanos()) * 1e9 + work) / 1000);
  }

  /** Host energy: idle power while it waits for the device. */
  public long hostMicrojoules() {
    return (long) (energy.parameters().hostIdleWatts() * modelledNanos() / 1000.0);
  }
}
