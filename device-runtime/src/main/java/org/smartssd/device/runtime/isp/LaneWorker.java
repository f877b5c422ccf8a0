package org.smartssd.device.runtime.isp;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.smartssd.device.runtime.objects.ScanTarget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.device.runtime.objects.ScanSource;
import org.smartssd.device.runtime.objects.StoreException;
import org.smartssd.device.runtime.timing.InternalTimeline;
import org.smartssd.device.runtime.timing.TimingModel;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.FlashOutput;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.OpMeter;

/**
 * A machine thread running some lanes of one execution: it installs their tasklet instances, then
 * reads its channels' pages in internal read requests, hands whole records to the lane serving each
 * channel, and finally asks each lane for its last results. Every call into tasklet code is
 * measured (CPU time, allocation) and contained: a throw, an over-budget allocation or a stop ends
 * the execution, not the device.
 */
final class LaneWorker implements Runnable {
  /** How long an internal request waits when host commands wait for the simulator: the host goes first. */
  private static final long HOST_YIELD_NANOS = 50_000;
  /** How long a lane with nothing to read waits for a stream's owner to take what was read. */
  private static final long STREAM_WAIT_NANOS = 100_000;

  /** State shared by the workers of one execution. */
  static final class Crew {
    final Execution execution;
    final int workers;
    final AtomicInteger installed = new AtomicInteger();
    final AtomicInteger finished = new AtomicInteger();
    final CountDownLatch planned = new CountDownLatch(1);
    /** Counted down by each worker once it has read all its channels: every record is then complete. */
    final CountDownLatch scanned;
    final List<RecordFormat> formats = new ArrayList<>();
    final Runnable onAllFinished;

    Crew(Execution execution, int workers, Runnable onAllFinished) {
      this.execution = execution;
      this.workers = workers;
      this.scanned = new CountDownLatch(workers);
      this.onAllFinished = onAllFinished;
    }
  }

  /** Thrown inside a worker to unwind once its execution has ended. */
  private static final class Stop extends Exception {
    private static final long serialVersionUID = 1L;

    Stop() {
      super(null, null, false, false);
    }
  }

  @FunctionalInterface
  private interface TaskletCall {
    void run() throws Exception;
  }

  private final Crew crew;
  private final Execution exec;
  private final int[] lanes;
  private final Tasklet[] instances;
  private final long[] readyAt;
  /** The most each lane's function said it held ({@code TaskletContext.holding}). */
  private final long[] held;
  private final ScanSource store;
  private final TimingModel timing;
  private final IntSupplier hostWaiting;
  private final com.sun.management.ThreadMXBean threads;
  /** This worker's thread's meter: the counted work of the tasklet's code and the libraries it uses. */
  private OpMeter meter;
  /** True while this worker's thread runs tasklet code: only then may the engine stop it by force. */
  volatile boolean inTasklet;
  /** What this worker's thread had allocated when its current event began (the engine watches it grow). */
  volatile long allocatedBeforeEvent;
  /** The event running, for the engine's message. */
  volatile String event = "";
  /** The lane of the event running. */
  volatile int eventLane;
  /** Each lane's result sink, made once: a call into the tasklet allocates nothing of the engine's. */
  private final ResultSink[] sinks;
  /** The chunk {@link #onDataAvailable} hands over, and the call that hands it (made once). */
  private DataChunk chunkToDeliver;
  private int laneToDeliver;
  private final TaskletCall deliverChunk;
  /** The records an inbox hands over at a time (reused). */
  private final List<Execution.Routed> due = new ArrayList<>();
  /** Whether the model prices a lane's work by its measured CPU time (otherwise counted, or per byte). */
  private final boolean measuredModel;

