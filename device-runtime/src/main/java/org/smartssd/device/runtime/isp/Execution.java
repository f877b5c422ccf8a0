package org.smartssd.device.runtime.isp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.device.runtime.objects.ScanTarget;
import org.smartssd.device.runtime.timing.ExecutionModel;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.opcount.OpCounts;

/**
 * One execution of a tasklet over its inputs: its plan (which pages each channel reads), its lanes'
 * outputs, its counters, its modelled time, and its state. The lanes run on {@link LaneWorker}s.
 */
final class Execution {
  /** One page-sized segment of an input to read: page {@code page} of input {@code input}, bytes [start, end). */
  record WorkItem(int input, int page, long start, long end) {}

  /** One result must fit in one READ_OBJECT answer, well inside the default 64 MiB frame limit. */
  static final int MAX_RESULT_BYTES = 16 << 20;

  private final long id;
  private final InstalledTasklet tasklet;
  private final List<InputRange> inputs;
  private final List<ScanTarget> targets;
  private final Map<String, String> options;
  private final IspParameters isp;
  private final boolean mergeOnDevice;
  private final boolean paced;
  private final long timeLimitMillis;
  /** The connection that started it, counted against its executions at once. */
  private final Object owner;
  /** The user whose connection started it: only that user (or a superuser) reads or cancels it. */
  private final String user;
  /** That user as the store checks it: what the execution reads besides its inputs, it reads as them. */
  private final org.smartssd.device.runtime.objects.Caller caller;
  private final int lanes;
  private final int channels;
  private final ExecutionModel model;
  /** The object on flash the execution writes, or null when its results all go to the host. */
  private final ExecutionOutput flashOutput;
  /** Set once the output object is in place: the execution is then done, whatever comes after. */
  private boolean outputCommitted;
  private final long startWallNanos = System.nanoTime();

  private final LaneOutput[] outputs;
  /** Results of a merge on the device (lane -1), and the lanes' results it merges. */
  private final LaneOutput mergedOutput;
  private final List<TaskletResult> toMerge = new ArrayList<>();

  /** Set by the worker that learns the record format; read after the start barrier. */
  private volatile RecordFormat format;
  private volatile RecordAssembler[] assemblers;
  private ArrayDeque<WorkItem>[] channelQueues;
  /**
   * Every segment each channel reads (after {@link #plan}, on a device whose lanes' memory is bounded, else
   * null): what a lane that swaps reads again.
   */
  private List<WorkItem>[] channelPlans;
  /** Segments still to be accepted, per input: the worker that accepts the last one finishes the input. */
  private AtomicLong[] segmentsLeft;
  /** Per input, its route to its owner lane when the record format is STREAM, else null. */
  private StreamRoute[] streams;
  /**
   * Per lane, records completed by another lane's read that this lane owns (their first byte is on one
   * of its channels), with when their last piece arrived on the modelled clock.
   */
  private final Inbox[] inboxes;

  /** A record for its owner lane: what was read, and when its last piece arrived (modelled). */
  record Routed(int input, DataChunk chunk, long arrivalNanos) {}

  private final AtomicLong bytesScanned = new AtomicLong();
  private final AtomicLong pagesRead = new AtomicLong();
  /** The most any lane's function said it held ({@code TaskletContext.holding}), the iSSD's M(f). */
  private final AtomicLong laneStateBytes = new AtomicLong();
  /** Of {@link #pagesRead}, those read again by lanes that swapped (the iSSD's Eq. 9). */
  private final AtomicLong swapPagesRead = new AtomicLong();
  private final AtomicLong resultRecords = new AtomicLong();
  private final AtomicLong resultBytes = new AtomicLong();
  private final AtomicLong laneCpuNanos = new AtomicLong();
  /** The counted work of the lanes and the merge that the modelled compute time is made of. */
  private OpCounts counted = OpCounts.ZERO;
  /** Of {@link #counted}, the lanes' work after their last read (their input's end). */
  private OpCounts countedTail = OpCounts.ZERO;
  /** Whether the host asked for the counted work by call path (option {@value #PROFILE_OPTION}). */
  private boolean profiling;
  /** The lanes' and the merge's profiles added up, as each ends; empty until then. */
  private org.smartssd.device.WorkProfile profile = org.smartssd.device.WorkProfile.EMPTY;
  /**
   * Lanes the host asked for results since their last event (onRead with last = false): 1 when
   * asked. Set by the host's thread ({@link #requestRead}), taken by the lane's ({@link #takeReadRequest}).
   */
  private final java.util.concurrent.atomic.AtomicIntegerArray readRequested;

