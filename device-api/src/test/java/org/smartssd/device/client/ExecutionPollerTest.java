package org.smartssd.device.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.smartssd.device.DeviceException;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.ExecutionPoller.PollingPolicy;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * The poller against a device that answers READ_OBJECT from a script, one progress per poll. The
 * pauses are recorded, not slept (but in {@link #defaultDrainSleepsForReal}): nothing depends on
 * timing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExecutionPollerTest {
  private static final long EXECUTION = 0x8000_0000_0000_0042L;
  private static final ExecutionStatistics STATS = new ExecutionStatistics(2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  private static final PollingPolicy POLICY = new PollingPolicy(Duration.ofMillis(1), Duration.ofMillis(4), 1000);

  private final BlockingQueue<Response> script = new LinkedBlockingQueue<>();
  /** Written on the device's connection thread, read by the test. */
  private final List<Request> polls = new CopyOnWriteArrayList<>();
  private final List<Duration> pauses = new ArrayList<>();
  private final List<String> sunk = new ArrayList<>();
  private FakeDevice device;
  private SocketDeviceClient client;

  private void start() throws IOException {
    device = new FakeDevice(FakeDevice.answering(r -> {
      polls.add(r);
      Response next = script.poll();
      return next != null ? next : new Response.Error(Status.INTERNAL, "the script has no more answers");
    }));
    client = SocketDeviceClient.connect(device.address(),
        ClientOptions.defaults().withRequestTimeout(Duration.ofMinutes(10)));
  }

  @AfterEach
  void stop() throws IOException {
    if (client != null) {
      client.close();
    }
    if (device != null) {
      device.close();
    }
  }

  private Response.ExecutionProgress drain(PollingPolicy policy) throws IOException {
    return ExecutionPoller.drain(client, EXECUTION, r -> sunk.add(text(r)), policy, pauses::add);
  }

  @Test
  void drainsAcrossPollsWithEmptyPollsBetween() throws Exception {
    script.add(running());
    script.add(running());
    script.add(running("a", "b"));
    script.add(running());
    script.add(progress(ExecutionState.DONE, false, "c"));
    script.add(progress(ExecutionState.DONE, false));
    Response.ExecutionProgress last = progress(ExecutionState.DONE, true, "d");
    script.add(last);
    start();

    assertEquals(last, drain(POLICY));
    assertEquals(List.of("a", "b", "c", "d"), sunk);
    assertEquals(7, polls.size(), "one poll per scripted answer, none after the finished one");
    for (Request poll : polls) {
      assertEquals(new Request.ReadObject(EXECUTION, 1000), poll);
    }
    // Empty, empty: 1 then 2 ms. Results: no pause, back to the minimum. Empty: 1 ms. Results: no
    // pause. Empty, though DONE (not finished): 1 ms. Finished: no pause.
    assertEquals(List.of(ms(1), ms(2), ms(1), ms(1)), pauses);
  }

  @Test
  void pauseDoublesUpToTheMaximumWhilePollsComeBackEmpty() throws Exception {
    for (int i = 0; i < 6; i++) {
      script.add(running());
    }
    script.add(running("x"));
    script.add(running());
    script.add(running());
    script.add(progress(ExecutionState.DONE, true));
    start();

    drain(POLICY);
    assertEquals(List.of(ms(1), ms(2), ms(4), ms(4), ms(4), ms(4), ms(1), ms(2)), pauses);
    assertEquals(List.of("x"), sunk);
    assertEquals(10, polls.size());
  }

  @Test
  void returnsOnAFailedExecutionWithItsMessage() throws Exception {
    script.add(running("partial"));
    Response.ExecutionProgress failed = new Response.ExecutionProgress(
        ExecutionState.FAILED, "lane 1: java.lang.OutOfMemoryError", STATS, List.of(), true);
    script.add(failed);
    script.add(running("never read"));
    start();

    Response.ExecutionProgress last = drain(POLICY);
    assertEquals(failed, last);
    assertEquals("lane 1: java.lang.OutOfMemoryError", last.message());
    assertEquals(List.of("partial"), sunk);
    assertEquals(2, polls.size());
    assertEquals(List.of(), pauses);
  }

  @Test
  void returnsOnACancelledExecution() throws Exception {
    script.add(running());
    script.add(progress(ExecutionState.CANCELLED, true));
    start();
    assertEquals(ExecutionState.CANCELLED, drain(POLICY).state());
    assertEquals(List.of(ms(1)), pauses);
  }

  @Test
  void unknownExecutionRaisesFileNotFound() throws Exception {
    script.add(new Response.Error(Status.NOT_FOUND, "execution 66 is not known"));
    start();
    FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> drain(POLICY));
    assertTrue(e.getMessage().endsWith("execution 66 is not known"), e.getMessage());
  }

  @Test
  void interruptWhilePausingStopsWithInterruptedIo() throws Exception {
    script.add(running());
    start();
    try {
      InterruptedIOException e = assertThrows(InterruptedIOException.class, () -> ExecutionPoller.drain(
          client, EXECUTION, r -> { }, POLICY, pause -> {
            throw new InterruptedException("test");
          }));
      assertTrue(e.getMessage().contains("execution " + Long.toUnsignedString(EXECUTION)), e.getMessage());
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt flag must be restored");
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void defaultDrainSleepsForReal() throws Exception {
    script.add(running());
    script.add(running("r"));
    script.add(running());
    script.add(progress(ExecutionState.DONE, true, "s"));
    start();
    Response.ExecutionProgress last = ExecutionPoller.drain(client, EXECUTION, r -> sunk.add(text(r)));
    assertTrue(last.finished());
    assertEquals(List.of("r", "s"), sunk);
    assertEquals(4, polls.size());
    assertEquals(new Request.ReadObject(EXECUTION, PollingPolicy.MAX_BYTES_DEFAULT), polls.get(0));
  }

  @Test
  void policyDefaultsAndLimits() {
    PollingPolicy defaults = PollingPolicy.defaults();
    assertEquals(new PollingPolicy(ms(1), ms(50), 4 << 20), defaults);
    assertThrows(IllegalArgumentException.class, () -> new PollingPolicy(Duration.ZERO, ms(1), 1));
    assertThrows(IllegalArgumentException.class, () -> new PollingPolicy(ms(2), ms(1), 1));
    assertThrows(IllegalArgumentException.class, () -> new PollingPolicy(ms(1), ms(1), 0));
    PausePolicy pauses = defaults.pauses();
    List<Duration> seen = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      seen.add(pauses.next(running()).orElseThrow());
    }
    assertEquals(List.of(ms(1), ms(2), ms(4), ms(8), ms(16), ms(32), ms(50), ms(50)), seen);
    assertEquals(ms(1), defaults.pauses().next(null).orElseThrow(), "a fresh policy per loop");
  }

  @Test
  void pollsOneTurnAtATimeWithThePolicysPauses() throws Exception {
    script.add(running());
    script.add(running("a"));
    script.add(running());
    script.add(progress(ExecutionState.DONE, true, "b"));
    start();
    List<Response.ExecutionProgress> asked = new ArrayList<>();
    PausePolicy recording = new PausePolicy() {
      @Override
      public Optional<Duration> next(Response.ExecutionProgress last) {
        asked.add(last);
        return Optional.of(ms(7));
      }

      @Override
      public void reset() {
        asked.add(null);
      }
    };
    ExecutionPoller poller = new ExecutionPoller(client, EXECUTION, 1000, recording, pauses::add);

    assertTrue(poller.poll().results().isEmpty());
    assertEquals(List.of(ms(7)), pauses, "an empty poll: the policy's pause, before poll returns");
    assertEquals(List.of("a"), poller.poll().results().stream().map(ExecutionPollerTest::text).toList());
    assertEquals(List.of(ms(7)), pauses, "results: no pause");
    poller.poll();
    Response.ExecutionProgress last = poller.poll();
    assertTrue(last.finished());
    assertTrue(poller.finished());
    assertEquals(List.of(ms(7), ms(7)), pauses, "finished: no pause");
    // The policy saw each empty poll's answer, and a reset after the one with results.
    assertEquals(3, asked.size());
    assertTrue(asked.get(0).results().isEmpty());
    assertEquals(null, asked.get(1));
    assertTrue(asked.get(2).results().isEmpty());
    assertThrows(IllegalStateException.class, poller::poll);
    assertEquals(4, polls.size());
  }

  @Test
  void aPolicyThatGivesUpEndsThePollingWithItsReason() throws Exception {
    script.add(running());
    start();
    PausePolicy never = new PausePolicy() {
      @Override
      public Optional<Duration> next(Response.ExecutionProgress last) {
        return Optional.empty();
      }

      @Override
      public void reset() {}
    };
    IOException e = assertThrows(IOException.class,
        () -> new ExecutionPoller(client, EXECUTION, 1000, never, pauses::add).poll());
    assertTrue(e.getMessage().contains("gave up polling execution " + Long.toUnsignedString(EXECUTION)),
        e.getMessage());
    assertEquals(List.of(), pauses);
  }

  @Test
  void startAsksAgainWhileTheDeviceIsBusyThenGivesUpWithTheLastBusy() throws Exception {
    List<Request> executes = new CopyOnWriteArrayList<>();
    BlockingQueue<Response> answers = new LinkedBlockingQueue<>(List.of(
        new Response.Error(Status.BUSY, "4 executions run"),
        new Response.Error(Status.BUSY, "4 executions run"),
        new Response.ExecutionStarted(77),
        new Response.Error(Status.BUSY, "still 4"),
        new Response.Error(Status.BUSY, "still 4"),
        new Response.Error(Status.NOT_FOUND, "tasklet 5 is not known")));
    device = new FakeDevice(FakeDevice.answering(r -> {
      executes.add(r);
      return answers.poll();
    }));
    client = SocketDeviceClient.connect(device.address(), ClientOptions.defaults());
    List<InputRange> inputs = List.of(new InputRange("/in", 0, 10));

    assertEquals(77, ExecutionPoller.start(client, 5, inputs, Map.of(), POLICY.pauses(), pauses::add));
    assertEquals(List.of(ms(1), ms(2)), pauses);
    assertEquals(3, executes.size());
    assertEquals(new Request.ExecuteObject(5, inputs, Map.of()), executes.get(0));

    // A policy that allows one more attempt, then gives up: the last BUSY is thrown.
    pauses.clear();
    long[] now = {0};
    PausePolicy once = new BoundedPause(POLICY.pauses(), ms(5), () -> now[0]);
    DeviceException.Busy busy = assertThrows(DeviceException.Busy.class, () -> ExecutionPoller.start(
        client, 5, inputs, Map.of(), once, pause -> now[0] += pause.toNanos() + ms(5).toNanos()));
    assertTrue(busy.getMessage().endsWith("still 4"), busy.getMessage());
    assertEquals(5, executes.size());

    // Any other failure at once.
    assertThrows(FileNotFoundException.class,
        () -> ExecutionPoller.start(client, 5, inputs, Map.of(), POLICY.pauses(), pauses::add));
    assertEquals(6, executes.size());
  }

  private static Response.ExecutionProgress running(String... results) {
    return progress(ExecutionState.RUNNING, false, results);
  }

  private static Response.ExecutionProgress progress(ExecutionState state, boolean finished, String... results) {
    List<TaskletResult> list = new ArrayList<>();
    for (int i = 0; i < results.length; i++) {
      list.add(new TaskletResult(i, ByteBuffer.wrap(results[i].getBytes(StandardCharsets.UTF_8))));
    }
    return new Response.ExecutionProgress(state, "", STATS, list, finished);
  }

  private static String text(TaskletResult r) {
    return StandardCharsets.UTF_8.decode(r.data().duplicate()).toString();
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}
