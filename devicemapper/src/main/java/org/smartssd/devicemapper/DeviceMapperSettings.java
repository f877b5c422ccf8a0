package org.smartssd.devicemapper;

import static org.smartssd.devicemapper.DeviceMapperConfigKeys.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.smartssd.device.client.ExecutionPoller.PollingPolicy;

/**
 * The device mapper's settings: every {@code smartssd.mapper.*} key read once, here, and checked,
 * so that a bad value fails with the key's name.
 *
 * @param merge "" (the device's own setting), "host" or "device"
 * @param sharedPackages package prefixes (ending with '.') whose classes the device provides
 * @param profileDir where each split's execution writes its profile, or empty for none
 */
record DeviceMapperSettings(
    Placement placement,
    Fallback fallback,
    int bufferRecords,
    int bufferBytes,
    int resultBatchBytes,
    String merge,
    PollingPolicy polling,
    long holdResultBytes,
    Duration busyTimeout,
    List<String> sharedPackages,
    boolean outputInDevice,
    String profileDir) {

  /** {@value DeviceMapperConfigKeys#PLACEMENT}. */
  enum Placement {
    DEVICE,
    HOST,
    AUTO
  }

  /** {@value DeviceMapperConfigKeys#FALLBACK}. */
  enum Fallback {
    AUTO,
    ALWAYS,
    NEVER
  }

  static DeviceMapperSettings from(Configuration conf) {
    Duration minPause = duration(conf, POLL_MIN_PAUSE, POLL_MIN_PAUSE_DEFAULT);
    Duration maxPause = duration(conf, POLL_MAX_PAUSE, POLL_MAX_PAUSE_DEFAULT);
    if (maxPause.compareTo(minPause) < 0) {
      throw new IllegalArgumentException(POLL_MAX_PAUSE + " (" + maxPause.toMillis() + " ms) must be at least "
          + POLL_MIN_PAUSE + " (" + minPause.toMillis() + " ms)");
    }
    return new DeviceMapperSettings(
        placement(conf.getTrimmed(PLACEMENT, PLACEMENT_DEFAULT)),
        fallback(conf.getTrimmed(FALLBACK, FALLBACK_DEFAULT)),
        (int) between(BUFFER_RECORDS, conf.getLong(BUFFER_RECORDS, BUFFER_RECORDS_DEFAULT), 1, Integer.MAX_VALUE),
        (int) between(BUFFER_BYTES, conf.getLongBytes(BUFFER_BYTES, BUFFER_BYTES_DEFAULT), 1, 1L << 30),
        (int) between(RESULT_BATCH_BYTES, conf.getLongBytes(RESULT_BATCH_BYTES, RESULT_BATCH_BYTES_DEFAULT), 1,
            16L << 20),
        merge(conf.getTrimmed(MERGE, MERGE_DEFAULT)),
        new PollingPolicy(minPause, maxPause, (int) between(POLL_MAX_RESULT_BYTES,
            conf.getLongBytes(POLL_MAX_RESULT_BYTES, POLL_MAX_RESULT_BYTES_DEFAULT), 1, Integer.MAX_VALUE)),
        between(HOLD_RESULT_BYTES, conf.getLongBytes(HOLD_RESULT_BYTES, HOLD_RESULT_BYTES_DEFAULT), 0,
            Long.MAX_VALUE),
        duration(conf, BUSY_TIMEOUT, BUSY_TIMEOUT_DEFAULT),
        prefixes(conf.getTrimmedStrings(SHARED_PACKAGES, SHARED_PACKAGES_DEFAULT.split(","))),
        bool(conf, OUTPUT_IN_DEVICE, OUTPUT_IN_DEVICE_DEFAULT),
        conf.getTrimmed(PROFILE_DIR, PROFILE_DIR_DEFAULT));
  }

  private static boolean bool(Configuration conf, String key, boolean fallback) {
    String value = conf.getTrimmed(key, Boolean.toString(fallback));
    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(key + " must be true or false, was '" + value + "'");
    }
    return Boolean.parseBoolean(value);
  }

  /** The job's own mapper, remembered by {@link DeviceJobClient#configure}. */
  @SuppressWarnings("rawtypes")
  static Class<? extends Mapper> realMapper(Configuration conf) {
    return required(conf, REAL_MAPPER_CLASS, Mapper.class);
  }

  /** The job's own input format, remembered by {@link DeviceJobClient#configure}. */
  @SuppressWarnings("rawtypes")
  static Class<? extends InputFormat> realInputFormat(Configuration conf) {
    return required(conf, REAL_INPUT_FORMAT_CLASS, InputFormat.class);
  }

  /** The job's combiner, or null for none. */
  @SuppressWarnings("rawtypes")
  static Class<? extends Reducer> realCombiner(Configuration conf) {
    return conf.getClass(REAL_COMBINER_CLASS, null, Reducer.class);
  }

  private static <T> Class<? extends T> required(Configuration conf, String key, Class<T> type) {
    if (conf.get(key) == null) {
      throw new IllegalStateException(key + " is not set: the job was not configured with "
          + DeviceJobClient.class.getName() + ".configure(job)");
    }
    return conf.getClass(key, null, type);
  }

  private static Placement placement(String value) {
    try {
      return Placement.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(PLACEMENT + " must be device, host or auto, was '" + value + "'");
    }
  }

  /** Where configure placed the map phase: device unless it chose host ({@value DeviceMapperConfigKeys#PLACEMENT_CHOSEN}). */
  static boolean placedOnHost(Configuration conf) {
    return "host".equals(conf.getTrimmed(PLACEMENT_CHOSEN, "device"));
  }

  private static Fallback fallback(String value) {
    try {
      return Fallback.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(FALLBACK + " must be auto, always or never, was '" + value + "'");
    }
  }

  private static String merge(String value) {
    if (!value.isEmpty() && !value.equals("host") && !value.equals("device")) {
      throw new IllegalArgumentException(MERGE + " must be empty, host or device, was '" + value + "'");
    }
    return value;
  }

  private static List<String> prefixes(String[] values) {
    List<String> prefixes = new ArrayList<>();
    for (String v : values) {
      if (!v.isEmpty()) {
        prefixes.add(v.endsWith(".") ? v : v + ".");
      }
    }
    return List.copyOf(prefixes);
  }

  private static Duration duration(Configuration conf, String key, String defaultValue) {
    long millis;
    try {
      millis = conf.getTimeDuration(key, defaultValue, TimeUnit.MILLISECONDS);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a duration such as 50ms or 5s, was '" + conf.get(key) + "'");
    }
    if (millis <= 0) {
      throw new IllegalArgumentException(key + " must be positive, was '" + conf.get(key) + "'");
    }
    return Duration.ofMillis(millis);
  }

  private static long between(String key, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(key + " must be between " + min + " and " + max + ", was " + value);
    }
    return value;
  }
}
