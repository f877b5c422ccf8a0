package org.smartssd.device.runtime.host;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

/**
 * Runs one connection's commands one after the other, in arrival order, on a shared pool: the
 * device's workers serve many connections, but a writer's pipelined appends never overtake each
 * other.
 */
final class SerialExecutor implements Executor {
  private final Executor pool;
  private final Queue<Runnable> queue = new ArrayDeque<>();
  private boolean running;

  SerialExecutor(Executor pool) {
    this.pool = pool;
  }

  @Override
  public void execute(Runnable task) {
    synchronized (queue) {
      queue.add(task);
      if (running) {
        return;
      }
      running = true;
    }
    pool.execute(this::drain);
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (queue) {
        next = queue.poll();
        if (next == null) {
          running = false;
          return;
        }
      }
      next.run();
    }
  }
}