  LaneWorker(Crew crew, int[] lanes, ScanSource store, TimingModel timing, IntSupplier hostWaiting) {
    this.crew = crew;
    this.exec = crew.execution;
    this.lanes = lanes;
    this.instances = new Tasklet[exec.lanes()];
    this.readyAt = new long[exec.lanes()];
    this.held = new long[exec.lanes()];
    this.setupCounts = new OpCounts[exec.lanes()];
    java.util.Arrays.fill(setupCounts, OpCounts.ZERO);
    this.setupCpu = new long[exec.lanes()];
    this.store = store;
    this.timing = timing;
    this.hostWaiting = hostWaiting;
    this.threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    this.sinks = new ResultSink[exec.lanes()];
    this.measuredModel = exec.isp().computeModel() == IspParameters.ComputeModel.MEASURED;
    for (int lane : lanes) {
      sinks[lane] = new LaneSink(lane);
    }
    this.deliverChunk = () -> instances[laneToDeliver].onDataAvailable(chunkToDeliver, sinks[laneToDeliver]);
  }

  Execution execution() {
    return exec;
  }

  /** A lane's results to the host, and its writes to the execution's output object. */
  private final class LaneSink implements ResultSink {
    private final int lane;
    private final FlashOutput flash;

    LaneSink(int lane) {
      this.lane = lane;
      this.flash = exec.flashOutput() == null ? null : new ExecutionFlash(exec, lane);
    }

    @Override
    public void emit(ByteBuffer result) throws InterruptedException {
      if (!exec.emit(lane, result, readyAt[lane])) {
        throw new InterruptedException("execution " + exec.id() + " has ended");
      }
    }

    @Override
    public FlashOutput flash() {
      return flash != null ? flash : ResultSink.super.flash();
    }
  }

  @Override
  public void run() {
    meter = OpMeter.current();
    meter.leaveTotal(); // the device accounts its lanes' work; a host in the same JVM must not
    org.smartssd.opcount.ProfileTree profile = exec.profiling() ? new org.smartssd.opcount.ProfileTree() : null;
    if (profile != null) {
      meter.startProfile(profile);
    }
    // The thread's CPU time over the whole execution, asked twice: asking it is a system call (about
    // half a microsecond here), which cost a tenth of the scan's CPU when asked around every read.
    long threadCpu = cpuNanos();
    try {
      install();
      if (!awaitPlan()) {
        return;
      }
      for (int lane : lanes) {
        ExecutionInfo info = new ExecutionInfo(exec.id(), exec.inputs(), exec.options(), lane, exec.lanes(),
            exec.outputPath());
        long start = exec.model().computeStart(lane, 0);
        readyAt[lane] = start;
        long cpu = measuredCpu();
        OpCounts counted = meter.counts();
        call(lane, "onExecute", () -> instances[lane].onExecute(info));
        // The lane's set-up (its instance made and onCreate, then onExecute: a job's mapper setup, which
        // the host's map task does too) is the lane's work from the execution's start, before any record.
        compute(lane, start, 0, measuredCpu() - cpu + setupCpu[lane],
            meter.counts().minus(counted).plus(setupCounts[lane]));
      }
      scan();
      // Every lane's reads done, every record that straddles pages is complete and with its owner.
      crew.scanned.countDown();
      awaitLatch(crew.scanned);
      for (int lane : lanes) {
        drainInbox(lane, Long.MAX_VALUE);
      }
      for (int lane : lanes) {
        long start = exec.model().computeStart(lane, 0);
        readyAt[lane] = start;
        long cpu = measuredCpu();
        OpCounts counted = meter.counts();
        call(lane, "onRead", () -> instances[lane].onRead(sink(lane), true));
        OpCounts tail = meter.counts().minus(counted);
        exec.countTail(tail);
        compute(lane, start, 0, measuredCpu() - cpu, tail);
      }
      for (int lane : lanes) {
        swap(lane);
      }
    } catch (Stop e) {
      // The execution ended (failed, cancelled, or stopped by its time limit).
    } catch (RuntimeException | Error e) {
      exec.fail("the engine failed running tasklet " + exec.tasklet().className() + ": " + e);
    } finally {
      if (profile != null) {
        meter.stopProfile();
        exec.addProfile(profile);
      }
      exec.addLaneCpu(cpuNanos() - threadCpu);
      if (crew.installed.get() < crew.workers) {
        arriveInstalled(); // never leave the others waiting for the plan
      }
      if (crew.finished.incrementAndGet() == crew.workers) {
        crew.onAllFinished.run();
      }
    }
  }

  // ---- start: one instance a lane, every lane agreeing on the record format ----

