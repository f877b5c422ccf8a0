package org.smartssd.devicemapper;

import java.util.HashSet;
import java.util.Set;

/**
 * The local job runner's threads, one a job ({@code LocalJobRunner.Job}). Such a thread reports its job
 * succeeded, then deletes the job's staging and local files: Hadoop's work for the job, which a count of
 * the host's work must hold whether or not the submitter looked before the thread was done.
 */
public final class LocalJobThreads {
  /** The class of the local job runner's thread for one job. */
  static final String THREAD_CLASS = "org.apache.hadoop.mapred.LocalJobRunner$Job";
  /** How long {@link #awaitStartedSince} waits for a job's thread to finish its cleanup. */
  private static final long CLEANUP_WAIT_MS = 60_000;

  private LocalJobThreads() {}

  /** The local job runner's job threads alive now (none in a JVM that submits to YARN). */
  public static Set<Thread> alive() {
    Set<Thread> threads = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getClass().getName().equals(THREAD_CLASS)) {
        threads.add(t);
      }
    }
    return threads;
  }

  /**
   * Waits for the job threads started since {@code before} was taken to end.
   *
   * @return whether they all ended (a thread still running after a minute is left)
   */
  public static boolean awaitStartedSince(Set<Thread> before) throws InterruptedException {
    boolean ended = true;
    for (Thread t : alive()) {
      if (!before.contains(t)) {
        t.join(CLEANUP_WAIT_MS);
        ended &= !t.isAlive();
      }
    }
    return ended;
  }
}
