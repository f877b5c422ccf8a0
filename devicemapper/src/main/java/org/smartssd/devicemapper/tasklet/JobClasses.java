package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.serializer.WritableSerialization;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The classes a job's configuration names, as the device's MapReduce runtime makes them: the host is
 * not trusted, and Hadoop makes whatever class a configuration names (with its constructor and static
 * initialiser run, by reflection). So each must be the job's own, from the tasklet's jar (whose code
 * the device's sandbox checked), or one of the few of Hadoop's that this runtime knows to be harmless.
 */
final class JobClasses {
  /** Hadoop's combiners a job may name. */
  static final Set<String> LIBRARY_COMBINERS = Set.of(
      "org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer",
      "org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer",
      OldApiCombiner.class.getName());

  /** Hadoop's old-API mapper and combiners a job may name ({@link OldApi}). */
  static final Set<String> LIBRARY_OLD_API = Set.of(
      "org.apache.hadoop.mapred.lib.IdentityMapper",
      "org.apache.hadoop.mapred.lib.IdentityReducer",
      "org.apache.hadoop.mapred.lib.LongSumReducer");

  /** Hadoop's Writables a job's map output may be (not those that make classes named in their data). */
  static final Set<String> LIBRARY_WRITABLES = Set.of(
      "org.apache.hadoop.io.Text", "org.apache.hadoop.io.IntWritable", "org.apache.hadoop.io.LongWritable",
      "org.apache.hadoop.io.VIntWritable", "org.apache.hadoop.io.VLongWritable", "org.apache.hadoop.io.FloatWritable",
      "org.apache.hadoop.io.DoubleWritable", "org.apache.hadoop.io.BooleanWritable", "org.apache.hadoop.io.ByteWritable",
      "org.apache.hadoop.io.ShortWritable", "org.apache.hadoop.io.NullWritable", "org.apache.hadoop.io.BytesWritable",
      "org.apache.hadoop.io.MD5Hash");

  /** Hadoop's raw comparators of those Writables, which a job may name as its key comparator. */
  static final Set<String> LIBRARY_COMPARATORS = comparatorsOf(LIBRARY_WRITABLES);

  private static Set<String> comparatorsOf(Set<String> writables) {
    Set<String> names = new java.util.HashSet<>();
    for (String w : writables) {
      names.add(w + "$Comparator");
      names.add(w + "$DecreasingComparator");
    }
    return Set.copyOf(names);
  }

  /** Keys naming classes the runtime's Hadoop code makes: each must be the job's own or a known comparator. */
  private static final List<String> OWN_ONLY_KEYS = List.of(MRJobConfig.KEY_COMPARATOR,
      MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS);

  private JobClasses() {}

  /**
   * Confines a job's configuration read in the device: no expansion of {@code ${env.X}} or system
   * properties in its values, Writable serialization only, and every class it names (map output key
   * and value, comparators) the job's own or a known Writable.
   *
   * @throws IOException naming the key and the class when one is not
   */
  static void confine(Configuration conf, ClassLoader code) throws IOException {
    conf.setRestrictSystemProps(true);
    conf.setStrings("io.serializations", WritableSerialization.class.getName());
    // The map output classes are the job's output classes unless set (JobConf.getMapOutputKeyClass).
    for (List<String> keys : List.of(List.of(MRJobConfig.MAP_OUTPUT_KEY_CLASS, MRJobConfig.OUTPUT_KEY_CLASS),
        List.of(MRJobConfig.MAP_OUTPUT_VALUE_CLASS, MRJobConfig.OUTPUT_VALUE_CLASS))) {
      for (String key : keys) {
        String name = conf.getTrimmed(key);
        if (name != null && !name.isEmpty()) {
          if (!LIBRARY_WRITABLES.contains(name)) {
            own(name, code, key);
          }
          break;
        }
      }
    }
    for (String key : OWN_ONLY_KEYS) {
      String name = conf.getTrimmed(key);
      if (name != null && !name.isEmpty() && !LIBRARY_COMPARATORS.contains(name)) {
        own(name, code, key);
      }
    }
    for (String key : List.of(OldApi.MAPPER_CLASS, OldApi.COMBINER_CLASS)) {
      String name = conf.getTrimmed(key);
      if (name != null && !name.isEmpty() && !LIBRARY_OLD_API.contains(name)) {
        own(name, code, key);
      }
    }
  }

  /** The generated driver of the job's mapper: the job's own, a {@link MapperDriver}. */
  static Class<?> driver(String name, ClassLoader code) throws IOException {
    Class<?> c = own(name, code, "the mapper driver");
    if (!MapperDriver.class.isAssignableFrom(c)) {
      throw new IOException("the mapper driver " + name + " is not a " + MapperDriver.class.getName());
    }
    return c;
  }

  /** The job's combiner: its own, or one of {@link #LIBRARY_COMBINERS}; a {@code Reducer}. */
  @SuppressWarnings("rawtypes")
  static Class<? extends Reducer> combiner(String name, ClassLoader code) throws IOException {
    Class<?> c = LIBRARY_COMBINERS.contains(name) ? load(name, code, "the combiner") : own(name, code, "the combiner");
    if (!Reducer.class.isAssignableFrom(c)) {
      throw new IOException("the combiner " + name + " is not a " + Reducer.class.getName());
    }
    return c.asSubclass(Reducer.class);
  }

  /** A Writable the device makes to read a SequenceFile's keys or values: the job's own, or one of {@link #LIBRARY_WRITABLES}. */
  @SuppressWarnings("unchecked")
  static Class<? extends org.apache.hadoop.io.Writable> writable(String name, ClassLoader code, String what)
      throws IOException {
    Class<?> c = LIBRARY_WRITABLES.contains(name) ? load(name, code, what) : own(name, code, what);
    if (!org.apache.hadoop.io.Writable.class.isAssignableFrom(c)) {
      throw new IOException(what + " " + name + " is not a " + org.apache.hadoop.io.Writable.class.getName());
    }
    return (Class<? extends org.apache.hadoop.io.Writable>) c;
  }

  /** A class of the tasklet's own jar, not initialised. */
  private static Class<?> own(String name, ClassLoader code, String what) throws IOException {
    Class<?> c = load(name, code, what);
    if (c.getClassLoader() != code) {
      throw new IOException(what + " names " + name + ", which is not one of the job's classes (the tasklet's jar);"
          + " the device makes no other class a job names, but Hadoop's simple Writables, their comparators, and "
          + String.join(" and ", new java.util.TreeSet<>(LIBRARY_COMBINERS)) + " as combiners");
    }
    return c;
  }

  private static Class<?> load(String name, ClassLoader code, String what) throws IOException {
    try {
      return Class.forName(name, false, code);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IOException(what + " " + name + " cannot be loaded: " + e, e);
    }
  }
}