  private boolean arrivedInstalled;
  /** Each lane's counted work and measured CPU in {@link #install} (its onCreate), charged with its onExecute. */
  private final OpCounts[] setupCounts;
  private final long[] setupCpu;

  private void install() throws Stop {
    try {
      for (int lane : lanes) {
        long cpu = measuredCpu();
        OpCounts counted = meter.counts();
        Tasklet instance;
        try {
          instance = exec.tasklet().code().newInstance();
        } catch (TaskletRefusedException e) {
          exec.fail(e.getMessage());
          throw new Stop();
        }
        instances[lane] = instance;
        TaskletContext context = context(lane);
        call(lane, "onCreate", () -> instance.onCreate(context));
        RecordFormat[] format = new RecordFormat[1];
        call(lane, "recordFormat", () -> format[0] = instance.recordFormat());
        setupCounts[lane] = meter.counts().minus(counted);
        setupCpu[lane] = measuredCpu() - cpu;
        if (format[0] == null) {
          exec.fail("tasklet " + exec.tasklet().className() + " returned no record format on lane " + lane);
          throw new Stop();
        }
        synchronized (crew.formats) {
          crew.formats.add(format[0]);
        }
      }
    } finally {
      arriveInstalled();
    }
  }

  private void arriveInstalled() {
    if (arrivedInstalled) {
      return;
    }
    arrivedInstalled = true;
    if (crew.installed.incrementAndGet() == crew.workers) {
      plan();
      crew.planned.countDown();
    }
  }

  /** Run by the last worker to install: checks the lanes agree and lays out the reads. */
  private void plan() {
    if (exec.isStopped()) {
      return;
    }
    RecordFormat first;
    synchronized (crew.formats) {
      first = crew.formats.isEmpty() ? RecordFormat.raw() : crew.formats.get(0);
      for (RecordFormat f : crew.formats) {
        if (!f.equals(first)) {
          exec.fail("tasklet " + exec.tasklet().className() + " gave different record formats on different lanes: "
              + first + " and " + f);
          return;
        }
      }
    }
    try {
      exec.plan(first);
    } catch (RecordException e) {
      exec.fail(e.getMessage());
    }
  }

  private void awaitLatch(CountDownLatch latch) throws Stop {
    try {
      while (!latch.await(100, TimeUnit.MILLISECONDS)) {
        if (exec.isStopped()) {
          throw new Stop();
        }
      }
    } catch (InterruptedException e) {
      throw new Stop();
    }
  }

  /**
   * Computes on {@code lane} the records other lanes' reads completed for it whose last piece arrived by
   * {@code upTo} on the modelled clock, each from its arrival (or when the core is free), in the order
   * they arrived; later ones wait for a later read of the lane, or its end.
   */
  private void drainInbox(int lane, long upTo) throws Stop {
    Inbox box = exec.inbox(lane);
    if (box.isEmpty()) {
      return;
    }
    List<Execution.Routed> due = this.due;
    due.clear();
    box.takeDue(upTo, due);
    // A record each (one a page of small records).
    for (int i = 0, n = due.size(); i < n; i++) {
      Execution.Routed r = due.get(i);
      long start = exec.model().computeStart(lane, r.arrivalNanos());
      readyAt[lane] = start;
      long cpu = measuredCpu();
      OpCounts counted = meter.counts();
      int length = r.chunk().data().remaining();
      onDataAvailable(lane, r.chunk());
      StreamRoute route = exec.stream(r.input());
      if (route != null) {
        route.taken(r.chunk().offset() + length);
      }
      // A record's bytes were charged to the lane that read them (the cycles-per-byte model charges
      // reads); a stream's, which the reading lanes only passed on, to the owner.
      compute(lane, start, route != null ? length : 0, measuredCpu() - cpu, meter.counts().minus(counted));
    }
    due.clear();
  }

  private boolean awaitPlan() throws Stop {
    try {
      while (!crew.planned.await(100, TimeUnit.MILLISECONDS)) {
        if (exec.isStopped()) {
          throw new Stop();
        }
      }
    } catch (InterruptedException e) {
      throw new Stop();
    }
    return !exec.isStopped();
  }

