package org.smartssd.device.runtime.isp;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
 * input, {@code onDataAvailable} for each piece in order, {@code onRead(last)} at its end). A file's work is
 * modelled on core {@code f mod cores} (f: the files in the order they were created) and runs on that core's
 * worker thread only, counted there: a file's pieces in order, the cores in parallel. Each core holds its
 * share of the buffer (buffer-bytes / cores), so that what it admits depends on its own pieces alone.
 *
 * <p>A result is handed out once its piece's analysis has ended on the modelled clock (paced devices), as
 * an execution's are, and only once the workers have caught up with what was written before the host
 * asked. A tasklet that throws, runs past the time limit or allocates past the memory budget in one event
 * fails the attachment: the writes go on, unanalysed.
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
  /** A worker a core: the streams on core c run on workers[c], in order, and the cores in parallel. */
  private final Worker[] workers;
  /** Bytes written that the worker has not taken yet: how far the simulator is behind the writes. */
  private final java.util.concurrent.atomic.AtomicLong queuedBytes = new java.util.concurrent.atomic.AtomicLong();
  /**
   * A writer (overflow defer) goes on without waiting for the worker until this much waits for it (the
   * simulator's memory, not the modelled buffer: a choice).
   */
  static final long MOST_QUEUED_BYTES = 256L << 20;
  private volatile boolean warnedBehind;
  private volatile String stoppedBecause;

  /**
   * A core's worker thread, its event running (for {@link #watch}), and its share of the buffer: the
   * on-the-fly pieces it holds, {end of their analysis, bytes}, earliest end first. Each core has
   * buffer-bytes / cores of its own, so that a core's admissions depend on its own pieces only, in the order
   * they came, whichever thread got on first.
   */
  private static final class Worker {
    final java.util.concurrent.ThreadPoolExecutor executor;
    volatile Thread thread;
    volatile boolean inTasklet;
    volatile long eventStartedWall;
    volatile long eventAllocatedBefore;
    volatile String eventName = "";
    final PriorityQueue<long[]> buffer = new PriorityQueue<>((x, y) -> Long.compare(x[0], y[0]));
    long buffered;
    /** The worker's counted work by call path (option profile=true), written by its thread only; else null. */
    final org.smartssd.opcount.ProfileTree profile;

    Worker(String name, ClassLoader code, boolean profiling) {
      profile = profiling ? new org.smartssd.opcount.ProfileTree() : null;
      executor = new java.util.concurrent.ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
          new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
            Thread t = new MeteredThread(r, name);
            t.setDaemon(true);
            t.setContextClassLoader(code);
            thread = t;
            return t;
          });
    }
  }
  /** CPU time and allocation of the workers' threads. */
  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

  // Guarded by this.
  private final long[] coreFree;
  private int files;
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
      boolean waitForRoom, boolean profiling, Map<String, String> options, String user, Object owner,
      long startNanos) {
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
    this.workers = new Worker[coreFree.length];
    for (int c = 0; c < workers.length; c++) {
      workers[c] = new Worker(engine.name() + "-attached" + id + "-core" + c, tasklet.code().code(), profiling);
    }
  }

  /** Refuses a tasklet that would not take bytes as written: run once, on the worker, before attaching. */
  void probe() throws StoreException {
    java.util.concurrent.atomic.AtomicReference<Object> result = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.Future<Long> f = submit(0, () -> {
      result.set(call(0, "onCreate", false, () -> {
        Tasklet t = tasklet.code().newInstance();
        t.onCreate(context(0));
        return t.recordFormat();
      }));
      return 0L;
    });
    if (f != null) {
      await(f);
    }
    Object outcome = result.get() != null ? result.get() : "tasklet " + tasklet.className() + " could not be tried";
    if (outcome instanceof String why) {
      throw new StoreException(Status.BAD_REQUEST, why);
    }
    RecordFormat format = ((Outcome) outcome).value instanceof RecordFormat asked ? asked : null;
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

  /**
   * The host wrote {@code data} at {@code offset} by {@code cmd} (not completed yet). The worker hands it on the
   * fly, a page at a time, while the buffer has room on the modelled clock. With overflow {@code wait} the
   * writer waits for that and its command completes no earlier than the room; with {@code defer} it goes on
   * at once (the worker follows on the simulator's time), unless the worker is behind by more than
   * {@link #MOST_QUEUED_BYTES}.
   */
  void written(ActiveAnalysis.Stream s, long offset, ByteBuffer data, Command cmd) {
    int n = data.remaining();
    synchronized (this) {
      bytesWritten += n;
    }
    if (failed()) {
      return;
    }
    long arrival = cmd.dataReadyNanos();
    java.util.concurrent.Future<Long> f;
    synchronized (s.order) {
      s.written = offset + n;
      if (s.deferred) {
        return; // idle time reads them back from flash
      }
      ByteBuffer copy = ByteBuffer.allocate(n);
      copy.put(data.duplicate()).flip();
      ByteBuffer piece = copy.asReadOnlyBuffer();
      queuedBytes.addAndGet(n);
      f = submit(s.core, () -> {
        try {
          return arrive(s, offset, piece, arrival);
        } finally {
          queuedBytes.addAndGet(-n);
        }
      });
    }
    if (f == null) {
      return;
    }
    if (waitForRoom) {
      Long room = await(f);
      if (room != null && room > 0) {
        cmd.notBefore(room);
      }
    } else if (queuedBytes.get() > MOST_QUEUED_BYTES) {
      if (!warnedBehind) {
        warnedBehind = true;
        LOG.warn("{}: attached execution {}: the simulator analyses slower than the writes come ({} bytes wait):"
            + " the writer waits for it, later than the model", engine.name(), id, queuedBytes.get());
      }
      await(f);
    }
  }

  /**
   * On the worker: a write's bytes arrived at {@code arrival}. Hands them a page at a time while the buffer
   * has room; returns when the last was admitted (the room a waiting writer's command needs), 0 if none.
   */
  private long arrive(ActiveAnalysis.Stream s, long offset, ByteBuffer data, long arrival) {
    if (s.deferred || failed() || offset + data.remaining() <= s.handed) {
      return 0; // left for idle time, or idle time read it back already
    }
    int pageSize = engine.pageSize();
    long room = 0;
    int pos = data.position();
    while (pos < data.limit()) {
      long at = offset + (pos - data.position());
      int length = (int) Math.min(data.limit() - pos, pageSize - at % pageSize);
      long ready = admit(s.core, length, arrival);
      if (ready < 0) {
        s.deferred = true; // this piece and all after it: idle time reads them back from flash
        return room;
      }
      room = Math.max(room, ready);
      long end = hand(s, at, data.duplicate().position(pos).limit(pos + length).slice().asReadOnlyBuffer(), ready);
      if (end < 0) {
        return room;
      }
      Worker w = workers[s.core];
      w.buffer.add(new long[] {end, length});
      w.buffered += length;
      synchronized (this) {
        bytesOnTheFly += length;
      }
      pos += length;
    }
    return room;
  }

  /**
   * When a piece of {@code length} bytes arriving at {@code arrival} is in the buffer: at once if there is
   * room; with overflow {@code wait}, once enough earlier pieces are analysed (the command completes no
   * earlier); with {@code defer}, never (-1).
   */
  private long admit(int core, int length, long arrival) {
    Worker w = workers[core];
    long capacity = Math.max(engine.pageSize(), engine.bufferBytes() / workers.length);
    while (!w.buffer.isEmpty() && w.buffer.peek()[0] <= arrival) {
      w.buffered -= w.buffer.poll()[1];
    }
    if (w.buffered + length <= capacity) {
      return arrival;
    }
    if (!waitForRoom) {
      return -1;
    }
    long room = arrival;
    while (w.buffered + length > capacity && !w.buffer.isEmpty()) {
      long[] e = w.buffer.poll();
      w.buffered -= e[1];
      room = Math.max(room, e[0]);
    }
    return room;
  }

  /** A file was closed (or its writer's connection ended): analysed to its end, its tasklet's last onRead follows. */
  void closed(ActiveAnalysis.Stream s, long nowNanos) {
    submit(s.core, () -> {
      s.closed = true;
      if (!s.deferred && !failed()) {
        finish(s, nowNanos);
      }
      return 0L;
    });
  }

  /** Streams idle time has work for, oldest first; those finished are let go. */
  synchronized List<ActiveAnalysis.Stream> deferredStreams() {
    if (failure != null) {
      return List.of();
    }
    streams.removeIf(s -> s.finished);
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
  void idleStep(ActiveAnalysis.Stream s) {
    if (s.stepPending) {
      return;
    }
    s.stepPending = true;
    java.util.concurrent.Future<Long> f = submit(s.core, () -> {
      try {
        // Page after page while the device stays idle and the core is free within the tick, on the modelled clock.
        long now = engine.timing().now();
        while (engine.idle(now) && coreFreeAt(s.core) <= now + ActiveAnalysis.IDLE_TICK_NANOS
            && idleStepOnWorker(s, now)) {
          now = engine.timing().now();
        }
      } finally {
        s.stepPending = false;
      }
      return 0L;
    });
    if (f == null) {
      s.stepPending = false;
    }
  }

  /** Reads back and analyses one deferred page of the stream; returns whether there may be more to do. */
  private boolean idleStepOnWorker(ActiveAnalysis.Stream s, long now) {
    synchronized (s.order) {
      if (!s.idleWork() || failed()) {
        return false;
      }
      if (s.handed >= s.written) {
        finish(s, now);
        return false;
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
        return false;
      } catch (java.io.IOException e) {
        giveUp(s, "could not be read back: " + e);
        return false;
      }
      synchronized (this) {
        pagesReadBack++;
        readNanos += timeline.doneNanos() - now;
        hostDelayNanos += timeline.hostDelayNanos();
      }
      ByteBuffer piece = dst.duplicate().position(within).limit(within + length).slice().asReadOnlyBuffer();
      if (hand(s, s.handed, piece, timeline.doneNanos()) < 0) {
        return false;
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
        return false;
      }
      return true;
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
    Object outcome = call(s.core, "onDataAvailable", () -> {
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
    Object outcome = call(s.core, "onRead", () -> {
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
   * Runs tasklet code here, on the worker, counted. Returns an {@link Outcome}, or why the call failed (a
   * String): it threw (also when the watch told it to stop: past the time limit or the memory budget), or
   * allocated past the memory budget.
   */
  private Object call(int core, String event, Work work) {
    return call(core, event, true, work);
  }

  /** As {@link #call(int, String, Work)}; {@code profiled} false keeps the call out of the profile (the probe, not accounted). */
  private Object call(int core, String event, boolean profiled, Work work) {
    Worker w = workers[core];
    if (failed()) {
      return "the attachment failed before: " + failure;
    }
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
    OpMeter meter = OpMeter.current();
    OpCounts before = meter.counts();
    Object value;
    w.eventAllocatedBefore = allocatedBefore;
    w.eventName = event;
    w.eventStartedWall = System.nanoTime();
    w.inTasklet = true;
    boolean profiling = profiled && w.profile != null;
    if (profiling) {
      meter.startProfile(w.profile); // the same tree every call: a worker's calls add up in it
    }
    try {
      value = work.run();
    } catch (Throwable t) {
      String stopped = stoppedBecause;
      return stopped != null ? stopped : "tasklet " + tasklet.className() + " failed in " + event + ": " + t;
    } finally {
      if (profiling) {
        meter.stopProfile();
      }
      w.inTasklet = false;
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
    if (allocated > engine.isp().memoryBudgetBytes()) {
      return overBudget(allocated, event);
    }
    return new Outcome(value, threads.getCurrentThreadCpuTime() - cpuBefore, meter.counts().minus(before));
  }

  private String overBudget(long allocated, String event) {
    return "tasklet " + tasklet.className() + " allocated " + allocated + " bytes in one " + event
        + ", more than its memory budget of " + engine.isp().memoryBudgetBytes()
        + " bytes (smartssd.device.isp.memory-budget-bytes)";
  }

  /**
   * Looked at often by the engine's idle thread: a tasklet event past the time limit, or past the memory
   * budget while it runs, fails the attachment and its thread is told to stop (its instrumented code throws
   * at its next loop head); the worker takes nothing more.
   */
  void watch() {
    for (Worker w : workers) {
      Thread t = w.thread;
      if (!w.inTasklet || t == null || stoppedBecause != null) {
        continue;
      }
      String why = null;
      long ranMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - w.eventStartedWall);
      long allocated = threads.getThreadAllocatedBytes(t.getId()) - w.eventAllocatedBefore;
      if (ranMillis > engine.isp().timeLimitMillis()) {
        why = "tasklet " + tasklet.className() + " ran past the time limit of " + engine.isp().timeLimitMillis()
            + " ms (smartssd.device.isp.time-limit-ms) in one " + w.eventName;
      } else if (allocated > engine.isp().memoryBudgetBytes()) {
        why = overBudget(allocated, w.eventName) + "; stopped while it ran";
      }
      if (why != null && w.inTasklet) {
        stoppedBecause = why;
        fail(why);
        OpMeter.requestStop(t);
      }
    }
  }

  /** Runs {@code task} on core {@code core}'s worker, after what was given it before; null once the attachment has ended. */
  private java.util.concurrent.Future<Long> submit(int core, java.util.concurrent.Callable<Long> task) {
    try {
      return workers[core].executor.submit(task);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return null;
    }
  }

  /** Waits for a worker's task; null when it failed, was dropped, or the wait was interrupted. */
  private Long await(java.util.concurrent.Future<Long> f) {
    try {
      return f.get();
    } catch (ExecutionException | java.util.concurrent.CancellationException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
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
      shutdown();
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

  /** Takes no more work; what waits is dropped (a writer waiting for it goes on). Never interrupts an event. */
  void shutdown() {
    for (Worker w : workers) {
      w.executor.shutdown();
      List<Runnable> dropped = new ArrayList<>();
      w.executor.getQueue().drainTo(dropped);
      for (Runnable r : dropped) {
        if (r instanceof Future<?> f) {
          f.cancel(false);
        }
      }
    }
  }

  /**
   * The workers' profiles added up (option profile=true), each read on its own worker after what it was
   * given so far; null when not asked for, or when a worker has ended (the attachment failed). Called without
   * this attachment's lock: a worker's task may need it.
   */
  org.smartssd.device.WorkProfile profile() {
    if (workers[0].profile == null) {
      return null;
    }
    List<java.util.concurrent.Future<org.smartssd.device.WorkProfile>> parts = new ArrayList<>();
    for (Worker w : workers) {
      try {
        parts.add(w.executor.submit(() -> WorkProfiles.of(w.profile)));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        return null;
      }
    }
    org.smartssd.device.WorkProfile all = org.smartssd.device.WorkProfile.EMPTY;
    for (java.util.concurrent.Future<org.smartssd.device.WorkProfile> f : parts) {
      try {
        all = all.plus(f.get());
      } catch (ExecutionException | java.util.concurrent.CancellationException e) {
        return null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return all;
  }

  /** Waits until the worker has done what it was given so far (the simulator caught up with the writes). */
  void barrier() {
    List<java.util.concurrent.Future<Long>> all = new ArrayList<>();
    for (int c = 0; c < workers.length; c++) {
      java.util.concurrent.Future<Long> f = submit(c, () -> 0L);
      if (f != null) {
        all.add(f);
      }
    }
    all.forEach(this::await);
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
