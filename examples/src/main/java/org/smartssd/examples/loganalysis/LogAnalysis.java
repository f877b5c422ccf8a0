package org.smartssd.examples.loganalysis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.devicemapper.JavaDeflateCodec;
import org.smartssd.devicemapper.JavaGzipCodec;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.examples.wc98.Wc98FormatException;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * The World Cup 1998 log analysis as Hadoop jobs: builds the job of a scenario in a mode, runs it,
 * measures it, and reads its result. Jobs read the trace with {@link FixedLengthInputFormat} (20-byte
 * records, or wider ones padded as {@link TraceLoader} stores them: {@link #RECORD_BYTES};
 * {@code BytesWritable} values) and have one reducer.
 */
public final class LogAnalysis {
  private static final Logger LOG = LoggerFactory.getLogger(LogAnalysis.class);

  /** Hadoop's key for how often the client polls a running job; its default of 5 s would round every run up. */
  public static final String POLL_INTERVAL = "mapreduce.client.completion.pollinterval";
  public static final String POLL_INTERVAL_MS = "50";
  /** {@link AnalysisKeys#RECORD_BYTES}. */
  public static final String RECORD_BYTES = AnalysisKeys.RECORD_BYTES;
  public static final int RECORD_BYTES_DEFAULT = AnalysisKeys.RECORD_BYTES_DEFAULT;

  /** The file beside the job's part files that holds the printed result (hidden from Hadoop inputs by its '_'). */
  public static final String RESULT_FILE = "_result.tsv";

  private LogAnalysis() {}

  /**
   * The configuration of the analyses: Hadoop's local runner unless {@code mapreduce.framework.name}
   * says otherwise, polls every 50 ms; then the overrides ({@code -D key=value}).
   */
  public static Configuration configuration(Map<String, String> overrides) {
    // A JobConf reads mapred-default.xml and mapred-site.xml, as Hadoop's own commands do, so that a
    // cluster's mapred-site.xml on the class path (mapreduce.framework.name=yarn) is obeyed; a plain
    // Configuration would not see it, and every job would run on the local runner.
    Configuration conf = new JobConf();
    conf.setIfUnset("mapreduce.framework.name", "local");
    conf.set(POLL_INTERVAL, POLL_INTERVAL_MS);
    // The command line parses its own options; Hadoop need not warn that it did not.
    conf.setBoolean("mapreduce.client.genericoptionsparser.used", true);
    // A gzip or zlib trace is decompressed on the host by the same Java inflater the device runs, so
    // that the host's decompression is counted as the device's is (zlib's, native, would not be).
    conf.setIfUnset(CommonConfigurationKeys.IO_COMPRESSION_CODECS_KEY, JavaGzipCodec.class.getName() + ","
        + JavaDeflateCodec.class.getName());
    overrides.forEach(conf::set);
    return conf;
  }

  /**
   * The stored record size of a configuration ({@value #RECORD_BYTES}).
   *
   * @throws IllegalArgumentException naming the key when it is not a number from 20 to 1 MiB
   */
  public static int recordBytes(Configuration conf) {
    String value = conf.getTrimmed(RECORD_BYTES, Integer.toString(RECORD_BYTES_DEFAULT));
    long bytes;
    try {
      bytes = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(RECORD_BYTES + "='" + value + "' is not a whole number of bytes");
    }
    return Wc98Record.checkStoredBytes(RECORD_BYTES, bytes);
  }

  /** A configured job of a scenario in a mode, not yet submitted. */
  public static Job createJob(Configuration conf, Scenario scenario, Mode mode, List<Path> inputs, Path output)
      throws IOException {
    if (!Mode.JOBS.contains(mode)) {
      throw new IllegalArgumentException("mode " + mode.optionName() + " runs no Hadoop job");
    }
    Job job = Job.getInstance(conf, "wc98 " + scenario.optionName() + " " + mode.optionName());
    job.setJarByClass(LogAnalysis.class);
    job.setInputFormatClass(FixedLengthInputFormat.class);
    FixedLengthInputFormat.setRecordLength(job.getConfiguration(), recordBytes(conf));
    for (Path input : inputs) {
      FileInputFormat.addInputPath(job, input);
    }
    job.setMapperClass(mapperClass(scenario, mode));
    if (mode != Mode.HOST_OPTIMIZED) {
      job.setCombinerClass(CountSumReducer.class);
    }
    job.setReducerClass(CountSumReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setNumReduceTasks(1);
    FileOutputFormat.setOutputPath(job, output);
    if (mode == Mode.DEVICE) {
      DeviceMode.configure(job, HostInterfaceMeter.devices(conf, inputs).size());
    }
    return job;
  }

  /** The mapper of a scenario in a mode; host-normal and device share theirs. */
  public static Class<? extends Mapper<LongWritable, ?, Text, LongWritable>> mapperClass(Scenario scenario, Mode mode) {
    boolean inMapperCombining = mode == Mode.HOST_OPTIMIZED;
    if (scenario == Scenario.REGIONS) {
      return inMapperCombining ? InMapperRegionMapper.class : RegionMapper.class;
    }
    return inMapperCombining ? InMapperRegionTypeMapper.class : RegionTypeMapper.class;
  }

  /**
   * Runs a scenario in a mode over the inputs and measures it.
   *
   * @param output the job's output directory, kept (it must not exist, as Hadoop wants), or null for a
   *     temporary one, deleted after; a failed job leaves no output behind
   * @throws Wc98FormatException if an input file is not a whole number of records (checked before the job)
   * @throws IOException if the job fails, with the reason
   */
  public static AnalysisRun run(Configuration conf, Scenario scenario, Mode mode, List<Path> inputs, Path output)
      throws IOException, InterruptedException {
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("no input");
    }
    int recordBytes = recordBytes(conf);
    InputBytes checked = checkInputs(conf, inputs, recordBytes);
    long inputBytes = checked.plain();
    java.nio.file.Path temporary = null;
    Path out = output;
    if (out == null) {
      temporary = Files.createTempDirectory("smartssd-loganalysis-");
      out = new Path(temporary.toUri().toString(), "output");
    }
    FileSystem outFs = out.getFileSystem(conf);
    if (output != null && outFs.exists(out)) {
      // Hadoop's rule; checked here so that a refused run never touches what is there.
      throw new org.apache.hadoop.mapred.FileAlreadyExistsException("output directory " + outFs.makeQualified(out)
          + " already exists");
    }
    boolean succeeded = false;
    try {
      Path outPath = out;
      MeasuredJob.Measurement<AnalysisResult> measured = mode == Mode.DEVICE_BUILTIN
          ? BuiltInAnalysis.run(conf, scenario, inputs, recordBytes)
          : MeasuredJob.run(conf, mode, inputs,
              () -> createJob(conf, scenario, mode, inputs, outPath),
              job -> AnalysisResult.fromJobOutput(scenario, readOutput(outFs, outPath)),
              () -> inputProblem(conf, scenario, inputs));
      AnalysisResult result = measured.result();
      if (checked.compressed()) {
        inputBytes = result.total() * recordBytes; // the input's bytes decompressed: the records the job read
      } else if (result.total() != inputBytes / recordBytes) {
        throw new IOException("the job counted " + result.total() + " records, but the input holds "
            + inputBytes / recordBytes);
      }
      RunStatistics statistics = measured.statistics(scenario, mode, inputBytes, recordBytes);
      if (output != null) {
        try (OutputStream o = outFs.create(new Path(out, RESULT_FILE), false)) {
          o.write(result.text().getBytes(StandardCharsets.UTF_8));
        }
      }
      succeeded = true;
      return new AnalysisRun(result, statistics);
    } finally {
      if (!succeeded || temporary != null) {
        deleteQuietly(outFs, out);
      }
      if (temporary != null) {
        Files.deleteIfExists(temporary);
      }
    }
  }

  /**
   * Each device's part of a run: its counters over the run (STATISTICS, before and after): host
   * interface, flash, the modelled time its executions were in progress (overlapping ones once: an
   * unpaced device may start a split's execution before the model has finished the last), and its
   * energy account. A device the job's counters name but the meter did not read (none expected) gets
   * the counters' execution time, and no energy: only a device models its own.
   */
  static List<RunStatistics.DeviceShare> shares(Map<String, HostInterfaceMeter.Snapshot> used, DeviceMode.Values device) {
    Map<String, Long> execution = new LinkedHashMap<>(device.modelledNanosByDevice());
    List<RunStatistics.DeviceShare> shares = new ArrayList<>();
    used.forEach((address, s) -> shares.add(new RunStatistics.DeviceShare(address,
        s.executionNanos(), s.linkBusyNanos(), s.hostBytesIn(), s.hostBytesOut(), s.flash(),
        s.internalDelayNanos(), s.answersBehindNanos(), s.commandNanos(), s.energy())));
    execution.forEach((address, nanos) -> {
      if (!used.containsKey(address)) {
        LOG.warn("device {} ran executions but its statistics were not read; its execution time is the job's "
            + "counters' sum, and its energy is left out", address);
        shares.add(new RunStatistics.DeviceShare(address, nanos, 0, 0, 0, RunStatistics.FlashWork.NONE, 0, 0, 0,
            DeviceEnergy.NONE));
      }
    });
    return shares;
  }

  /** This JVM's CPU time: every thread of the process, including the local runner's tasks. */
  static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return Math.max(0, sun.getProcessCpuTime());
    }
    return 0;
  }

  /**
   * Checks that every input file is a whole number of records of {@code recordBytes}, before a job
   * starts: a truncated file would fail in its record reader anyway, but this names the file and the
   * offset.
   *
   * @return the bytes of the uncompressed input files, and whether any is compressed (its records are
   *     then known only once the job read them)
   */
  static InputBytes checkInputs(Configuration conf, List<Path> inputs, int recordBytes) throws IOException {
    long bytes = 0;
    boolean compressed = false;
    for (Path input : inputs) {
      FileSystem fs = input.getFileSystem(conf);
      FileStatus status = fs.getFileStatus(input);
      List<FileStatus> files = new ArrayList<>();
      if (status.isDirectory()) {
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(input, true);
        while (it.hasNext()) {
          LocatedFileStatus f = it.next();
          if (!hidden(f.getPath(), input)) {
            files.add(f);
          }
        }
      } else {
        files.add(status);
      }
      CompressionCodecFactory codecs = new CompressionCodecFactory(conf);
      for (FileStatus f : files) {
        if (codecs.getCodec(f.getPath()) != null) {
          compressed = true; // its records are counted by the job: their bytes are known only decompressed
          continue;
        }
        long partial = f.getLen() % recordBytes;
        if (partial != 0) {
          throw new Wc98FormatException(f.getPath().toString(), f.getLen() - partial, "truncated record: the file ends "
              + partial + " bytes into a " + recordBytes + "-byte record" + (recordBytes == Wc98Record.BYTES ? ""
                  : " (" + RECORD_BYTES + "=" + recordBytes + "; was the trace loaded with that --record-bytes?)"));
        }
        bytes += f.getLen();
      }
    }
    return new InputBytes(bytes, compressed);
  }

  /** The bytes of a job's uncompressed input files, and whether it has compressed ones too. */
  record InputBytes(long plain, boolean compressed) {}

  /** As FileInputFormat: names starting with '_' or '.' below the input are not read. */
  private static boolean hidden(Path file, Path root) {
    for (Path p = file; p != null && !p.equals(root) && p.getParent() != null; p = p.getParent()) {
      String name = p.getName();
      if (name.startsWith("_") || name.startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /** The lines of a job's output directory: its {@code part-*} files in name order. */
  public static List<String> readOutput(FileSystem fs, Path out) throws IOException {
    FileStatus[] parts = fs.listStatus(out, p -> p.getName().startsWith("part-"));
    Arrays.sort(parts);
    List<String> lines = new ArrayList<>();
    for (FileStatus part : parts) {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          lines.add(line);
        }
      }
    }
    return lines;
  }

  /** Why a job failed when no task says: a scan of the input for the first record the mappers refuse. */
  private static String inputProblem(Configuration conf, Scenario scenario, List<Path> inputs) {
    try {
      String problem = InputDiagnosis.firstProblem(conf, scenario, inputs);
      return problem != null ? ": " + problem : " (the input's records are valid; the task's error is in the job's"
          + " log; from the smartssd command, rerun with SMARTSSD_JAVA_OPTS=-Dorg.slf4j.simpleLogger.log."
          + "org.apache.hadoop.mapred.LocalJobRunner=warn to see it)";
    } catch (IOException e) {
      return " (and reading the input to find why failed too: " + e.getMessage() + ")";
    }
  }

  private static void deleteQuietly(FileSystem fs, Path path) {
    try {
      fs.delete(path, true);
    } catch (IOException e) {
      LOG.warn("could not delete {}: {}", path, e.toString());
    }
  }
}