  private TaskletContext context(int lane) {
    InstalledTasklet t = exec.tasklet();
    return new TaskletContext() {
      @Override
      public java.util.Map<String, String> parameters() {
        return t.parameters();
      }

      @Override
      public String taskletName() {
        return t.className();
      }

      @Override
      public int lane() {
        return lane;
      }

      @Override
      public int lanes() {
        return exec.lanes();
      }

      @Override
      public int maxRecordBytes() {
        return exec.isp().maxRecordBytes();
      }

      @Override
      public ByteBuffer readObject(String path) throws IOException {
        return readSideObject(lane, path);
      }

      @Override
      public void holding(long bytes) {
        TaskletContext.super.holding(bytes);
        held[lane] = Math.max(held[lane], bytes);
        exec.holding(bytes);
      }
    };
  }

  /**
   * Reads object {@code path} whole for {@code lane}, as the execution's user: its pages as internal
   * reads from the lane's current time on the modelled clock, the lane's core waiting for the last.
   */
  private ByteBuffer readSideObject(int lane, String path) throws IOException {
    ScanTarget target;
    try {
      target = store.openScan(path, exec.caller());
    } catch (StoreException e) {
      throw asIoException(path, e);
    }
    long budget = exec.isp().memoryBudgetBytes();
    if (target.length() > budget) {
      throw new IOException("'" + path + "' holds " + target.length() + " bytes, more than a lane may hold in one event ("
          + budget + " bytes, smartssd.device.isp.memory-budget-bytes)");
    }
    int pageSize = target.pageSize();
    ByteBuffer all = ByteBuffer.allocate((int) target.length());
    ByteBuffer page = ByteBuffer.allocate(pageSize);
    long ready = exec.model().computeStart(lane, readyAt[lane]);
    InternalTimeline timeline = timing.internalReads(ready);
    int pages = 0;
    for (long offset = 0; offset < target.length(); offset += pageSize) {
      page.clear();
      try {
        store.readPageForScan(target.objectId(), (int) (offset / pageSize), page, timeline);
      } catch (StoreException e) {
        throw asIoException(path, e);
      }
      page.flip();
      page.limit((int) Math.min(pageSize, target.length() - offset));
      all.put(page);
      pages++;
    }
    all.flip();
    exec.sideRead(pages);
    // The lane's core waits for the last page.
    exec.model().compute(lane, timeline.doneNanos(), 0);
    return all.asReadOnlyBuffer();
  }

  /**
   * The iSSD's swap (its Eq. 9), for a lane whose function held more than the lane's memory: a pass over
   * the lane's data holds only as much of its intermediate result as fits, so the data is read
   * {@code ceil(M(f) / M_ch)} times in all. The passes beyond the first are read again here, after the
   * lane's last work, as internal reads of its channels' pages (really read, and booked on the dies and
   * buses like any), and the lane ends when the last has arrived. As in Eq. 9 the passes cost reads,
   * not compute: the tasklet runs over its records once. Nothing is charged on a device whose lanes'
   * memory is unbounded ({@code isp.lane-memory-bytes} 0).
   */
  private void swap(int lane) throws Stop {
    IspParameters isp = exec.isp();
    if (!isp.laneMemoryBounded() || held[lane] <= isp.laneMemoryBytes()) {
      return;
    }
    long again = (held[lane] + isp.laneMemoryBytes() - 1) / isp.laneMemoryBytes() - 1;
    int pageSize = exec.targets().isEmpty() ? 0 : exec.targets().get(0).pageSize();
    ByteBuffer page = ByteBuffer.allocate(Math.max(1, pageSize));
    long start = exec.model().computeStart(lane, 0);
    long last = start;
    for (long pass = 0; pass < again; pass++) {
      for (int channel = 0; channel < exec.channels(); channel++) {
        if (exec.laneOf(channel) != lane) {
          continue;
        }
        List<Execution.WorkItem> plan = exec.channelPlan(channel);
        for (int at = 0; at < plan.size(); ) {
          if (exec.isStopped()) {
            throw new Stop();
          }
          InternalTimeline timeline = timing.internalReads(Math.max(start, exec.model().channelReady(channel)));
          int n = 0;
          for (; n < isp.readRequestPages() && at < plan.size(); n++, at++) {
            Execution.WorkItem item = plan.get(at);
            page.clear();
            try {
              store.readPageForScan(exec.targets().get(item.input()).objectId(), item.page(), page, timeline);
            } catch (StoreException | IOException e) {
              exec.fail("internal read of page " + item.page() + " of " + exec.targets().get(item.input()).path()
                  + " failed while lane " + lane + " swapped: " + e.getMessage());
              throw new Stop();
            }
          }
          exec.model().readDone(channel, timeline.doneNanos(), timeline.hostDelayNanos());
          exec.swapRead(n);
          last = Math.max(last, timeline.doneNanos());
        }
      }
    }
    // The lane's core waits for the last pass's last page.
    exec.model().compute(lane, last, 0);
  }

