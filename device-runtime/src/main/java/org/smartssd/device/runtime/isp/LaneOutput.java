package org.smartssd.device.runtime.isp;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * One lane's results waiting for the host: bounded, so that a lane producing faster than the host
 * reads waits (back-pressure) instead of dropping results or growing without bound. Each result
 * carries the modelled time it is ready at, so that a paced device hands it out no earlier.
 */
final class LaneOutput {
  private record Entry(TaskletResult result, long readyAtNanos) {}

  private final int lane;
  private final long capacityBytes;
  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private long bytes;

  LaneOutput(int lane, long capacityBytes) {
    this.lane = lane;
    this.capacityBytes = capacityBytes;
  }

  /**
   * Adds a result, waiting while the buffer is full. A result larger than the whole buffer waits
   * until the buffer is empty. Returns false without adding when {@code stopped} says the
   * execution ended meanwhile.
   */
  synchronized boolean put(ByteBuffer data, long readyAtNanos, java.util.function.BooleanSupplier stopped)
      throws InterruptedException {
    int size = data.remaining();
    while (bytes > 0 && bytes + size > capacityBytes) {
      if (stopped.getAsBoolean()) {
        return false;
      }
      wait(50);
    }
    entries.add(new Entry(new TaskletResult(lane, data), readyAtNanos));
    bytes += size;
    return true;
  }

  /** What one drain moved: bytes, and the latest modelled time one of them was ready at. */
  record Drained(long bytes, long readyAtNanos) {}

  /**
   * Moves results ready by {@code nowNanos} into {@code out}, about {@code maxBytes} at most (at
   * least one if one is ready).
   */
  synchronized Drained drain(List<TaskletResult> out, long maxBytes, long nowNanos) {
    long moved = 0;
    long readyAt = 0;
    while (!entries.isEmpty()) {
      Entry e = entries.peek();
      int size = e.result.data().remaining();
      if (e.readyAtNanos > nowNanos || (moved > 0 && moved + size > maxBytes)) {
        break;
      }
      entries.poll();
      out.add(e.result);
      readyAt = Math.max(readyAt, e.readyAtNanos);
      moved += size;
      bytes -= size;
    }
    if (moved > 0) {
      notifyAll();
    }
    return new Drained(moved, readyAt);
  }

  synchronized boolean isEmpty() {
    return entries.isEmpty();
  }

  /** Wakes a waiting producer (the execution ended). */
  synchronized void wake() {
    notifyAll();
  }
}
