package org.smartssd.devicemapper;

import org.smartssd.devicemapper.tasklet.MapperDriver;
import org.smartssd.devicemapper.wire.InputSpec;
import org.smartssd.devicemapper.wire.JobConfigurations;
import org.smartssd.devicemapper.tasklet.MapReduceTasklet;
import org.smartssd.devicemapper.tasklet.OldApi;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.input.KeyValueLineRecordReader;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;

/**
 * Builds, on the host, what CREATE_OBJECT installs for one split: a jar with {@link
 * MapReduceTasklet} and the classes it runs inside the device, the generated {@link org.smartssd.devicemapper.tasklet.MapperDriver}
 * of the job's mapper, the job's classes it needs (mapper, combiner, map output key and value
 * classes, custom comparators, and what they use: see {@link ClassClosure}) and the job's
 * configuration; and the tasklet's parameters.
 *
 * <p>The job's classes are read as class files from the task's class loaders, so they come from the
 * job jar when the task runs from one and from the class path otherwise; what the device shares
 * ({@code smartssd.mapper.shared-packages}, Hadoop's by default) and the Java platform are not
 * packed.
 */
final class TaskletJarBuilder {

  /** What CREATE_OBJECT sends, and how the device was told to present the split's records. */
  record Tasklet(byte[] jar, String className, Map<String, String> parameters, InputSpec input) {}

  private TaskletJarBuilder() {}

  /**
   * @throws UnsupportedJobException when the device cannot run this job's map (the host can)
   */
  @SuppressWarnings("rawtypes")
  static Tasklet build(Configuration conf, DeviceMapperSettings settings, FileSplit split, TaskAttemptID attempt)
      throws IOException {
    JobConf job = new JobConf(conf);
    Class<? extends Mapper> mapper = DeviceMapperSettings.realMapper(conf);
    Class<? extends InputFormat> inputFormat = DeviceMapperSettings.realInputFormat(conf);
    Class<? extends Reducer> combiner = job.getNumReduceTasks() > 0 ? DeviceMapperSettings.realCombiner(conf) : null;
    InputSpec input = input(inputFormat, conf, split);
    MapperShims.check(mapper, settings.sharedPackages());
    String driver = MapperShims.driverName(mapper, settings.sharedPackages());

    Set<String> roots = new LinkedHashSet<>();
    roots.add(MapReduceTasklet.class.getName());
    roots.add(mapper.getName());
    if (combiner != null) {
      roots.add(combiner.getName());
    }
    for (String key : List.of(OldApi.MAPPER_CLASS, OldApi.COMBINER_CLASS)) {
      String name = conf.getTrimmed(key);
      if (name != null && !name.isEmpty()) {
        roots.add(name); // named in the configuration only: the adapters make them by name
      }
    }
    roots.add(job.getMapOutputKeyClass().getName());
    roots.add(job.getMapOutputValueClass().getName());
    Bzip2Split bzip2 = input.compression() == InputSpec.Compression.BZIP2 ? bzip2Split(conf, split) : null;
    SequenceHeader sequence = null;
    if (input.kind() == InputSpec.Kind.SEQUENCE) {
      sequence = sequenceHeader(conf, split);
      roots.add(sequence.keyClass());
      roots.add(sequence.valueClass());
    }
    for (String key : List.of(MRJobConfig.KEY_COMPARATOR, MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS)) {
      String name = conf.getTrimmed(key);
      if (name != null && !name.isEmpty()) {
        roots.add(name);
      }
    }
    List<ClassLoader> loaders = new ArrayList<>();
    for (ClassLoader l : new ClassLoader[] {conf.getClassLoader(), Thread.currentThread().getContextClassLoader(),
        TaskletJarBuilder.class.getClassLoader()}) {
      if (l != null && !loaders.contains(l)) {
        loaders.add(l);
      }
    }
    ClassLoader platform = ClassLoader.getPlatformClassLoader();
    SortedMap<String, byte[]> classes = ClassClosure.of(roots, loaders,
        name -> shared(name, settings.sharedPackages())
            || platform.getResource(name.replace('.', '/') + ".class") != null);
    classes.put(driver, MapperShims.generate(driver, mapper));

    // The job's configuration as the job was written: its own mapper and input format.
    Configuration original = new Configuration(conf);
    original.set(MRJobConfig.MAP_CLASS_ATTR, mapper.getName());
    original.set(MRJobConfig.INPUT_FORMAT_CLASS_ATTR, inputFormat.getName());
    // The host's own instruction to its record readers: the device's lanes need not read it (it would be
    // parsed, counted, in each lane's set-up, and a profiled run's work would differ from an unprofiled one's).
    original.unset(DeviceMapperConfigKeys.PROFILE_DIR);
    Map<String, String> defaults = defaults();

    Map<String, String> parameters = new TreeMap<>();
    JobConfigurations.putDifferences(parameters, MapReduceTasklet.CONFIGURATION,
        JobConfigurations.encodeDifferences(JobConfigurations.entries(original), defaults));
    parameters.put(MapReduceTasklet.INPUT, input.encode());
    parameters.put(MapReduceTasklet.MAPPER_DRIVER, driver);
    parameters.put(MapReduceTasklet.COMBINER, combiner == null ? "" : combiner.getName());
    parameters.put(MapReduceTasklet.SPLIT_PATH, split.getPath().toString());
    parameters.put(MapReduceTasklet.SPLIT_START, Long.toString(split.getStart()));
    parameters.put(MapReduceTasklet.SPLIT_LENGTH, Long.toString(split.getLength()));
    parameters.put(MapReduceTasklet.TASK_ATTEMPT, attempt.toString());
    parameters.put(MapReduceTasklet.BUFFER_RECORDS, Integer.toString(settings.bufferRecords()));
    parameters.put(MapReduceTasklet.BUFFER_BYTES, Integer.toString(settings.bufferBytes()));
    parameters.put(MapReduceTasklet.RESULT_BATCH_BYTES, Integer.toString(settings.resultBatchBytes()));
    if (sequence != null) {
      parameters.put(MapReduceTasklet.SEQUENCE_HEADER_END, Long.toString(sequence.headerEnd()));
      parameters.put(MapReduceTasklet.SEQUENCE_SYNC, sequence.syncHex());
      parameters.put(MapReduceTasklet.SEQUENCE_KEY_CLASS, sequence.keyClass());
      parameters.put(MapReduceTasklet.SEQUENCE_VALUE_CLASS, sequence.valueClass());
      parameters.put(MapReduceTasklet.SEQUENCE_VALUE_CODEC, sequenceValueCodec(sequence));
      parameters.put(MapReduceTasklet.FILE_LENGTH,
          Long.toString(split.getPath().getFileSystem(conf).getFileStatus(split.getPath()).getLen()));
    }
    if (bzip2 != null) {
      parameters.put(MapReduceTasklet.FILE_LENGTH, Long.toString(bzip2.fileLength()));
      parameters.put(MapReduceTasklet.BZIP2_LEVEL, Integer.toString(bzip2.level()));
    }
    return new Tasklet(jar(classes, JobConfigurations.encodeDefaults(defaults)), MapReduceTasklet.class.getName(),
        parameters, input);
  }

