package org.smartssd.examples.mining;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.smartssd.devicemapper.DeviceCounters;
import org.smartssd.examples.loganalysis.DeviceMode;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.MeasuredJob;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;

/**
 * Runs an iterative workload's jobs in one mode, one job an iteration, each measured as the log
 * analysis's runs are ({@link MeasuredJob}), until the workload says stop; and checks each iteration's
 * state against the direct computation's.
 *
 * <p>A workload whose state stays in the devices ({@link IterativeMining#stateInDevices}: k-means,
 * PageRank) has each iteration's job write its output to a directory on the devices that hold the input,
 * {@code MODE/iteration-NNN} beside the data (the first device's input's directory; a device's own for the
 * copies), and the next job's tasks read it there. What a job's measurement counts is the job's own data
 * path: for the first iteration, the driver writing the side files and the first state to every device; the
 * job (its tasks reading the state, in host-normal across the host link, in a device next to the flash; its
 * reducer writing the new state to the first device); then the driver copying the state file from the first
 * device to the others, read once and written to each. The driver's reading of the state to check it against
 * the direct computation comes after the measurement and is not counted. A workload whose driver makes each
 * job from the state (Apriori) has its jobs write to a temporary directory of this machine, and reads the
 * output inside the measurement, as its next job needs it.
 */
public final class MiningRun {
  private MiningRun() {}

  /**
   * One iteration's job: what it cost.
   *
   * @param iteration 1 for the first
   * @param taskletInstallBytes device mode: the tasklets' {@code CREATE_OBJECT} frames (their code's digest, the
   *     split and the job's configuration; the code itself when the device did not have it), part of the
   *     host-interface bytes; 0 in host-normal
   * @param stateBytes the bytes of the state file the job wrote on the devices (the first copy), or 0 when its
   *     state does not stay in the devices
   */
  public record Iteration(int iteration, Mode mode, RunStatistics statistics, long taskletInstallBytes,
      long stateBytes) {}

  /**
   * A map-only job after the last iteration, over one device's records, writing to that device.
   *
   * @param name the workload's name for it, with the device when there are several
   * @param output the directory it wrote
   * @param deviceOutputBytes device mode: what the devices wrote of its output themselves
   *     ({@code DEVICE_OUTPUT_BYTES}); 0 in host-normal
   * @param outputBytes the bytes of its output files
   */
  public record FinalJob(String name, Mode mode, Path output, RunStatistics statistics, long taskletInstallBytes,
      long deviceOutputBytes, long outputBytes) {}

  /**
   * A mode's iterations, the jobs after them, and where they differ from the direct computation (none when
   * every iteration found what it found, they stopped after as many, and the jobs after wrote what it says).
   */
  public record ModeRun(List<Iteration> iterations, List<FinalJob> after, List<String> disagreements) {
    public boolean agrees() {
      return disagreements.isEmpty();
    }
  }

