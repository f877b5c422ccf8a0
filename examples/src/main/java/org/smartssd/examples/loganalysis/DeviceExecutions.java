package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.WorkProfile;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Executions a command drives in a device itself (a built-in tasklet, no Hadoop job): each run to its end,
 * its statistics and, while profiling ({@link WorkProfiling}), its profile kept for the run's measurement.
 */
public final class DeviceExecutions {
  private final List<ExecutionStatistics> statistics = new ArrayList<>();
  private final List<WorkProfile> profiles = new ArrayList<>();

  /**
   * Executes {@code tasklet} over {@code inputs} and drains its results.
   *
   * @param what what the execution is, for the error when it does not end DONE
   */
  public List<TaskletResult> run(DeviceClient client, long tasklet, List<InputRange> inputs,
      Map<String, String> options, String what) throws IOException {
    if (WorkProfiling.enabled()) {
      options = new HashMap<>(options);
      options.put("profile", "true");
    }
    long execution = client.executeObject(tasklet, inputs, options);
    List<TaskletResult> results = new ArrayList<>();
    Response.ExecutionProgress last = ExecutionPoller.drain(client, execution, results::add);
    if (last.state() != ExecutionState.DONE) {
      throw new IOException(what + " in the device " + client.address() + " ended " + last.state() + ": "
          + last.message());
    }
    statistics.add(last.statistics());
    if (last.profile() != null) {
      profiles.add(last.profile());
    }
    return results;
  }

  /** The statistics of every execution run so far. */
  public List<ExecutionStatistics> statistics() {
    return List.copyOf(statistics);
  }

  /** The profiles of the executions that were profiled. */
  public List<WorkProfile> profiles() {
    return List.copyOf(profiles);
  }
}
