package org.smartssd.device.runtime.isp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.smartssd.device.runtime.objects.Caller;
import org.smartssd.device.runtime.objects.OutputStore;
import org.smartssd.device.runtime.objects.StoreException;
import org.smartssd.device.runtime.timing.OutputTimeline;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * The output object of one execution (EXECUTE_OBJECT's output path): written under a hidden name
 * beside its path ({@code .smartssd-output-ID-RANDOM}) while the execution runs, moved to its path,
 * durable, when it is done, deleted when it fails or is cancelled. Its programs are modelled on an
 * {@link OutputTimeline}, each writer's booked when its event has computed.
 */
final class ExecutionOutput {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final OutputStore store;
  private final String path;
  private final String temporaryPath;
  private final long handle;
  private final Caller caller;
  /** The owner of the write handle: no connection's, so that no connection's end closes it. */
  private final Object owner;
  private final OutputTimeline timeline;
  /**
   * The thread that does the output's store operations. Never a lane's: lanes are interrupted when
   * their execution stops, and an interrupt in the middle of a file channel's write closes the
   * channel, the device's flash or journal file, for everyone.
   */
  private final ExecutorService io;
  private long bytes;
  private boolean ended;

  private ExecutionOutput(OutputStore store, String path, String temporaryPath, long handle, Caller caller,
      Object owner, OutputTimeline timeline, ExecutorService io) {
    this.io = io;
    this.store = store;
    this.owner = owner;
    this.path = path;
    this.temporaryPath = temporaryPath;
    this.handle = handle;
    this.caller = caller;
    this.timeline = timeline;
  }

  /**
   * Makes the output object of execution {@code executionId} (its temporary file), for {@code caller}.
   *
   * @throws StoreException as {@link OutputStore#createOutput}
   */
  static ExecutionOutput create(OutputStore store, String path, int permission, long executionId, Caller caller,
      TimingModel timing, int lanes, long startNanos, ExecutorService io) throws StoreException, IOException {
    String temporary = temporaryPath(path, executionId);
    Object owner = new Object();
    long handle = store.createOutput(path, temporary, permission, caller, owner);
    return new ExecutionOutput(store, path, temporary, handle, caller, owner,
        new OutputTimeline(timing, lanes, startNanos), io);
  }

  @FunctionalInterface
  private interface StoreCall<T> {
    T call() throws StoreException, IOException;
  }

  /** Runs {@code call} on the output's thread and waits for it, not to be interrupted. */
  private <T> T onIoThread(StoreCall<T> call) throws IOException {
    Future<T> done = io.submit(() -> {
      try {
        return call.call();
      } catch (StoreException e) {
        throw new IOException(e.status() + ": " + e.getMessage(), e);
      }
    });
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return done.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          if (e.getCause() instanceof IOException io) {
            throw io;
          }
          throw new IOException(e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The hidden name the output is written under: in its directory, named after the execution. */
  static String temporaryPath(String path, long executionId) {
    int slash = path.lastIndexOf('/');
    String directory = slash <= 0 ? "" : path.substring(0, slash);
    byte[] random = new byte[4];
    RANDOM.nextBytes(random);
    return directory + "/.smartssd-output-" + executionId + "-" + HexFormat.of().formatHex(random);
  }

  String path() {
    return path;
  }

  String temporaryPath() {
    return temporaryPath;
  }

  /** Appends {@code data} for {@code lane} (-1: the merge); its programs wait for {@link #book}. */
  synchronized void write(int lane, ByteBuffer data) throws IOException {
    if (ended) {
      throw new IOException("the output object '" + path + "' is closed: its execution has ended");
    }
    int n = data.remaining();
    try {
      onIoThread(() -> {
        timeline.writer(lane);
        store.writeOutput(handle, data, owner, timeline);
        return null;
      });
    } catch (IOException e) {
      throw new IOException("cannot write the output object '" + path + "': " + e.getMessage(), e);
    }
    bytes += n;
  }

  /** Books {@code lane}'s programs, its data ready at {@code readyNanos}. */
  void book(int lane, long readyNanos) {
    timeline.book(lane, readyNanos);
  }

  /**
   * Programs what is left once the processing ended at {@code processingEndNanos}, makes the object
   * durable and moves it to its path; returns when it was durable, on the modelled clock.
   */
  synchronized long commit(long processingEndNanos) throws IOException {
    timeline.bookAll(processingEndNanos);
    ended = true;
    onIoThread(() -> {
      timeline.writer(-1);
      return store.commitOutput(handle, temporaryPath, path, caller, owner, timeline);
    });
    return timeline.book(-1, processingEndNanos);
  }

  /** Takes the temporary file away (the execution failed or was cancelled, or the commit failed). */
  synchronized void abort() throws IOException {
    ended = true;
    onIoThread(() -> {
      store.abortOutput(handle, temporaryPath, owner);
      return null;
    });
  }

  synchronized long bytes() {
    return bytes;
  }

  long pagesProgrammed() {
    return timeline.pagesProgrammed();
  }

  long blocksErased() {
    return timeline.blocksErased();
  }

  long pagesRead() {
    return timeline.pagesRead();
  }
}
