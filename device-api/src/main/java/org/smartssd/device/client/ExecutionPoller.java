package org.smartssd.device.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.smartssd.device.DeviceException;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * The host's poll loop over an execution: READ_OBJECT until the device says the execution is
 * finished (the device never calls the host), with a {@link PausePolicy}'s pause after each poll
 * that brought no results and none after one that did (more are probably ready). {@link #poll} is
 * one turn of the loop, for a caller that takes the results as they come and decides when to go on;
 * {@link #drain} runs it to the end. {@link #start} starts an execution, asking again after a
 * policy's pause while the device answers BUSY.
 *
 * <p>One poller per execution, used by one thread at a time.
 */
public final class ExecutionPoller {

  /**
   * How {@link #drain(DeviceClient, long, Consumer, PollingPolicy)} polls.
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
      DoublingPause.checkBounds(min, max);
      if (maxBytes <= 0) {
        throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
      }
    }

    /** 1 ms, 50 ms, 4 MiB. */
    public static PollingPolicy defaults() {
      return new PollingPolicy(MIN_DEFAULT, MAX_DEFAULT, MAX_BYTES_DEFAULT);
    }

    /** Fresh pauses for one loop: from {@code min}, doubling up to {@code max} while polls come back empty. */
    public PausePolicy pauses() {
      return PausePolicy.doubling(min, max);
    }
  }

  /** How the poller waits; tests record the pauses instead. */
  interface Sleeper {
    void sleep(Duration pause) throws InterruptedException;
  }

  private static final Sleeper THREAD_SLEEP = pause -> TimeUnit.NANOSECONDS.sleep(pause.toNanos());

  private final DeviceClient client;
  private final long executionId;
  private final int maxBytes;
  private final PausePolicy pauses;
  private final Sleeper sleeper;
  private boolean finished;

  /**
   * @param maxBytes the {@code maxBytes} of each READ_OBJECT (positive)
   * @param pauses the pauses after empty polls, for this execution alone
   */
  public ExecutionPoller(DeviceClient client, long executionId, int maxBytes, PausePolicy pauses) {
    this(client, executionId, maxBytes, pauses, THREAD_SLEEP);
  }

  ExecutionPoller(DeviceClient client, long executionId, int maxBytes, PausePolicy pauses, Sleeper sleeper) {
    this.client = Objects.requireNonNull(client, "client");
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
    }
    this.executionId = executionId;
    this.maxBytes = maxBytes;
    this.pauses = Objects.requireNonNull(pauses, "pauses");
    this.sleeper = sleeper;
  }

  /**
   * One READ_OBJECT; when it brought no results and the execution is not finished, the policy's
   * pause before returning. The caller takes the results from the returned progress.
   *
   * <p>A {@code FAILED} or {@code CANCELLED} execution is not an exception here: the caller looks
   * at the state (and message) of a finished progress and decides.
   *
   * @throws IllegalStateException when an earlier poll said the execution is finished
   * @throws java.io.FileNotFoundException when the device does not know the execution
   * @throws InterruptedIOException when interrupted while pausing (the interrupt flag is restored);
   *     the execution goes on
   * @throws IOException when the policy gives up, or any other failure of the poll
   */
  public Response.ExecutionProgress poll() throws IOException {
    if (finished) {
      throw new IllegalStateException("execution " + Long.toUnsignedString(executionId) + " is finished");
    }
    Response.ExecutionProgress progress = client.readObject(executionId, maxBytes);
    if (progress.finished()) {
      finished = true;
    } else if (!progress.results().isEmpty()) {
      pauses.reset();
    } else {
      String doing = "polling execution " + Long.toUnsignedString(executionId);
      Duration pause = pauses.next(progress).orElseThrow(() -> new IOException(
          client.address() + ": gave up " + doing + ": no results within the pause policy's bound"));
      sleep(client, sleeper, pause, doing);
    }
    return progress;
  }

  /** Whether a poll said the execution is finished. */
  public boolean finished() {
    return finished;
  }

  /**
   * Polls until the device says the execution is finished, passing every result record to {@code
   * sink} in the order received, on the calling thread. The results of the returned progress have
   * already been given to the sink; as for {@link #poll}, a terminal state that is not {@code DONE}
   * is the caller's to look at.
   *
   * @return the last progress: finished, so its state is terminal
   * @throws IOException as {@link #poll} does; an exception from the sink propagates as it is
   */
  public Response.ExecutionProgress drain(Consumer<TaskletResult> sink) throws IOException {
    Objects.requireNonNull(sink, "sink");
    while (true) {
      Response.ExecutionProgress progress = poll();
      progress.results().forEach(sink);
      if (progress.finished()) {
        return progress;
      }
    }
  }

  /** {@link #drain(DeviceClient, long, Consumer, PollingPolicy)} with {@link PollingPolicy#defaults()}. */
  public static Response.ExecutionProgress drain(DeviceClient client, long executionId, Consumer<TaskletResult> sink)
      throws IOException {
    return drain(client, executionId, sink, PollingPolicy.defaults());
  }

  /** {@link #drain(Consumer)} of a poller with the policy's pauses and READ_OBJECT size. */
  public static Response.ExecutionProgress drain(
      DeviceClient client, long executionId, Consumer<TaskletResult> sink, PollingPolicy policy)
      throws IOException {
    return drain(client, executionId, sink, policy, THREAD_SLEEP);
  }

  static Response.ExecutionProgress drain(
      DeviceClient client, long executionId, Consumer<TaskletResult> sink, PollingPolicy policy, Sleeper sleeper)
      throws IOException {
    Objects.requireNonNull(policy, "policy");
    return new ExecutionPoller(client, executionId, policy.maxBytes(), policy.pauses(), sleeper).drain(sink);
  }

  /**
   * Starts an execution ({@link DeviceClient#executeObject}), asking again after the policy's pause
   * while the device answers BUSY (it runs as many executions as it can).
   *
   * @param busy the pauses between attempts, for this start alone; when it gives up, the last BUSY
   *     is thrown
   * @return the execution id
   * @throws DeviceException.Busy when the device was still busy as the policy gave up
   * @throws InterruptedIOException when interrupted while pausing (the interrupt flag is restored)
   * @throws IOException any other failure of EXECUTE_OBJECT, at once
   */
  public static long start(DeviceClient client, long taskletId, List<InputRange> inputs, Map<String, String> options,
      PausePolicy busy) throws IOException {
    return start(client, taskletId, inputs, options, busy, THREAD_SLEEP);
  }

  /**
   * As {@link #start(DeviceClient, long, List, Map, PausePolicy)}, for an execution that writes an output
   * object at {@code outputPath} ({@link DeviceClient#executeObject(long, List, Map, String, int)}; none
   * when empty).
   */
  public static long start(DeviceClient client, long taskletId, List<InputRange> inputs, Map<String, String> options,
      String outputPath, int outputPermission, PausePolicy busy) throws IOException {
    return start(client, taskletId, inputs, options, outputPath, outputPermission, busy, THREAD_SLEEP);
  }

  static long start(DeviceClient client, long taskletId, List<InputRange> inputs, Map<String, String> options,
      PausePolicy busy, Sleeper sleeper) throws IOException {
    return start(client, taskletId, inputs, options, "", 0, busy, sleeper);
  }

  static long start(DeviceClient client, long taskletId, List<InputRange> inputs, Map<String, String> options,
      String outputPath, int outputPermission, PausePolicy busy, Sleeper sleeper) throws IOException {
    while (true) {
      try {
        return outputPath.isEmpty() ? client.executeObject(taskletId, inputs, options)
            : client.executeObject(taskletId, inputs, options, outputPath, outputPermission);
      } catch (DeviceException.Busy e) {
        Optional<Duration> pause = busy.next(null);
        if (pause.isEmpty()) {
          throw e;
        }
        sleep(client, sleeper, pause.get(), "waiting to start an execution of tasklet " + Long.toUnsignedString(taskletId));
      }
    }
  }

  private static void sleep(DeviceClient client, Sleeper sleeper, Duration pause, String doing)
      throws InterruptedIOException {
    try {
      sleeper.sleep(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException(client.address() + ": interrupted while " + doing);
      interrupted.initCause(e);
      throw interrupted;
    }
  }
}
