package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.WorkProfile;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.OpMeter;

/**
 * Runs one Hadoop job over inputs held by devices and measures it, as every measured run does (the log
 * analysis's, {@code smartssd mine}'s): the devices' STATISTICS before and after
 * ({@link HostInterfaceMeter}), the host's counted work when the devices count theirs
 * ({@link HostCounting}), this JVM's CPU time, the wall time from building the job to its result read,
 * and, in device mode, the job's in-device counters ({@link DeviceMode}).
 */
public final class MeasuredJob {
  private static final Logger LOG = LoggerFactory.getLogger(MeasuredJob.class);

  private MeasuredJob() {}

  /** Makes the configured job (in device mode, through {@link DeviceMode#configure}); not yet submitted. */
  @FunctionalInterface
  public interface Builder {
    Job create() throws IOException;
  }

  /** Reads the finished job's result; its work is part of the run. */
  @FunctionalInterface
  public interface ResultReader<R> {
    R read(Job job) throws IOException;
  }

  /**
   * Why a job failed when neither the runner nor a failed task says: the text that follows the job's
   * name in the error (": ..." or " (...)").
   */
  @FunctionalInterface
  public interface Explainer {
    String explain();
  }

  /** A finished, measured job: its result, and what it cost ({@link #statistics}). */
  public static final class Measurement<R> {
    private final R result;
    private final Job job;
    private final Boolean paced;
    private final long wallNanos;
    private final long cpuNanos;
    private final HostCpu hostCpu;
    private final OpCounts counted;
    private final List<RunStatistics.DeviceShare> shares;
    private final DeviceMode.Values device;
    private final RunStatistics.ModelParameters parameters;
    private final RunProfile profile;

    private Measurement(R result, Job job, Boolean paced, long wallNanos, long cpuNanos, HostCpu hostCpu,
        OpCounts counted, List<RunStatistics.DeviceShare> shares, DeviceMode.Values device,
        RunStatistics.ModelParameters parameters, RunProfile profile) {
      this.profile = profile;
      this.result = result;
      this.job = job;
      this.paced = paced;
      this.wallNanos = wallNanos;
      this.cpuNanos = cpuNanos;
      this.hostCpu = hostCpu;
      this.counted = counted;
      this.shares = shares;
      this.device = device;
      this.parameters = parameters;
    }

    public R result() {
      return result;
    }

    /** The job, or null for work that is not a job. */
    public Job job() {
      return job;
    }

    /**
     * The run's statistics.
     *
     * @param inputBytes the bytes of the input the job read (decompressed)
     * @param recordBytes the bytes a record takes, or 1 for input whose records are not of one size
     */
    public RunStatistics statistics(Workload workload, Mode mode, long inputBytes, int recordBytes) {
      return new RunStatistics(workload, mode, paced, inputBytes, recordBytes, wallNanos, shares, cpuNanos, hostCpu,
          Runtime.getRuntime().availableProcessors(), counted, device.executions(), device.bytesScanned(),
          device.fallbackSplits(), device.work(), parameters, device.placement(), profile);
    }
  }

  /**
   * Work measured as a job is that is not a Hadoop job: executions the host drives in the devices
   * itself, or a scan the host runs over objfs ({@code smartssd search}'s modes).
   */
  @FunctionalInterface
  public interface Work<R> {
    Done<R> run() throws IOException, InterruptedException;
  }

  /**
   * What work found, and the executions it ran in the devices (none when it ran on the host), whose
   * statistics are its in-device figures, as a device-mode job's counters are.
   */
  public record Done<R>(R result, List<ExecutionStatistics> executions, List<WorkProfile> profiles) {
    public Done {
      executions = List.copyOf(executions);
      profiles = List.copyOf(profiles);
    }

    /** Work that asked for no profiles. */
    public Done(R result, List<ExecutionStatistics> executions) {
      this(result, executions, List.of());
    }
  }

  /**
   * Builds, runs and measures a job.
   *
   * @param mode the mode the builder configures the job in (device mode's counters are read)
   * @param inputs the job's inputs, whose devices are metered
   * @throws IOException if the job fails, with the runner's and the failed task's words, else the explainer's
   */
  public static <R> Measurement<R> run(Configuration conf, Mode mode, List<Path> inputs, Builder builder,
      ResultReader<R> reader, Explainer explainer) throws IOException, InterruptedException {
    return measure(conf, inputs, counting -> {
      Job job = builder.create();
      boolean profiling = WorkProfiling.enabled();
      Path profiles = profiling ? WorkProfiling.newDeviceDirectory(job.getConfiguration()) : null;
      if (profiles != null) {
        job.getConfiguration().set(org.smartssd.devicemapper.DeviceMapperConfigKeys.PROFILE_DIR, profiles.toString());
      }
      boolean done;
      // This thread submits the job (counted), then only polls for its end, as often as the wall clock
      // says: its work while waiting follows this machine's speed and load, not the job, and is left out.
      OpCounts waiting;
      WorkProfile waitingProfile = WorkProfile.EMPTY;
      Set<Thread> jobThreadsBefore = counting ? HostCounting.localJobThreads() : Set.of();
      try {
        job.submit();
        OpMeter.Snapshot beforeWaiting = counting ? OpMeter.current().ownSnapshot() : null;
        done = job.waitForCompletion(false);
        if (counting) {
          OpMeter.Snapshot afterWaiting = OpMeter.current().ownSnapshot();
          waiting = afterWaiting.counts().minus(beforeWaiting.counts());
          if (profiling) {
            waitingProfile = WorkProfiling.of(afterWaiting).minus(WorkProfiling.of(beforeWaiting));
          }
        } else {
          waiting = OpCounts.ZERO;
        }
        if (counting && !HostCounting.awaitLocalJobThreads(jobThreadsBefore)) {
          LOG.warn("job '{}': the local job runner's thread has not ended a minute after the job did; the host's"
              + " counted work leaves out what it does from now on", job.getJobName());
        }
      } catch (ClassNotFoundException e) {
        throw new IOException("job '" + job.getJobName() + "': class not found: " + e.getMessage(), e);
      }
      if (!done) {
        throw new IOException(failureMessage(job, explainer));
      }
      R result = reader.read(job);
      DeviceMode.Values device = mode == Mode.DEVICE ? DeviceMode.values(job.getCounters()) : DeviceMode.Values.NONE;
      WorkProfiling.Devices deviceProfiles = profiles == null ? null
          : WorkProfiling.readDeviceDirectory(job.getConfiguration(), profiles);
      return new Outcome<>(result, job, waiting, device, waitingProfile, deviceProfiles);
    });
  }

