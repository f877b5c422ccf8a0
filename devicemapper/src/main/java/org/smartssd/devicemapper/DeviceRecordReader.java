package org.smartssd.devicemapper;

import org.smartssd.devicemapper.wire.InputSpec;
import org.smartssd.devicemapper.wire.ResultCodec;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceException;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.devicemapper.tasklet.MapReduceTasklet;
import org.smartssd.device.client.PausePolicy;
import org.smartssd.device.client.TransferCounts;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.objectfs.DeviceClients;
import org.smartssd.objectfs.ObjectFileSystem;

/**
 * The proxy map task's record reader. In device mode it installs the job's mapper and combiner in
 * the split's device as a tasklet (CREATE_OBJECT with the jar of {@link TaskletJarBuilder}),
 * executes it over the split's byte range (EXECUTE_OBJECT, asked again while the device is BUSY),
 * polls READ_OBJECT through an {@link ExecutionPoller} one poll at a time, so that results reach
 * the mapper while the device works, pausing after an empty poll as {@link PausePolicy#byProgress}
 * says, and returns the partial (key, value) pairs decoded with the job's serialization of the map
 * output classes. The tasklet is removed as soon as its execution has started.
 *
 * <p>When the device cannot run the split's map (the input is not on a device or is compressed other
 * than with gzip, the
 * job's mapper or input format is not one the device can run, the device is unreachable, refuses
 * the tasklet, or fails the execution before any result reached the mapper) and {@code
 * smartssd.mapper.fallback} is {@code auto}, or always with {@code always}, it reads the split's raw
 * records through the file system with the job's own input format instead, marks the split so that
 * {@link DeviceMapper} runs the job's own mapper over them, and counts a fallback. With {@code
 * never}, the task fails with a message naming the device. Results are held back until the
 * execution is done, up to {@code smartssd.mapper.hold-result-bytes}, so that a device failing
 * midway can still fall back; past it a failure fails the task.
 *
 * <p>The host-interface counters are what the client's transport counted going out and coming in
 * around each command: the reader opens its own connection (not objfs's pooled ones), so nothing
 * else moves those counts.
 */