  private static IOException asIoException(String path, StoreException e) {
    return switch (e.status()) {
      case NOT_FOUND -> new java.io.FileNotFoundException(e.getMessage());
      case PERMISSION_DENIED -> new java.nio.file.AccessDeniedException(path, null, e.getMessage());
      default -> new IOException(e.status() + ": " + e.getMessage());
    };
  }

  // ---- the scan: internal read requests per channel, records to the channel's lane ----

  private void scan() throws Stop {
    List<Integer> channels = new ArrayList<>();
    for (int c = 0; c < exec.channels(); c++) {
      for (int lane : lanes) {
        if (exec.laneOf(c) == lane) {
          channels.add(c);
        }
      }
    }
    int pageSize = exec.targets().isEmpty() ? 0 : exec.targets().get(0).pageSize();
    // On the heap: views of a direct buffer cost more to make (several per page) than the JDK's copy
    // of each page through its temporary direct buffer (measured with IspScanBenchmark).
    ByteBuffer batch = ByteBuffer.allocate(Math.max(1, exec.isp().readRequestPages() * pageSize));
    List<Execution.WorkItem> items = new ArrayList<>(exec.isp().readRequestPages());
    List<ByteBuffer> segments = new ArrayList<>(exec.isp().readRequestPages());
    boolean stream = exec.format().kind() == RecordFormat.Kind.STREAM;
    boolean any = true;
    while (any) {
      any = false;
      boolean issued = false;
      for (int channel : channels) {
        if (exec.isStopped()) {
          throw new Stop();
        }
        ArrayDeque<Execution.WorkItem> queue = exec.channelQueue(channel);
        if (queue.isEmpty()) {
          continue;
        }
        any = true;
        if (stream) {
          Execution.WorkItem next = queue.peek();
          if (exec.stream(next.input()).ahead(next.start())) {
            continue; // its owner has not taken enough of the stream yet
          }
        }
        request(channel, queue, batch, pageSize, items, segments, stream);
        issued = true;
      }
      if (stream) {
        // An owner takes its streams as they come, and stays until they were read whole: the other
        // lanes read only so far ahead of it.
        for (int lane : lanes) {
          drainInbox(lane, Long.MAX_VALUE);
        }
        if (exec.streamsPending(lanes)) {
          any = true;
        }
        if (any && !issued) {
          LockSupport.parkNanos(STREAM_WAIT_NANOS);
        }
      }
    }
  }

