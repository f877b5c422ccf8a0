package org.smartssd.device.client;

import java.time.Duration;
import java.util.Optional;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.protocol.Response;

/**
 * {@link PausePolicy#byProgress}: half the time the execution still needs, while that is known and
 * longer than two minimum pauses; otherwise (nothing scanned yet, or the scan is over and the lanes
 * finish, or a BUSY) a pause that starts at the minimum and doubles. Never more than the maximum.
 *
 * <p>The time still needed is the larger of two projections of the bytes scanned so far to the
 * input's length: the device's wall time (an unpaced device) and its modelled time less the wall
 * time spent (a paced one, which holds the end until the model gets there). The second only while
 * the modelled time keeps to the wall clock, as a paced device's does: an unpaced device's model
 * runs ahead of the wall clock (15 times on the World Cup trace), and its end does not wait for the
 * model, so projecting the model made the host poll it every {@code max} and learn of its end up to
 * that late (a quarter of a second a job on average, with the record reader's 500 ms).
 */
final class ProgressPause implements PausePolicy {
  private final Duration min;
  private final Duration max;
  private final long inputBytes;
  /** While the time still needed is not known. */
  private final DoublingPause tail;

  ProgressPause(Duration min, Duration max, long inputBytes) {
    if (inputBytes < 0) {
      throw new IllegalArgumentException("negative input length " + inputBytes);
    }
    this.tail = new DoublingPause(min, max);
    this.min = min;
    this.max = max;
    this.inputBytes = inputBytes;
  }

  @Override
  public Optional<Duration> next(Response.ExecutionProgress last) {
    long remaining = last == null ? -1 : remainingNanos(last.statistics());
    if (remaining > 2 * min.toNanos()) {
      tail.reset();
      return Optional.of(Duration.ofNanos(Math.min(remaining / 2, max.toNanos())));
    }
    return tail.next(last);
  }

  @Override
  public void reset() {
    tail.reset();
  }

  /** The time the execution still needs, projected from its progress; -1 when nothing is scanned yet. */
  long remainingNanos(ExecutionStatistics s) {
    long scanned = s.bytesScanned();
    if (scanned <= 0) {
      return -1;
    }
    double left = Math.max(0, inputBytes - scanned) / (double) scanned;
    long byWall = (long) (s.wallNanos() * left);
    if (modelAhead(s)) {
      return byWall;
    }
    long byModel = (long) (s.modelledNanos() * (1 + left)) - s.wallNanos();
    return Math.max(byWall, byModel);
  }

  /**
   * Whether the execution's modelled time runs well ahead of its wall time: only an unpaced device's
   * can (a paced device issues its reads on the modelled clock, so its model is ahead by at most the
   * work of the requests it has read).
   */
  static boolean modelAhead(ExecutionStatistics s) {
    return s.modelledNanos() > 2 * s.wallNanos();
  }
}