  /** Hadoop's {@code LineReader}'s buffer size key and its default when the key is unset. */
  static final String IO_FILE_BUFFER_SIZE = "io.file.buffer.size";
  private static final int LINE_READER_DEFAULT_BUFFER = 64 * 1024;

  /**
   * What the device needs to read a split of a bzip2 file as Hadoop does, besides the split: the
   * file's length and the block size level in its header.
   */
  record Bzip2Split(long fileLength, int level) {}

  /**
   * Reads the first 4 bytes of a bzip2 split's file: "BZh" and the level '1' to '9'.
   *
   * @throws UnsupportedJobException when they are not that (Hadoop's reader takes some such files;
   *     the host reads them), the file cannot be read, or {@code io.file.buffer.size} is not positive
   *     (Hadoop's line reader then reads nothing; its size does not change the records otherwise)
   */
  static Bzip2Split bzip2Split(Configuration conf, FileSplit split) throws UnsupportedJobException {
    int buffer = conf.getInt(IO_FILE_BUFFER_SIZE, LINE_READER_DEFAULT_BUFFER);
    if (buffer < 1) {
      throw new UnsupportedJobException(IO_FILE_BUFFER_SIZE + " is " + buffer + ", not a buffer size Hadoop's line"
          + " reader reads with: the host reads split " + split.getPath());
    }
    byte[] header = new byte[4];
    long length;
    try {
      org.apache.hadoop.fs.FileSystem fs = split.getPath().getFileSystem(conf);
      length = fs.getFileStatus(split.getPath()).getLen();
      try (org.apache.hadoop.fs.FSDataInputStream in = fs.open(split.getPath())) {
        in.readFully(0, header);
      }
    } catch (java.io.EOFException e) {
      throw new UnsupportedJobException("split " + split.getPath() + " is of a file shorter than a bzip2 header"
          + " (\"BZh\" and a level): the host reads it");
    } catch (IOException e) {
      throw new UnsupportedJobException("split " + split.getPath() + ": its bzip2 header cannot be read: " + e);
    }
    if (header[0] != 'B' || header[1] != 'Z' || header[2] != 'h' || header[3] < '1' || header[3] > '9') {
      throw new UnsupportedJobException(String.format("split %s is of a file that does not start with a bzip2 header"
          + " (\"BZh\" and a level '1' to '9', not 0x%02x%02x%02x%02x): the host reads it", split.getPath(),
          header[0], header[1], header[2], header[3]));
    }
    return new Bzip2Split(length, header[3] - '0');
  }

