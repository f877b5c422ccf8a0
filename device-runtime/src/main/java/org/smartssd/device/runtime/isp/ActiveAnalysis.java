package org.smartssd.device.runtime.isp;

import java.io.Closeable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.config.ActiveParameters;
import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.device.runtime.objects.Caller;
import org.smartssd.device.runtime.objects.IdleCollector;
import org.smartssd.device.runtime.objects.ScanSource;
import org.smartssd.device.runtime.objects.StoreException;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.EnergyModel;
import org.smartssd.device.runtime.timing.InternalTimeline;
import org.smartssd.device.runtime.timing.TimingModel;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Active Flash's analysis (Boboila et al.): a tasklet attached to a directory or a file
 * ({@code EXECUTE_OBJECT} with option {@code attach=write}) gets every byte written there by its
 * attacher, in order, a page at a time, while the page is still in the device's buffer (on the fly), or
 * later, read back from flash in the device's idle time (deferred). The device is idle once no host
 * command has arrived or been completing for {@code active.idle-after-ms} on the modelled clock; in idle
 * time it analyses deferred pages first and then, if {@code active.idle-gc} says so, collects garbage one
 * block at a time while the free flash is under the threshold.
 *
 * <p>The written data is never at risk: an analysis only reads it (from the command that wrote it, or
 * from flash), after the store has taken it, and its failure fails the analysis, never the write. A
 * writer waits (overflow {@code wait}) only on the modelled clock: its command completes when the
 * buffer has room for its pages.
 *
 * <p>Threads: the writers' connection threads hand their pieces and wait for them; the idle thread
 * hands deferred ones; each attachment's tasklet code runs on that attachment's worker thread only
 * ({@link Attachment}). A stream's pieces are handed under its own lock, so they go in order.
 */
