package org.smartssd.device.client;

import java.time.Duration;
import java.util.Optional;
import org.smartssd.device.protocol.Response;

/**
 * How long a host waits before it asks a device again after an answer that brought nothing (a
 * READ_OBJECT without results, an EXECUTE_OBJECT answered BUSY), and when it stops asking. An
 * instance follows one loop of requests and may remember its pauses so far: {@link #reset} starts
 * it over after an answer that brought something. {@link ExecutionPoller} runs the loops and does
 * the waiting. Not thread-safe.
 */
public interface PausePolicy {

  /**
   * The pause before the next request, or empty to stop asking.
   *
   * @param last the answer to the READ_OBJECT that brought no results; null after a BUSY, when
   *     nothing is known of an execution
   */
  Optional<Duration> next(Response.ExecutionProgress last);

  /** The last answer brought something: the next pause is the first one again. */
  void reset();

  /** A pause that starts at {@code min} and doubles, up to {@code max}. */
  static PausePolicy doubling(Duration min, Duration max) {
    return new DoublingPause(min, max);
  }

  /**
   * Half the time the execution still needs, projected from its progress over an input of {@code
   * inputBytes}, at most {@code max}; while that is not known, or not longer than two {@code min},
   * a pause that starts at {@code min} and doubles ({@link ProgressPause}).
   */
  static PausePolicy byProgress(Duration min, Duration max, long inputBytes) {
    return new ProgressPause(min, max, inputBytes);
  }

  /**
   * The pauses of {@code pauses} until more than {@code bound} has passed since this policy was
   * made or last reset; then it gives up.
   */
  static PausePolicy bounded(PausePolicy pauses, Duration bound) {
    return new BoundedPause(pauses, bound, System::nanoTime);
  }
}