  private ExecutionState state = ExecutionState.RUNNING;
  private String message = "";
  private long endWallNanos;
  private List<Thread> threads = List.of();

  Execution(long id, InstalledTasklet tasklet, List<InputRange> inputs, List<ScanTarget> targets,
      Map<String, String> options, IspParameters isp, boolean mergeOnDevice, boolean paced, long timeLimitMillis,
      int channels, ExecutionModel model, Object owner, org.smartssd.device.runtime.objects.Caller caller,
      ExecutionOutput flashOutput) {
    this.id = id;
    this.caller = caller;
    this.flashOutput = flashOutput;
    this.owner = owner;
    this.user = caller.user();
    this.tasklet = tasklet;
    this.inputs = List.copyOf(inputs);
    this.targets = List.copyOf(targets);
    this.options = Map.copyOf(options);
    this.isp = isp;
    this.mergeOnDevice = mergeOnDevice;
    this.paced = paced;
    this.timeLimitMillis = timeLimitMillis;
    this.lanes = isp.cores();
    this.channels = channels;
    this.model = model;
    this.outputs = new LaneOutput[lanes];
    for (int lane = 0; lane < lanes; lane++) {
      outputs[lane] = new LaneOutput(lane, isp.laneBufferBytes());
    }
    this.mergedOutput = new LaneOutput(-1, Long.MAX_VALUE);
    this.readRequested = new java.util.concurrent.atomic.AtomicIntegerArray(lanes);
    Inbox[] boxes = new Inbox[lanes];
    for (int lane = 0; lane < lanes; lane++) {
      boxes[lane] = new Inbox();
    }
    this.inboxes = boxes;
  }


  // ---- what the engine and its workers read of an execution ----

  long id() {
    return id;
  }

  InstalledTasklet tasklet() {
    return tasklet;
  }

  List<InputRange> inputs() {
    return inputs;
  }

  List<ScanTarget> targets() {
    return targets;
  }

  Map<String, String> options() {
    return options;
  }

  IspParameters isp() {
    return isp;
  }

  boolean mergeOnDevice() {
    return mergeOnDevice;
  }

  /** Execution option: {@code true} asks for the execution's counted work by call path. */
  static final String PROFILE_OPTION = "profile";

  /** Whether the host asked for the counted work by call path. */
  boolean profiling() {
    return profiling;
  }

  void profiling(boolean on) {
    profiling = on;
  }

  /** Adds a lane worker's (or the merge's) profile once it is whole. */
  synchronized void addProfile(org.smartssd.opcount.ProfileTree tree) {
    profile = profile.plus(WorkProfiles.of(tree));
  }

  /** The execution's counted work by call path (whole once it is done), or null when not asked for. */
  synchronized org.smartssd.device.WorkProfile profile() {
    return profiling ? profile : null;
  }

  boolean paced() {
    return paced;
  }

  long timeLimitMillis() {
    return timeLimitMillis;
  }

  Object owner() {
    return owner;
  }

  String user() {
    return user;
  }

  org.smartssd.device.runtime.objects.Caller caller() {
    return caller;
  }

  /** A side object's pages read for a lane ({@code TaskletContext.readObject}): internal reads too. */
  void sideRead(int pages) {
    pagesRead.addAndGet(pages);
  }

  int lanes() {
    return lanes;
  }

  int channels() {
    return channels;
  }

  ExecutionModel model() {
    return model;
  }

  /** The execution's output object on flash, or null. */
  ExecutionOutput flashOutput() {
    return flashOutput;
  }

  /** The output object's path, or empty. */
  String outputPath() {
    return flashOutput == null ? "" : flashOutput.path();
  }

  /**
   * Appends {@code data} to the output object for {@code lane} (-1: the merge).
   *
   * @throws InterruptedException when the execution has ended
   * @throws IOException when the device cannot store it
   */
  void writeOutput(int lane, ByteBuffer data) throws IOException, InterruptedException {
    if (isStopped()) {
      throw new InterruptedException("execution " + id + " has ended");
    }
    flashOutput.write(lane, data);
  }

