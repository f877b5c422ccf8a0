package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.devicemapper.Jobs.counter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.objectfs.ObjfsConfigKeys;

/**
 * Unchanged jobs on the local runner over objfs, run three ways: as they are (the host reads the
 * records through objfs), configured by DeviceJobClient (the device runs mapper and combiner), and
 * with fallback=always (configured, every split on the host). The reducers' output must be the same
 * and equal to a direct computation; the counters say what ran where. Records straddle pages, and
 * objects are cut into several splits, so exactly-once shows in the counts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeviceJobTest {
  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
      "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi",
      "psi", "omega", "Ünïcödé", "日本", "x"};
  private static final int RECORDS = 50_000;
  private static final long TEXT_SPLIT_BYTES = 48 << 10;
  private static final long RECORD_SPLIT_BYTES = 256 << 10;

  enum Mode {
    HOST,
    DEVICE,
    FALLBACK
  }

  @TempDir static java.nio.file.Path work;
  private Jobs jobs;
  private final List<byte[]> texts = new ArrayList<>();
  private byte[] records;

  @BeforeAll
  void start() throws Exception {
    jobs = Jobs.start(work, true);
    Random random = new Random(42);
    for (int f = 0; f < 3; f++) {
      byte[] text = text(random, 2000 + 700 * f, f == 0, f != 2);
      texts.add(text);
      jobs.write("/text/part-" + f + ".txt", text);
    }
    jobs.write("/text/empty.txt", new byte[0]); // an empty split runs too: setup and cleanup, no record
    records = new byte[RECORDS * 20];
    random.nextBytes(records);
    jobs.write("/records/trace.bin", records);
    // The same, gzipped as Hadoop reads it: one file in two members (gzip a b > ab.gz).
    jobs.write("/gz/part-0.txt.gz", concat(gzip(Arrays.copyOf(texts.get(0), 1000)),
        gzip(Arrays.copyOfRange(texts.get(0), 1000, texts.get(0).length))));
    jobs.write("/gz/part-1.txt.gz", gzip(texts.get(1)));
    jobs.write("/gz/part-2.txt.gz", gzip(texts.get(2)));
    jobs.write("/gzrecords/trace.bin.gz", gzip(records));
  }

  static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.toByteArray();
  }

  private static byte[] compress(CompressionCodec codec, byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream compressed = codec.createOutputStream(out)) {
      compressed.write(bytes);
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  @AfterAll
  void stop() throws Exception {
    jobs.close();
  }

  /** Lines of words with "\n", "\r\n" and lone "\r" ends, empty lines, a BOM at the start of one file. */
  private static byte[] text(Random random, int lines, boolean bom, boolean lastEnded) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (bom) {
      out.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    }
    for (int i = 0; i < lines; i++) {
      StringBuilder line = new StringBuilder();
      int words = random.nextInt(100) < 5 ? 0 : 1 + random.nextInt(14);
      for (int w = 0; w < words; w++) {
        if (w > 0) {
          line.append(random.nextInt(10) == 0 ? "\t" : " ");
        }
        line.append(WORDS[random.nextInt(WORDS.length)]);
      }
      out.writeBytes(line.toString().getBytes(StandardCharsets.UTF_8));
      if (i < lines - 1 || lastEnded) {
        int end = random.nextInt(100);
        out.writeBytes((end < 80 ? "\n" : end < 95 ? "\r\n" : "\r").getBytes(StandardCharsets.UTF_8));
      }
    }
    return out.toByteArray();
  }

  private Map<String, Long> expectedWords() {
    Map<String, Long> counts = new TreeMap<>();
    for (byte[] text : texts) {
      String s = new String(text, StandardCharsets.UTF_8).replace("\uFEFF", "");
      StringTokenizer words = new StringTokenizer(s);
      while (words.hasMoreTokens()) {
        counts.merge(words.nextToken(), 1L, Long::sum);
      }
    }
    return counts;
  }

  /** Lines as Hadoop's LineReader ends them: at "\n", "\r\n" or a lone "\r". */
  private static long lines(byte[] text) {
    long lines = 0;
    boolean open = false;
    for (int i = 0; i < text.length; i++) {
      if (text[i] == '\n') {
        lines++;
        open = false;
      } else if (text[i] == '\r') {
        lines++;
        open = false;
        if (i + 1 < text.length && text[i + 1] == '\n') {
          i++;
        }
      } else {
        open = true;
      }
    }
    return open ? lines + 1 : lines;
  }

  private Map<String, Long> expectedRegions() {
    Map<String, Long> counts = new TreeMap<>();
    for (int r = 0; r < RECORDS; r++) {
      counts.merge(Integer.toString((records[r * 20 + 19] & 0xFF) >>> 5), 1L, Long::sum);
    }
    return counts;
  }

  private Configuration conf(long splitBytes) {
    Configuration conf = jobs.conf();
    conf.setLong(FileInputFormat.SPLIT_MAXSIZE, splitBytes);
    return conf;
  }

  private static Job inMode(Job job, Mode mode) throws Exception {
    switch (mode) {
      case HOST:
        return job;
      case FALLBACK:
        job.getConfiguration().set(DeviceMapperConfigKeys.FALLBACK, "always");
        DeviceJobClient.configure(job);
        return job;
      case DEVICE:
        DeviceJobClient.configure(job);
        return job;
      default:
        throw new IllegalArgumentException(mode.toString());
    }
  }

  private static int splits(Job configured) throws Exception {
    return new DeviceInputFormat().getSplits(configured).size();
  }

  private interface JobMaker {
    Job make(Configuration conf, Path input, Path output) throws Exception;
  }

  /** Runs the job in every mode; the outputs by mode, the counters by mode, and the split count. */
  private record Runs(Map<Mode, List<String>> outputs, Map<Mode, Counters> counters, int splits) {}

  private Runs everyMode(JobMaker maker, String input, long splitBytes) throws Exception {
    Map<Mode, List<String>> outputs = new EnumMap<>(Mode.class);
    Map<Mode, Counters> counters = new EnumMap<>(Mode.class);
    int splits = 0;
    for (Mode mode : Mode.values()) {
      Path out = jobs.output();
      Job job = inMode(maker.make(conf(splitBytes), jobs.path(input), out), mode);
      if (mode == Mode.DEVICE) {
        splits = splits(job);
      }
      counters.put(mode, Jobs.run(job));
      outputs.put(mode, Jobs.lines(out));
    }
    return new Runs(outputs, counters, splits);
  }

  @Test
  void wordCountIsTheSameOnTheHostInTheDeviceAndInFallback() throws Exception {
    Runs runs = everyMode(TestJobs::wordCount, "/text", TEXT_SPLIT_BYTES);
    long textBytes = texts.stream().mapToLong(t -> t.length).sum();
    long lines = texts.stream().mapToLong(DeviceJobTest::lines).sum();

    assertThat(runs.splits()).isGreaterThan(3);
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(Jobs.counts(runs.outputs().get(Mode.HOST))).isEqualTo(expectedWords());
    for (Mode mode : Mode.values()) {
      assertThat(counter(runs.counters().get(mode), TestJobs.MapperCounters.LINES)).as("lines mapped, %s", mode)
          .isEqualTo(lines);
    }

    Counters device = runs.counters().get(Mode.DEVICE);
    assertThat(counter(device, DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(runs.splits());
    assertThat(counter(device, DeviceCounters.FALLBACK_SPLITS)).isZero();
    assertThat(counter(device, DeviceCounters.DEVICE_BYTES_SCANNED)).isGreaterThanOrEqualTo(textBytes);
    assertThat(counter(device, DeviceCounters.MODELLED_DEVICE_NANOS)).isPositive();
    assertThat(counter(device, DeviceCounters.TASKLET_INSTALL_BYTES)).isPositive();

    Counters fallback = runs.counters().get(Mode.FALLBACK);
    assertThat(counter(fallback, DeviceCounters.FALLBACK_SPLITS)).isEqualTo(runs.splits());
    assertThat(counter(fallback, DeviceCounters.DEVICE_EXECUTIONS)).isZero();
    assertThat(counter(fallback, DeviceCounters.HOST_INTERFACE_BYTES)).isGreaterThanOrEqualTo(textBytes);
  }

  @Test
  void fixedLengthRecordsAreCountedExactlyOnceAcrossPagesAndSplits() throws Exception {
    Runs runs = everyMode(TestJobs::regionCount, "/records/trace.bin", RECORD_SPLIT_BYTES);

    assertThat(runs.splits()).isEqualTo(4); // 1,000,000 bytes in 256 KiB splits, not record-aligned
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(Jobs.counts(runs.outputs().get(Mode.HOST))).isEqualTo(expectedRegions());
    for (Mode mode : Mode.values()) {
      assertThat(counter(runs.counters().get(mode), TestJobs.MapperCounters.RECORDS)).as("records mapped, %s", mode)
          .isEqualTo(RECORDS);
    }

    Counters device = runs.counters().get(Mode.DEVICE);
    assertThat(counter(device, DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(4);
    assertThat(counter(device, DeviceCounters.FALLBACK_SPLITS)).isZero();
    assertThat(counter(device, DeviceCounters.DEVICE_BYTES_SCANNED)).isGreaterThanOrEqualTo(records.length);
    // A counting job: only partial counts cross the host interface.
    assertThat(counter(device, DeviceCounters.HOST_INTERFACE_BYTES)).isPositive().isLessThan(records.length / 50);

    Counters fallback = runs.counters().get(Mode.FALLBACK);
    assertThat(counter(fallback, DeviceCounters.FALLBACK_SPLITS)).isEqualTo(4);
    assertThat(counter(fallback, DeviceCounters.HOST_INTERFACE_BYTES)).isGreaterThanOrEqualTo(records.length);
  }

  @Test
  void linesReachTheMapperAsTextInputFormatPresentsThem() throws Exception {
    Runs runs = everyMode(TestJobs::lineEcho, "/text", TEXT_SPLIT_BYTES);
    long lines = texts.stream().mapToLong(DeviceJobTest::lines).sum();

    assertThat(runs.outputs().get(Mode.HOST)).hasSize((int) lines);
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    // No combiner: every line crosses the host interface, yet only once.
    assertThat(counter(runs.counters().get(Mode.DEVICE), DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(runs.splits());
  }

  @Test
  void keyValueLinesReachTheMapperAsKeyValueTextInputFormatPresentsThem() throws Exception {
    Runs runs = everyMode(TestJobs::keyValueEcho, "/text", TEXT_SPLIT_BYTES);
    long lines = texts.stream().mapToLong(DeviceJobTest::lines).sum();

    assertThat(runs.outputs().get(Mode.HOST)).hasSize((int) lines);
    assertThat(runs.outputs().get(Mode.HOST)).anyMatch(line -> line.indexOf('\t') > 0 && !line.endsWith("\t"));
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    Counters device = runs.counters().get(Mode.DEVICE);
    assertThat(counter(device, DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(runs.splits());
    assertThat(counter(device, DeviceCounters.FALLBACK_SPLITS)).isZero();
  }

  /**
   * Gzip files are decompressed in the device: one split a file, as Hadoop makes them, lines with
   * their offsets in the decompressed stream (the keys LineRecordReader gives), a file of two
   * members read whole; so are zlib files (.deflate); nothing falls back.
   */
  @Test
  void gzipTextIsDecompressedInTheDeviceWithTheHostsKeysAndLines() throws Exception {
    Runs runs = everyMode(TestJobs::lineEcho, "/gz", TEXT_SPLIT_BYTES);
    long lines = texts.stream().mapToLong(DeviceJobTest::lines).sum();

    assertThat(runs.splits()).isEqualTo(3); // one a file, whatever the split size
    assertThat(runs.outputs().get(Mode.HOST)).hasSize((int) lines);
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    Counters device = runs.counters().get(Mode.DEVICE);
    assertThat(counter(device, DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(3);
    assertThat(counter(device, DeviceCounters.FALLBACK_SPLITS)).isZero();
    assertThat(counter(device, DeviceCounters.MODELLED_DEVICE_NANOS)).isPositive();

    // The same as zlib streams (.deflate, DefaultCodec), one file in two streams.
    DefaultCodec deflate = org.apache.hadoop.util.ReflectionUtils.newInstance(DefaultCodec.class, jobs.conf());
    jobs.write("/deflate/part-0.txt.deflate", concat(compress(deflate, Arrays.copyOf(texts.get(0), 700)),
        compress(deflate, Arrays.copyOfRange(texts.get(0), 700, texts.get(0).length))));
    jobs.write("/deflate/part-1.txt.deflate", compress(deflate, texts.get(1)));
    Runs zlib = everyMode(TestJobs::lineEcho, "/deflate", TEXT_SPLIT_BYTES);
    assertThat(zlib.splits()).isEqualTo(2);
    assertThat(zlib.outputs().get(Mode.DEVICE)).isEqualTo(zlib.outputs().get(Mode.HOST))
        .hasSize((int) (lines(texts.get(0)) + lines(texts.get(1))));
    assertThat(counter(zlib.counters().get(Mode.DEVICE), DeviceCounters.FALLBACK_SPLITS)).isZero();

    Runs keyValue = everyMode(TestJobs::keyValueEcho, "/gz", TEXT_SPLIT_BYTES);
    assertThat(keyValue.outputs().get(Mode.DEVICE)).isEqualTo(keyValue.outputs().get(Mode.HOST)).hasSize((int) lines);
    assertThat(counter(keyValue.counters().get(Mode.DEVICE), DeviceCounters.FALLBACK_SPLITS)).isZero();
  }

  @Test
  void gzipRecordsAreDecompressedInTheDeviceAndCountedOnce() throws Exception {
    Runs runs = everyMode(TestJobs::regionCount, "/gzrecords", RECORD_SPLIT_BYTES);

    assertThat(runs.splits()).isEqualTo(1);
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(Jobs.counts(runs.outputs().get(Mode.HOST))).isEqualTo(expectedRegions());
    Counters device = runs.counters().get(Mode.DEVICE);
    assertThat(counter(device, TestJobs.MapperCounters.RECORDS)).isEqualTo(RECORDS);
    assertThat(counter(device, DeviceCounters.FALLBACK_SPLITS)).isZero();
    // Only the compressed bytes are read from flash; only partial counts cross the host interface.
    assertThat(counter(device, DeviceCounters.DEVICE_BYTES_SCANNED)).isLessThan(records.length + 1000L);
    assertThat(counter(device, DeviceCounters.HOST_INTERFACE_BYTES)).isPositive().isLessThan(records.length / 50);
  }

  /**
   * A bzip2 file is split by its blocks, as Hadoop splits it, and every split is read in the device
   * as LineRecordReader reads it (the keys are the split's start plus the decompressed bytes before
   * the record): level-1 files of six to eight blocks, splits of 16 KiB, each file's first 4 bytes with
   * its level read by the host; lines and key/value lines give the host's output, and nothing falls
   * back. Fixed-length records of a bzip2 file are one split, read whole.
   */
  @Test
  void bzip2TextIsSplitByBlocksAndEverySplitReadInTheDevice() throws Exception {
    Random random = new Random(7);
    List<byte[]> bzTexts = new ArrayList<>();
    for (int f = 0; f < 2; f++) {
      byte[] text = text(random, 14_000 + 4_000 * f, f == 0, f == 0);
      bzTexts.add(text);
      jobs.write("/bz2/part-" + f + ".txt.bz2", bzip2(text, 1));
    }
    long lines = bzTexts.stream().mapToLong(DeviceJobTest::lines).sum();
    long splitBytes = 16 << 10;

    Runs runs = everyMode(TestJobs::lineEcho, "/bz2", splitBytes);
    assertThat(runs.splits()).as("several splits a file").isGreaterThan(6);
    assertThat(runs.outputs().get(Mode.HOST)).hasSize((int) lines);
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    Counters device = runs.counters().get(Mode.DEVICE);
    assertThat(counter(device, DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(runs.splits());
    assertThat(counter(device, DeviceCounters.FALLBACK_SPLITS)).isZero();
    assertThat(counter(runs.counters().get(Mode.FALLBACK), DeviceCounters.FALLBACK_SPLITS)).isEqualTo(runs.splits());

    Runs keyValue = everyMode(TestJobs::keyValueEcho, "/bz2", splitBytes);
    assertThat(keyValue.outputs().get(Mode.DEVICE)).isEqualTo(keyValue.outputs().get(Mode.HOST)).hasSize((int) lines);
    assertThat(counter(keyValue.counters().get(Mode.DEVICE), DeviceCounters.DEVICE_EXECUTIONS))
        .isEqualTo(keyValue.splits());
    assertThat(counter(keyValue.counters().get(Mode.DEVICE), DeviceCounters.FALLBACK_SPLITS)).isZero();

    jobs.write("/bz2records/trace.bin.bz2", bzip2(records, 9));
    Runs fixed = everyMode(TestJobs::regionCount, "/bz2records", RECORD_SPLIT_BYTES);
    assertThat(fixed.splits()).isEqualTo(1);
    assertThat(fixed.outputs().get(Mode.DEVICE)).isEqualTo(fixed.outputs().get(Mode.HOST));
    assertThat(Jobs.counts(fixed.outputs().get(Mode.HOST))).isEqualTo(expectedRegions());
    assertThat(counter(fixed.counters().get(Mode.DEVICE), TestJobs.MapperCounters.RECORDS)).isEqualTo(RECORDS);
    assertThat(counter(fixed.counters().get(Mode.DEVICE), DeviceCounters.FALLBACK_SPLITS)).isZero();

    // The host reads the level from the file's header, and refuses a file that has none.
    FileSplit second = new FileSplit(jobs.path("/bz2/part-1.txt.bz2"), 20_000, 16 << 10, new String[0]);
    assertThat(TaskletJarBuilder.input(TextInputFormat.class, jobs.conf(), second).encode()).isEqualTo("bzip2+lines");
    assertThat(TaskletJarBuilder.bzip2Split(jobs.conf(), second).level()).isEqualTo(1);
    jobs.write("/bz2bad/part.txt.bz2", "BZx9 not bzip2".getBytes(StandardCharsets.UTF_8));
    FileSplit bad = new FileSplit(jobs.path("/bz2bad/part.txt.bz2"), 0, 14, new String[0]);
    assertThatThrownBy(() -> TaskletJarBuilder.bzip2Split(jobs.conf(), bad))
        .hasMessageContaining("does not start with a bzip2 header");
  }

  /** Hadoop's bzip2 compressor at a level ("BZ", as BZip2Codec writes it, then "h" and the level). */
  private static byte[] bzip2(byte[] bytes, int level) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write('B');
    out.write('Z');
    try (OutputStream bz = new org.apache.hadoop.io.compress.bzip2.CBZip2OutputStream(out, level)) {
      bz.write(bytes);
    }
    return out.toByteArray();
  }

  /**
   * Other codecs run on the host, saying why; a damaged gzip file fails the job, in the device as
   * on the host; an empty one, which Hadoop's GzipCodec refuses, goes to the host, which fails it.
   */
  @Test
  void otherCodecsFallBackAndDamagedGzipFails() throws Exception {
    CompressionCodec snappy = org.apache.hadoop.util.ReflectionUtils.newInstance(
        org.apache.hadoop.io.compress.SnappyCodec.class, jobs.conf());
    jobs.write("/snappy/part.txt.snappy", compress(snappy, texts.get(1)));
    Runs runs = everyMode(TestJobs::lineEcho, "/snappy", TEXT_SPLIT_BYTES);
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST)).isNotEmpty();
    Counters device = runs.counters().get(Mode.DEVICE);
    assertThat(counter(device, DeviceCounters.FALLBACK_SPLITS)).isEqualTo(runs.splits()).isPositive();
    assertThat(counter(device, DeviceCounters.DEVICE_EXECUTIONS)).isZero();
    FileSplit snappySplit = new FileSplit(jobs.path("/snappy/part.txt.snappy"), 0, 10, new String[0]);
    assertThatThrownBy(() -> TaskletJarBuilder.input(TextInputFormat.class, jobs.conf(), snappySplit))
        .hasMessageContaining("SnappyCodec").hasMessageContaining("only gzip");

    byte[] gz = gzip(texts.get(2));
    jobs.write("/gzbad/part.txt.gz", Arrays.copyOf(gz, gz.length - 9)); // cut inside its trailer
    Configuration conf = conf(TEXT_SPLIT_BYTES);
    conf.set(DeviceMapperConfigKeys.FALLBACK, "never");
    Job job = inMode(TestJobs.lineEcho(conf, jobs.path("/gzbad"), jobs.output()), Mode.DEVICE);
    assertThat(job.waitForCompletion(false)).isFalse();
    Job host = TestJobs.lineEcho(conf(TEXT_SPLIT_BYTES), jobs.path("/gzbad"), jobs.output());
    assertThat(host.waitForCompletion(false)).isFalse();

    jobs.write("/gzempty/empty.txt.gz", new byte[0]);
    FileSplit empty = new FileSplit(jobs.path("/gzempty/empty.txt.gz"), 0, 0, new String[0]);
    assertThatThrownBy(() -> TaskletJarBuilder.input(TextInputFormat.class, jobs.conf(), empty))
        .hasMessageContaining("empty gzip file");
    for (Mode mode : new Mode[] {Mode.HOST, Mode.DEVICE}) {
      Job j = inMode(TestJobs.lineEcho(conf(TEXT_SPLIT_BYTES), jobs.path("/gzempty"), jobs.output()), mode);
      assertThat(j.waitForCompletion(false)).as("an empty .gz file, %s", mode).isFalse();
    }
  }

  /**
   * An uncompressed SequenceFile's records reach the mapper in the device as SequenceFileRecordReader
   * gives them, split by split (sync marks every 500 bytes; SequenceFileInputFormat makes splits of
   * at least 100 KiB, its sync interval: SequenceInputTest has smaller ones); a compressed one runs on
   * the host, saying why. Values compressed one by one (zlib, Hadoop's default) are decompressed in the
   * device; compressed blocks are read on the host.
   */
  @Test
  void sequenceFileRecordsReachTheMapperInTheDevice() throws Exception {
    Random random = new Random(5);
    Map<String, Long> expected = new TreeMap<>();
    for (String name : new String[] {"plain", "record", "block"}) {
      SequenceFile.CompressionType type = name.equals("plain") ? SequenceFile.CompressionType.NONE
          : name.equals("record") ? SequenceFile.CompressionType.RECORD : SequenceFile.CompressionType.BLOCK;
      try (SequenceFile.Writer w = SequenceFile.createWriter(jobs.conf(),
          SequenceFile.Writer.file(jobs.path("/seq-" + name + "/part.seq")), SequenceFile.Writer.keyClass(Text.class),
          SequenceFile.Writer.valueClass(IntWritable.class), SequenceFile.Writer.syncInterval(500),
          SequenceFile.Writer.compression(type))) {
        for (int i = 0; i < 20_000; i++) {
          String word = WORDS[random.nextInt(WORDS.length)];
          int n = random.nextInt(100);
          w.append(new Text(word), new IntWritable(n));
          if (name.equals("plain")) {
            expected.merge(word, (long) n, Long::sum);
          }
        }
      }
    }
    Runs runs = everyMode(TestJobs::sequenceSum, "/seq-plain", 16 << 10);
    assertThat(runs.splits()).isGreaterThan(2);
    assertThat(Jobs.counts(runs.outputs().get(Mode.HOST))).isEqualTo(expected);
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    Counters device = runs.counters().get(Mode.DEVICE);
    assertThat(counter(device, DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(runs.splits());
    assertThat(counter(device, DeviceCounters.FALLBACK_SPLITS)).isZero();
    assertThat(counter(device, DeviceCounters.MODELLED_DEVICE_NANOS)).isPositive();

    // Values of the job's own Writable class, which goes into the tasklet's jar.
    try (SequenceFile.Writer w = SequenceFile.createWriter(jobs.conf(),
        SequenceFile.Writer.file(jobs.path("/seq-visits/part.seq")), SequenceFile.Writer.keyClass(Text.class),
        SequenceFile.Writer.valueClass(TestJobs.Visits.class),
        SequenceFile.Writer.compression(SequenceFile.CompressionType.NONE))) {
      for (int i = 0; i < 30_000; i++) {
        w.append(new Text(WORDS[random.nextInt(WORDS.length)]),
            new TestJobs.Visits(random.nextInt(10), "/page/" + random.nextInt(20)));
      }
    }
    Runs visits = everyMode(TestJobs::visits, "/seq-visits", 16 << 10);
    assertThat(visits.outputs().get(Mode.HOST)).hasSizeGreaterThan(100);
    assertThat(visits.outputs().get(Mode.DEVICE)).isEqualTo(visits.outputs().get(Mode.HOST));
    assertThat(counter(visits.counters().get(Mode.DEVICE), DeviceCounters.FALLBACK_SPLITS)).isZero();
    assertThat(counter(visits.counters().get(Mode.DEVICE), DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(visits.splits());

    // Values compressed each on its own with zlib: Hadoop's writers' default.
    Runs record = everyMode(TestJobs::sequenceSum, "/seq-record", 16 << 10);
    assertThat(record.outputs().get(Mode.DEVICE)).isEqualTo(record.outputs().get(Mode.HOST)).isNotEmpty();
    assertThat(counter(record.counters().get(Mode.DEVICE), DeviceCounters.FALLBACK_SPLITS)).isZero();

    Runs block = everyMode(TestJobs::sequenceSum, "/seq-block", 16 << 10);
    assertThat(block.outputs().get(Mode.DEVICE)).isEqualTo(block.outputs().get(Mode.HOST)).isNotEmpty();
    assertThat(counter(block.counters().get(Mode.DEVICE), DeviceCounters.FALLBACK_SPLITS)).isEqualTo(block.splits());
    FileSplit compressed = new FileSplit(jobs.path("/seq-block/part.seq"), 0, 100, new String[0]);
    assertThatThrownBy(() -> TaskletJarBuilder.sequenceHeader(jobs.conf(), compressed))
        .hasMessageContaining("blocks are compressed");
  }

  /**
   * A job written against the old API (JobConf, mapred.Mapper with configure and a Reporter counter,
   * mapred.Reducer as combiner and reducer, mapred.TextInputFormat), run with JobClient.runJob: the same
   * output on the host, in the device and in fallback; its map runs in the device.
   */
  @Test
  void anOldApiJobRunsItsMapInTheDevice() throws Exception {
    Map<Mode, List<String>> outputs = new EnumMap<>(Mode.class);
    Map<Mode, org.apache.hadoop.mapred.Counters> counters = new EnumMap<>(Mode.class);
    for (Mode mode : Mode.values()) {
      Path out = jobs.output();
      org.apache.hadoop.mapred.JobConf job = TestJobs.oldWordCount(conf(TEXT_SPLIT_BYTES), jobs.path("/text"), out);
      if (mode == Mode.FALLBACK) {
        job.set(DeviceMapperConfigKeys.FALLBACK, "always");
      }
      if (mode != Mode.HOST) {
        DeviceJobClient.configure(job);
        DeviceJobClient.configure(job); // idempotent
      }
      org.apache.hadoop.mapred.RunningJob run = org.apache.hadoop.mapred.JobClient.runJob(job);
      assertThat(run.isSuccessful()).as("%s", mode).isTrue();
      counters.put(mode, run.getCounters());
      outputs.put(mode, Jobs.lines(out));
    }
    Map<String, Long> expected = new TreeMap<>();
    expectedWords().forEach((w, n) -> expected.put("w:" + w, n));
    assertThat(Jobs.counts(outputs.get(Mode.HOST))).isEqualTo(expected);
    assertThat(outputs.get(Mode.DEVICE)).isEqualTo(outputs.get(Mode.HOST));
    assertThat(outputs.get(Mode.FALLBACK)).isEqualTo(outputs.get(Mode.HOST));
    long lines = texts.stream().mapToLong(DeviceJobTest::lines).sum();
    for (Mode mode : Mode.values()) {
      assertThat(counters.get(mode).findCounter(TestJobs.OldApiCounters.LINES).getValue()).as("lines, %s", mode)
          .isEqualTo(lines);
    }
    org.apache.hadoop.mapred.Counters device = counters.get(Mode.DEVICE);
    assertThat(device.findCounter(DeviceCounters.DEVICE_EXECUTIONS).getValue()).isPositive();
    assertThat(device.findCounter(DeviceCounters.FALLBACK_SPLITS).getValue()).isZero();
    assertThat(counters.get(Mode.FALLBACK).findCounter(DeviceCounters.DEVICE_EXECUTIONS).getValue()).isZero();

    // Placed by the planner, as a new-API job is: the plan is the job's, and so is the output.
    Path placedOut = jobs.output();
    org.apache.hadoop.mapred.JobConf placed = TestJobs.oldWordCount(conf(TEXT_SPLIT_BYTES), jobs.path("/text"),
        placedOut);
    placed.set(DeviceMapperConfigKeys.PLACEMENT, "auto");
    DeviceJobClient.configure(placed);
    assertThat(placed.get(DeviceMapperConfigKeys.PLACEMENT_CHOSEN)).isIn("device", "host");
    assertThat(placed.get(DeviceMapperConfigKeys.PLACEMENT_REASON)).isNotEmpty();
    assertThat(org.apache.hadoop.mapred.JobClient.runJob(placed).isSuccessful()).isTrue();
    assertThat(Jobs.lines(placedOut)).isEqualTo(outputs.get(Mode.HOST));

    org.apache.hadoop.mapred.JobConf partitioned = TestJobs.oldWordCount(conf(TEXT_SPLIT_BYTES), jobs.path("/text"),
        jobs.output());
    partitioned.setPartitionerClass(org.apache.hadoop.mapred.lib.HashPartitioner.class);
    assertThatThrownBy(() -> DeviceJobClient.configure(partitioned)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partitioner");
  }

  @Test
  void theMapperSeesItsSplitAsAFileSplit() throws Exception {
    Runs runs = everyMode(TestJobs::fileLines, "/text", TEXT_SPLIT_BYTES);

    Map<String, Long> expected = new TreeMap<>();
    for (int f = 0; f < texts.size(); f++) {
      expected.put("part-" + f + ".txt", lines(texts.get(f)));
    }
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(Jobs.counts(runs.outputs().get(Mode.HOST))).isEqualTo(expected);
  }

  @Test
  void aMapOnlyJobRunsNoCombinerInTheDeviceEither() throws Exception {
    Runs runs = everyMode((conf, in, out) -> {
      Job job = TestJobs.fileLines(conf, in, out);
      job.setNumReduceTasks(0); // Hadoop runs no combiner then, and neither may the device
      return job;
    }, "/text", TEXT_SPLIT_BYTES);
    long lines = texts.stream().mapToLong(DeviceJobTest::lines).sum();
    assertThat(runs.outputs().get(Mode.HOST)).hasSize((int) lines);
    assertThat(runs.outputs().get(Mode.DEVICE)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(runs.outputs().get(Mode.FALLBACK)).isEqualTo(runs.outputs().get(Mode.HOST));
    assertThat(counter(runs.counters().get(Mode.DEVICE), DeviceCounters.DEVICE_EXECUTIONS)).isEqualTo(runs.splits());
  }

  @Test
  void everySettingGivesTheSameResult() throws Exception {
    Map<String, Long> words = expectedWords();
    for (String[] setting : new String[][] {{DeviceMapperConfigKeys.MERGE, "device"},
        {DeviceMapperConfigKeys.MERGE, "host"}, {DeviceMapperConfigKeys.BUFFER_RECORDS, "7"},
        {DeviceMapperConfigKeys.RESULT_BATCH_BYTES, "100"}, {DeviceMapperConfigKeys.HOLD_RESULT_BYTES, "0"},
        {DeviceMapperConfigKeys.POLL_MAX_RESULT_BYTES, "1"},
        // A job's own comparators: the lane buffer is sorted with them instead of grouped by hashing.
        {MRJobConfig.KEY_COMPARATOR, Text.Comparator.class.getName()},
        {MRJobConfig.COMBINER_GROUP_COMPARATOR_CLASS, Text.Comparator.class.getName()},
        // The proxy map tasks reach the device through the C library.
        {ObjfsConfigKeys.TRANSPORT, "native"}}) {
      Configuration conf = conf(TEXT_SPLIT_BYTES);
      conf.set(setting[0], setting[1]);
      Path out = jobs.output();
      Job job = TestJobs.wordCount(conf, jobs.path("/text"), out);
      DeviceJobClient.configure(job);
      Counters counters = Jobs.run(job);
      assertThat(Jobs.counts(out)).as("%s=%s", setting[0], setting[1]).isEqualTo(words);
      assertThat(counter(counters, DeviceCounters.FALLBACK_SPLITS)).isZero();
    }
  }
}