final class DeviceRecordReader extends RecordReader<Object, Object> {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceRecordReader.class);
  private static final int HOST_ACCOUNTING_RECORDS = 4096;

  /** The device cannot run this split's map; the message says which device and why. */
  private static final class DeviceUnavailable extends Exception {
    private static final long serialVersionUID = 1L;

    DeviceUnavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private TaskAttemptContext context;
  private Configuration conf;
  private DeviceSplit split;
  private DeviceMapperSettings settings;

  // ---- host mode ----
  private RecordReader<Object, Object> hostReader;
  private String hostScheme;
  private long hostBytesAccounted;
  private int hostRecordsSinceAccounting;

  // ---- device mode ----
  private DeviceClient client;
  private String device = "(none)";
  private long taskletId = -1;
  private long executionId = -1;
  private ExecutionPoller poller;
  private boolean finished;
  private ExecutionStatistics statistics;
  private final ArrayDeque<TaskletResult> pending = new ArrayDeque<>();
  private long pendingBytes;
  private final List<ResultCodec.CounterValue> deviceCounters = new ArrayList<>();
  private ResultCodec.PairCursor cursor;
  /** Whether the device takes the split apart as a stream (compressed, or a SequenceFile): the tasklet cuts its records. */
  private boolean streamInput;
  private byte[] record = new byte[0];
  private Deserializer<Object> keyDeserializer;
  private Deserializer<Object> valueDeserializer;
  private final DataInputBuffer keyIn = new DataInputBuffer();
  private final DataInputBuffer valueIn = new DataInputBuffer();
  private Object key;
  private Object value;

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext taskContext)
      throws IOException, InterruptedException {
    if (!(genericSplit instanceof DeviceSplit)) {
      throw new IOException("split " + genericSplit + " is not a " + DeviceSplit.class.getSimpleName());
    }
    this.context = taskContext;
    this.conf = taskContext.getConfiguration();
    this.split = (DeviceSplit) genericSplit;
    this.settings = DeviceMapperSettings.from(conf);
    boolean onHost = DeviceMapperSettings.placedOnHost(conf);
    if (taskContext.getTaskAttemptID().getTaskID().getId() == 0) {
      reportPlacement(onHost);
    }
    if (onHost) {
      split.markRanOnHost();
      count(DeviceCounters.HOST_PLACED_SPLITS, 1);
      readOnHost();
      return;
    }
    if (settings.fallback() == DeviceMapperSettings.Fallback.ALWAYS) {
      runOnHost();
      return;
    }
    try {
      runOnDevice();
    } catch (DeviceUnavailable e) {
      closeDevice();
      if (settings.fallback() == DeviceMapperSettings.Fallback.NEVER) {
        throw new IOException(e.getMessage() + "; " + DeviceMapperConfigKeys.FALLBACK
            + " is never, so the task fails", e.getCause());
      }
      LOG.warn("{}; the split's map runs on the host", e.getMessage());
      runOnHost();
    }
  }

  // ---- device mode ----

  private void runOnDevice() throws DeviceUnavailable, IOException, InterruptedException {
    URI uri = split.getPath().toUri();
    if (!ObjectFileSystem.SCHEME.equals(uri.getScheme())) {
      throw new DeviceUnavailable("split " + describe() + " is not on a device (" + ObjectFileSystem.SCHEME
          + "://HOST:PORT/path)", null);
    }
    DeviceAddress address;
    try {
      address = DeviceClients.deviceAddress(uri);
    } catch (IOException e) {
      throw new DeviceUnavailable("split " + describe() + " names no device: " + e.getMessage(), e);
    }
    device = address.toString();
    TaskletJarBuilder.Tasklet tasklet;
    try {
      tasklet = TaskletJarBuilder.build(conf, settings, split, context.getTaskAttemptID());
      streamInput = tasklet.input().compression() != InputSpec.Compression.NONE
          || tasklet.input().kind() == InputSpec.Kind.SEQUENCE;
    } catch (UnsupportedJobException e) {
      throw unavailable(e.getMessage(), e);
    } catch (IOException e) {
      throw unavailable("the tasklet's jar could not be built: " + e, e);
    }
    try {
      client = DeviceClients.connectClient(conf, address);
    } catch (IOException e) {
      throw unavailable("cannot be reached: " + e.getMessage(), e);
    }
    try {
      taskletId = counted(DeviceCounters.TASKLET_INSTALL_BYTES, () -> client.installTasklet(
          ByteBuffer.wrap(tasklet.jar()), tasklet.className(), tasklet.parameters())).taskletId();
    } catch (IOException e) {
      throw unavailable("refused the tasklet: " + e.getMessage(), e);
    }
    List<InputRange> inputs = List.of(new InputRange(uri.getPath(), split.getStart(), split.getLength()));
    Map<String, String> options = new java.util.HashMap<>();
    if (!settings.merge().isEmpty()) {
      options.put("merge", settings.merge());
    }
    DeviceOutputFormat.Target output = outputTarget(address);
    if (output != null) {
      options.put(MapReduceTasklet.OUTPUT_FORMAT, MapReduceTasklet.OUTPUT_TEXT);
    }
    if (!settings.profileDir().isEmpty()) {
      if (client.protocolVersion() < org.smartssd.device.protocol.ProtocolConstants.PROFILE_VERSION) {
        LOG.warn("device {} speaks protocol version {}, before profiles: split {} is not profiled ({})", device,
            client.protocolVersion(), describe(), DeviceMapperConfigKeys.PROFILE_DIR);
      } else {
        options.put("profile", "true");
      }
    }
    executionId = execute(inputs, options, output);
    removeTasklet(); // the execution goes on; nothing is left installed if this task dies
    poller = new ExecutionPoller(client, executionId, settings.polling().maxBytes(),
        PausePolicy.byProgress(settings.polling().min(), settings.polling().max(), split.getLength()));
    openDeserializers();
    // Hold the results back until the execution is done (or too many wait): until one reaches the
    // mapper, a failing device can still leave the split to the host.
    while (!finished && pendingBytes <= settings.holdResultBytes()) {
      Response.ExecutionProgress progress;
      try {
        progress = poll();
      } catch (InterruptedIOException e) {
        throw e;
      } catch (IOException e) {
        throw unavailable("failed while running the map: " + e.getMessage(), e);
      }
      if (progress.finished() && progress.state() != ExecutionState.DONE) {
        throw unavailable(ended(progress), null);
      }
    }
  }

  /**
   * Where the device writes this task's output file itself, or null when its records come to the host:
   * the job's output is not the devices' to write, the file is on another device, or the device speaks
   * no output objects (a protocol before version 5: said once in the log).
   */
  private DeviceOutputFormat.Target outputTarget(DeviceAddress address) throws DeviceUnavailable {
    DeviceOutputFormat.Target target;
    try {
      target = DeviceOutputFormat.target(context, address);
    } catch (IOException e) {
      throw unavailable("cannot name the task's output file: " + e.getMessage(), e);
    }
    if (target != null && client.protocolVersion() < org.smartssd.device.protocol.ProtocolConstants.OUTPUT_VERSION) {
      LOG.warn("device {} speaks protocol version {}, before output objects: split {}'s output crosses the host link"
          + " to be written by the host", device, client.protocolVersion(), describe());
      return null;
    }
    return target;
  }

  /** EXECUTE_OBJECT, asked again while the device is BUSY, pausing as for empty polls, up to the busy timeout. */
  private long execute(List<InputRange> inputs, Map<String, String> options, DeviceOutputFormat.Target output)
      throws DeviceUnavailable, InterruptedIOException {
    PausePolicy busy = PausePolicy.bounded(settings.polling().pauses(), settings.busyTimeout());
    try {
      return counted(DeviceCounters.HOST_INTERFACE_BYTES,
          () -> ExecutionPoller.start(client, taskletId, inputs, options, output == null ? "" : output.devicePath(),
              output == null ? 0 : output.permission(), busy));
    } catch (DeviceException.Busy e) {
      throw unavailable("stayed busy for " + settings.busyTimeout().toMillis() + " ms ("
          + DeviceMapperConfigKeys.BUSY_TIMEOUT + "): " + e.getMessage(), e);
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      throw unavailable("could not start the execution: " + e.getMessage(), e);
    }
  }

  /** One turn of the poller: a READ_OBJECT and, after one that brought nothing, a pause. */
  private Response.ExecutionProgress poll() throws IOException {
    context.progress();
    Response.ExecutionProgress progress = counted(DeviceCounters.HOST_INTERFACE_BYTES, poller::poll);
    statistics = progress.statistics();
    for (TaskletResult r : progress.results()) {
      ByteBuffer data = r.data();
      if (data.hasRemaining() && data.get(data.position()) == ResultCodec.COUNTERS) {
        byte[] bytes = new byte[data.remaining()];
        data.duplicate().get(bytes);
        deviceCounters.addAll(ResultCodec.readCounters(bytes, 0, bytes.length));
      } else {
        pending.add(r);
        pendingBytes += data.remaining();
      }
    }
    if (progress.finished()) {
      finished = true;
      if (progress.state() == ExecutionState.DONE) {
        done(progress.statistics());
        if (progress.profile() != null) {
          writeProfile(progress.profile());
        }
      }
    }
    return progress;
  }

  /** Writes the execution's profile into the profile directory, a file per task attempt. */
  private void writeProfile(org.smartssd.device.WorkProfile profile) {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(settings.profileDir(),
        context.getTaskAttemptID() + org.smartssd.devicemapper.DeviceJobClient.PROFILE_SUFFIX);
    try (org.apache.hadoop.fs.FSDataOutputStream out = file.getFileSystem(conf).create(file, true)) {
      out.write(profile.toBytes());
    } catch (IOException e) {
      // The map's results are whole: only its profile is missing (DEVICE_PROFILES says how many were written).
      LOG.warn("split {}: its profile could not be written to {}: {}", describe(), file, e.toString());
      return;
    }
    count(DeviceCounters.DEVICE_PROFILES, 1);
  }

  /** A command of the device client's. */
  private interface Command<T> {
    T run() throws IOException;
  }

  /** Runs a command and adds the bytes that crossed meanwhile, both ways, to the counter (whether it failed or not). */
  private <T> T counted(DeviceCounters counter, Command<T> command) throws IOException {
    TransferCounts before = client.transferCounts();
    try {
      return command.run();
    } finally {
      count(counter, client.transferCounts().since(before).total());
    }
  }

  /** The execution is done and every result is in: the counters. */
  private void done(ExecutionStatistics s) {
    count(DeviceCounters.DEVICE_EXECUTIONS, 1);
    count(DeviceCounters.DEVICE_BYTES_SCANNED, s.bytesScanned());
    count(DeviceCounters.MODELLED_DEVICE_NANOS, s.modelledNanos());
    count(DeviceCounters.MODELLED_DEVICE_COMPUTE_NANOS, s.modelledComputeNanos() + s.modelledMergeNanos());
    count(DeviceCounters.DEVICE_COUNTED_OPS, s.countedOps());
    count(DeviceCounters.DEVICE_COUNTED_MEMORY_ACCESSES, s.countedMemoryAccesses());
    count(DeviceCounters.DEVICE_COUNTED_LIBRARY_CALLS, s.countedLibraryCalls());
    count(DeviceCounters.DEVICE_COUNTED_BULK_BYTES, s.countedBulkBytes());
    count(DeviceCounters.DEVICE_COUNTED_TAIL_OPS, s.countedTailOps());
    count(DeviceCounters.DEVICE_COUNTED_TAIL_MEMORY_ACCESSES, s.countedTailMemoryAccesses());
    count(DeviceCounters.DEVICE_COUNTED_TAIL_LIBRARY_CALLS, s.countedTailLibraryCalls());
    count(DeviceCounters.DEVICE_COUNTED_TAIL_BULK_BYTES, s.countedTailBulkBytes());
    count(DeviceCounters.DEVICE_COUNTED_LIBRARY_READS, s.countedLibraryReads());
    count(DeviceCounters.DEVICE_COUNTED_TAIL_LIBRARY_READS, s.countedTailLibraryReads());
    count(DeviceCounters.DEVICE_RESULT_BYTES, s.resultBytes());
    count(DeviceCounters.DEVICE_OUTPUT_BYTES, s.outputBytes());
    count(DeviceCounters.DEVICE_OUTPUT_PAGES, s.pagesProgrammed());
    count(DeviceCounters.DEVICE_LANE_STATE_BYTES, s.laneStateBytes());
    count(DeviceCounters.DEVICE_SWAP_PAGES_READ, s.swapPagesRead());
    count(DeviceCounters.DEVICE_LANES, s.lanes());
    count(DeviceCounters.MODELLED_HOST_DELAY_NANOS, s.modelledHostDelayNanos());
    count(DeviceCounters.BEHIND_MODEL_NANOS, s.behindModelNanos());
    for (ResultCodec.CounterValue c : deviceCounters) {
      context.getCounter(c.group(), c.name()).increment(c.value());
    }
    LOG.info("device {} ran the map of {}: {} bytes scanned, {}, {} result bytes in {} records, {} lanes,"
        + " wall {} ms, lane CPU {} ms, modelled {} ms (read {} ms, compute {} ms on {} cores, {} counted ops,"
        + " transfer {} ms, delayed {} ms by host operations){}", device, describe(), s.bytesScanned(),
        streamInput ? "a stream (its records cut by the tasklet)" : s.records() + " records",
        s.resultBytes(), s.resultRecords(), s.lanes(), s.wallNanos() / 1_000_000, s.laneCpuNanos() / 1_000_000,
        s.modelledNanos() / 1_000_000, s.modelledReadNanos() / 1_000_000, s.modelledComputeNanos() / 1_000_000,
        s.lanes(), s.countedOps(), s.modelledTransferNanos() / 1_000_000, s.modelledHostDelayNanos() / 1_000_000,
        (s.behindModelNanos() > 0 ? "; paced, " + s.behindModelNanos() / 1_000_000 + " ms behind the model" : "")
        + (s.swapPagesRead() > 0 ? "; a lane held " + s.laneStateBytes() + " bytes, more than its memory: "
            + s.swapPagesRead() + " pages read again to swap" : ""));
  }

  @SuppressWarnings("unchecked")
  private void openDeserializers() throws IOException {
    SerializationFactory serializations = new SerializationFactory(conf);
    keyDeserializer = (Deserializer<Object>) serializations.getDeserializer(context.getMapOutputKeyClass());
    valueDeserializer = (Deserializer<Object>) serializations.getDeserializer(context.getMapOutputValueClass());
    if (keyDeserializer == null || valueDeserializer == null) {
      throw new IOException("no serialization in io.serializations for the map output classes "
          + context.getMapOutputKeyClass().getName() + " and " + context.getMapOutputValueClass().getName());
    }
    keyDeserializer.open(keyIn);
    valueDeserializer.open(valueIn);
  }

  private boolean nextFromDevice() throws IOException {
    while (true) {
      if (cursor != null) {
        if (cursor.next()) {
          keyIn.reset(cursor.data(), cursor.keyOffset, cursor.keyLength);
          key = keyDeserializer.deserialize(key);
          valueIn.reset(cursor.data(), cursor.valueOffset, cursor.valueLength);
          value = valueDeserializer.deserialize(value);
          return true;
        }
        cursor = null;
      }
      TaskletResult next = pending.poll();
      if (next != null) {
        ByteBuffer data = next.data();
        int n = data.remaining();
        pendingBytes -= n;
        if (record.length < n) {
          record = new byte[Math.max(n, record.length * 2)];
        }
        data.duplicate().get(record, 0, n);
        cursor = new ResultCodec.PairCursor(record, 0, n);
        continue;
      }
      if (finished) {
        return false;
      }
      Response.ExecutionProgress progress = poll();
      if (progress.finished() && progress.state() != ExecutionState.DONE) {
        throw new IOException("device " + device + " ran the map of " + describe() + " but "
            + ended(progress) + ", after part of its results had gone to the shuffle (more than "
            + DeviceMapperConfigKeys.HOLD_RESULT_BYTES + "), so the split cannot fall back to the host");
      }
    }
  }

  private void removeTasklet() {
    if (taskletId < 0) {
      return;
    }
    long id = taskletId;
    taskletId = -1;
    try {
      counted(DeviceCounters.HOST_INTERFACE_BYTES, () -> {
        client.removeObject(id);
        return null;
      });
    } catch (IOException e) {
      LOG.debug("removing tasklet {} from device {}: {}", id, device, e.toString());
    }
  }

  /** Stops what runs on the device for this split, if anything, and disconnects. */
  private void closeDevice() {
    if (client == null) {
      return;
    }
    try {
      if (executionId >= 0 && !finished) {
        counted(DeviceCounters.HOST_INTERFACE_BYTES, () -> {
          client.cancel(executionId);
          // One more poll collects the cancelled state, so that the device can forget the execution.
          return client.readObject(executionId, 1);
        });
      }
    } catch (IOException e) {
      LOG.debug("cancelling execution {} on device {}: {}", executionId, device, e.toString());
    } finally {
      removeTasklet();
      try {
        client.close();
      } catch (IOException e) {
        LOG.debug("closing the connection to device {}: {}", device, e.toString());
      }
      client = null;
      executionId = -1;
      poller = null;
      finished = false;
      pending.clear();
      pendingBytes = 0;
      deviceCounters.clear();
      cursor = null;
    }
  }

  private static String ended(Response.ExecutionProgress progress) {
    return "the execution " + (progress.state() == ExecutionState.CANCELLED ? "was cancelled" : "failed") + ": "
        + progress.message();
  }

  private DeviceUnavailable unavailable(String reason, Throwable cause) {
    return new DeviceUnavailable("device " + device + " cannot run the map of " + describe() + mapperNamed() + ": "
        + reason, cause);
  }

  /** The job's mapper, which the device's failure messages name only as the MapReduce tasklet it runs in. */
  private String mapperNamed() {
    String mapper = conf == null ? null : conf.get(DeviceMapperConfigKeys.REAL_MAPPER_CLASS);
    return mapper == null ? "" : " (the job's mapper " + mapper + ")";
  }

  private String describe() {
    return split.getPath() + " [" + split.getStart() + ", +" + split.getLength() + ")";
  }

  // ---- host mode ----

  /** The job's placement, once for the job (map task 0): where its map phase runs, and auto's predictions. */
  private void reportPlacement(boolean onHost) {
    count(onHost ? DeviceCounters.PLACEMENT_HOST : DeviceCounters.PLACEMENT_DEVICE, 1);
    String device = conf.get(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_DEVICE_S);
    String host = conf.get(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_HOST_S);
    if (device != null && host != null) {
      count(DeviceCounters.PREDICTED_DEVICE_NANOS, Math.round(Double.parseDouble(device) * 1e9));
      count(DeviceCounters.PREDICTED_HOST_NANOS, Math.round(Double.parseDouble(host) * 1e9));
    }
  }

  private void runOnHost() throws IOException, InterruptedException {
    split.markRanOnHost();
    count(DeviceCounters.FALLBACK_SPLITS, 1);
    readOnHost();
  }

  /** The split's raw records through the job's own input format, for its own mapper on the host. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private void readOnHost() throws IOException, InterruptedException {
    InputFormat real = ReflectionUtils.newInstance(DeviceMapperSettings.realInputFormat(conf), conf);
    hostScheme = split.getPath().toUri().getScheme();
    hostBytesAccounted = bytesRead(hostScheme);
    hostReader = real.createRecordReader(split, context);
    hostReader.initialize(split, context);
  }

  /** Bytes this thread has read through file systems of {@code scheme}, as Hadoop's task counters count them. */
  @SuppressWarnings("deprecation")
  private static long bytesRead(String scheme) {
    long bytes = 0;
    for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
      if (s.getScheme().equals(scheme)) {
        bytes += s.getThreadStatistics().getBytesRead();
      }
    }
    return bytes;
  }

  private void accountHostBytes() {
    long now = bytesRead(hostScheme);
    count(DeviceCounters.HOST_INTERFACE_BYTES, now - hostBytesAccounted);
    hostBytesAccounted = now;
    hostRecordsSinceAccounting = 0;
  }

  // ---- RecordReader ----

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    if (hostReader == null) {
      return nextFromDevice();
    }
    boolean more = hostReader.nextKeyValue();
    if (!more || ++hostRecordsSinceAccounting >= HOST_ACCOUNTING_RECORDS) {
      accountHostBytes();
    }
    return more;
  }

  @Override
  public Object getCurrentKey() throws IOException, InterruptedException {
    return hostReader == null ? key : hostReader.getCurrentKey();
  }

  @Override
  public Object getCurrentValue() throws IOException, InterruptedException {
    return hostReader == null ? value : hostReader.getCurrentValue();
  }

  @Override
  public float getProgress() throws IOException, InterruptedException {
    if (hostReader != null) {
      return hostReader.getProgress();
    }
    if (finished && pending.isEmpty() && cursor == null) {
      return 1;
    }
    if (statistics == null || split.getLength() == 0) {
      return 0;
    }
    return Math.min(1f, (float) statistics.bytesScanned() / split.getLength());
  }

  @Override
  public void close() throws IOException {
    try {
      if (hostReader != null) {
        accountHostBytes();
        hostReader.close();
      }
    } finally {
      closeDevice();
    }
  }

  private void count(DeviceCounters counter, long amount) {
    if (amount != 0) {
      context.getCounter(counter).increment(amount);
    }
  }
}
