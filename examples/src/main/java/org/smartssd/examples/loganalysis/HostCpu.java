package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's CPU time in user and system mode, measured from {@code /proc/self/stat} (Linux), as
 * the source drew its host's CPU: host modes wait on I/O (system time) and compute (user time), while
 * in device mode the host is mostly idle. {@link #UNKNOWN} where {@code /proc} does not say.
 *
 * @param userNanos CPU time in user mode
 * @param systemNanos CPU time in the kernel on the process's behalf
 */
public record HostCpu(long userNanos, long systemNanos) {
  public static final HostCpu UNKNOWN = new HostCpu(-1, -1);

  /** Clock ticks of {@code utime} and {@code stime}: Linux's USER_HZ, 100 on every mainstream architecture. */
  private static final long TICK_NANOS = 10_000_000L;

  /** Now, or {@link #UNKNOWN}. */
  public static HostCpu now() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // Fields after the command name, which may hold spaces, in parentheses: state is field 3, utime 14, stime 15.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return new HostCpu(Long.parseLong(f[11]) * TICK_NANOS, Long.parseLong(f[12]) * TICK_NANOS);
    } catch (IOException | RuntimeException e) {
      return UNKNOWN;
    }
  }

  public boolean known() {
    return userNanos >= 0 && systemNanos >= 0;
  }

  /** The time used from {@code before} to this one. */
  public HostCpu since(HostCpu before) {
    if (!known() || !before.known()) {
      return UNKNOWN;
    }
    return new HostCpu(userNanos - before.userNanos, systemNanos - before.systemNanos);
  }

  /**
   * The host's idle CPU time over {@code wallNanos} on {@code processors}: what this process did not
   * use. A device process on the same machine counts as idle: in the system modelled, it is in the SSD.
   */
  public long idleNanos(long wallNanos, int processors) {
    return known() ? Math.max(0, wallNanos * processors - userNanos - systemNanos) : -1;
  }
}
