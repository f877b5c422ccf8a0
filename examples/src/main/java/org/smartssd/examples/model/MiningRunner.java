package org.smartssd.examples.model;

import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;
import org.smartssd.examples.mining.Algorithm;
import org.smartssd.examples.mining.Apriori;
import org.smartssd.examples.mining.AprioriData;
import org.smartssd.examples.mining.Graph;
import org.smartssd.examples.mining.IterativeMining;
import org.smartssd.examples.mining.KMeans;
import org.smartssd.examples.mining.Mine;
import org.smartssd.examples.mining.MiningRun;
import org.smartssd.examples.mining.PageRank;

/**
 * Runs one job of a data-mining workload in the simulator, as {@code smartssd mine} runs its iterations
 * ({@link MiningRun}), on devices of its own: a data set generated with {@code mine}'s defaults and spread
 * over the devices as {@code mine} spreads it, then host-normal and device mode (the workloads have no
 * host-optimized mode), each checked against the direct computation.
 *
 * <p>The job is one iteration's, the one that shows the workload's cost:
 * <ul>
 *   <li>k-means and PageRank: the first iteration's, which starts from what the driver wrote rather than
 *       from an earlier job's output. Every iteration maps the same data the same way (a distance a point and
 *       centroid; a share an edge); k-means' all read k centroids, but PageRank's later ones also parse the
 *       previous ranks (a line a node an edge reaches) in every lane's set-up, which the first, its ranks all
 *       1 / N, does not: PageRank's first iteration is its cheapest.
 *   <li>Apriori: the second pass's. The first counts single items (a thousand keys at most, whatever the
 *       data); the second counts every pair of frequent items a transaction holds, tens of thousands of
 *       candidates that every lane decodes from the job's configuration and whose partial counts every lane
 *       sends to the host to be merged: the global merge the iSSD found to cost Apriori its gain in the
 *       device. Later passes have fewer candidates. Pass 1 runs first, as the second needs its frequent
 *       items; only the second is measured.
 * </ul>
 *
 * <p>What a record is: a point (k-means) and an edge (PageRank), as the runs' statistics count them. A
 * transaction is a text line whose length varies, so Apriori's statistics, and the analytic model, count
 * its input in bytes; {@code --records} still sizes the data set in transactions. PageRank's graph has
 * {@code records} / {@value Graph#MEAN_OUT_DEGREE} nodes, so about {@code records} edges.
 */
public final class MiningRunner implements Runner {
  private final Algorithm algorithm;
  private final SimulatedDevices devices;

  /** The workload's job as the sampler and the sweep take it: host-normal and device mode. */
  public static SampledJob job(Algorithm algorithm) {
    return new SampledJob(algorithm.optionName(), Mine.MODES, false,
        (deviceKeys, devices, hadoopKeys) -> new MiningRunner(algorithm, deviceKeys, devices, hadoopKeys));
  }

  /**
   * Starts {@code count} devices with the given keys ({@code smartssd.device.*}).
   *
   * @param hadoopKeys keys for the jobs (such as {@code smartssd.mapper.merge})
   */
  public MiningRunner(Algorithm algorithm, Map<String, String> deviceKeys, int count, Map<String, String> hadoopKeys)
      throws IOException {
    this.algorithm = algorithm;
    this.devices = new SimulatedDevices(deviceKeys, count, hadoopKeys);
  }

  /** The iteration whose job is measured (1 for the first). */
  static int measuredIteration(Algorithm algorithm) {
    return algorithm == Algorithm.APRIORI ? 2 : 1;
  }

  @Override
  public Map<Mode, RunStatistics> run(long records, long seed, List<Mode> modes)
      throws IOException, InterruptedException {
    return run(workload(algorithm, records, seed), modes);
  }

  /**
   * Checks the size of a data set of the algorithm's: k-means needs a point a cluster, PageRank's graph two
   * nodes; the data set lives in this JVM's memory as {@code mine}'s does, within its limits.
   *
   * @throws IllegalArgumentException saying what the records may be
   */
  public static void check(Algorithm algorithm, long records) {
    long least = switch (algorithm) {
      case KMEANS -> KMeans.DEFAULT_K;
      case PAGERANK -> (long) (2 * Graph.MEAN_OUT_DEGREE);
      case APRIORI -> 1;
    };
    long most = switch (algorithm) {
      case KMEANS -> (Integer.MAX_VALUE - 8) / KMeans.DEFAULT_DIMENSIONS;
      case PAGERANK -> (long) (50_000_000 * Graph.MEAN_OUT_DEGREE);
      case APRIORI -> 10_000_000;
    };
    if (records < least || records > most) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "%s takes %,d to %,d records, not %,d", algorithm,
          least, most, records));
    }
  }

  /**
   * The workload over a generated data set of {@code records} records, with {@code mine}'s defaults, that
   * goes on at least one iteration past the measured one (so that stopping there is the sweep's choice, and
   * k-means' job after its last iteration does not run).
   */
  static IterativeMining<?> workload(Algorithm algorithm, long records, long seed) {
    check(algorithm, records);
    int iterations = measuredIteration(algorithm) + 1;
    return switch (algorithm) {
      case KMEANS -> KMeans.generated((int) records, KMeans.DEFAULT_DIMENSIONS, KMeans.DEFAULT_K, seed, iterations,
          0);
      case PAGERANK -> new PageRank(Graph.generate((int) Math.max(2, Math.round(records / Graph.MEAN_OUT_DEGREE)),
          Graph.MEAN_OUT_DEGREE, seed), PageRank.DEFAULT_DAMPING, iterations);
      case APRIORI -> Apriori.generated((int) records, AprioriData.MEAN_TRANSACTION_SIZE, Apriori.DEFAULT_SUPPORT,
          seed, iterations);
    };
  }

  private <S> Map<Mode, RunStatistics> run(IterativeMining<S> workload, List<Mode> modes)
      throws IOException, InterruptedException {
    int measured = measuredIteration(algorithm);
    List<Path> inputs = devices.paths(Mine.devicePath(algorithm)).stream().map(Path::new).toList();
    workload.load(devices.conf(), inputs);
    List<S> expected = workload.direct();
    if (expected.size() < measured) {
      throw new IOException(String.format(Locale.ROOT, "%s: the direct computation stops after %d iteration(s), "
          + "before the measured one, %d: %s", algorithm, expected.size(), measured, workload.description()));
    }
    devices.awaitIdle();
    Map<Mode, RunStatistics> runs = new EnumMap<>(Mode.class);
    for (Mode m : modes) {
      MiningRun.ModeRun run = MiningRun.run(devices.conf(), workload, m, inputs, measured, expected, line -> { });
      if (!run.agrees()) {
        throw new IOException(String.join("; ", run.disagreements()));
      }
      RunStatistics s = run.iterations().get(measured - 1).statistics();
      runs.put(m, Runner.ranInTheDevice(algorithm.optionName(), m, s));
    }
    return runs;
  }

  @Override
  public void close() throws IOException {
    devices.close();
  }
}