  /**
   * The header of a SequenceFile split's file, which the device needs to find its records.
   *
   * @throws UnsupportedJobException when its records are compressed (the device reads them as stored),
   *     or it is not a SequenceFile version the device reads
   */
  static SequenceHeader sequenceHeader(Configuration conf, FileSplit split) throws IOException {
    SequenceHeader h;
    try {
      h = SequenceHeader.read(split.getPath().getFileSystem(conf), split.getPath());
    } catch (java.io.EOFException e) {
      throw new UnsupportedJobException(split.getPath() + " ends inside a SequenceFile header: the host reads it");
    } catch (IOException e) {
      throw new UnsupportedJobException(e.getMessage());
    }
    if (h.blockCompressed()) {
      throw new UnsupportedJobException(split.getPath() + " is a SequenceFile whose blocks are compressed ("
          + h.codec() + "); the device reads only uncompressed ones and ones whose values are compressed");
    }
    if (h.compressed() && sequenceValueCodec(h) == null) {
      throw new UnsupportedJobException(split.getPath() + " is a SequenceFile whose values are compressed with "
          + h.codec() + "; the device decompresses only DefaultCodec's (zlib) and GzipCodec's");
    }
    return h;
  }

  /** How the device decompresses a record-compressed SequenceFile's values: "deflate" or "gzip", or null. */
  static String sequenceValueCodec(SequenceHeader h) {
    if (!h.compressed()) {
      return "";
    }
    return switch (h.codec()) {
      case "org.apache.hadoop.io.compress.DefaultCodec" -> "deflate";
      case "org.apache.hadoop.io.compress.GzipCodec" -> "gzip";
      default -> null;
    };
  }

  /** LineRecordReader's limit on line length; a job that sets it runs on the host. */
  static final String MAX_LINE_LENGTH = "mapreduce.input.linerecordreader.line.maxlength";

  /**
   * How the device presents records: as the job's input format would, decided here once from the
   * job's configuration and sent to the device (which reads no input-format key itself).
   */
  @SuppressWarnings("rawtypes")
  static InputSpec input(Class<? extends InputFormat> inputFormat, Configuration conf, FileSplit split)
      throws UnsupportedJobException {
    InputSpec records = input(inputFormat, conf);
    if (records.kind() == InputSpec.Kind.SEQUENCE) {
      return records; // SequenceFileInputFormat reads the file as stored, whatever its name
    }
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(split.getPath());
    if (codec == null) {
      return records;
    }
    InputSpec.Compression compression = compression(codec);
    if (compression == null) {
      throw new UnsupportedJobException("split " + split.getPath() + " is compressed with "
          + codec.getClass().getSimpleName() + " (" + codec.getDefaultExtension() + "), and the device"
          + " decompresses only gzip (.gz), zlib (.deflate, DefaultCodec) and bzip2 (.bz2)");
    }
    if (compression == InputSpec.Compression.BZIP2) {
      if (split.getLength() == 0) {
        throw new UnsupportedJobException("split " + split.getPath() + " is an empty bzip2 split (an empty file):"
            + " the host reads it");
      }
      if (records.kind() == InputSpec.Kind.FIXED_LENGTH && split.getStart() != 0) {
        throw new UnsupportedJobException("split " + split.getPath() + " starts at byte " + split.getStart()
            + " of a bzip2 file of fixed-length records, which Hadoop reads whole, from its start");
      }
      return records.compressed(compression); // text: any split, read from its first block (Bzip2Split)
    }
    String kind = compression == InputSpec.Compression.GZIP ? "gzip" : "zlib";
    if (split.getLength() == 0) {
      throw new UnsupportedJobException("split " + split.getPath() + " is an empty " + kind + " file, which Hadoop's "
          + codec.getClass().getSimpleName() + " refuses (it ends before a header): the host reads it, as Hadoop does");
    }
    if (split.getStart() != 0) { // as LineRecordReader refuses it
      throw new UnsupportedJobException("split " + split.getPath() + " starts at byte " + split.getStart()
          + " of a " + kind + " file, which can only be read from its start");
    }
    return records.compressed(compression);
  }

  /** How the device decompresses what {@code codec} compressed, or null when it does not. */
  static InputSpec.Compression compression(CompressionCodec codec) {
    if (codec instanceof GzipCodec) {
      return InputSpec.Compression.GZIP;
    }
    if (codec instanceof DefaultCodec) {
      return InputSpec.Compression.DEFLATE;
    }
    if (codec instanceof BZip2Codec) {
      return InputSpec.Compression.BZIP2;
    }
    return null;
  }

