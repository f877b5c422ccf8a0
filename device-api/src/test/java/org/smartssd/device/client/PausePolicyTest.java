package org.smartssd.device.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.ExecutionState;

/** The pause policies on their own: answers made up, the clock a counter. Nothing sleeps. */
class PausePolicyTest {
  private static final Duration MIN = ms(1);
  private static final Duration MAX = ms(500);
  private static final long INPUT = 1000;

  @Test
  void doublingStartsAtTheMinimumAndStopsAtTheMaximum() {
    PausePolicy p = PausePolicy.doubling(ms(1), ms(20));
    assertEquals(List.of(ms(1), ms(2), ms(4), ms(8), ms(16), ms(20), ms(20)), take(p, null, 7));
    p.reset();
    assertEquals(List.of(ms(1), ms(2)), take(p, progress(0, 0, 0), 2), "reset starts over; the answer does not matter");
  }

  @Test
  void doublingChecksItsBounds() {
    assertThrows(IllegalArgumentException.class, () -> PausePolicy.doubling(Duration.ZERO, ms(1)));
    assertThrows(IllegalArgumentException.class, () -> PausePolicy.doubling(ms(-1), ms(1)));
    assertThrows(IllegalArgumentException.class, () -> PausePolicy.doubling(ms(2), ms(1)));
    assertEquals(List.of(ms(3), ms(3)), take(PausePolicy.doubling(ms(3), ms(3)), null, 2));
  }

  @Test
  void byProgressWaitsHalfTheTimeTheExecutionStillNeeds() {
    PausePolicy p = PausePolicy.byProgress(MIN, MAX, INPUT);
    // A quarter scanned in 100 ms of wall time (unpaced: modelled less): 300 ms to go, 150 ms pause.
    assertEquals(ms(150), p.next(progress(250, ms(100), ms(40))).orElseThrow());
    // Paced: the model says 200 ms for the quarter, 800 ms in all, 100 ms of it spent: 700 ms to
    // go, more than the wall time's projection; the pause is half of it, capped at the maximum.
    assertEquals(ms(350), p.next(progress(250, ms(100), ms(200))).orElseThrow());
    assertEquals(MAX, p.next(progress(100, ms(200), ms(100))).orElseThrow());
  }

  @Test
  void byProgressDoublesWhileTheTimeStillNeededIsNotKnownOrShort() {
    PausePolicy p = PausePolicy.byProgress(MIN, MAX, INPUT);
    // Nothing scanned yet: doubling from the minimum.
    assertEquals(List.of(ms(1), ms(2), ms(4)), take(p, progress(0, ms(5), ms(0)), 3));
    // Known again: half of it, and the doubling starts over after.
    assertEquals(ms(150), p.next(progress(250, ms(100), ms(0))).orElseThrow());
    // All scanned, the lanes finishing: not more than two minimum pauses to go, so doubling.
    assertEquals(List.of(ms(1), ms(2)), take(p, progress(INPUT, ms(400), ms(400)), 2));
    // A BUSY says nothing of the execution.
    assertEquals(ms(4), p.next(null).orElseThrow());
    p.reset();
    assertEquals(ms(1), p.next(null).orElseThrow());
  }

  @Test
  void byProgressProjectsWallAndModelledTime() {
    ProgressPause p = new ProgressPause(MIN, MAX, INPUT);
    assertEquals(-1, p.remainingNanos(progress(0, ms(9), ms(9)).statistics()));
    assertEquals(ms(300).toNanos(), p.remainingNanos(progress(250, ms(100), ms(40)).statistics()));
    assertEquals(ms(700).toNanos(), p.remainingNanos(progress(250, ms(100), ms(200)).statistics()));
    // Scanned more than the input (a record running past the split's end): nothing left by wall.
    assertEquals(0, p.remainingNanos(progress(INPUT + 10, ms(100), ms(0)).statistics()));
    // An unpaced device's model far ahead of the wall clock: its end does not wait for the model.
    assertEquals(ms(300).toNanos(), p.remainingNanos(progress(250, ms(100), ms(1500)).statistics()));
    assertEquals(0, p.remainingNanos(progress(INPUT, ms(100), ms(1500)).statistics()));
    assertThrows(IllegalArgumentException.class, () -> PausePolicy.byProgress(MIN, MAX, -1));
  }

  @Test
  void boundedGivesUpOnceTheBoundHasPassedSinceItStartedOrWasReset() {
    long[] now = {1_000};
    PausePolicy p = new BoundedPause(PausePolicy.doubling(ms(1), ms(4)), ms(10), () -> now[0]);
    assertEquals(Optional.of(ms(1)), p.next(null));
    now[0] += ms(10).toNanos();
    assertEquals(Optional.of(ms(2)), p.next(null), "at the bound: one more");
    now[0] += 1;
    assertEquals(Optional.empty(), p.next(null), "past it: give up");
    p.reset();
    assertEquals(Optional.of(ms(1)), p.next(null), "reset restarts the clock and the pauses");
    now[0] += ms(11).toNanos();
    assertEquals(Optional.empty(), p.next(null));
  }

  @Test
  void boundedWithTheSystemClockDoesNotGiveUpAtOnce() {
    PausePolicy p = PausePolicy.bounded(PausePolicy.doubling(ms(1), ms(2)), Duration.ofHours(1));
    assertEquals(Optional.of(ms(1)), p.next(null));
    assertThrows(IllegalArgumentException.class,
        () -> PausePolicy.bounded(PausePolicy.doubling(ms(1), ms(2)), ms(-1)));
  }

  private static List<Duration> take(PausePolicy p, Response.ExecutionProgress last, int n) {
    List<Duration> pauses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pauses.add(p.next(last).orElseThrow());
    }
    return pauses;
  }

  /** A running execution's empty poll: bytes scanned, wall and modelled time so far. */
  private static Response.ExecutionProgress progress(long scanned, Duration wall, Duration modelled) {
    return progress(scanned, wall.toNanos(), modelled.toNanos());
  }

  private static Response.ExecutionProgress progress(long scanned, long wallNanos, long modelledNanos) {
    ExecutionStatistics s = new ExecutionStatistics(1, scanned, 0, 0, 0, 0, wallNanos, 0, modelledNanos, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    return new Response.ExecutionProgress(ExecutionState.RUNNING, "", s, List.of(), false);
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}
