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
 */
public record ExecutionInfo(long executionId, List<InputRange> inputs, Map<String, String> options, int lane, int lanes) {
  public ExecutionInfo {
    inputs = List.copyOf(inputs);
    options = Map.copyOf(options);
  }
}
