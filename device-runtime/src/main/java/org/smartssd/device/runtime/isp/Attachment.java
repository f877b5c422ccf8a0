package org.smartssd.device.runtime.isp;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.objects.StoreException;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.ExecutionModel;
import org.smartssd.device.runtime.timing.InternalTimeline;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.opcount.MeteredThread;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.OpMeter;

/**
 * One attached analysis ({@link ActiveAnalysis}): its tasklet, the files it takes, the device buffer's
 * pages it holds on the modelled clock, its cores' modelled time, and its results.
 *
 * <p>Each file gets an instance of its own ({@code onCreate}, {@code onExecute} with the file as its one
 * input, {@code onDataAvailable} for each piece in order, {@code onRead(last)} at its end). The tasklet's
 * code runs on the attachment's worker thread only, counted there; a file's work is modelled on core
 * {@code f mod cores} (f: the files in the order they were created), so that files are analysed in
 * parallel on the device's cores and a file's pieces in order.
 *
 * <p>A result is handed out once its piece's analysis has ended on the modelled clock (paced devices), as
 * an execution's are. A tasklet that throws, runs past the time limit or allocates past the memory
 * budget in one event fails the attachment: the writes go on, unanalysed.
 */
final class Attachment {
  private static final Logger LOG = LoggerFactory.getLogger(Attachment.class);

