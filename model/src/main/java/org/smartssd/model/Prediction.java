package org.smartssd.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The analytic model's time for a job in one mode, with the breakdown the sources use; nanoseconds.
 *
 * @param mode the mode
 * @param dataAccessNanos flash to the core (device mode: the slowest channel's internal reads) or to
 *     the host (host modes: the reads, flash and link streamed, command costs included)
 * @param processingNanos the functions' compute: the busiest lane's (device mode) or the host's
 * @param swapNanos the iSSD's swap cost (Eq. 8 and 9): nothing unless a function's memory exceeds its
 *     core's
 * @param mergeNanos the controller core's merge of the lanes' results (merge on the device)
 * @param linkNanos results crossing the host link (device mode; host modes' link time is in data access)
 * @param hostNanos the host's compute in device mode (reading the partial results, the reduce)
 * @param executionNanos device mode: the executions on the slowest device, the XSD's streaming of reads
 *     and compute (pipelined: the longer of the two, with the first request's read or the last one's
 *     compute)
 * @param issdExecutionNanos device mode: the same by the iSSD's Eq. 12, reads and compute added
 * @param totalNanos the mode's time: device mode, executions then the host's compute; host modes,
 *     data access then processing
 */
public record Prediction(Mode mode, double dataAccessNanos, double processingNanos, double swapNanos,
    double mergeNanos, double linkNanos, double hostNanos, double executionNanos, double issdExecutionNanos,
    double totalNanos) {

  public double seconds() {
    return totalNanos / 1e9;
  }

  /** The breakdown by name, in seconds, in a stable order. */
  public Map<String, Double> breakdown() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("data_access_s", dataAccessNanos / 1e9);
    m.put("processing_s", processingNanos / 1e9);
    m.put("swap_s", swapNanos / 1e9);
    m.put("merge_s", mergeNanos / 1e9);
    m.put("link_s", linkNanos / 1e9);
    m.put("host_s", hostNanos / 1e9);
    m.put("execution_s", executionNanos / 1e9);
    m.put("issd_execution_s", issdExecutionNanos / 1e9);
    return m;
  }
}