  /**
   * Runs and measures work that is not a Hadoop job, as {@link #run(Configuration, Mode, List, Builder,
   * ResultReader, Explainer)} measures a job: its in-device figures are those of the executions it ran.
   *
   * @param inputs the inputs the work reads, whose devices are metered
   */
  public static <R> Measurement<R> run(Configuration conf, List<Path> inputs, Work<R> work)
      throws IOException, InterruptedException {
    return measure(conf, inputs, counting -> {
      Done<R> done = work.run();
      WorkProfile device = WorkProfile.EMPTY;
      for (WorkProfile p : done.profiles()) {
        device = device.plus(p);
      }
      return new Outcome<>(done.result(), null, OpCounts.ZERO, DeviceMode.values(done.executions()),
          WorkProfile.EMPTY, new WorkProfiling.Devices(device, done.profiles().size()));
    });
  }

  /**
   * What the measured part of a run gives: its result, its job if any, the work to leave out (and its
   * profile), its in-device figures, and, profiling, the devices' profiles (else null).
   */
  private record Outcome<R>(R result, Job job, OpCounts leftOut, DeviceMode.Values device, WorkProfile leftOutProfile,
      WorkProfiling.Devices deviceProfiles) {}

  /** The measured part of a run, told whether the host's work is counted. */
  @FunctionalInterface
  private interface Measured<R> {
    Outcome<R> run(boolean counting) throws IOException, InterruptedException;
  }

  /**
   * Measures a run: the devices' STATISTICS before and after, the host's counted work (when the devices
   * count theirs), this JVM's CPU time and the wall time around it.
   */
  private static <R> Measurement<R> measure(Configuration conf, List<Path> inputs, Measured<R> measured)
      throws IOException, InterruptedException {
    try (HostInterfaceMeter meter = HostInterfaceMeter.forInputs(conf, inputs)) {
      RunStatistics.ModelParameters parameters = meter.parameters();
      // The host's compute is modelled as the devices' is: counted when theirs is.
      boolean counting = parameters.counted() && HostCounting.start();
      Map<String, HostInterfaceMeter.Snapshot> before = meter.snapshot();
      // Counted and profiled at one instant, so that both cover the same work.
      OpMeter.Snapshot countedBefore = counting ? OpMeter.everyThreadSnapshot() : null;
      boolean profiling = counting && WorkProfiling.enabled();
      HostCpu procBefore = HostCpu.now();
      long cpuBefore = LogAnalysis.processCpuNanos();
      long started = System.nanoTime();
      Outcome<R> outcome = measured.run(counting);
      long wall = System.nanoTime() - started;
      long cpu = LogAnalysis.processCpuNanos() - cpuBefore;
      HostCpu proc = HostCpu.now().since(procBefore);
      OpMeter.Snapshot countedAfter = counting ? OpMeter.everyThreadSnapshot() : null;
      OpCounts counted = counting ? countedAfter.counts().minus(countedBefore.counts()).minus(outcome.leftOut()) : null;
      WorkProfile hostProfile = !profiling ? null : WorkProfiling.of(countedAfter).minus(WorkProfiling.of(countedBefore))
          .minus(outcome.leftOutProfile());
      RunProfile profile = outcome.deviceProfiles() == null ? null : new RunProfile(hostProfile,
          outcome.deviceProfiles().profile(), outcome.device().executions(), outcome.deviceProfiles().executions());
      Map<String, HostInterfaceMeter.Snapshot> used = HostInterfaceMeter.used(before, meter.snapshot());
      return new Measurement<>(outcome.result(), outcome.job(), meter.paced(), wall, cpu, proc, counted,
          LogAnalysis.shares(used, outcome.device()), outcome.device(), parameters, profile);
    }
  }

  /** Why a job failed: the runner's words and the failed tasks' diagnostics (YARN), else the explainer's. */
  private static String failureMessage(Job job, Explainer explainer) {
    StringBuilder sb = new StringBuilder("job '").append(job.getJobName()).append("' (").append(job.getJobID())
        .append(") failed");
    boolean explained = false;
    try {
      JobStatus status = job.getStatus();
      String info = status == null ? null : status.getFailureInfo();
      if (info != null && !info.isBlank() && !info.equals("NA")) {
        sb.append(": ").append(info.trim());
      }
      for (TaskCompletionEvent event : job.getTaskCompletionEvents(0, 1000)) {
        if (event.getStatus() == TaskCompletionEvent.Status.FAILED) {
          for (String d : job.getTaskDiagnostics(event.getTaskAttemptId())) {
            sb.append("; ").append(event.getTaskAttemptId()).append(": ").append(d.lines().findFirst().orElse(""));
            explained = true;
            break;
          }
        }
        if (explained) {
          break;
        }
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      LOG.debug("no failure information for {}", job.getJobID(), e);
    }
    if (!explained) {
      sb.append(explainer.explain());
    }
    return sb.toString();
  }
}