  /**
   * Runs the iterations in a mode: host-normal (the ordinary job over objfs) or device (the same job, its
   * map phase in the devices through {@code DeviceJobClient}); then, when the workload has one and stopped by
   * its own rule, the job after the last iteration on each device.
   *
   * @param maxIterations stop after this many even if the workload would go on (the warm-up runs 1)
   * @param expected the direct computation's states, an iteration each ({@link IterativeMining#direct})
   * @param log told of each job
   */
  public static <S> ModeRun run(Configuration conf, IterativeMining<S> mining, Mode mode, List<Path> inputs,
      int maxIterations, List<S> expected, Consumer<String> log) throws IOException, InterruptedException {
    if (mode != Mode.HOST_NORMAL && mode != Mode.DEVICE) {
      throw new IllegalArgumentException("the mining workloads run in host-normal and device mode, not " + mode);
    }
    List<Iteration> iterations = new ArrayList<>();
    List<FinalJob> after = new ArrayList<>();
    List<String> disagreements = new ArrayList<>();
    String name = mining.algorithm().optionName() + " " + mode.optionName();
    boolean inDevices = mining.stateInDevices();
    Places places = inDevices ? Places.of(conf, inputs, mode) : null;
    if (places != null) {
      places.reset();
    }
    byte[] initialFile = inDevices ? mining.initialStateFile() : null;
    Map<String, List<Path>> sideFiles = new LinkedHashMap<>();
    if (inDevices) {
      for (String file : mining.sideFiles().keySet()) {
        sideFiles.put(file, places.copies(file));
      }
    }
    List<Path> stateFiles = initialFile == null ? List.of() : places.copies(INITIAL_STATE);
    S state = mining.initial();
    Job previous = null;
    boolean stopped = false;
    for (int i = 1; i <= maxIterations; i++) {
      int iteration = i;
      S before = state;
      java.nio.file.Path temporary = inDevices ? null : Files.createTempDirectory("smartssd-mine-");
      Path out = inDevices ? places.first(iterationDirectory(iteration))
          : new Path(temporary.toUri().toString(), "output");
      FileSystem outFs = out.getFileSystem(conf);
      IterativeMining.Step<S> step = new IterativeMining.Step<>(iteration, inDevices ? null : before, inputs, out,
          stateFiles, sideFiles, previous);
      long[] stateBytes = {0};
      try {
        MeasuredJob.Measurement<S> measured = MeasuredJob.run(conf, mode, inputs, () -> {
          if (inDevices && iteration == 1) {
            for (Map.Entry<String, byte[]> f : mining.sideFiles().entrySet()) {
              places.writeEverywhere(f.getKey(), f.getValue());
            }
            if (initialFile != null) {
              places.writeEverywhere(INITIAL_STATE, initialFile);
            }
          }
          return configure(mining.job(conf, step), mode, inputs);
        }, job -> {
          if (!inDevices) {
            return mining.next(before, iteration, LogAnalysis.readOutput(outFs, out));
          }
          FileStatus part = places.onlyPart(out);
          stateBytes[0] = part.getLen();
          places.copyFromFirst(iterationDirectory(iteration) + "/" + part.getPath().getName());
          return null;
        }, MiningRun::explain);
        previous = measured.job();
        if (inDevices) {
          // The check's reading, after the measurement: not the job's data path.
          state = mining.next(before, iteration, LogAnalysis.readOutput(outFs, out));
          stateFiles = places.copies(iterationDirectory(iteration) + "/" + places.onlyPart(out).getPath().getName());
        } else {
          state = measured.result();
        }
        RunStatistics statistics = measured.statistics(mining.algorithm(), mode, mining.bytes(), mining.recordBytes());
        long tasklet = taskletBytes(measured.job(), mode);
        iterations.add(new Iteration(iteration, mode, statistics, tasklet, stateBytes[0]));
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
            + "the host interface (%,d in, %,d out)%s%s%s", mining.algorithm(), mode.optionName(), iteration,
            statistics.wallSeconds(), statistics.modelledSeconds(), statistics.hostInterfaceBytes(),
            statistics.hostBytesIn(), statistics.hostBytesOut(),
            mode == Mode.DEVICE ? String.format(Locale.ROOT, ", tasklets %,d", tasklet) : "",
            inDevices ? String.format(Locale.ROOT, ", state file %,d", stateBytes[0]) : "",
            statistics.fellBack() ? ", " + statistics.fallbackSplits() + " split(s) NOT IN THE DEVICE" : ""));
      } finally {
        if (!inDevices) {
          outFs.delete(out, true);
          Files.deleteIfExists(temporary);
        }
      }
      if (!disagreements.isEmpty()) {
        break;
      }
      if (mining.stop(before, state, iteration)) {
        stopped = true;
        break;
      }
    }
    if (disagreements.isEmpty() && iterations.size() < Math.min(maxIterations, expected.size())) {
      disagreements.add(String.format(Locale.ROOT, "%s: stopped after iteration %d, the direct computation after %d",
          name, iterations.size(), expected.size()));
    }
    if (disagreements.isEmpty() && stopped && mining.finalJobName() != null && places != null) {
      S last = expected.get(expected.size() - 1);
      for (int device = 0; device < places.devices(); device++) {
        after.add(runFinal(conf, mining, mode, inputs, places, device, stateFiles, sideFiles, previous, last,
            disagreements, log));
      }
    }
    return new ModeRun(iterations, after, disagreements);
  }

  /** Where the driver writes the first state, beside the iterations' directories. */
  static final String INITIAL_STATE = "iteration-000/state";

  /** An iteration's output directory, relative to a mode's directory. */
  static String iterationDirectory(int iteration) {
    return String.format(Locale.ROOT, "iteration-%03d", iteration);
  }

  /** Runs the job after the last iteration over one device's input files, writing to that device, and checks it. */
  private static <S> FinalJob runFinal(Configuration conf, IterativeMining<S> mining, Mode mode, List<Path> inputs,
      Places places, int device, List<Path> stateFiles, Map<String, List<Path>> sideFiles, Job previous, S last,
      List<String> disagreements, Consumer<String> log) throws IOException, InterruptedException {
    List<Path> mine = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    long inputBytes = 0;
    for (int i = 0; i < inputs.size(); i++) {
      if (places.deviceOf(inputs.get(i)) == device) {
        mine.add(inputs.get(i));
        inputBytes += inputs.get(i).getFileSystem(conf).getFileStatus(inputs.get(i)).getLen();
        expected.addAll(mining.finalLines(last, i, inputs.size()));
      }
    }
    String jobName = mining.finalJobName() + (places.devices() > 1 ? " " + places.name(device) : "");
    Path out = places.at(device, mining.finalJobName());
    FileSystem outFs = out.getFileSystem(conf);
    IterativeMining.Step<S> step = new IterativeMining.Step<>(0, null, mine, out, stateFiles, sideFiles, previous);
    MeasuredJob.Measurement<Object> measured = MeasuredJob.run(conf, mode, mine,
        () -> configure(mining.finalJob(conf, step), mode, mine), job -> null, MiningRun::explain);
    RunStatistics statistics = measured.statistics(mining.algorithm(), mode, inputBytes, mining.recordBytes());
    long deviceOutput = mode == Mode.DEVICE
        ? measured.job().getCounters().findCounter(DeviceCounters.DEVICE_OUTPUT_BYTES).getValue() : 0;
    // The check's reading, after the measurement.
    List<String> got = LogAnalysis.readOutput(outFs, out);
    long outputBytes = 0;
    for (FileStatus part : outFs.listStatus(out, p -> p.getName().startsWith("part-"))) {
      outputBytes += part.getLen();
    }
    List<String> sortedGot = new ArrayList<>(got);
    List<String> sortedExpected = new ArrayList<>(expected);
    sortedGot.sort(null);
    sortedExpected.sort(null);
    String difference = firstDifference(sortedGot, sortedExpected);
    if (difference != null) {
      disagreements.add(String.format(Locale.ROOT, "%s %s (%s, as a multiset of %,d lines, sorted): %s",
          mining.algorithm().optionName(), mode.optionName(), out, got.size(), difference));
    }
    FinalJob done = new FinalJob(jobName, mode, out, statistics, taskletBytes(measured.job(), mode), deviceOutput,
        outputBytes);
    log.accept(String.format(Locale.ROOT, "%s %-11s %s: wall %7.3f s, modelled %7.3f s, %,d bytes across the host "
        + "interface; %,d bytes written to %s%s%s", mining.algorithm(), mode.optionName(), jobName,
        statistics.wallSeconds(), statistics.modelledSeconds(), statistics.hostInterfaceBytes(), outputBytes, out,
        mode == Mode.DEVICE ? String.format(Locale.ROOT, " (%,d by the device itself)", deviceOutput) : "",
        statistics.fellBack() ? ", " + statistics.fallbackSplits() + " split(s) NOT IN THE DEVICE" : ""));
    return done;
  }

  private static Job configure(Job job, Mode mode, List<Path> inputs) throws IOException {
    if (mode == Mode.DEVICE) {
      DeviceMode.configure(job, inputs);
    }
    return job;
  }

  private static String explain() {
    return " (the task's error is in the job's log; from the smartssd command, rerun with "
        + "SMARTSSD_JAVA_OPTS=-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.mapred.LocalJobRunner=warn to see it)";
  }

  private static long taskletBytes(Job job, Mode mode) throws IOException {
    return mode == Mode.DEVICE ? job.getCounters().findCounter(DeviceCounters.TASKLET_INSTALL_BYTES).getValue() : 0;
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

  /**
   * A mode's directories on the devices that hold the input: on each device, {@code MODE} in the directory
   * of its first input file (the first device's first: where the jobs write).
   */
  static final class Places {
    private final Configuration conf;
    private final List<Path> roots;
    private final List<String> devices;

    private Places(Configuration conf, List<Path> roots, List<String> devices) {
      this.conf = conf;
      this.roots = roots;
      this.devices = devices;
    }

    static Places of(Configuration conf, List<Path> inputs, Mode mode) throws IOException {
      Map<String, Path> byDevice = new LinkedHashMap<>();
      for (Path input : inputs) {
        FileSystem fs = input.getFileSystem(conf);
        Path qualified = fs.makeQualified(input);
        String device = fs.getUri().toString();
        byDevice.putIfAbsent(device, new Path(qualified.getParent(), mode.optionName()));
      }
      return new Places(conf, List.copyOf(byDevice.values()), List.copyOf(byDevice.keySet()));
    }

    int devices() {
      return roots.size();
    }

    /** A device as its file system's URI names it. */
    String name(int device) {
      return devices.get(device);
    }

    /** The device an input file is on. */
    int deviceOf(Path input) throws IOException {
      return devices.indexOf(input.getFileSystem(conf).getUri().toString());
    }

    /** {@code relative} in the first device's directory. */
    Path first(String relative) {
      return at(0, relative);
    }

    Path at(int device, String relative) {
      return new Path(roots.get(device), relative);
    }

    /** {@code relative} in every device's directory, the first device's first. */
    List<Path> copies(String relative) {
      List<Path> copies = new ArrayList<>();
      for (int i = 0; i < roots.size(); i++) {
        copies.add(at(i, relative));
      }
      return copies;
    }

    /** Deletes what an earlier run of the mode left on the devices. */
    void reset() throws IOException {
      for (Path root : roots) {
        root.getFileSystem(conf).delete(root, true);
      }
    }

    void writeEverywhere(String relative, byte[] bytes) throws IOException {
      for (Path p : copies(relative)) {
        try (OutputStream out = p.getFileSystem(conf).create(p, true)) {
          out.write(bytes);
        }
      }
    }

    /** The one part file of a job's output directory. */
    FileStatus onlyPart(Path output) throws IOException {
      FileStatus[] parts = output.getFileSystem(conf).listStatus(output, p -> p.getName().startsWith("part-"));
      if (parts.length != 1) {
        throw new IOException("the job's output " + output + " holds " + parts.length + " part files, not the one its "
            + "only reducer writes");
      }
      return parts[0];
    }

    /** Copies a file from the first device's directory to the others': read once, written to each. */
    void copyFromFirst(String relative) throws IOException {
      if (roots.size() < 2) {
        return;
      }
      Path from = first(relative);
      byte[] bytes;
      try (InputStream in = from.getFileSystem(conf).open(from)) {
        bytes = in.readAllBytes();
      }
      for (int i = 1; i < roots.size(); i++) {
        Path to = at(i, relative);
        try (OutputStream out = to.getFileSystem(conf).create(to, true)) {
          out.write(bytes);
        }
      }
    }
  }
}