  /**
   * One internal read request on a channel: up to a few pages; at low priority, one while host
   * operations are booked on the channel (the model's host load). Paced, the request is issued when the modelled clock reaches
   * the time it may start, so that internal reads meet the host's commands in the order the model has
   * them. While host commands wait for the simulator itself, the lane first gives them the CPU (a
   * courtesy of the simulator, not part of the model).
   */
  private void request(int channel, ArrayDeque<Execution.WorkItem> queue, ByteBuffer batch, int pageSize,
      List<Execution.WorkItem> items, List<ByteBuffer> segments, boolean stream) throws Stop {
    long ready = exec.model().channelReady(channel);
    if (exec.paced()) {
      awaitModelled(ready);
    }
    if (hostWaiting.getAsInt() > 0) {
      LockSupport.parkNanos(HOST_YIELD_NANOS);
    }
    int pages = timing.parameters().internalReadsYield() && timing.hostBusy(channel, ready) ? 1
        : exec.isp().readRequestPages();
    InternalTimeline timeline = timing.internalReads(ready);
    items.clear();
    segments.clear();
    long bytes = 0;
    for (int i = 0; i < pages && !queue.isEmpty(); i++) {
      Execution.WorkItem item = queue.poll();
      ByteBuffer slot = batch.duplicate().position(i * pageSize).limit((i + 1) * pageSize).slice();
      try {
        store.readPageForScan(exec.targets().get(item.input()).objectId(), item.page(), slot, timeline);
      } catch (StoreException e) {
        // A page that fails its check fails the execution as a READ of it fails: the status, then its message.
        exec.fail(e.status() == Status.CORRUPT ? Status.CORRUPT + ": " + e.getMessage()
            : "internal read of page " + item.page() + " of " + exec.targets().get(item.input()).path() + " failed: "
                + e.getMessage());
        throw new Stop();
      } catch (IOException e) {
        exec.fail("internal read of page " + item.page() + " of " + exec.targets().get(item.input()).path()
            + " failed: " + e.getMessage());
        throw new Stop();
      }
      long pageStart = (long) item.page() * pageSize;
      ByteBuffer segment = batch.duplicate()
          .position(i * pageSize + (int) (item.start() - pageStart))
          .limit(i * pageSize + (int) (item.end() - pageStart))
          .slice().asReadOnlyBuffer();
      items.add(item);
      segments.add(segment);
      bytes += segment.remaining();
    }
    exec.model().readDone(channel, timeline.doneNanos(), timeline.hostDelayNanos());
    exec.scanned(items.size(), bytes);

    int lane = exec.laneOf(channel);
    drainInbox(lane, timeline.doneNanos());
    long computeStart = exec.model().computeStart(lane, timeline.doneNanos());
    readyAt[lane] = computeStart;
    // The lane's CPU time for the batch (cutting records and the tasklet's work on them), and the
    // work the tasklet's code did, counted.
    long cpuBefore = measuredCpu();
    OpCounts countedBefore = meter.counts();
    for (int i = 0; i < items.size(); i++) {
      Execution.WorkItem item = items.get(i);
      RecordAssembler assembler = exec.assembler(item.input());
      try {
        if (stream) {
          StreamRoute route = exec.stream(item.input());
          route.accept(item.start(), segments.get(i), timeline.doneNanos());
          if (exec.segmentAccepted(item.input())) {
            route.finish();
          }
          continue;
        }
        deliver(lane, item.input(), assembler.accept(item.start(), segments.get(i)), timeline.doneNanos());
        if (exec.segmentAccepted(item.input())) {
          deliver(lane, item.input(), assembler.finish(), timeline.doneNanos());
        }
      } catch (RecordException e) {
        exec.fail(e.getMessage());
        throw new Stop();
      }
    }
    if (exec.takeReadRequest(lane)) {
      call(lane, "onRead", () -> instances[lane].onRead(sink(lane), false));
    }
    if (stream) {
      // The read only passed its pages on: the owner computes them, charged their bytes then. A lane
      // whose core did nothing here leaves its clock alone, so that when the owner takes its stream
      // (as it comes, on the simulator's clock) does not move its modelled time.
      long cpu = measuredCpu() - cpuBefore;
      OpCounts counted = meter.counts().minus(countedBefore);
      if (exec.model().coreNanos(0, cpu, counted) > 0) {
        compute(lane, computeStart, 0, cpu, counted);
      }
      return;
    }
    compute(lane, computeStart, bytes, measuredCpu() - cpuBefore, meter.counts().minus(countedBefore));
  }

  /**
   * Models some of a lane's work on its core, from {@code start}: what it read, its CPU time (0 unless
   * the model uses it) and its counted work.
   */
  private void compute(int lane, long start, long bytes, long cpuNanos, OpCounts counted) {
    exec.count(counted);
    exec.computed(lane, exec.model().compute(lane, start, exec.model().coreNanos(bytes, cpuNanos, counted)));
  }