  /**
   * The new API's input format that presents records as the old API's {@code format} does (the same
   * record readers' rules), or null when the device presents none like it.
   */
  @SuppressWarnings("rawtypes")
  static Class<? extends InputFormat> oldInputSpecOf(Class<?> format) {
    if (format == org.apache.hadoop.mapred.TextInputFormat.class) {
      return TextInputFormat.class;
    }
    if (format == org.apache.hadoop.mapred.KeyValueTextInputFormat.class) {
      return KeyValueTextInputFormat.class;
    }
    if (format == org.apache.hadoop.mapred.FixedLengthInputFormat.class) {
      return FixedLengthInputFormat.class;
    }
    if (format == org.apache.hadoop.mapred.SequenceFileInputFormat.class) {
      return SequenceFileInputFormat.class;
    }
    return null;
  }

  /** As {@link #input(Class, Configuration, FileSplit)}, for uncompressed input. */
  @SuppressWarnings("rawtypes")
  static InputSpec input(Class<? extends InputFormat> inputFormat, Configuration conf)
      throws UnsupportedJobException {
    if (inputFormat == OldApiInputFormat.class) {
      String old = conf.get(OldApi.INPUT_FORMAT_CLASS, "");
      Class<? extends InputFormat> same;
      try {
        same = oldInputSpecOf(conf.getClassByName(old));
      } catch (ClassNotFoundException e) {
        throw new UnsupportedJobException("the job's old-API input format " + old + " cannot be loaded: " + e);
      }
      if (same == null) {
        throw new UnsupportedJobException("the job's old-API input format " + old + " is not one the device presents "
            + "records as (FixedLengthInputFormat, TextInputFormat, KeyValueTextInputFormat, SequenceFileInputFormat)");
      }
      return input(same, conf);
    }
    if (inputFormat == FixedLengthInputFormat.class) {
      int length = FixedLengthInputFormat.getRecordLength(conf);
      if (length <= 0) {
        throw new UnsupportedJobException("FixedLengthInputFormat needs a positive record length ("
            + FixedLengthInputFormat.FIXED_RECORD_LENGTH + ")");
      }
      return InputSpec.fixedLength(length);
    }
    if (inputFormat == TextInputFormat.class || inputFormat == KeyValueTextInputFormat.class) {
      if (conf.getInt(MAX_LINE_LENGTH, Integer.MAX_VALUE) != Integer.MAX_VALUE) {
        throw new UnsupportedJobException(MAX_LINE_LENGTH + " is set: LineRecordReader then gives "
            + "the line after skipped ones the key of the first one skipped, which a device lane cannot know");
      }
      try {
        // KeyValueLineRecordReader reads lines with a LineRecordReader of its own, which takes no delimiter.
        return inputFormat == TextInputFormat.class ? InputSpec.text(conf.get("textinputformat.record.delimiter"))
            : InputSpec.keyValue(conf.get(KeyValueLineRecordReader.KEY_VALUE_SEPARATOR));
      } catch (IllegalArgumentException e) {
        throw new UnsupportedJobException(e.getMessage());
      }
    }
    if (inputFormat == SequenceFileInputFormat.class) {
      return InputSpec.sequence();
    }
    throw new UnsupportedJobException("input format " + inputFormat.getName() + " is not one the device presents "
        + "records as (FixedLengthInputFormat, TextInputFormat, KeyValueTextInputFormat, SequenceFileInputFormat)");
  }

  private static boolean shared(String binaryName, List<String> sharedPackages) {
    if (binaryName.startsWith("org.smartssd.device.tasklet.")) {
      return true;
    }
    for (String prefix : sharedPackages) {
      if (binaryName.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** What {@code new JobConf()} holds on this host, read once. */
  private static synchronized Map<String, String> defaults() {
    if (defaults == null) {
      defaults = Collections.unmodifiableSortedMap(JobConfigurations.entries(new JobConf()));
    }
    return defaults;
  }

  private static SortedMap<String, String> defaults;

  /**
   * The jar: the same bytes for the same classes and defaults (entries in name order, every time
   * stamp the same), so that a device that keeps it is not sent it again.
   */
  private static byte[] jar(SortedMap<String, byte[]> classes, byte[] defaults) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(bytes)) {
      for (Map.Entry<String, byte[]> c : classes.entrySet()) {
        entry(jar, c.getKey().replace('.', '/') + ".class", c.getValue());
      }
      entry(jar, JobConfigurations.DEFAULTS_ENTRY, defaults);
    }
    return bytes.toByteArray();
  }

  /** 1980-01-01, the earliest time a zip entry holds. */
  private static final long ENTRY_TIME = 315532800000L;

  private static void entry(JarOutputStream jar, String name, byte[] content) throws IOException {
    JarEntry entry = new JarEntry(name);
    entry.setTime(ENTRY_TIME);
    jar.putNextEntry(entry);
    jar.write(content);
    jar.closeEntry();
  }
}
