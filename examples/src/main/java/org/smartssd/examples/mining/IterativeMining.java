package org.smartssd.examples.mining;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * An iterative data-mining workload as Hadoop jobs, one an iteration, over its data set, with the same
 * iterations computed directly in memory to check them against.
 *
 * @param <S> what an iteration computes (centroids, ranks, frequent itemsets), and the next one starts from
 */
public interface IterativeMining<S> {
  Algorithm algorithm();

  /** What the data set is, in a line (its size, where it came from, its parameters). */
  String description();

  /** The state the first iteration starts from. */
  S initial();

  /**
   * What an iteration's job starts from, and where it writes.
   *
   * @param iteration 1 for the first
   * @param state the previous iteration's state as the driver holds it (the initial state for the first), for
   *     a workload whose driver makes each job from it; null for one whose state stays in the devices
   *     ({@link #stateInDevices}), which makes its job from the files and the previous job only (the driver reads
   *     the state to check it, and that reading is not part of the job's data path)
   * @param inputs the job's input files
   * @param output the job's output directory
   * @param stateFiles the previous iteration's state file, a copy on each device that holds input, the first
   *     copy where the previous job wrote it (for the first iteration, {@link #initialStateFile}'s); empty when
   *     there is none
   * @param sideFiles the workload's side files ({@link #sideFiles}) by name, each a copy on each device that
   *     holds input
   * @param previous the previous iteration's finished job (its configuration and counters), or null for the first
   */
  record Step<S>(int iteration, S state, List<Path> inputs, Path output, List<Path> stateFiles,
      Map<String, List<Path>> sideFiles, Job previous) {
    public Step {
      inputs = List.copyOf(inputs);
      stateFiles = List.copyOf(stateFiles);
      sideFiles = Map.copyOf(sideFiles);
    }
  }

  /**
   * Whether the state goes from an iteration's job to the next as a file on the devices (the reducer's
   * output, written to a directory on the devices, copied to every device that holds input, and read by the
   * next job's tasks in their {@code setup}) rather than through the driver (read by it, and put in the next
   * job's configuration).
   */
  default boolean stateInDevices() {
    return false;
  }

  /**
   * The file the first iteration's job reads its state from (as an iteration's reducer writes it), written by
   * the driver to every device that holds input; null when the first iteration needs none. Only for a
   * workload whose state stays in the devices.
   */
  default byte[] initialStateFile() {
    return null;
  }

  /**
   * Files every iteration's job reads besides the state (PageRank's out-degrees), by name, written once by
   * the driver to every device that holds input. Only for a workload whose state stays in the devices.
   */
  default Map<String, byte[]> sideFiles() {
    return Map.of();
  }

  /**
   * The ordinary (host-normal) job of an iteration, not yet submitted: its mapper, combiner and reducer,
   * its input format over the step's inputs, one reducer writing text to the step's output. Device mode
   * rewires its map phase.
   */
  Job job(Configuration conf, Step<S> step) throws IOException;

  /**
   * The name of a map-only job run after the last iteration over each device's records, writing a line a
   * record to a directory on that device (k-means: each point's cluster); null for none.
   */
  default String finalJobName() {
    return null;
  }

  /**
   * The map-only job after the last iteration ({@link #finalJobName}), over one device's input files (the
   * step's inputs), writing {@code TextOutputFormat} to the step's output on that device. The step's state
   * files are the last iteration's.
   */
  default Job finalJob(Configuration conf, Step<S> step) throws IOException {
    throw new UnsupportedOperationException(algorithm() + " has no job after its last iteration");
  }

  /**
   * The lines the job after the last iteration writes for the records of one part of the data set (as
   * {@link #load} cut it: part {@code part} of {@code parts}), in any order, computed directly from the last
   * state.
   */
  default List<String> finalLines(S last, int part, int parts) {
    throw new UnsupportedOperationException(algorithm() + " has no job after its last iteration");
  }

  /**
   * The state an iteration's job computed, from the lines of its output.
   *
   * @throws IOException naming the line when the output is not what the job's reducer writes
   */
  S next(S state, int iteration, List<String> output) throws IOException;

  /** Whether the iterations stop after {@code iteration}, which went from {@code before} to {@code after}. */
  boolean stop(S before, S after, int iteration);

  /** The states after each iteration, computed directly in memory (no Hadoop), with the same rule to stop. */
  List<S> direct();

  /** A state, whole and exact, as lines: two states are the same when their lines are. */
  List<String> lines(S state);

  /** A few lines that show what a state found (for the report). */
  List<String> summary(S state);

  /**
   * Writes the data set into the targets ({@code objfs://...} files), in equal whole-record parts, one a
   * target, in order.
   */
  void load(Configuration conf, List<Path> targets) throws IOException;

  /** Records of the data set (points, edges, transactions). */
  long records();

  /** Bytes of the data set as stored. */
  long bytes();

  /** Bytes a record takes when they all take the same, else 1. */
  int recordBytes();
}
