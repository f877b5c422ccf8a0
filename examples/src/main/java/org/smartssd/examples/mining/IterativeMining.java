package org.smartssd.examples.mining;

import java.io.IOException;
import java.util.List;
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
   * The ordinary (host-normal) job of an iteration, not yet submitted: its mapper, combiner and reducer,
   * its input format over {@code inputs}, the state in its configuration, one reducer writing text to
   * {@code output}. Device mode rewires its map phase.
   *
   * @param iteration 1 for the first
   */
  Job job(Configuration conf, S state, int iteration, List<Path> inputs, Path output) throws IOException;

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
