package org.smartssd.devicemapper.tasklet;

import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.MapContext;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * What runs a job written against the old {@code org.apache.hadoop.mapred} API through the new one
 * ({@link OldApiMapper}, {@link OldApiCombiner}): the keys naming its mapper and combiner, and its
 * {@code OutputCollector} and {@code Reporter} over a new-API context, so that what it writes and
 * counts is the task's (in the device, the lane's).
 */
public final class OldApi {
  /** The job's old-API mapper ({@code org.apache.hadoop.mapred.Mapper}), set by {@code DeviceJobClient.configure(JobConf)}. */
  public static final String MAPPER_CLASS = "smartssd.mapper.real.old-mapper.class";
  /** The job's old-API combiner ({@code org.apache.hadoop.mapred.Reducer}), or unset for none. */
  public static final String COMBINER_CLASS = "smartssd.mapper.real.old-combiner.class";
  /** The job's old-API input format ({@code org.apache.hadoop.mapred.InputFormat}). */
  public static final String INPUT_FORMAT_CLASS = "smartssd.mapper.real.old-input-format.class";

  private OldApi() {}

  /** What the old API's code collects goes to the context. */
  static <K, V> OutputCollector<K, V> collector(TaskInputOutputContext<?, ?, K, V> context) {
    return (key, value) -> {
      try {
        context.write(key, value);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while writing " + key);
      }
    };
  }

  /** The old API's reporter over the context: its counters are the context's. */
  static Reporter reporter(TaskInputOutputContext<?, ?, ?, ?> context) {
    return new Reporter() {
      @Override
      public void progress() {
        context.progress();
      }

      @Override
      public void setStatus(String status) {
        context.setStatus(status);
      }

      @Override
      public Counters.Counter getCounter(Enum<?> name) {
        return new LiveCounter(context.getCounter(name));
      }

      @Override
      public Counters.Counter getCounter(String group, String name) {
        return new LiveCounter(context.getCounter(group, name));
      }

      @Override
      public void incrCounter(Enum<?> key, long amount) {
        context.getCounter(key).increment(amount);
      }

      @Override
      public void incrCounter(String group, String counter, long amount) {
        context.getCounter(group, counter).increment(amount);
      }

      /** The map's split, as the old API's {@code FileSplit} (a combiner's context has none: Hadoop's reduce side throws too). */
      @Override
      public InputSplit getInputSplit() {
        if (context instanceof MapContext<?, ?, ?, ?> map && map.getInputSplit() instanceof FileSplit f) {
          String[] hosts;
          try {
            hosts = f.getLocations();
          } catch (java.io.IOException e) {
            hosts = new String[0];
          }
          return new org.apache.hadoop.mapred.FileSplit(f.getPath(), f.getStart(), f.getLength(), hosts);
        }
        throw new UnsupportedOperationException("an input split is known only to a map, not to "
            + context.getClass().getSimpleName());
      }

      @Override
      public float getProgress() {
        return 0;
      }
    };
  }

  /** The old API's counter over the context's: what the job's code counts is the task's. */
  private static final class LiveCounter extends Counters.Counter {
    private final org.apache.hadoop.mapreduce.Counter counter;

    LiveCounter(org.apache.hadoop.mapreduce.Counter counter) {
      this.counter = counter;
    }

    @Override
    public String getName() {
      return counter.getName();
    }

    @Override
    public String getDisplayName() {
      return counter.getDisplayName();
    }

    @Override
    public void setDisplayName(String displayName) {
      counter.setDisplayName(displayName);
    }

    @Override
    public long getValue() {
      return counter.getValue();
    }

    @Override
    public long getCounter() {
      return counter.getValue();
    }

    @Override
    public void setValue(long value) {
      counter.setValue(value);
    }

    @Override
    public void increment(long incr) {
      counter.increment(incr);
    }

    @Override
    public org.apache.hadoop.mapreduce.Counter getUnderlyingCounter() {
      return counter;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof LiveCounter other && other.counter.equals(counter);
    }

    @Override
    public int hashCode() {
      return counter.hashCode();
    }
  }
}
