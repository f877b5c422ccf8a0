package org.smartssd.device.runtime.config;

import java.util.List;
import org.smartssd.opcount.CoreCost;

/**
 * Parameters of in-storage processing, validated.
 *
 * @param cores device cores (lanes)
 * @param coreMhz clock of a device core
 * @param controllerMhz clock of the controller core that merges on the device
 * @param hostMhz clock of the host CPU, to scale measured CPU time to a device core
 * @param computeModel how a lane's compute time is modelled
 * @param cyclesPerByte device-core cycles per input byte, with {@link ComputeModel#CYCLES}
 * @param core what counted work costs on a device core ({@link ComputeModel#COUNTED})
 * @param host what counted work costs on the modelled host's CPU
 * @param hostCores host cores sharing the host's counted work
 * @param mergeOnDevice merge lanes' results on the controller core before they go to the host
 * @param threads machine threads running one execution's lanes
 * @param readRequestPages pages of one channel in an internal read request
 * @param laneBufferBytes results a lane holds before it waits for the host
 * @param laneMemoryBytes memory a lane (a channel core) has for its function's state, the iSSD's
 *     M_ch; {@link Long#MAX_VALUE} for unbounded. Only the analytic model's swap term reads it: the
 *     simulator bounds no lane's memory (a tasklet's heap is bounded per event by memoryBudgetBytes,
 *     a containment limit, not a modelled memory)
 * @param outputBudgetBytes results one execution may produce
 * @param memoryBudgetBytes heap a tasklet may allocate in one event
 * @param timeLimitMillis wall-clock time an execution may run
 * @param maxExecutions executions running at once
 * @param maxExecutionsPerConnection executions one connection may have running at once
 * @param maxTasklets tasklets installed at once, over all connections
 * @param maxRecordBytes longest delimited record read past an input range
 * @param codeCacheBytes tasklet jars kept by their SHA-256, in bytes (0: none)
 * @param loadedCodeEntries tasklets whose loaded classes are kept for installs of the same code (0: none)
 * @param sharedPackages package prefixes of device classes that tasklets may use
 */
public record IspParameters(
    int cores,
    double coreMhz,
    double controllerMhz,
    double hostMhz,
    ComputeModel computeModel,
    double cyclesPerByte,
    CoreCost core,
    CoreCost host,
    int hostCores,
    boolean mergeOnDevice,
    int threads,
    int readRequestPages,
    int laneBufferBytes,
    long laneMemoryBytes,
    long outputBudgetBytes,
    long memoryBudgetBytes,
    long timeLimitMillis,
    int maxExecutions,
    int maxExecutionsPerConnection,
    int maxTasklets,
    int maxRecordBytes,
    long codeCacheBytes,
    int loadedCodeEntries,
    List<String> sharedPackages) {

  public IspParameters {
    if (laneMemoryBytes < 1) {
      throw new IllegalArgumentException("laneMemoryBytes must be positive (Long.MAX_VALUE: unbounded), was "
          + laneMemoryBytes);
    }
    sharedPackages = List.copyOf(sharedPackages);
  }

  /** Whether a lane's memory is bounded ({@link #laneMemoryBytes} is not {@link Long#MAX_VALUE}). */
  public boolean laneMemoryBounded() {
    return laneMemoryBytes != Long.MAX_VALUE;
  }

  /** How a lane's compute time is modelled ({@code smartssd.device.isp.compute-model}). */
  public enum ComputeModel {
    /** The work the tasklet's code does, counted, priced by the core's parameters: repeatable. */
    COUNTED,
    /** The lanes' CPU time on this machine, scaled by host-mhz / core-mhz: depends on the machine. */
    MEASURED,
    /** A fixed number of cycles per input byte, for every tasklet. */
    CYCLES;

    /** The name in configuration and reports. */
    public String optionName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The controller core: a device core at the controller's clock. */
  public CoreCost controller() {
    return core.atMhz(controllerMhz);
  }
}
