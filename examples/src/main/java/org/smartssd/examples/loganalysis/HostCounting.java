package org.smartssd.examples.loganalysis;

import java.util.List;
import org.smartssd.opcount.Instrumenter;
import org.smartssd.opcount.OpCountAgent;
import org.smartssd.opcount.OpMeter;
import org.smartssd.opcount.Scopes;

/**
 * The host side of counted compute: with the JVM started with the counting agent ({@code bin/smartssd}
 * starts it so), the work of Hadoop's code and of the jobs' own (the log analysis, the device mapper's
 * host side, and the built-in tasklets' code, which {@code smartssd search} runs on the host for its
 * brute force and to merge lanes' lists) is counted as the device counts tasklets, and priced with the
 * modelled host's parameters.
 * The Java platform and the device client are not counted: a call into them is a library call.
 */
public final class HostCounting {
  /** The packages whose code the host counts (internal names). */
  public static final List<String> PACKAGES = List.of("org/apache/hadoop/", "org/smartssd/examples/",
      "org/smartssd/devicemapper/", "org/smartssd/device/tasklet/builtin/");

  private HostCounting() {}

  /**
   * Starts counting if this JVM has the agent (once; classes loaded already are rewritten in place).
   *
   * @return whether the host's work is counted
   */
  public static boolean start() {
    if (!OpCountAgent.loaded()) {
      return false;
    }
    // A map or reduce task's progress reporter wakes every few seconds of wall time to send its status:
    // how often depends on how fast this machine runs the job, not on the job. The task's last report,
    // made by the task's own thread, stays counted.
    OpMeter.leaveOutThreadsNamed(TASK_REPORTER_THREAD);
    OpCountAgent.enable(SCOPE);
    return true;
  }

  /**
   * Hadoop's file system statistics, whose counted work would follow this JVM's history, not the job:
   * a map task reads its input's byte count twice a record, and each read sums the statistics of every
   * thread of the JVM that ever read and has not yet been found ended by the garbage collector. In a
   * task's own JVM (YARN's) that is a few threads; in the local runner's one JVM it grows with every
   * job run before and falls at the collector's whim (host counts moved by up to 7% between runs of the
   * same job). A call into them is counted as a library call, like a call into the Java platform.
   */
  static final String FS_STATISTICS = "org/apache/hadoop/fs/FileSystem$Statistics";

  private static final Instrumenter.Scope SCOPE = counted(Scopes.packages(PACKAGES));

  /** {@code scope} without Hadoop's file system statistics ({@link #FS_STATISTICS}). */
  static Instrumenter.Scope counted(Instrumenter.Scope scope) {
    return name -> scope.counted(name) && !name.startsWith(FS_STATISTICS);
  }

  /** The name Hadoop gives a task's progress reporter thread ({@code Task.TaskReporter}). */
  static final String TASK_REPORTER_THREAD = "communication thread";

  /** The local job runner's job threads alive now (none in a JVM that submits to YARN). */
  static java.util.Set<Thread> localJobThreads() {
    return org.smartssd.devicemapper.LocalJobThreads.alive();
  }

  /**
   * Waits for the local job runner's job threads started since {@code before} to end
   * ({@link org.smartssd.devicemapper.LocalJobThreads}): their cleanup after a job is the job's work.
   *
   * @return whether they all ended (a thread still running after a minute is left, and logged)
   */
  static boolean awaitLocalJobThreads(java.util.Set<Thread> before) throws InterruptedException {
    return org.smartssd.devicemapper.LocalJobThreads.awaitStartedSince(before);
  }
}
