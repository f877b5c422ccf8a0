package org.smartssd.device.tasklet;

import java.util.List;
import java.util.Map;

/**
 * An execution as one lane sees it.
 *
 * @param executionId the device's id of the execution
 * @param inputs what the execution runs over, as the host gave it
 * @param options the options given at {@code execute_object}
 * @param lane this instance's lane
 * @param lanes how many lanes run the execution
 * @param outputPath the object the execution writes on flash ({@link ResultSink#flash()}), or empty
 *     when its results all go to the host
 */
public record ExecutionInfo(long executionId, List<InputRange> inputs, Map<String, String> options, int lane, int lanes,
    String outputPath) {
  public ExecutionInfo {
    inputs = List.copyOf(inputs);
    options = Map.copyOf(options);
    java.util.Objects.requireNonNull(outputPath, "outputPath");
  }

  /** An execution without an output object. */
  public ExecutionInfo(long executionId, List<InputRange> inputs, Map<String, String> options, int lane, int lanes) {
    this(executionId, inputs, options, lane, lanes, "");
  }

  /** Whether the execution writes an output object on flash. */
  public boolean hasOutput() {
    return !outputPath.isEmpty();
  }
}
