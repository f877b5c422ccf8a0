package org.smartssd.examples.model;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.smartssd.examples.loganalysis.Mode;

/**
 * What the sampler measures and a sweep runs: a job of one workload (a scenario of the log analysis, or one
 * iteration's job of a data-mining workload), in the modes it has.
 */
public interface SampledJob {
  /** The workload's name on the command line ({@code regions}, {@code kmeans}). */
  String name();

  /** The modes the job runs in, in the order they run. */
  List<Mode> modes();

  /**
   * Whether the job reads the log analysis's trace, whose stored record size is a setting ({@link
   * Setting#RECORD_BYTES}); a data-mining workload's records are its own.
   */
  boolean storesTraceRecords();

  /**
   * Starts {@code devices} devices of this JVM with the given keys ({@code smartssd.device.*}) for the job.
   *
   * @param hadoopKeys keys for the jobs (such as {@code smartssd.mapper.merge})
   */
  Runner open(Map<String, String> deviceKeys, int devices, Map<String, String> hadoopKeys) throws IOException;
}
