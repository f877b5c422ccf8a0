package org.smartssd.device.runtime.config;

import java.util.List;

/**
 * Parameters of in-storage processing, validated.
 *
 * @param cores device cores (lanes)
 * @param coreMhz clock of a device core
 * @param controllerMhz clock of the controller core that merges on the device
 * @param hostMhz clock of the host CPU, to scale measured CPU time to a device core
 * @param cyclesPerByte device-core cycles per input byte, or 0 to scale measured CPU time
 * @param mergeOnDevice merge lanes' results on the controller core before they go to the host
 * @param threads machine threads running one execution's lanes
 * @param readRequestPages pages of one channel in an internal read request
 * @param laneBufferBytes results a lane holds before it waits for the host
 * @param outputBudgetBytes results one execution may produce
 * @param memoryBudgetBytes heap a tasklet may allocate in one event
 * @param timeLimitMillis wall-clock time an execution may run
 * @param maxExecutions executions running at once
 * @param maxRecordBytes longest delimited record read past an input range
 * @param codeCacheBytes tasklet jars kept by their SHA-256, in bytes (0: none)
 * @param sharedPackages package prefixes of device classes that tasklets may use
 */
public record IspParameters(
    int cores,
    double coreMhz,
    double controllerMhz,
    double hostMhz,
    double cyclesPerByte,
    boolean mergeOnDevice,
    int threads,
    int readRequestPages,
    int laneBufferBytes,
    long outputBudgetBytes,
    long memoryBudgetBytes,
    long timeLimitMillis,
    int maxExecutions,
    int maxRecordBytes,
    long codeCacheBytes,
    List<String> sharedPackages) {

  public IspParameters {
    sharedPackages = List.copyOf(sharedPackages);
  }

  /** Whether compute time is modelled from a fixed cycles-per-byte (repeatable) rather than measured. */
  public boolean fixedCycles() {
    return cyclesPerByte > 0;
  }
}
