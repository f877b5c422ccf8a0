package org.smartssd.devicemapper;

/**
 * Every configuration key of the device mapper, each beside its default. The keys are read in one
 * place, {@link DeviceMapperSettings}. Durations accept Hadoop's time suffixes ({@code 500ms},
 * {@code 5s}); sizes accept its byte suffixes ({@code 64k}, {@code 4m}). CONFIG.md has the table.
 */
public final class DeviceMapperConfigKeys {
  private DeviceMapperConfigKeys() {}

  public static final String PREFIX = "smartssd.mapper.";

  /**
   * What to do when a device cannot run a split's map: {@code auto} runs it on the host when the
   * device refuses or fails the tasklet; {@code always} runs every split on the host (for
   * comparison and tests); {@code never} fails the task, naming the device.
   */
  public static final String FALLBACK = "smartssd.mapper.fallback";
  public static final String FALLBACK_DEFAULT = "auto";

  /** Map output records a lane buffers before it runs the combiner over them (and at the end). */
  public static final String BUFFER_RECORDS = "smartssd.mapper.buffer-records";
  public static final int BUFFER_RECORDS_DEFAULT = 10_000;

  /** Serialized map output bytes a lane buffers before it runs the combiner, whatever the record count. */
  public static final String BUFFER_BYTES = "smartssd.mapper.buffer-bytes";
  public static final long BUFFER_BYTES_DEFAULT = 4L << 20;

  /** Serialized (key, value) pairs a lane packs into one result record before it hands it to the device. */
  public static final String RESULT_BATCH_BYTES = "smartssd.mapper.result-batch-bytes";
  public static final long RESULT_BATCH_BYTES_DEFAULT = 64L << 10;

  /**
   * Whether a map-only job's {@code TextOutputFormat} output is written by the devices, where its map
   * runs, into the task's output file on the same device (true), or crosses the host link for the
   * host to write (false).
   */
  public static final String OUTPUT_IN_DEVICE = "smartssd.mapper.output-in-device";
  public static final boolean OUTPUT_IN_DEVICE_DEFAULT = true;

  /**
   * A directory (any Hadoop file system's path) where each split's device execution writes its counted
   * work by call path ({@code ATTEMPT.profile}, {@code WorkProfile.toBytes}); empty for none. The devices'
   * compute model must be {@code counted}, and they must speak protocol version 7.
   */
  public static final String PROFILE_DIR = "smartssd.mapper.profile-dir";
  public static final String PROFILE_DIR_DEFAULT = "";

  /** Where the lanes' partial results are merged: empty (the device's own setting), host or device. */
  public static final String MERGE = "smartssd.mapper.merge";
  public static final String MERGE_DEFAULT = "";

  /**
   * Where the job's map phase runs: {@code device} (in the devices that hold the input), {@code host}
   * (on the host, as an ordinary job reading through objfs), or {@code auto} (where the analytic model,
   * from the devices' parameters and the job's work measured on a sample in a device, predicts it
   * runs faster).
   */
  public static final String PLACEMENT = "smartssd.mapper.placement";
  public static final String PLACEMENT_DEFAULT = "device";

  /**
   * The shortest pause after a READ_OBJECT that brought nothing; while the time the execution still
   * needs is not known, the pause starts here and doubles.
   */
  public static final String POLL_MIN_PAUSE = "smartssd.mapper.poll.min-pause";
  public static final String POLL_MIN_PAUSE_DEFAULT = "1ms";

  /** The longest pause between two READ_OBJECTs; while the execution's progress is known, half the time it still needs. */
  public static final String POLL_MAX_PAUSE = "smartssd.mapper.poll.max-pause";
  public static final String POLL_MAX_PAUSE_DEFAULT = "500ms";

  /** The result bytes asked for by one READ_OBJECT. */
  public static final String POLL_MAX_RESULT_BYTES = "smartssd.mapper.poll.max-result-bytes";
  public static final long POLL_MAX_RESULT_BYTES_DEFAULT = 4L << 20;

  /**
   * Result bytes the record reader holds back until the execution is done, so that a device failing
   * midway can still fall back to the host; past it, results go on to the shuffle as they come and
   * a later failure of the device fails the task.
   */
  public static final String HOLD_RESULT_BYTES = "smartssd.mapper.hold-result-bytes";
  public static final long HOLD_RESULT_BYTES_DEFAULT = 64L << 20;

  /** How long EXECUTE_OBJECT is retried while the device answers BUSY (it runs all the executions it can). */
  public static final String BUSY_TIMEOUT = "smartssd.mapper.busy-timeout";
  public static final String BUSY_TIMEOUT_DEFAULT = "60s";

  /**
   * Package prefixes the device shares with tasklets besides its tasklet API (its
   * {@code smartssd.device.isp.shared-packages}): their classes are not packed into the tasklet's
   * jar, the device provides them.
   */
  public static final String SHARED_PACKAGES = "smartssd.mapper.shared-packages";
  public static final String SHARED_PACKAGES_DEFAULT = "org.apache.hadoop.,org.smartssd.devicemapper.tasklet.,org.smartssd.devicemapper.wire.";

  // ---- set by DeviceJobClient.configure: the job as it was written ----

  /** The job's own mapper, which the device runs (set by {@link DeviceJobClient#configure}). */
  public static final String REAL_MAPPER_CLASS = "smartssd.mapper.real.mapper.class";

  /** The job's own input format (set by {@link DeviceJobClient#configure}). */
  public static final String REAL_INPUT_FORMAT_CLASS = "smartssd.mapper.real.input-format.class";

  /** The job's combiner, or unset for none (set by {@link DeviceJobClient#configure}). */
  public static final String REAL_COMBINER_CLASS = "smartssd.mapper.real.combiner.class";

  /** The job's own output format, set by {@link DeviceJobClient#configure} when the devices write a map-only job's output. */
  public static final String REAL_OUTPUT_FORMAT_CLASS = "smartssd.mapper.real.output-format.class";

  /** Set by {@code configure(JobConf)}: the old-API job's own mapper, input format and combiner. */
  public static final String REAL_OLD_MAPPER_CLASS = org.smartssd.devicemapper.tasklet.OldApi.MAPPER_CLASS;
  public static final String REAL_OLD_INPUT_FORMAT_CLASS = org.smartssd.devicemapper.tasklet.OldApi.INPUT_FORMAT_CLASS;
  public static final String REAL_OLD_COMBINER_CLASS = org.smartssd.devicemapper.tasklet.OldApi.COMBINER_CLASS;

  /** Where the map phase runs, {@code device} or {@code host}: the placement, or auto's choice (set by configure). */
  public static final String PLACEMENT_CHOSEN = "smartssd.mapper.placement.chosen";

  /** With placement auto, the predicted (modelled) seconds in the devices (set by configure). */
  public static final String PLACEMENT_PREDICTED_DEVICE_S = "smartssd.mapper.placement.predicted-device-s";

  /** With placement auto, the predicted (modelled) seconds on the host (set by configure). */
  public static final String PLACEMENT_PREDICTED_HOST_S = "smartssd.mapper.placement.predicted-host-s";

  /** With placement auto, why it chose as it did (set by configure). */
  public static final String PLACEMENT_REASON = "smartssd.mapper.placement.reason";
}