  final long id;
  final InstalledTasklet tasklet;
  final String path;
  final String user;
  final Object owner;
  private final ActiveAnalysis engine;
  private final boolean deferAll;
  private final boolean waitForRoom;
  private final Map<String, String> options;
  private final long startNanos;
  private final long startWallNanos = System.nanoTime();
  private final ExecutionModel model;
  private final ExecutorService worker;
  private volatile Thread workerThread;
  private final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
  private final com.sun.management.ThreadMXBean allocation =
      (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

  // Guarded by this.
  private final long[] coreFree;
  private int files;
  /** On-the-fly pieces in the buffer: {end of their analysis, bytes}, earliest end first. */
  private final PriorityQueue<long[]> buffer = new PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]));
  private long buffered;
  private final List<ActiveAnalysis.Stream> streams = new ArrayList<>();
  private final ArrayDeque<ActiveAnalysis.Released> results = new ArrayDeque<>();
  /** Bytes analysed, by the modelled time their analysis ended, not yet counted in {@link #analysedBefore}. */
  private final TreeMap<Long, Long> analysedAt = new TreeMap<>();
  private long analysedBefore;
  private long bytesWritten;
  private long bytesOnTheFly;
  private long bytesInIdle;
  private long pagesReadBack;
  private long readNanos;
  private long hostDelayNanos;
  private long computeNanos;
  private long cpuNanos;
  private OpCounts counted = OpCounts.ZERO;
  private long resultRecords;
  private long resultBytes;
  private long deliveredBytes;
  private long latestEnd;
  private long laneState;
  private boolean detached;
  private String failure;
  /** When the host last read it (wall clock): one ended and left unread is forgotten ({@link #abandoned}). */
  private long lastReadWallNanos = System.nanoTime();

  Attachment(ActiveAnalysis engine, long id, InstalledTasklet tasklet, String path, boolean deferAll,
      boolean waitForRoom, Map<String, String> options, String user, Object owner, long startNanos) {
    this.engine = engine;
    this.id = id;
    this.tasklet = tasklet;
    this.path = path;
    this.deferAll = deferAll;
    this.waitForRoom = waitForRoom;
    this.options = Map.copyOf(options);
    this.user = user;
    this.owner = owner;
    this.startNanos = startNanos;
    this.latestEnd = startNanos;
    this.model = new ExecutionModel(engine.isp(), engine.energy(), engine.timing().geometry().channels(), startNanos);
    this.coreFree = new long[engine.isp().cores()];
    java.util.Arrays.fill(coreFree, startNanos);
    this.worker = Executors.newSingleThreadExecutor(r -> {
      Thread t = new MeteredThread(r, engine.name() + "-attached" + id);
      t.setDaemon(true);
      t.setContextClassLoader(tasklet.code().code());
      workerThread = t;
      return t;
    });
  }

  /** Refuses a tasklet that would not take bytes as written: run once, on the worker, before attaching. */
  void probe() throws StoreException {
    Object outcome = call("onCreate", () -> {
      Tasklet t = tasklet.code().newInstance();
      t.onCreate(context(0));
      return t.recordFormat();
    });
    if (outcome instanceof String why) {
      throw new StoreException(Status.BAD_REQUEST, why);
    }
    RecordFormat format = ((Outcome) outcome).value instanceof RecordFormat f ? f : null;
    if (format == null || (format.kind() != RecordFormat.Kind.RAW && format.kind() != RecordFormat.Kind.STREAM)) {
      throw new StoreException(Status.BAD_REQUEST, "tasklet " + tasklet.className() + " asks for "
          + (format == null ? "no record format" : format.kind() + " records") + "; an attached analysis hands a file's"
          + " bytes as they are written, in order: its tasklet must take RecordFormat.stream() or raw() and cut"
          + " records itself");
    }
  }

  // ---- the files ----

  synchronized boolean takes(String filePath, String writerUser) {
    if (detached || failure != null || !writerUser.equals(user)) {
      return false;
    }
    return filePath.equals(path) || filePath.startsWith(path.equals("/") ? "/" : path + "/");
  }

  synchronized ActiveAnalysis.Stream newStream(String filePath, long handle, long objectId, Object writer) {
    ActiveAnalysis.Stream s = new ActiveAnalysis.Stream(this, filePath, handle, objectId, writer,
        files++ % coreFree.length, deferAll);
    streams.add(s);
    return s;
  }

  /** The host wrote {@code data} at {@code offset}: hand it on the fly, a page at a time, while there is room. */
  void written(ActiveAnalysis.Stream s, long offset, ByteBuffer data, Command cmd) {
    synchronized (s.order) {
      int n = data.remaining();
      synchronized (this) {
        bytesWritten += n;
      }
      s.written = offset + n;
      if (s.deferred || failed()) {
        return;
      }
      long arrival = cmd.dataReadyNanos();
      int pageSize = engine.pageSize();
      int pos = data.position();
      while (pos < data.limit()) {
        long at = offset + (pos - data.position());
        int length = (int) Math.min(data.limit() - pos, pageSize - at % pageSize);
        long ready = admit(length, arrival, cmd);
        if (ready < 0) {
          s.deferred = true; // this piece and all after it: idle time reads them back from flash
          return;
        }
        ByteBuffer piece = ByteBuffer.allocate(length);
        piece.put(data.duplicate().position(pos).limit(pos + length)).flip();
        long end = hand(s, at, piece.asReadOnlyBuffer(), ready);
        if (end < 0) {
          return;
        }
        synchronized (this) {
          buffer.add(new long[] {end, length});
          buffered += length;
          bytesOnTheFly += length;
        }
        pos += length;
      }
    }
  }

  /**
   * When a piece of {@code length} bytes arriving at {@code arrival} is in the buffer: at once if there is
   * room; with overflow {@code wait}, once enough earlier pieces are analysed (the command completes no
   * earlier); with {@code defer}, never (-1).
   */
  private synchronized long admit(int length, long arrival, Command cmd) {
    long capacity = engine.bufferBytes();
    while (!buffer.isEmpty() && buffer.peek()[0] <= arrival) {
      buffered -= buffer.poll()[1];
    }
    if (buffered + length <= capacity) {
      return arrival;
    }
    if (!waitForRoom) {
      return -1;
    }
    long room = arrival;
    while (buffered + length > capacity && !buffer.isEmpty()) {
      long[] e = buffer.poll();
      buffered -= e[1];
      room = Math.max(room, e[0]);
    }
    cmd.notBefore(room);
    return room;
  }

  /** A file was closed (or its writer's connection ended): analysed to its end, its tasklet's last onRead follows. */
  void closed(ActiveAnalysis.Stream s, long nowNanos) {
    synchronized (s.order) {
      s.closed = true;
      if (!s.deferred && !failed()) {
        finish(s, nowNanos);
      }
    }
  }

  /** Streams idle time has work for, oldest first. */
  synchronized List<ActiveAnalysis.Stream> deferredStreams() {
    if (failure != null) {
      return List.of();
    }
    List<ActiveAnalysis.Stream> out = new ArrayList<>();
    for (ActiveAnalysis.Stream s : streams) {
      if (s.idleWork()) {
        out.add(s);
      }
    }
    return out;
  }

  synchronized long coreFreeAt(int core) {
    return coreFree[core];
  }

  /** In idle time: reads back and analyses the stream's next deferred page (or ends it, if it is closed and caught up). */
  void idleStep(ActiveAnalysis.Stream s, long now) {
    synchronized (s.order) {
      if (!s.idleWork() || failed()) {
        return;
      }
      if (s.handed >= s.written) {
        finish(s, now);
        return;
      }
      int pageSize = engine.pageSize();
      int page = (int) (s.handed / pageSize);
      int within = (int) (s.handed % pageSize);
      int length = (int) Math.min(pageSize - within, s.written - s.handed);
      ByteBuffer dst = ByteBuffer.allocate(pageSize);
      InternalTimeline timeline;
      try {
        timeline = engine.readBack(s, page, dst, now);
      } catch (StoreException e) {
        giveUp(s, e.status() == Status.NOT_FOUND ? "was deleted before idle time analysed it" : e.getMessage());
        return;
      } catch (java.io.IOException e) {
        giveUp(s, "could not be read back: " + e);
        return;
      }
      synchronized (this) {
        pagesReadBack++;
        readNanos += timeline.doneNanos() - now;
        hostDelayNanos += timeline.hostDelayNanos();
      }
      ByteBuffer piece = dst.duplicate().position(within).limit(within + length).slice().asReadOnlyBuffer();
      if (hand(s, s.handed, piece, timeline.doneNanos()) < 0) {
        return;
      }
      synchronized (this) {
        bytesInIdle += length;
      }
      if (s.handed >= s.written) {
        if (s.closed) {
          finish(s, timeline.doneNanos());
        } else if (!deferAll) {
          s.deferred = false; // caught up: what comes next is analysed on the fly again
        }
      }
    }
  }

  private void giveUp(ActiveAnalysis.Stream s, String why) {
    s.finished = true;
    LOG.warn("{}: attached execution {} gives up {}: it {}", engine.name(), id, s.path, why);
  }

  // ---- the tasklet, on the worker ----

  /**
   * Hands {@code piece} (at {@code offset} of the stream) to the stream's tasklet, ready at {@code ready} on
   * the modelled clock. Returns when its analysis ends on the modelled clock, or -1 if the attachment failed.
   */
  private long hand(ActiveAnalysis.Stream s, long offset, ByteBuffer piece, long ready) {
    int bytes = piece.remaining();
    List<TaskletResult> emitted = new ArrayList<>();
    Object outcome = call("onDataAvailable", () -> {
      Tasklet t = instance(s);
      t.onDataAvailable(new DataChunk(s.path, offset, piece), sink(s, emitted));
      return null;
    });
    s.handed = offset + bytes;
    return account(s, outcome, bytes, ready, emitted);
  }

  /** The stream's last onRead, after its last piece. */
  private void finish(ActiveAnalysis.Stream s, long ready) {
    if (s.finished) {
      return;
    }
    s.finished = true;
    List<TaskletResult> emitted = new ArrayList<>();
    Object outcome = call("onRead", () -> {
      Tasklet t = instance(s);
      t.onRead(sink(s, emitted), true);
      return null;
    });
    account(s, outcome, 0, ready, emitted);
    s.instance = null;
  }

  /** The stream's instance, made on first use (on the worker). */
  private Tasklet instance(ActiveAnalysis.Stream s) throws Exception {
    if (s.instance == null) {
      Tasklet t = tasklet.code().newInstance();
      t.onCreate(context(s.core));
      t.onExecute(new ExecutionInfo(id, List.of(InputRange.whole(s.path)), options, s.core, coreFree.length));
      s.instance = t;
    }
    return s.instance;
  }

  /** Models a call's work on the stream's core from {@code ready}, and keeps its results for then. */
  private synchronized long account(ActiveAnalysis.Stream s, Object outcome, int bytes, long ready,
      List<TaskletResult> emitted) {
    if (outcome instanceof String why) {
      fail(why);
      return -1;
    }
    Outcome o = (Outcome) outcome;
    long nanos = model.coreNanos(bytes, o.cpuNanos, o.counted);
    long start = Math.max(ready, coreFree[s.core]);
    long end = start + nanos;
    coreFree[s.core] = end;
    computeNanos += nanos;
    cpuNanos += o.cpuNanos;
    counted = counted.plus(o.counted);
    latestEnd = Math.max(latestEnd, end);
    if (bytes > 0) {
      analysedAt.merge(end, (long) bytes, Long::sum);
    }
    for (TaskletResult r : emitted) {
      results.add(new ActiveAnalysis.Released(r, end));
    }
    return end;
  }

  private ResultSink sink(ActiveAnalysis.Stream s, List<TaskletResult> emitted) {
    return result -> {
      int size = result.remaining();
      if (size > Execution.MAX_RESULT_BYTES) {
        throw new IllegalStateException("a result of " + size + " bytes; one result may be at most "
            + Execution.MAX_RESULT_BYTES + " bytes");
      }
      synchronized (this) {
        if (resultBytes + size > engine.isp().outputBudgetBytes()) {
          throw new IllegalStateException("results past the output budget of " + engine.isp().outputBudgetBytes()
              + " bytes (smartssd.device.isp.output-budget-bytes)");
        }
        resultBytes += size;
        resultRecords++;
      }
      ByteBuffer copy = ByteBuffer.allocate(size);
      copy.put(result.duplicate()).flip();
      emitted.add(new TaskletResult(s.core, copy.asReadOnlyBuffer()));
    };
  }

  private TaskletContext context(int core) {
    return new TaskletContext() {
      @Override
      public Map<String, String> parameters() {
        return tasklet.parameters();
      }

      @Override
      public String taskletName() {
        return tasklet.className();
      }

      @Override
      public int lane() {
        return core;
      }

      @Override
      public int lanes() {
        return coreFree.length;
      }

      @Override
      public int maxRecordBytes() {
        return engine.isp().maxRecordBytes();
      }

      @Override
      public void holding(long bytes) {
        TaskletContext.super.holding(bytes);
        synchronized (Attachment.this) {
          laneState = Math.max(laneState, bytes);
        }
      }
    };
  }

  /** What a call did: its value, its CPU time and its counted work. */
  private record Outcome(Object value, long cpuNanos, OpCounts counted) {}

  @FunctionalInterface
  private interface Work {
    Object run() throws Exception;
  }

  /**
   * Runs tasklet code on the worker and waits for it. Returns an {@link Outcome}, or why the call failed
   * (a String): it threw, ran past the time limit (its thread is then told to stop and the worker is
   * given up), or allocated past the memory budget.
   */
  private Object call(String event, Work work) {
    if (failed()) {
      return "the attachment failed before: " + failure;
    }
    Future<Object> f;
    try {
      f = worker.submit(() -> {
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long allocatedBefore = allocation.getCurrentThreadAllocatedBytes();
        OpMeter meter = OpMeter.current();
        OpCounts before = meter.counts();
        Object value;
        try {
          value = work.run();
        } catch (Throwable t) {
          return "tasklet " + tasklet.className() + " failed in " + event + ": " + t;
        }
        long allocated = allocation.getCurrentThreadAllocatedBytes() - allocatedBefore;
        if (allocated > engine.isp().memoryBudgetBytes()) {
          return "tasklet " + tasklet.className() + " allocated " + allocated + " bytes in one " + event
              + ", more than its memory budget of " + engine.isp().memoryBudgetBytes()
              + " bytes (smartssd.device.isp.memory-budget-bytes)";
        }
        return new Outcome(value, threads.getCurrentThreadCpuTime() - cpuBefore, meter.counts().minus(before));
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return "the attachment has ended";
    }
    try {
      return f.get(engine.isp().timeLimitMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      Thread t = workerThread;
      if (t != null) {
        OpMeter.requestStop(t);
      }
      worker.shutdownNow();
      return "tasklet " + tasklet.className() + " ran past the time limit of " + engine.isp().timeLimitMillis()
          + " ms (smartssd.device.isp.time-limit-ms) in one " + event;
    } catch (ExecutionException e) {
      return "tasklet " + tasklet.className() + " failed in " + event + ": " + e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while tasklet " + tasklet.className() + " ran " + event;
    }
  }

  // ---- state ----

  synchronized boolean failed() {
    return failure != null;
  }

  private synchronized void fail(String why) {
    if (failure == null) {
      failure = why;
      LOG.warn("{}: attached execution {} failed: {}; the writes go on, unanalysed", engine.name(), id, why);
      worker.shutdown();
    }
  }

  /** Ended (failed, or detached with every file analysed) and not read for {@code unreadNanos} of wall time. */
  synchronized boolean abandoned(long unreadNanos) {
    boolean ended = failure != null || (detached && streams.stream().allMatch(s -> s.finished));
    return ended && System.nanoTime() - lastReadWallNanos > unreadNanos;
  }

  synchronized void detach() {
    detached = true;
  }

  void shutdown() {
    worker.shutdownNow();
  }

  /** Results ready by {@code horizon}, at most about {@code budget} bytes, with the state and statistics then. */
  synchronized Response.ExecutionProgress progress(long budget, long horizon) {
    lastReadWallNanos = System.nanoTime();
    while (!analysedAt.isEmpty() && analysedAt.firstKey() <= horizon) {
      analysedBefore += analysedAt.pollFirstEntry().getValue();
    }
    if (failure != null) {
      return new Response.ExecutionProgress(ExecutionState.FAILED, failure, statistics(horizon), List.of(), true);
    }
    List<TaskletResult> out = new ArrayList<>();
    long moved = 0;
    while (!results.isEmpty() && results.peek().readyAtNanos() <= horizon && moved < budget) {
      TaskletResult r = results.poll().result();
      moved += r.data().remaining();
      out.add(r);
    }
    deliveredBytes += moved;
    boolean allDone = detached && streams.stream().allMatch(s -> s.finished);
    boolean ended = allDone && latestEnd <= horizon;
    ExecutionState state = ended ? ExecutionState.DONE : ExecutionState.RUNNING;
    return new Response.ExecutionProgress(state, "", statistics(horizon), out, ended && results.isEmpty());
  }

  private org.smartssd.device.ExecutionStatistics statistics(long horizon) {
    long modelled = Math.min(latestEnd, Math.max(horizon, startNanos)) - startNanos;
    long pagesRead = pagesReadBack;
    long work = engine.energy().account(computeNanos, pagesRead, 0, 0, deliveredBytes).totalNanojoules();
    return ActiveAnalysis.statistics(coreFree.length, analysedBefore, pagesRead, resultRecords, resultBytes,
        System.nanoTime() - startWallNanos, cpuNanos, modelled, readNanos, computeNanos,
        engine.timing().linkNanos(deliveredBytes), work / 1000, counted, hostDelayNanos, laneState);
  }

  /** For the log: bytes written, analysed on the fly, analysed in idle time, pages read back. */
  synchronized String summary() {
    return bytesWritten + " bytes written, " + bytesOnTheFly + " analysed on the fly, " + bytesInIdle
        + " in idle time (" + pagesReadBack + " pages read back)";
  }
}
