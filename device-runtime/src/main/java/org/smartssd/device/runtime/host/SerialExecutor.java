package org.smartssd.device.runtime.host;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

/**
 * Runs one connection's commands one after the other, in arrival order, on a shared pool: the
 * device's workers serve many connections, but a writer's pipelined appends never overtake each
 * other. It can be paused between commands (its connection has too many answers unsent) without
 * holding a worker: the queue waits, and {@link #resume} hands it to a worker again.
 */
final class SerialExecutor implements Executor {
  private final Executor pool;
  private final Queue<Runnable> queue = new ArrayDeque<>();
  /** A worker is draining the queue. */
  private boolean running;
  private boolean paused;

  SerialExecutor(Executor pool) {
    this.pool = pool;
  }

  @Override
  public void execute(Runnable task) {
    synchronized (queue) {
      queue.add(task);
      if (running || paused) {
        return;
      }
      running = true;
    }
    start();
  }

  /** Runs no further command until {@link #resume}; the one running, if any, finishes. */
  void pause() {
    synchronized (queue) {
      paused = true;
    }
  }

  void resume() {
    synchronized (queue) {
      paused = false;
      if (running || queue.isEmpty()) {
        return;
      }
      running = true;
    }
    start();
  }

  private void start() {
    try {
      pool.execute(this::drain);
    } catch (RuntimeException e) {
      synchronized (queue) {
        running = false;
      }
      throw e;
    }
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (queue) {
        next = paused ? null : queue.poll();
        if (next == null) {
          running = false;
          return;
        }
      }
      next.run();
    }
  }
}