  /** {@code lane}'s event computed until {@code endNanos}: what it wrote to the output object is programmed from then. */
  void computed(int lane, long endNanos) {
    if (flashOutput != null) {
      flashOutput.book(lane, endNanos);
    }
  }

  /**
   * Once every lane (and the merge) is done: moves the output object into place, durable, and from then
   * on the execution cannot fail or be cancelled; or, when it ended otherwise or the object cannot be
   * kept, takes the object away (and fails the execution with why).
   */
  void completeOutput() {
    if (flashOutput == null) {
      return;
    }
    String failure = null;
    synchronized (this) {
      if (state == ExecutionState.RUNNING) {
        try {
          model.outputDurable(flashOutput.commit(model.processingEndNanos()));
          outputCommitted = true;
          return;
        } catch (IOException e) {
          failure = "the output object '" + flashOutput.path() + "' could not be kept: " + e.getMessage();
        }
      }
    }
    if (failure != null) {
      fail(failure);
    }
    try {
      flashOutput.abort();
    } catch (IOException e) {
      org.slf4j.LoggerFactory.getLogger(Execution.class).warn("execution {}: could not delete '{}', the unfinished"
          + " output object: {}", id, flashOutput.temporaryPath(), e.toString());
    }
  }

  /** A lane's results, or the device merge's (lane -1). */
  LaneOutput output(int lane) {
    return lane < 0 ? mergedOutput : outputs[lane];
  }

  /** The lanes' results waiting for the merge on the device, handed over (and forgotten) once. */
  List<TaskletResult> takeToMerge() {
    synchronized (toMerge) {
      List<TaskletResult> taken = new ArrayList<>(toMerge);
      toMerge.clear();
      return taken;
    }
  }

  /** Counts a result of {@code bytes}; returns the execution's result bytes so far. */
  long countResult(int bytes) {
    resultRecords.incrementAndGet();
    return resultBytes.addAndGet(bytes);
  }

  long startWallNanos() {
    return startWallNanos;
  }

  void addLaneCpu(long nanos) {
    laneCpuNanos.addAndGet(nanos);
  }

  /** A lane's function said it holds {@code bytes} now. */
  void holding(long bytes) {
    laneStateBytes.accumulateAndGet(bytes, Math::max);
  }

  /** Pages a lane read again because its function did not fit its memory: internal reads too. */
  void swapRead(int pages) {
    pagesRead.addAndGet(pages);
    swapPagesRead.addAndGet(pages);
  }

  /** Every segment {@code channel} reads, in order (after {@link #plan}; only where lanes' memory is bounded). */
  List<WorkItem> channelPlan(int channel) {
    return channelPlans[channel];
  }

  /** An internal read request of {@code pages} pages that brought {@code bytes} bytes of the inputs. */
  void scanned(int pages, long bytes) {
    pagesRead.addAndGet(pages);
    bytesScanned.addAndGet(bytes);
  }

  /** The records completed for {@code lane} by other lanes' reads. */
  Inbox inbox(int lane) {
    return inboxes[lane];
  }

  /** The segments still to read on {@code channel} (after {@link #plan}). */
  ArrayDeque<WorkItem> channelQueue(int channel) {
    return channelQueues[channel];
  }

  /** The assembler of input {@code input} (after {@link #plan}). */
  RecordAssembler assembler(int input) {
    return assemblers[input];
  }

  /** The lanes' record format (after {@link #plan}). */
  RecordFormat format() {
    return format;
  }

  /** The route of a STREAM input to its owner lane, or null when the record format is another (after {@link #plan}). */
  StreamRoute stream(int input) {
    return streams == null ? null : streams[input];
  }

