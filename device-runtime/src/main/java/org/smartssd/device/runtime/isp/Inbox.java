package org.smartssd.device.runtime.isp;

import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A lane's records that other lanes' reads completed (they straddle pages, and start on one of this
 * lane's channels), kept in the order the lane computes them: by the modelled time their last piece
 * arrived, then input and offset, so that the order, and so the modelled times, do not depend on
 * which thread ran first. Other lanes add; the owner takes those due by a time. Thread-safe.
 */
final class Inbox {
  private static final Comparator<Execution.Routed> ORDER = (a, b) -> {
    int c = Long.compare(a.arrivalNanos(), b.arrivalNanos());
    if (c == 0) {
      c = Integer.compare(a.input(), b.input());
    }
    return c != 0 ? c : Long.compare(a.chunk().offset(), b.chunk().offset());
  };

  private final PriorityQueue<Execution.Routed> queue = new PriorityQueue<>(ORDER);

  synchronized void add(Execution.Routed record) {
    queue.add(record);
  }

  synchronized boolean isEmpty() {
    return queue.isEmpty();
  }

  /** Moves to {@code out}, in order, the records whose last piece arrived by {@code upTo}. */
  synchronized void takeDue(long upTo, List<Execution.Routed> out) {
    while (!queue.isEmpty() && queue.peek().arrivalNanos() <= upTo) {
      out.add(queue.poll());
    }
  }
}