public final class ActiveAnalysis implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveAnalysis.class);
  /** How often the idle thread looks at the modelled clock (wall time). */
  static final long IDLE_TICK_NANOS = 1_000_000L;
  /** How often it looks while nothing is attached and idle time collects no garbage (an attach is seen then). */
  private static final long QUIET_TICK_NANOS = 50_000_000L;
  /** An attachment that ended and that nobody read for this long (wall time) is forgotten, as an execution is. */
  private static final long ABANDONED_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(10);

  private final String name;
  private final IspParameters isp;
  private final ActiveParameters active;
  private final EnergyModel energy;
  private final ScanSource store;
  private final IdleCollector collector;
  private final TimingModel timing;
  private final boolean paced;
  private final int pageSize;
  private final Map<Long, Attachment> attachments = new ConcurrentHashMap<>();
  /** Attachments in the order they were made: idle time serves the oldest first. */
  private final List<Attachment> byAge = new CopyOnWriteArrayList<>();
  private final Map<Long, Stream> streamsByHandle = new ConcurrentHashMap<>();
  private final Thread idleThread;
  private volatile boolean closed;
  /** When the last step of idle garbage collection ends on the modelled clock. */
  private long gcBusyUntil;

  public ActiveAnalysis(String name, IspParameters isp, ActiveParameters active, EnergyModel energy, ScanSource store,
      IdleCollector collector, TimingModel timing, boolean paced) {
    this.name = name;
    this.isp = isp;
    this.active = active;
    this.energy = energy;
    this.store = store;
    this.collector = collector;
    this.timing = timing;
    this.paced = paced;
    this.pageSize = timing.geometry().pageSizeBytes();
    this.idleThread = new Thread(this::idleLoop, name + "-active-idle");
    idleThread.setDaemon(true);
    idleThread.start();
  }

  // ---- attach, read, detach ----

  /**
   * Attaches {@code tasklet} to the files its user creates at or under {@code input}'s path from now on.
   * Options: {@code schedule} ({@code on-the-fly}, the default, or {@code idle}: every page deferred) and
   * {@code overflow} ({@code wait}, the default, or {@code defer}). With {@code profiling}, the finished
   * answer carries the tasklet's counted work by call path, as an execution's does.
   */
  Attachment attach(long id, InstalledTasklet tasklet, List<InputRange> inputs, Map<String, String> options,
      boolean profiling, Caller caller, Object owner, long arrivalNanos) throws StoreException {
    if (inputs.size() != 1) {
      throw new StoreException(Status.BAD_REQUEST, "an attached analysis (attach=write) takes one input, the directory"
          + " or file whose writes it analyses, not " + inputs.size());
    }
    InputRange input = inputs.get(0);
    if (input.offset() != 0 || input.length() != InputRange.TO_END) {
      throw new StoreException(Status.BAD_REQUEST, "an attached analysis takes every byte written: its input "
          + input.path() + " must start at 0 and run to the end, not " + input.offset() + "+" + input.length());
    }
    String path = normalized(input.path());
    boolean deferAll = choice(options, "schedule", "on-the-fly", "idle").equals("idle");
    boolean waitForRoom = choice(options, "overflow", "wait", "defer").equals("wait");
    Attachment a = new Attachment(this, id, tasklet, path, deferAll, waitForRoom, profiling, options, caller.user(),
        owner, Math.max(arrivalNanos, 0));
    try {
      a.probe();
    } catch (StoreException e) {
      a.shutdown();
      throw e;
    }
    attachments.put(id, a);
    byAge.add(a);
    LOG.info("{}: attached {} as execution {} to writes under {} by {} ({}, overflow {})", name, tasklet.className(),
        id, path, caller.user(), deferAll ? "idle time only" : "on the fly", waitForRoom ? "wait" : "defer");
    return a;
  }

  private static String choice(Map<String, String> options, String key, String first, String second)
      throws StoreException {
    String value = options.getOrDefault(key, first);
    if (!value.equals(first) && !value.equals(second)) {
      throw new StoreException(Status.BAD_REQUEST, "option " + key + "='" + value + "' of an attached analysis must be "
          + first + " or " + second);
    }
    return value;
  }

  private static String normalized(String path) throws StoreException {
    if (!path.startsWith("/")) {
      throw new StoreException(Status.BAD_REQUEST, "an attached analysis needs an absolute path, not '" + path + "'");
    }
    String p = path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  boolean has(long id) {
    return attachments.containsKey(id);
  }

  /** Whether connection {@code owner} made an attachment still kept. */
  boolean owns(Object owner) {
    return attachments.values().stream().anyMatch(a -> a.owner == owner);
  }

  /** Results ready by {@code nowNanos} (all made so far on a device that is not paced), with state and statistics. */
  Response.ExecutionProgress read(long id, int maxBytes, long nowNanos, Caller caller) throws StoreException {
    Attachment a = attachment(id, caller);
    a.barrier(); // the answer is the model's: the simulator catches up with what was written first
    Response.ExecutionProgress p = a.progress(Math.max(1, maxBytes), paced ? nowNanos : Long.MAX_VALUE);
    if (p.finished() && p.state() == ExecutionState.DONE) {
      org.smartssd.device.WorkProfile profile = a.profile();
      if (profile != null) {
        long moved = p.results().stream().mapToLong(r -> r.data().remaining()).sum();
        if (moved > 0 && moved + profile.encodedBytes() > Math.max(1, maxBytes)) {
          // The profile counts against the answer's bytes as results do: the next answer carries it alone.
          return new Response.ExecutionProgress(p.state(), p.message(), p.statistics(), p.results(), false);
        }
        p = new Response.ExecutionProgress(p.state(), p.message(), p.statistics(), p.results(), true, profile);
      }
    }
    if (p.finished()) {
      LOG.info("{}: attached execution {} ended {}: {}", name, id, p.state(), a.summary());
      forget(a);
    }
    return p;
  }

  /**
   * Detaches: files created from now on are not analysed; those it took are, to their end (deferred pages
   * in idle time), and then the execution is done.
   */
  void detach(long id, Caller caller) throws StoreException {
    attachment(id, caller).detach();
  }

  private Attachment attachment(long id, Caller caller) throws StoreException {
    Attachment a = attachments.get(id);
    if (a == null) {
      throw new StoreException(Status.NOT_FOUND, "no execution " + id + " (finished and read, or never started)");
    }
    if (!caller.bypass() && !caller.user().equals(a.user)) {
      throw new StoreException(Status.PERMISSION_DENIED, "Permission denied: user=" + caller.user() + " may not use "
          + "execution " + id + " of user " + a.user);
    }
    return a;
  }

  private void forget(Attachment a) {
    attachments.remove(a.id, a);
    byAge.remove(a);
    a.shutdown();
  }

  // ---- what the host interface tells it ----

  /** A file was created: an attachment over it takes its writes (the first one made, if several). */
  public void created(String path, long handle, long objectId, Caller caller, Object writer) {
    for (Attachment a : byAge) {
      if (a.takes(path, caller.user())) {
        Stream s = a.newStream(path, handle, objectId, writer);
        streamsByHandle.put(handle, s);
        return;
      }
    }
  }

  /** {@code data} was written to {@code handle} at {@code offset} by the command {@code cmd} (not completed yet). */
  public void written(long handle, long offset, ByteBuffer data, Command cmd) {
    Stream s = streamsByHandle.get(handle);
    if (s != null && data.hasRemaining()) {
      s.attachment.written(s, offset, data, cmd);
    }
  }

  /** {@code handle} was closed at {@code length} bytes by {@code cmd}. */
  public void closed(long handle, Command cmd) {
    Stream s = streamsByHandle.remove(handle);
    if (s != null) {
      s.attachment.closed(s, cmd.arrival());
    }
  }

  /**
   * A connection ended: the files it was writing are closed by the store and analysed to where they
   * ended; the attachments it made are detached.
   */
  public void connectionClosed(Object owner) {
    for (Stream s : new ArrayList<>(streamsByHandle.values())) {
      if (s.writer == owner && streamsByHandle.remove(s.handle, s)) {
        s.attachment.closed(s, timing.now());
      }
    }
    for (Attachment a : byAge) {
      if (a.owner == owner) {
        a.detach();
      }
    }
  }

  // ---- idle time ----

  private void idleLoop() {
    while (!closed) {
      // With nothing attached and no garbage collection to do in idle time, nothing needs the tick.
      LockSupport.parkNanos(byAge.isEmpty() && !active.idleGc() ? QUIET_TICK_NANOS : IDLE_TICK_NANOS);
      try {
        for (Attachment a : byAge) {
          a.watch();
          if (a.abandoned(ABANDONED_NANOS)) {
            LOG.info("{}: forgetting attached execution {}: it ended and nobody read it", name, a.id);
            forget(a);
          }
        }
        long now = timing.now();
        if (!idle(now)) {
          continue;
        }
        if (analyseDeferred(now)) {
          continue;
        }
        if (active.idleGc() && now >= gcBusyUntil) {
          IdleCollector.Step step = collector.collectBelow(active.idleGcThreshold());
          if (step == null) {
            gcBusyUntil = now + Math.max(active.idleAfterNanos(), 1_000_000L); // nothing to do: look again later
          } else {
            gcBusyUntil = step.doneNanos();
            LOG.debug("{}: idle garbage collection moved {} pages; done at {} ns", name, step.pagesMoved(),
                step.doneNanos());
          }
        }
      } catch (Exception | Error e) {
        if (closed) {
          return;
        }
        LOG.error("{}: idle-time work failed", name, e);
      }
    }
  }

  /**
   * Has each stream with deferred pages whose core is free on the modelled clock within the next tick
   * analyse them on its core's worker (page after page while the device stays idle: the page a core takes
   * is the one in progress when a host command comes), oldest attachment first. Returns whether deferred
   * work is left (then garbage collection waits: analysis goes first).
   */
  private boolean analyseDeferred(long now) {
    boolean left = false;
    for (Attachment a : byAge) {
      for (Stream s : a.deferredStreams()) {
        left = true;
        if (!s.stepPending && a.coreFreeAt(s.core) <= now + IDLE_TICK_NANOS) {
          a.idleStep(s);
        }
      }
    }
    return left;
  }

  /** Whether the device is idle at {@code now}: no host command has arrived or been completing for the idle time. */
  boolean idle(long now) {
    return now - timing.hostActiveUntil() >= active.idleAfterNanos();
  }

  /** Reads page {@code pageIndex} of a stream's file for idle time, at low priority. */
  InternalTimeline readBack(Stream s, int pageIndex, ByteBuffer dst, long now) throws StoreException, java.io.IOException {
    InternalTimeline timeline = timing.internalReads(now);
    store.readPageForScan(s.objectId, pageIndex, dst, timeline);
    return timeline;
  }

  TimingModel timing() {
    return timing;
  }

  IspParameters isp() {
    return isp;
  }

  EnergyModel energy() {
    return energy;
  }

  int pageSize() {
    return pageSize;
  }

  long bufferBytes() {
    return active.bufferBytes();
  }

  String name() {
    return name;
  }

  @Override
  public void close() {
    closed = true;
    idleThread.interrupt();
    for (Attachment a : byAge) {
      a.shutdown();
    }
  }

  /** A file written under an attachment: its bytes go to one tasklet instance, in order. */
  static final class Stream {
    final Attachment attachment;
    final String path;
    final long handle;
    final long objectId;
    final Object writer;
    final int core;
    /** Held while a piece is handed, so that a stream's pieces go in order. */
    final Object order = new Object();
    org.smartssd.device.tasklet.Tasklet instance;
    /** Bytes handed to the tasklet, from the start. */
    long handed;
    /** Bytes written. */
    long written;
    /** Whether the bytes from {@link #handed} on are left for idle time. */
    boolean deferred;
    /** Whether its core's worker has idle work of it to do already. */
    volatile boolean stepPending;
    boolean closed;
    /** Whether the tasklet had its last onRead (or the stream was given up). */
    boolean finished;

    Stream(Attachment attachment, String path, long handle, long objectId, Object writer, int core, boolean deferred) {
      this.attachment = attachment;
      this.path = path;
      this.handle = handle;
      this.objectId = objectId;
      this.writer = writer;
      this.core = core;
      this.deferred = deferred;
    }

    /** Whether idle time has something to do for it. */
    boolean idleWork() {
      return !finished && deferred && (handed < written || closed);
    }
  }

  /** An attachment's counts in an execution's terms (no records: its tasklet cuts its own). */
  static ExecutionStatistics statistics(int lanes, long bytes, long pagesRead, long resultRecords, long resultBytes,
      long wallNanos, long cpuNanos, long modelledNanos, long readNanos, long computeNanos, long transferNanos,
      long deviceMicrojoules, org.smartssd.opcount.OpCounts c, long hostDelayNanos, long laneState) {
    return new ExecutionStatistics(lanes, bytes, pagesRead, 0, resultRecords, resultBytes, wallNanos, cpuNanos,
        modelledNanos, readNanos, computeNanos, 0, transferNanos, deviceMicrojoules, 0, c.ops(), c.memoryAccesses(),
        c.libraryCalls(), c.bulkBytes(), hostDelayNanos, 0, 0, 0, 0, 0, 0, 0, 0, laneState, 0, c.libraryReads(), 0);
  }

  /** For {@link Attachment}: a result list to hand out. */
  record Released(TaskletResult result, long readyAtNanos) {}
}
