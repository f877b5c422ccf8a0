package org.smartssd.examples.model;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.smartssd.examples.loganalysis.Mode;

/**
 * What the sampler measures and a sweep runs: a job of one workload (a scenario of the log analysis, or one
 * iteration's job of a data-mining workload), in the modes it has.
 *
 * @param name the workload's name on the command line ({@code regions}, {@code kmeans})
 * @param modes the modes the job runs in, in the order they run
 * @param storesTraceRecords whether the job reads the log analysis's trace, whose stored record size is a
 *     setting ({@link Setting#RECORD_BYTES}); a data-mining workload's records are its own
 * @param opener how a runner of the job starts
 */
public record SampledJob(String name, List<Mode> modes, boolean storesTraceRecords, Opener opener) {
  /** Starts a runner of the job on devices of its own. */
  @FunctionalInterface
  public interface Opener {
    Runner open(Map<String, String> deviceKeys, int devices, Map<String, String> hadoopKeys) throws IOException;
  }

  public SampledJob {
    modes = List.copyOf(modes);
  }

  /**
   * Starts {@code devices} devices of this JVM with the given keys ({@code smartssd.device.*}) for the job.
   *
   * @param hadoopKeys keys for the jobs (such as {@code smartssd.mapper.merge})
   */
  public Runner open(Map<String, String> deviceKeys, int devices, Map<String, String> hadoopKeys) throws IOException {
    return opener.open(deviceKeys, devices, hadoopKeys);
  }
}
