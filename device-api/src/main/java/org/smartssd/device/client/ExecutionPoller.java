package org.smartssd.device.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Polls an execution with READ_OBJECT until it is finished, handing every result record to a sink:
 * the host side of the Smart SSD's polling (the device never calls the host).
 *
 * <p>Between polls: none after a poll that returned results (more are probably ready), and after
 * each poll that returned none a pause that starts at {@link PollingPolicy#min()} and doubles, up to
 * {@link PollingPolicy#max()}, while polls keep coming back empty; the first poll with results
 * brings it back to the minimum.
 */
public final class ExecutionPoller {

  /**
   * How {@link ExecutionPoller} polls.
   *
   * @param min the pause after the first empty poll (positive)
   * @param max the longest pause (at least {@code min})
   * @param maxBytes the {@code maxBytes} of each READ_OBJECT (positive)
   */
  public record PollingPolicy(Duration min, Duration max, int maxBytes) {
    public static final Duration MIN_DEFAULT = Duration.ofMillis(1);
    public static final Duration MAX_DEFAULT = Duration.ofMillis(50);
    public static final int MAX_BYTES_DEFAULT = 4 << 20;

    public PollingPolicy {
      Objects.requireNonNull(min, "min");
      Objects.requireNonNull(max, "max");
      if (min.isNegative() || min.isZero()) {
        throw new IllegalArgumentException("min pause must be positive, was " + min);
      }
      if (max.compareTo(min) < 0) {
        throw new IllegalArgumentException("max pause " + max + " is below min pause " + min);
      }
      if (maxBytes <= 0) {
        throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
      }
    }

    /** 1 ms, 50 ms, 4 MiB. */
    public static PollingPolicy defaults() {
      return new PollingPolicy(MIN_DEFAULT, MAX_DEFAULT, MAX_BYTES_DEFAULT);
    }

    /** The pause after an empty poll, given the one before it (null when the last poll had results). */
    Duration nextPause(Duration previous) {
      if (previous == null) {
        return min;
      }
      Duration doubled = previous.multipliedBy(2);
      return doubled.compareTo(max) > 0 ? max : doubled;
    }
  }

  /** How the poller waits; tests record the pauses instead. */
  interface Sleeper {
    void sleep(Duration pause) throws InterruptedException;
  }

  private static final Sleeper THREAD_SLEEP = pause -> TimeUnit.NANOSECONDS.sleep(pause.toNanos());

  private ExecutionPoller() {}

  /** {@link #drain(DeviceClient, long, Consumer, PollingPolicy)} with {@link PollingPolicy#defaults()}. */
  public static Response.ExecutionProgress drain(DeviceClient client, long executionId, Consumer<TaskletResult> sink)
      throws IOException {
    return drain(client, executionId, sink, PollingPolicy.defaults());
  }

  /**
   * Polls until the device says the execution is finished, passing every result record to
   * {@code sink} in the order received, on the calling thread.
   *
   * <p>Returns on any terminal state: a {@code FAILED} or {@code CANCELLED} execution is not an
   * exception here, so the caller must look at the returned state (and message) and decide. The
   * results of the returned progress have already been given to the sink.
   *
   * @return the last progress: finished, so its state is terminal
   * @throws java.io.FileNotFoundException when the device does not know the execution
   * @throws InterruptedIOException when interrupted while waiting (the interrupt flag is restored);
   *     the execution goes on
   * @throws IOException any other failure of a poll; an exception from the sink propagates as it is
   */
  public static Response.ExecutionProgress drain(
      DeviceClient client, long executionId, Consumer<TaskletResult> sink, PollingPolicy policy)
      throws IOException {
    return drain(client, executionId, sink, policy, THREAD_SLEEP);
  }

  static Response.ExecutionProgress drain(
      DeviceClient client, long executionId, Consumer<TaskletResult> sink, PollingPolicy policy, Sleeper sleeper)
      throws IOException {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(policy, "policy");
    Duration pause = null;
    while (true) {
      Response.ExecutionProgress progress = client.readObject(executionId, policy.maxBytes());
      progress.results().forEach(sink);
      if (progress.finished()) {
        return progress;
      }
      if (!progress.results().isEmpty()) {
        pause = null;
        continue;
      }
      pause = policy.nextPause(pause);
      try {
        sleeper.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        InterruptedIOException interrupted = new InterruptedIOException(
            client.address() + ": interrupted while polling execution " + Long.toUnsignedString(executionId));
        interrupted.initCause(e);
        throw interrupted;
      }
    }
  }
}