  /** Whether one of {@code lanes} owns a STREAM input with segments still to be read. */
  boolean streamsPending(int[] lanes) {
    if (streams == null) {
      return false;
    }
    for (int i = 0; i < streams.length; i++) {
      if (segmentsLeft[i].get() > 0) {
        for (int lane : lanes) {
          if (streams[i].ownerLane() == lane) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Counts one accepted segment of {@code input}; true for its last, after which the input is finished. */
  boolean segmentAccepted(int input) {
    return segmentsLeft[input].decrementAndGet() == 0;
  }

  /** The lane (device core) serving a channel. */
  int laneOf(int channel) {
    return channel % lanes;
  }

  /**
   * The lane that computes a record starting at {@code offset} of input {@code input}: the lane of the
   * channel holding its first byte, whichever lane's read completed it. Otherwise the lane whose read
   * the simulator happened to finish last would compute every record that straddles two pages, and
   * the lanes of a lagging machine thread would take them all (for records of hundreds of bytes, half
   * as much work again on some cores).
   */
  int ownerLane(int input, long offset) {
    ScanTarget t = targets.get(input);
    return laneOf(t.channelOfPage()[(int) (offset / t.pageSize())]);
  }

  /** Builds the assemblers and the channels' queues once the record format is known. */
  @SuppressWarnings("unchecked")
  void plan(RecordFormat recordFormat) throws RecordException {
    // Built aside and published at the end: read_object may read the statistics meanwhile.
    RecordAssembler[] built = new RecordAssembler[targets.size()];
    ArrayDeque<WorkItem>[] queues = new ArrayDeque[channels];
    for (int c = 0; c < channels; c++) {
      queues[c] = new ArrayDeque<>();
    }
    AtomicLong[] left = new AtomicLong[targets.size()];
    for (int i = 0; i < targets.size(); i++) {
      ScanTarget t = targets.get(i);
      InputRange range = inputs.get(i);
      long end = range.length() == InputRange.TO_END ? t.length() : Math.min(t.length(), range.offset() + range.length());
      int pageSize = t.pageSize();
      RecordAssembler a = new RecordAssembler(recordFormat, t.path(), t.length(), range.offset(), end,
          isp.maxRecordBytes(), pageSize);
      built[i] = a;
      long segments = 0;
      if (a.readEnd() > a.readStart()) {
        for (long page = a.readStart() / pageSize; page * pageSize < a.readEnd(); page++) {
          long start = Math.max(a.readStart(), page * pageSize);
          long stop = Math.min(a.readEnd(), (page + 1) * pageSize);
          queues[t.channelOfPage()[(int) page]].add(new WorkItem(i, (int) page, start, stop));
          segments++;
        }
      }
      left[i] = new AtomicLong(segments);
    }
    StreamRoute[] routes = null;
    if (recordFormat.kind() == RecordFormat.Kind.STREAM) {
      routes = new StreamRoute[targets.size()];
      for (int i = 0; i < targets.size(); i++) {
        RecordAssembler a = built[i];
        ScanTarget t = targets.get(i);
        int owner = a.readEnd() > a.readStart() ? ownerLane(i, a.readStart()) : 0;
        // Two rounds of read requests over every channel ahead of the owner.
        long window = 2L * channels * isp.readRequestPages() * t.pageSize();
        routes[i] = new StreamRoute(i, owner, a, inboxes[owner], window);
      }
    }
    streams = routes;
    // Kept only where a lane may swap (its memory bounded): a copy of every segment's place otherwise unused.
    if (isp.laneMemoryBounded()) {
      List<WorkItem>[] plans = new List[channels];
      for (int c = 0; c < channels; c++) {
        plans[c] = List.copyOf(queues[c]);
      }
      channelPlans = plans;
    }
    channelQueues = queues;
    segmentsLeft = left;
    format = recordFormat;
    assemblers = built;
  }

  synchronized void start(List<Thread> workers) {
    threads = List.copyOf(workers);
    workers.forEach(Thread::start);
  }

  synchronized List<Thread> threads() {
    return threads;
  }

  synchronized ExecutionState state() {
    return state;
  }

  synchronized String message() {
    return message;
  }

  synchronized boolean isStopped() {
    return state != ExecutionState.RUNNING;
  }

  /** Ends the execution as failed (the first reason wins). */
  void fail(String reason) {
    end(ExecutionState.FAILED, reason);
  }

  void cancel() {
    end(ExecutionState.CANCELLED, "cancelled by the host");
  }

  void done() {
    end(ExecutionState.DONE, "");
  }

  /**
   * Runs {@code action} when the execution ends other than DONE (failed or cancelled), before anyone
   * can see it ended so; set once, before it starts.
   */
  void onEndedEarly(Runnable action) {
    this.endedEarly = action;
  }

  private volatile Runnable endedEarly;

  private void end(ExecutionState to, String why) {
    synchronized (this) {
      if (state != ExecutionState.RUNNING || (to != ExecutionState.DONE && outputCommitted)) {
        return;
      }
      if (to != ExecutionState.DONE && endedEarly != null) {
        endedEarly.run();
      }
      state = to;
      message = why;
      endWallNanos = System.nanoTime();
    }
    for (LaneOutput out : outputs) {
      out.wake();
    }
  }

  /** Adds work the lanes or the merge did to the execution's counts. */
  synchronized void count(OpCounts work) {
    counted = counted.plus(work);
  }

  synchronized OpCounts counted() {
    return counted;
  }

  /** Adds work a lane did once told its input ended (also added to {@link #count}'s). */
  synchronized void countTail(OpCounts work) {
    countedTail = countedTail.plus(work);
  }

  synchronized OpCounts countedTail() {
    return countedTail;
  }

  synchronized long wallNanos() {
    return (state == ExecutionState.RUNNING ? System.nanoTime() : endWallNanos) - startWallNanos;
  }

  long records() {
    long n = 0;
    RecordAssembler[] a = assemblers;
    if (a != null) {
      for (RecordAssembler assembler : a) {
        n += assembler.recordsDelivered();
      }
    }
    return n;
  }

  /** Whether every result has left the device. */
  boolean drained() {
    for (LaneOutput out : outputs) {
      if (!out.isEmpty()) {
        return false;
      }
    }
    return mergedOutput.isEmpty();
  }

  ExecutionStatistics statistics() {
    OpCounts c = counted();
    OpCounts tail = countedTail();
    return new ExecutionStatistics(lanes, bytesScanned.get(), pagesRead.get(),
        format == null || format.kind() == RecordFormat.Kind.RAW
            || format.kind() == RecordFormat.Kind.STREAM ? 0 : records(), resultRecords.get(), resultBytes.get(),
        wallNanos(), laneCpuNanos.get(), model.modelledNanos(), model.readNanos(), model.computeNanos(),
        model.mergeNanos(), model.transferNanos(), model.deviceMicrojoules(pagesRead.get() + outputPagesRead(),
            outputPagesProgrammed(), outputBlocksErased(), resultBytes.get()),
        model.hostMicrojoules(), c.ops(),
        c.memoryAccesses(), c.libraryCalls(), c.bulkBytes(), model.hostDelayNanos(), model.behindModelNanos(),
        tail.ops(), tail.memoryAccesses(), tail.libraryCalls(), tail.bulkBytes(),
        flashOutput == null ? 0 : flashOutput.bytes(), outputPagesProgrammed(), model.writeNanos(),
        laneStateBytes.get(), swapPagesRead.get(), c.libraryReads(), tail.libraryReads());
  }

  private long outputPagesProgrammed() {
    return flashOutput == null ? 0 : flashOutput.pagesProgrammed();
  }

  private long outputPagesRead() {
    return flashOutput == null ? 0 : flashOutput.pagesRead();
  }

  private long outputBlocksErased() {
    return flashOutput == null ? 0 : flashOutput.blocksErased();
  }

  /** Copies a result and puts it in its lane's buffer (or aside for the merge), enforcing the output budget. */
  boolean emit(int lane, ByteBuffer data, long readyAtNanos) throws InterruptedException {
    if (isStopped()) {
      return false;
    }
    int size = data.remaining();
    if (size > MAX_RESULT_BYTES) {
      fail("tasklet " + tasklet.className() + " emitted a result of " + size + " bytes; one result may be at most "
          + MAX_RESULT_BYTES + " bytes");
      return false;
    }
    long total = resultBytes.addAndGet(size);
    if (total > isp.outputBudgetBytes()) {
      fail("tasklet " + tasklet.className() + " produced more than its output budget of " + isp.outputBudgetBytes()
          + " bytes (smartssd.device.isp.output-budget-bytes)");
      return false;
    }
    resultRecords.incrementAndGet();
    ByteBuffer copy = ByteBuffer.allocate(size);
    copy.put(data.duplicate()).flip();
    if (mergeOnDevice) {
      synchronized (toMerge) {
        toMerge.add(new TaskletResult(lane, copy.asReadOnlyBuffer()));
      }
      return true;
    }
    return outputs[lane].put(copy.asReadOnlyBuffer(), readyAtNanos, this::isStopped);
  }

  /** The host asked for results: every lane hands over what it holds at its next event. */
  void requestRead() {
    for (int lane = 0; lane < readRequested.length(); lane++) {
      readRequested.set(lane, 1);
    }
  }

  /** Whether the host asked {@code lane} for results since it last handed them over; clears the request. */
  boolean takeReadRequest(int lane) {
    return readRequested.getAndSet(lane, 0) == 1;
  }
}
