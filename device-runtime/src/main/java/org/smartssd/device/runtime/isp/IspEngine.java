package org.smartssd.device.runtime.isp;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.protocol.CodeDigest;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.device.runtime.objects.Caller;
import org.smartssd.device.runtime.objects.OutputStore;
import org.smartssd.device.runtime.objects.ScanSource;
import org.smartssd.device.runtime.objects.ScanTarget;
import org.smartssd.device.runtime.objects.StoreException;
import org.smartssd.device.runtime.timing.EnergyModel;
import org.smartssd.device.runtime.timing.ExecutionModel;
import org.smartssd.device.runtime.timing.TimingModel;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.OpMeter;

/**
 * The in-storage processing engine: installs tasklets ({@code create_object}), runs executions over
 * objects ({@code execute_object}) on lanes next to the flash, and hands their results to the host
 * when it polls ({@code read_object}); the device never calls the host.
 *
 * <p>Layering: the engine reads objects through the object store's scan interface
 * ({@link ScanSource}) and the flash translation layer below it, at low priority; the host
 * interface above calls it.
 */
public final class IspEngine implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(IspEngine.class);
  /** How long a stopped lane gets to leave tasklet code on its own before it is stopped by force. */
  private static final long STOP_GRACE_MILLIS = 1000;
  /** An execution whose results nobody reads is dropped after this long. */
  private static final long ABANDONED_MILLIS = TimeUnit.MINUTES.toMillis(10);

  private final IspParameters isp;
  private final EnergyModel energy;
  private final ScanSource store;
  /** Where executions' output objects are written (the same store). */
  private final OutputStore outputs;
  private final TimingModel timing;
  private final boolean paced;
  private final IntSupplier hostWaiting;
  private final TaskletLoader loader;
  private final Map<Long, InstalledTasklet> tasklets = new ConcurrentHashMap<>();
  private final Map<Long, Execution> executions = new ConcurrentHashMap<>();
  private final Map<Long, List<LaneWorker>> workers = new ConcurrentHashMap<>();
  private final CodeCache codeCache;
  /** Analyses attached to data as it is written, and the device's idle time (Active Flash). */
  private final ActiveAnalysis active;
  private final LoadedCode loadedCode;
  private final AtomicLong nextTasklet = new AtomicLong(1);
  private final AtomicLong nextExecution = new AtomicLong(1);
  private final ScheduledExecutorService watchdog;
  /** The thread that writes executions' output objects ({@link ExecutionOutput}: never a lane's). */
  private final java.util.concurrent.ExecutorService outputWriter;
  private final String name;

  public IspEngine(String name, IspParameters isp, EnergyModel energy, ScanSource store, OutputStore outputs,
      TimingModel timing, boolean paced, IntSupplier hostWaiting, TaskletLoader loader,
      org.smartssd.device.runtime.config.ActiveParameters activeParameters,
      org.smartssd.device.runtime.objects.IdleCollector collector) {
    SharedClassInitialization.install();
    this.name = name;
    this.isp = isp;
    this.energy = energy;
    this.store = store;
    this.outputs = outputs;
    this.timing = timing;
    this.paced = paced;
    this.hostWaiting = hostWaiting;
    this.loader = loader;
    this.active = new ActiveAnalysis(name, isp, activeParameters, energy, store, collector, timing, paced);
    this.codeCache = new CodeCache(isp.codeCacheBytes());
    this.loadedCode = new LoadedCode(isp.loadedCodeEntries());
    this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name + "-isp-watchdog");
      t.setDaemon(true);
      return t;
    });
    this.outputWriter = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, name + "-isp-output");
      t.setDaemon(true);
      return t;
    });
    watchdog.scheduleWithFixedDelay(this::watch, 100, 100, TimeUnit.MILLISECONDS);
    watchdog.scheduleWithFixedDelay(this::watchMemory, MEMORY_WATCH_MILLIS, MEMORY_WATCH_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * How often the lanes' allocation is looked at while they run tasklet code: a tasklet allocating
   * without end (10 GB, a megabyte at a time) is stopped within a few milliseconds of passing its
   * memory budget, at most some tens of megabytes later, not when its event returns.
   */
  static final long MEMORY_WATCH_MILLIS = 5;

  private final com.sun.management.ThreadMXBean threadBean =
      (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

  // ---- create_object / remove_object ----

  /**
   * Installs a tasklet for connection {@code owner} of {@code caller}; it is removed when {@link
   * #connectionClosed} says it ended.
   */
  public long createObject(ByteBuffer code, String className, Map<String, String> parameters, Caller caller,
      Object owner) throws StoreException {
    if (tasklets.size() >= isp.maxTasklets()) {
      throw new StoreException(Status.BUSY, tasklets.size() + " tasklets are installed already"
          + " (smartssd.device.isp.max-tasklets): remove those no longer needed (REMOVE_OBJECT); a connection's"
          + " tasklets go when it closes");
    }
    String digest = parameters.get(CodeDigest.PARAMETER);
    if (digest != null) {
      if (!CodeDigest.isWellFormed(digest)) {
        throw new StoreException(Status.BAD_REQUEST, "parameter " + CodeDigest.PARAMETER + " must be 64 lower-case hex"
            + " digits (a SHA-256), not '" + digest + "'");
      }
      parameters = new TreeMap<>(parameters);
      parameters.remove(CodeDigest.PARAMETER);
      if (code.hasRemaining()) {
        String actual = CodeDigest.of(code);
        if (!actual.equals(digest)) {
          throw new StoreException(Status.BAD_REQUEST, "the code's SHA-256 is " + actual + ", not " + digest + " as "
              + CodeDigest.PARAMETER + " says");
        }
      } else {
        code = codeCache.get(digest);
        if (code == null) {
          throw new StoreException(Status.NOT_FOUND, "no code with SHA-256 " + digest + " is kept on this device"
              + " (smartssd.device.isp.code-cache-bytes): send it");
        }
      }
    }
    // A jar's classes are loaded once and kept (LoadedCode); built-in tasklets are the device's own.
    String loadedKey = code.hasRemaining() && isp.loadedCodeEntries() > 0
        ? LoadedCode.key(digest != null ? digest : CodeDigest.of(code), className) : null;
    LoadedTasklet loaded = loadedKey == null ? null : loadedCode.get(loadedKey);
    try {
      if (loaded == null) {
        loaded = loader.load(code, className);
        if (loadedKey != null) {
          loadedCode.put(loadedKey, loaded);
        }
      }
      // Construct one instance now, so that a class that cannot be built is refused here.
      loaded.newInstance();
    } catch (TaskletRefusedException e) {
      if (loaded != null) {
        loadedCode.forget(loaded);
      }
      throw new StoreException(Status.BAD_REQUEST, e.getMessage());
    }
    if (digest != null) {
      codeCache.put(digest, code);
    }
    long id = nextTasklet.getAndIncrement();
    tasklets.put(id, new InstalledTasklet(id, loaded, parameters, owner, caller.user()));
    LOG.info("{}: installed tasklet {} as {}{}", name, className, id, code.hasRemaining() ? "" : " (built in)");
    return id;
  }

  public void removeObject(long taskletId, Caller caller) throws StoreException {
    InstalledTasklet tasklet = tasklets.get(taskletId);
    if (tasklet == null) {
      throw new StoreException(Status.NOT_FOUND, "no tasklet " + taskletId + " is installed");
    }
    checkUser(caller, tasklet.user(), "tasklet " + taskletId);
    tasklets.remove(taskletId, tasklet);
  }

  /** Only the user who installed a tasklet or started an execution (or a superuser) may use it. */
  private static void checkUser(Caller caller, String user, String what) throws StoreException {
    if (!caller.bypass() && !caller.user().equals(user)) {
      throw new StoreException(Status.PERMISSION_DENIED, "Permission denied: user=" + caller.user() + " may not use "
          + what + " of user " + user);
    }
  }

  /**
   * A connection ended: the tasklets it installed go (executions already running keep their code
   * and run on; their results are read by execution id, from any connection).
   */
  public void connectionClosed(Object owner) {
    active.connectionClosed(owner);
    int removed = 0;
    for (InstalledTasklet t : new ArrayList<>(tasklets.values())) {
      if (t.owner() == owner && tasklets.remove(t.id(), t)) {
        removed++;
      }
    }
    if (removed > 0) {
      LOG.debug("{}: removed {} tasklet(s) installed by a connection that ended", name, removed);
    }
  }

  /** Whether connection {@code owner} has installed a tasklet or started an execution still kept. */
  public boolean owns(Object owner) {
    if (active.owns(owner)) {
      return true;
    }
    for (InstalledTasklet t : tasklets.values()) {
      if (t.owner() == owner) {
        return true;
      }
    }
    for (Execution e : executions.values()) {
      if (e.owner() == owner) {
        return true;
      }
    }
    return false;
  }

  // ---- execute_object ----

  /**
   * Starts an execution for connection {@code owner} of {@code caller}, who must be able to read
   * every input, as to open it.
   */
  public long executeObject(long taskletId, List<InputRange> inputs, Map<String, String> options, long arrivalNanos,
      Caller caller, Object owner) throws StoreException, IOException {
    return executeObject(taskletId, inputs, options, "", 0, arrivalNanos, caller, owner);
  }

  /**
   * Starts an execution that writes an output object at {@code outputPath} (none when empty), made for
   * {@code caller} with {@code outputPermission} as CREATE makes a file; it must not exist.
   */
  public long executeObject(long taskletId, List<InputRange> inputs, Map<String, String> options, String outputPath,
      int outputPermission, long arrivalNanos, Caller caller, Object owner) throws StoreException, IOException {
    InstalledTasklet tasklet = tasklets.get(taskletId);
    if (tasklet == null) {
      throw new StoreException(Status.NOT_FOUND, "no tasklet " + taskletId + " is installed");
    }
    checkUser(caller, tasklet.user(), "tasklet " + taskletId);
    if (inputs.isEmpty()) {
      throw new StoreException(Status.BAD_REQUEST, "an execution needs at least one input");
    }
    String attach = options.get("attach");
    if (attach != null) {
      if (!attach.equals("write")) {
        throw new StoreException(Status.BAD_REQUEST, "option attach='" + attach + "' must be write (analyse what is"
            + " written under the input's path from now on)");
      }
      if (!outputPath.isEmpty()) {
        throw new StoreException(Status.BAD_REQUEST, "an attached analysis (attach=write) writes no output object: its"
            + " results are read with READ_OBJECT");
      }
      boolean profiling = profileOption(options);
      long id = nextExecution.getAndIncrement();
      active.attach(id, tasklet, inputs, options, profiling, caller, owner, arrivalNanos);
      return id;
    }
    boolean mergeOnDevice = mergeOption(options);
    boolean profiling = profileOption(options);
    if (mergeOnDevice && !tasklet.code().merging()) {
      throw new StoreException(Status.BAD_REQUEST, "tasklet " + tasklet.className() + " cannot merge on the device: it"
          + " does not implement " + MergingTasklet.class.getName() + "; merge on the host instead (merge=host)");
    }
    long timeLimit = longOption(options, "time-limit-ms", isp.timeLimitMillis());
    if (timeLimit > isp.timeLimitMillis()) {
      throw new StoreException(Status.BAD_REQUEST, "time-limit-ms " + timeLimit + " is above this device's limit of "
          + isp.timeLimitMillis() + " ms (smartssd.device.isp.time-limit-ms): ask for that or less");
    }
    List<ScanTarget> targets = new ArrayList<>();
    for (InputRange range : inputs) {
      ScanTarget target = store.openScan(range.path(), caller);
      if (range.offset() > target.length()) {
        throw new StoreException(Status.PAST_END, "input " + range.path() + " starts at " + range.offset()
            + ", past its end (" + target.length() + " bytes)");
      }
      targets.add(target);
    }
    if (executions.values().stream().filter(e -> !e.isStopped()).count() >= isp.maxExecutions()) {
      throw new StoreException(Status.BUSY, isp.maxExecutions() + " executions are running already"
          + " (smartssd.device.isp.max-executions)");
    }
    if (executions.values().stream().filter(e -> e.owner() == owner && !e.isStopped()).count()
        >= isp.maxExecutionsPerConnection()) {
      throw new StoreException(Status.BUSY, "this connection has " + isp.maxExecutionsPerConnection()
          + " executions running already (smartssd.device.isp.max-executions-per-connection)");
    }
    long id = nextExecution.getAndIncrement();
    // A host that waits for each answer issues this after the device finished what it asked before.
    long start = Math.max(arrivalNanos, timing.horizonNanos());
    ExecutionModel model = new ExecutionModel(isp, energy, timing.geometry().channels(), start);
    ExecutionOutput flashOutput = outputPath.isEmpty() ? null
        : ExecutionOutput.create(outputs, outputPath, outputPermission, id, caller, timing, isp.cores(), start,
            outputWriter);
    Execution exec = new Execution(id, tasklet, inputs, targets, options, isp, mergeOnDevice, paced, timeLimit,
        timing.geometry().channels(), model, owner, caller, flashOutput);
    int threads = Math.min(exec.lanes(), isp.threads());
    LaneWorker.Crew crew = new LaneWorker.Crew(exec, threads, () -> finish(exec));
    List<LaneWorker> crewWorkers = new ArrayList<>();
    List<Thread> crewThreads = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      List<Integer> lanes = new ArrayList<>();
      for (int lane = t; lane < exec.lanes(); lane += threads) {
        lanes.add(lane);
      }
      LaneWorker w = new LaneWorker(crew, lanes.stream().mapToInt(Integer::intValue).toArray(), store, timing, hostWaiting);
      crewWorkers.add(w);
      Thread thread = new org.smartssd.opcount.MeteredThread(w, name + "-exec" + id + "-lanes" + t);
      thread.setDaemon(true);
      // Libraries that load classes by name (Hadoop's Configuration) find the tasklet's own classes.
      thread.setContextClassLoader(tasklet.code().code());
      crewThreads.add(thread);
    }
    // A failed or cancelled execution's classes may have static state half-made: no later install gets them
    // (dropped before the host can see the execution ended).
    exec.profiling(profiling);
    exec.onEndedEarly(() -> loadedCode.forget(tasklet.code()));
    executions.put(id, exec);
    workers.put(id, crewWorkers);
    timing.executionStarted(start);
    exec.start(crewThreads);
    return id;
  }

  private boolean mergeOption(Map<String, String> options) throws StoreException {
    String merge = options.getOrDefault("merge", isp.mergeOnDevice() ? "device" : "host");
    if (!merge.equals("host") && !merge.equals("device")) {
      throw new StoreException(Status.BAD_REQUEST, "option merge='" + merge + "' must be host or device");
    }
    return merge.equals("device");
  }

  /** Option {@code profile}: true asks for the counted work by call path, which needs the counted compute model. */
  private boolean profileOption(Map<String, String> options) throws StoreException {
    String value = options.getOrDefault(Execution.PROFILE_OPTION, "false");
    if (!value.equals("true") && !value.equals("false")) {
      throw new StoreException(Status.BAD_REQUEST, "option " + Execution.PROFILE_OPTION + "='" + value
          + "' must be true or false");
    }
    boolean on = value.equals("true");
    if (on && isp.computeModel() != IspParameters.ComputeModel.COUNTED) {
      throw new StoreException(Status.BAD_REQUEST, "option " + Execution.PROFILE_OPTION + "=true needs the counted"
          + " compute model; this device's is " + isp.computeModel().name().toLowerCase(java.util.Locale.ROOT)
          + " (smartssd.device.isp.compute-model)");
    }
    return on;
  }

  private static long longOption(Map<String, String> options, String key, long fallback) throws StoreException {
    String value = options.get(key);
    if (value == null) {
      return fallback;
    }
    try {
      long v = Long.parseLong(value.trim());
      if (v <= 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new StoreException(Status.BAD_REQUEST, "option " + key + "='" + value + "' must be a positive whole number");
    }
  }

  /** Every lane is done: merge on the device if asked, then the execution is done. */
  private void finish(Execution exec) {
    if (!exec.isStopped() && exec.mergeOnDevice()) {
      mergeOnDevice(exec);
    }
    exec.completeOutput();
    // Counted before the host can see the execution done (and read the device's statistics), its cores'
    // compute with it (a stopped execution's too: the cores did it). Its results' trips to the host are the
    // host's READ_OBJECT commands, counted as commands.
    timing.executionDone(exec.model().startNanos(), exec.model().processingEndNanos(),
        exec.model().coreBusyNanos());
    exec.done();
    if (paced) {
      // Paced, the device should end when the model does; a simulator slower than the model cannot.
      exec.model().behindModel(timing.now() - exec.model().processingEndNanos());
    }
    if (LOG.isInfoEnabled()) {
      org.smartssd.device.ExecutionStatistics st = exec.statistics();
      LOG.info("{}: execution {} of {} ended {}: {} bytes, {} records; counted {}; modelled {} ns (compute {} ns on {}"
          + " cores, read {} ns, delayed {} ns by host operations){}", name, exec.id(), exec.tasklet().className(),
          exec.state(), st.bytesScanned(), st.records(), exec.counted(), st.modelledNanos(), st.modelledComputeNanos(),
          exec.lanes(), st.modelledReadNanos(), st.modelledHostDelayNanos(),
          st.behindModelNanos() > 0 ? "; paced, it ended " + st.behindModelNanos() + " ns behind the model" : "");
    }
    workers.remove(exec.id());
  }

  private void mergeOnDevice(Execution exec) {
    List<TaskletResult> partials;
    partials = exec.takeToMerge();
    partials.sort(Comparator.comparingInt(TaskletResult::lane)); // stable: each lane's in emitted order
    long partialBytes = partials.stream().mapToLong(r -> r.data().remaining()).sum();
    List<ByteBuffer> merged = new ArrayList<>();
    org.smartssd.device.tasklet.FlashOutput flash = exec.flashOutput() == null ? null : new ExecutionFlash(exec, -1);
    ResultSink sink = new ResultSink() {
      @Override
      public void emit(ByteBuffer result) {
        long total = exec.countResult(result.remaining());
        if (total > isp.outputBudgetBytes()) {
          throw new IllegalStateException("the merge produced more than the output budget of "
              + isp.outputBudgetBytes() + " bytes (smartssd.device.isp.output-budget-bytes)");
        }
        ByteBuffer copy = ByteBuffer.allocate(result.remaining());
        copy.put(result.duplicate()).flip();
        merged.add(copy.asReadOnlyBuffer());
      }

      @Override
      public org.smartssd.device.tasklet.FlashOutput flash() {
        return flash != null ? flash : ResultSink.super.flash();
      }
    };
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    long cpuBefore = mx.getCurrentThreadCpuTime();
    OpMeter meter = OpMeter.current();
    OpCounts countedBefore = meter.counts();
    org.smartssd.opcount.ProfileTree profile = exec.profiling() ? new org.smartssd.opcount.ProfileTree() : null;
    if (profile != null) {
      meter.startProfile(profile);
    }
    try {
      MergingTasklet merger = (MergingTasklet) exec.tasklet().code().newInstance();
      merger.onCreate(mergeContext(exec));
      merger.onMerge(java.util.Collections.unmodifiableList(partials), sink);
    } catch (Throwable t) {
      exec.fail("tasklet " + exec.tasklet().className() + " failed in onMerge on the controller core: " + t);
      return;
    } finally {
      if (profile != null) {
        meter.stopProfile();
        exec.addProfile(profile);
      }
    }
    OpCounts counted = meter.counts().minus(countedBefore);
    exec.count(counted);
    long end = exec.model().merge(partialBytes, mx.getCurrentThreadCpuTime() - cpuBefore, counted);
    exec.computed(-1, end);
    for (ByteBuffer result : merged) {
      try {
        exec.output(-1).put(result, end, () -> false);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static TaskletContext mergeContext(Execution exec) {
    return new TaskletContext() {
      @Override
      public Map<String, String> parameters() {
        return exec.tasklet().parameters();
      }

      @Override
      public String taskletName() {
        return exec.tasklet().className();
      }

      @Override
      public int lane() {
        return -1;
      }

      @Override
      public int lanes() {
        return exec.lanes();
      }

      @Override
      public int maxRecordBytes() {
        return exec.isp().maxRecordBytes();
      }
    };
  }

  // ---- read_object / cancel ----

  /**
   * Results ready so far (about {@code maxBytes}), with the state and statistics. {@code nowNanos}
   * is the modelled arrival of the command: a paced device hands out nothing the model has not
   * produced by then.
   */
  public Response.ExecutionProgress readObject(long executionId, int maxBytes, long nowNanos, Caller caller)
      throws StoreException {
    if (active.has(executionId)) {
      return active.read(executionId, maxBytes, nowNanos, caller);
    }
    Execution exec = execution(executionId);
    checkUser(caller, exec.user(), "execution " + executionId);
    if (!exec.mergeOnDevice()) {
      // The lanes hand over what they hold (onRead, not last); merged on the device, the host sees none of it.
      exec.requestRead();
    }
    long horizon = paced ? nowNanos : Long.MAX_VALUE;
    List<TaskletResult> results = new ArrayList<>();
    long budget = Math.max(1, maxBytes);
    LaneOutput.Drained merged = exec.output(-1).drain(results, budget, horizon);
    long moved = merged.bytes();
    long readyAt = merged.readyAtNanos();
    for (int lane = 0; lane < exec.lanes() && moved < budget; lane++) {
      LaneOutput.Drained d = exec.output(lane).drain(results, budget - moved, horizon);
      moved += d.bytes();
      readyAt = Math.max(readyAt, d.readyAtNanos());
    }
    exec.model().delivered(readyAt, timing.linkNanos(moved));
    ExecutionState state = exec.state();
    if (state == ExecutionState.FAILED || state == ExecutionState.CANCELLED) {
      // An execution that did not complete hands out no more results: only why it ended.
      executions.remove(executionId);
      return new Response.ExecutionProgress(state, exec.message(), exec.statistics(), List.of(), true);
    }
    // Paced, the host sees the execution end no earlier than the model does.
    if (paced && state == ExecutionState.DONE && nowNanos < exec.model().processingEndNanos()) {
      state = ExecutionState.RUNNING;
    }
    boolean finished = state.isTerminal() && exec.drained();
    org.smartssd.device.WorkProfile profile = finished ? exec.profile() : null;
    if (profile != null && moved > 0 && moved + profile.encodedBytes() > budget) {
      // The profile counts against the answer's bytes as results do: the next answer carries it alone.
      finished = false;
      profile = null;
    }
    if (finished) {
      executions.remove(executionId);
    }
    return new Response.ExecutionProgress(state, "", exec.statistics(), results, finished, profile);
  }

  /**
   * Stops an execution; an attached analysis is detached instead: it analyses what it took to its end and
   * is then done.
   */
  public void cancel(long executionId, Caller caller) throws StoreException {
    if (active.has(executionId)) {
      active.detach(executionId, caller);
      return;
    }
    Execution exec = execution(executionId);
    checkUser(caller, exec.user(), "execution " + executionId);
    exec.cancel();
    stopLanes(exec);
  }

  private Execution execution(long id) throws StoreException {
    Execution exec = executions.get(id);
    if (exec == null) {
      throw new StoreException(Status.NOT_FOUND, "no execution " + id + " (finished and read, or never started)");
    }
    return exec;
  }

  // ---- containment ----

  private void watch() {
    try {
      long now = System.nanoTime();
      for (Execution exec : executions.values()) {
        long runningMillis = TimeUnit.NANOSECONDS.toMillis(now - exec.startWallNanos());
        if (!exec.isStopped() && runningMillis > exec.timeLimitMillis()) {
          exec.fail("tasklet " + exec.tasklet().className() + " ran past its time limit of " + exec.timeLimitMillis()
              + " ms (smartssd.device.isp.time-limit-ms)");
          stopLanes(exec);
        } else if (exec.isStopped() && runningMillis > ABANDONED_MILLIS + exec.timeLimitMillis()) {
          executions.remove(exec.id()); // nobody came for its results
        }
      }
      // Told again, for as long as any of its lanes is in tasklet code (stopping the execution told only
      // those in it then), even once the host has read its end and the execution is forgotten: a stopped
      // execution's tasklet never keeps a core.
      for (List<LaneWorker> crew : workers.values()) {
        Execution exec = crew.get(0).execution();
        if (exec.isStopped()) {
          for (Thread t : threadsInTasklet(exec)) {
            OpMeter.requestStop(t);
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.error("{}: ISP watchdog failed", name, e);
    }
  }

  /** Stops the lanes that allocated more than their memory budget in the event they are still in. */
  private void watchMemory() {
    try {
      for (Execution exec : executions.values()) {
        List<LaneWorker> crew = workers.get(exec.id());
        if (exec.isStopped() || crew == null) {
          continue;
        }
        List<Thread> threads = exec.threads();
        for (int i = 0; i < threads.size() && i < crew.size(); i++) {
          LaneWorker w = crew.get(i);
          Thread t = threads.get(i);
          if (!w.inTasklet || !t.isAlive()) {
            continue;
          }
          long allocated = threadBean.getThreadAllocatedBytes(t.getId()) - w.allocatedBeforeEvent;
          if (allocated > exec.isp().memoryBudgetBytes()) {
            exec.fail(LaneWorker.overBudget(exec, allocated, w.event, w.eventLane) + "; stopped while it ran");
            OpMeter.requestStop(t);
            stopLanes(exec);
            break;
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.error("{}: ISP memory watch failed", name, e);
    }
  }

  /** Wakes a stopped execution's lanes; those still in tasklet code after a grace period are stopped by force. */
  private void stopLanes(Execution exec) {
    for (Thread t : exec.threads()) {
      t.interrupt();
    }
    watchdog.schedule(() -> forceStop(exec), STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * A tasklet in an endless loop never returns and cannot be interrupted: its lane's thread is told to
   * stop, and the tasklet's code (instrumented: counted, or made stoppable) throws at its next loop
   * head or exception handler, on any JDK. Only a thread inside tasklet code is told, so no lock of the
   * device is ever held by it. One still there a grace period later is in code that was not
   * instrumented: on a JDK that still has it, {@code Thread.stop} ends it.
   */
  private void forceStop(Execution exec) {
    for (Thread t : threadsInTasklet(exec)) {
      LOG.warn("{}: stopping lane thread {} of execution {} (tasklet {} does not return)", name, t.getName(),
          exec.id(), exec.tasklet().className());
      OpMeter.requestStop(t);
    }
    watchdog.schedule(() -> stopByForce(exec, 1), STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void stopByForce(Execution exec, int attempt) {
    for (Thread t : threadsInTasklet(exec)) {
      if (SharedClassInitialization.initializing(t)
          && attempt * STOP_GRACE_MILLIS < TimeUnit.NANOSECONDS.toMillis(SharedClassInitialization.MAX_DEFERRAL_NANOS)) {
        // Stopped by force inside a shared class's initializer, the class would stay broken for every
        // tasklet after it: the initializer finishes first (its thread was told to stop, and stops after it).
        watchdog.schedule(() -> stopByForce(exec, attempt + 1), STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        return;
      }
    }
    for (Thread t : threadsInTasklet(exec)) {
      stopThread(exec, t);
    }
  }

  @SuppressWarnings({"deprecation", "removal"})
  private void stopThread(Execution exec, Thread t) {
    try {
      t.stop();
      LOG.warn("{}: lane thread {} of execution {} was in code that could not be told to stop; stopped by force",
          name, t.getName(), exec.id());
    } catch (UnsupportedOperationException e) {
      LOG.error("{}: lane thread {} of execution {} (tasklet {}) is in code that cannot be stopped on this JDK "
          + "and keeps its core", name, t.getName(), exec.id(), exec.tasklet().className());
    }
  }

  /** The execution's lane threads that are alive and inside tasklet code. */
  private List<Thread> threadsInTasklet(Execution exec) {
    List<LaneWorker> crew = workers.get(exec.id());
    List<Thread> in = new ArrayList<>();
    if (crew == null) {
      return in;
    }
    List<Thread> threads = exec.threads();
    for (int i = 0; i < threads.size(); i++) {
      Thread t = threads.get(i);
      if (t.isAlive() && crew.get(i).inTasklet) {
        in.add(t);
      }
    }
    return in;
  }

  /** Analyses attached to data as it is written: what the host interface tells of writes. */
  public ActiveAnalysis active() {
    return active;
  }

  /** Executions the engine holds (running, or ended with results not yet read). */
  public int executionCount() {
    return executions.size();
  }

  @Override
  public void close() {
    active.close();
    // Every execution whose lanes still run, also those the host has read to their end (a cancelled one
    // whose tasklet loops is forgotten before its lanes stop), and those that have not ended.
    java.util.Set<Execution> running = new java.util.LinkedHashSet<>(executions.values());
    for (List<LaneWorker> crew : workers.values()) {
      running.add(crew.get(0).execution());
    }
    for (Execution exec : running) {
      exec.cancel();
      for (Thread t : exec.threads()) {
        t.interrupt();
      }
      for (Thread t : threadsInTasklet(exec)) {
        OpMeter.requestStop(t); // the device is going: no grace period
      }
    }
    for (Execution exec : running) {
      for (Thread t : exec.threads()) {
        try {
          t.join(STOP_GRACE_MILLIS * 2);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    for (Execution exec : running) {
      // What instrumented code could not end; never inside a shared class's initializer, which would stay
      // broken for the JVM's other users of the class (the lane was told to stop, and stops after it).
      for (Thread t : threadsInTasklet(exec)) {
        if (!SharedClassInitialization.initializing(t)) {
          stopThread(exec, t);
        }
      }
    }
    watchdog.shutdownNow();
    // Never interrupted: an interrupt inside a file channel's write would close the store's files.
    outputWriter.shutdown();
    try {
      if (!outputWriter.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("{}: executions' output objects still being written after 10 s; the device closes anyway", name);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