  /** Waits until the modelled clock reaches {@code modelledNanos}; ends if the execution does. */
  private void awaitModelled(long modelledNanos) throws Stop {
    for (long left = modelledNanos - timing.now(); left > 0; left = modelledNanos - timing.now()) {
      if (exec.isStopped() || Thread.currentThread().isInterrupted()) {
        throw new Stop();
      }
      LockSupport.parkNanos(Math.min(left, 10_000_000L));
    }
  }

  /**
   * Hands {@code lane} the chunks that start on its channels; a record that starts on another lane's
   * channel (it straddles pages, and this read completed it) goes to that lane's inbox, arrived at
   * {@code arrivalNanos}. Such a record is never a view of this read's buffer, so it outlives the read
   * without a copy: a view holds only records that start in the page read, whose channel is this
   * lane's, and a straddling record is put together in bytes of its own ({@link RecordAssembler}).
   */
  private void deliver(int lane, int input, List<DataChunk> chunks, long arrivalNanos) throws Stop {
    for (int i = 0, n = chunks.size(); i < n; i++) {
      DataChunk chunk = chunks.get(i);
      int owner = chunk.data().hasRemaining() ? exec.ownerLane(input, chunk.offset()) : lane;
      if (owner != lane) {
        exec.inbox(owner).add(new Execution.Routed(input, chunk, arrivalNanos));
        continue;
      }
      onDataAvailable(lane, chunk);
    }
  }

  private ResultSink sink(int lane) {
    return sinks[lane];
  }

  /** {@code onDataAvailable} of {@code lane}'s instance with {@code chunk}, contained as every call is. */
  private void onDataAvailable(int lane, DataChunk chunk) throws Stop {
    chunkToDeliver = chunk;
    laneToDeliver = lane;
    try {
      call(lane, "onDataAvailable", deliverChunk);
    } finally {
      chunkToDeliver = null;
    }
  }

  // ---- containment ----

  private long cpuNanos() {
    return threads.getCurrentThreadCpuTime();
  }

  /** The thread's CPU time where the model prices work by it (compute model {@code measured}), else 0. */
  private long measuredCpu() {
    return measuredModel ? cpuNanos() : 0;
  }

  private void call(int lane, String event, TaskletCall call) throws Stop {
    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
    Throwable failure = null;
    allocatedBeforeEvent = allocatedBefore;
    this.event = event;
    eventLane = lane;
    inTasklet = true;
    // Marked in tasklet code before looking: the engine, stopping the execution, either finds this
    // thread marked (and tells it to stop) or this thread finds the execution stopped and never enters.
    if (exec.isStopped()) {
      inTasklet = false;
      throw new Stop();
    }
    try {
      call.run();
    } catch (Throwable t) {
      failure = t;
    } finally {
      inTasklet = false;
      meter.rebaseProfile(); // a throw out of tasklet code leaves its path behind: the next event starts afresh
    }
    if (failure != null) {
      if (!exec.isStopped()) {
        exec.fail("tasklet " + exec.tasklet().className() + " failed in " + event + " on lane " + lane + ": "
            + describe(failure));
      }
      throw new Stop();
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
    if (allocated > exec.isp().memoryBudgetBytes()) {
      exec.fail(overBudget(exec, allocated, event, lane));
      throw new Stop();
    }
    if (exec.isStopped()) {
      throw new Stop();
    }
  }

  /** Why an execution failed whose tasklet allocated {@code allocated} bytes in one event. */
  static String overBudget(Execution exec, long allocated, String event, int lane) {
    return "tasklet " + exec.tasklet().className() + " allocated " + allocated + " bytes in one " + event + " on lane "
        + lane + ", more than its memory budget of " + exec.isp().memoryBudgetBytes()
        + " bytes (smartssd.device.isp.memory-budget-bytes)";
  }

  /** The exception and where in the tasklet's own code it came from. */
  private String describe(Throwable t) {
    String where = "";
    for (StackTraceElement frame : t.getStackTrace()) {
      if (!frame.getClassName().startsWith("org.smartssd.device.runtime.") && !frame.getClassName().startsWith("java.")) {
        where = " (at " + frame + ")";
        break;
      }
    }
    return t + where;
  }
}
