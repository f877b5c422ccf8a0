package org.smartssd.examples.mining;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.smartssd.examples.loganalysis.DeviceMode;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.MeasuredJob;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;

/**
 * Runs an iterative workload's jobs in one mode, one job an iteration, each measured as the log
 * analysis's runs are ({@link MeasuredJob}), until the workload says stop; and checks each iteration's
 * state against the direct computation's.
 */
public final class MiningRun {
  private MiningRun() {}

  /**
   * One iteration's job: what it found (the state, as lines) and what it cost.
   *
   * @param iteration 1 for the first
   */
  public record Iteration(int iteration, Mode mode, RunStatistics statistics) {}

  /**
   * A mode's iterations, and where they differ from the direct computation's (none when every iteration
   * found what it found, and they stopped after as many).
   */
  public record ModeRun(List<Iteration> iterations, List<String> disagreements) {
    public boolean agrees() {
      return disagreements.isEmpty();
    }
  }

  /**
   * Runs the iterations in a mode: host-normal (the ordinary job over objfs) or device (the same job, its
   * map phase in the devices through {@code DeviceJobClient}). Each job writes to a temporary directory of
   * this machine, deleted after it is read.
   *
   * @param maxIterations stop after this many even if the workload would go on (the warm-up runs 1)
   * @param expected the direct computation's states, an iteration each ({@link IterativeMining#direct})
   * @param log told of each iteration
   */
  public static <S> ModeRun run(Configuration conf, IterativeMining<S> mining, Mode mode, List<Path> inputs,
      int maxIterations, List<S> expected, Consumer<String> log) throws IOException, InterruptedException {
    if (mode != Mode.HOST_NORMAL && mode != Mode.DEVICE) {
      throw new IllegalArgumentException("the mining workloads run in host-normal and device mode, not " + mode);
    }
    List<Iteration> iterations = new ArrayList<>();
    List<String> disagreements = new ArrayList<>();
    String name = mining.algorithm().optionName() + " " + mode.optionName();
    S state = mining.initial();
    for (int i = 1; i <= maxIterations; i++) {
      int iteration = i;
      S before = state;
      java.nio.file.Path temporary = Files.createTempDirectory("smartssd-mine-");
      Path out = new Path(temporary.toUri().toString(), "output");
      FileSystem outFs = out.getFileSystem(conf);
      try {
        MeasuredJob.Measurement<S> measured = MeasuredJob.run(conf, mode, inputs, () -> {
          Job job = mining.job(conf, before, iteration, inputs, out);
          if (mode == Mode.DEVICE) {
            DeviceMode.configure(job, inputs);
          }
          return job;
        }, job -> mining.next(before, iteration, LogAnalysis.readOutput(outFs, out)),
            () -> " (the task's error is in the job's log; from the smartssd command, rerun with "
                + "SMARTSSD_JAVA_OPTS=-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.mapred.LocalJobRunner=warn to see "
                + "it)");
        state = measured.result();
        RunStatistics statistics = measured.statistics(mining.algorithm(), mode, mining.bytes(), mining.recordBytes());
        iterations.add(new Iteration(iteration, mode, statistics));
        if (iteration > expected.size()) {
          disagreements.add(String.format(Locale.ROOT, "%s: ran iteration %d, but the direct computation stopped "
              + "after %d", name, iteration, expected.size()));
        } else {
          String difference = firstDifference(mining.lines(state), mining.lines(expected.get(iteration - 1)));
          if (difference != null) {
            disagreements.add(String.format(Locale.ROOT, "%s iteration %d: %s", name, iteration, difference));
          }
        }
        log.accept(String.format(Locale.ROOT, "%s %-11s iteration %2d: wall %7.3f s, modelled %7.3f s, %,d bytes across "
            + "the host interface%s", mining.algorithm(), mode.optionName(), iteration, statistics.wallSeconds(),
            statistics.modelledSeconds(), statistics.hostInterfaceBytes(),
            statistics.fellBack() ? ", " + statistics.fallbackSplits() + " split(s) NOT IN THE DEVICE" : ""));
      } finally {
        outFs.delete(out, true);
        Files.deleteIfExists(temporary);
      }
      if (mining.stop(before, state, iteration) || !disagreements.isEmpty()) {
        break;
      }
    }
    if (disagreements.isEmpty() && iterations.size() < Math.min(maxIterations, expected.size())) {
      disagreements.add(String.format(Locale.ROOT, "%s: stopped after iteration %d, the direct computation after %d",
          name, iterations.size(), expected.size()));
    }
    return new ModeRun(iterations, disagreements);
  }

  /** The first line where a state differs from the direct computation's, or null when none does. */
  static String firstDifference(List<String> got, List<String> want) {
    for (int i = 0; i < Math.max(got.size(), want.size()); i++) {
      String g = i < got.size() ? got.get(i) : "(nothing)";
      String w = i < want.size() ? want.get(i) : "(nothing)";
      if (!g.equals(w)) {
        return "line " + (i + 1) + " is '" + g + "', the direct computation's '" + w + "'";
      }
    }
    return null;
  }
}
