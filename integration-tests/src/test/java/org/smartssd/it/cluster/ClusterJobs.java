package org.smartssd.it.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.smartssd.examples.loganalysis.AnalysisResult;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.wc98.GeneratorParameters;
import org.smartssd.examples.wc98.Wc98Generator;
import org.smartssd.examples.wc98.Wc98Record;

/** Traces spread over devices, and log-analysis jobs run on a cluster with their counters kept. */
public final class ClusterJobs {
  private ClusterJobs() {}

  /** A finished job: what it found, its counters, and its task attempts' completion events. */
  public record Finished(AnalysisResult result, Counters counters, List<TaskCompletionEvent> events) {}

  /** The generator's first {@code n} records (its default parameters and seed). */
  public static List<Wc98Record> generate(long n) throws IOException {
    List<Wc98Record> out = new ArrayList<>();
    new Wc98Generator(GeneratorParameters.defaults()).generate(n, out::add);
    return out;
  }

  /**
   * Writes the records over the devices, in order, one object each ({@code path} on every device),
   * in equal whole-record parts (the first parts one record longer when they do not divide).
   *
   * @return the objects' paths, one a device
   */
  public static List<Path> spread(List<Wc98Record> records, List<DeviceNode> devices, String path,
      Configuration conf) throws IOException {
    List<Path> paths = new ArrayList<>();
    int n = devices.size();
    int from = 0;
    for (int i = 0; i < n; i++) {
      int count = records.size() / n + (i < records.size() % n ? 1 : 0);
      ByteBuffer b = ByteBuffer.allocate(count * Wc98Record.BYTES);
      records.subList(from, from + count).forEach(r -> r.write(b));
      from += count;
      Path p = new Path(devices.get(i).uri(path));
      try (FileSystem fs = FileSystem.newInstance(URI.create(devices.get(i).uri("/")), conf);
          OutputStream out = fs.create(p, true)) {
        out.write(b.array());
      }
      paths.add(p);
    }
    return paths;
  }

  /**
   * Runs a scenario in a mode as the log analysis does, on whatever cluster {@code conf} names,
   * and keeps the job's counters and events.
   *
   * @throws IOException if the job fails, with its failure information
   */
  public static Finished run(Configuration conf, Scenario scenario, Mode mode, List<Path> inputs, Path output)
      throws IOException, InterruptedException, ClassNotFoundException {
    Job job = LogAnalysis.createJob(conf, scenario, mode, inputs, output);
    if (!job.waitForCompletion(false)) {
      throw new IOException("job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo()
          + "; task diagnostics: " + diagnostics(job));
    }
    return new Finished(result(scenario, job), job.getCounters(), events(job));
  }

  /** The result in a finished job's output directory. */
  public static AnalysisResult result(Scenario scenario, Job job) throws IOException {
    Path output = FileOutputFormat.getOutputPath(job);
    List<String> lines = LogAnalysis.readOutput(output.getFileSystem(job.getConfiguration()), output);
    return AnalysisResult.fromJobOutput(scenario, lines);
  }

  /** Every task attempt's completion event of a job. */
  public static List<TaskCompletionEvent> events(Job job) throws IOException, InterruptedException {
    List<TaskCompletionEvent> events = new ArrayList<>();
    for (int from = 0; ; ) {
      TaskCompletionEvent[] batch = job.getTaskCompletionEvents(from, 100);
      if (batch.length == 0) {
        return events;
      }
      events.addAll(Arrays.asList(batch));
      from += batch.length;
    }
  }

  /** The diagnostics of a job's failed task attempts, one line each. */
  public static List<String> diagnostics(Job job) throws IOException, InterruptedException {
    List<String> out = new ArrayList<>();
    for (TaskCompletionEvent e : events(job)) {
      if (e.getStatus() == TaskCompletionEvent.Status.FAILED || e.getStatus() == TaskCompletionEvent.Status.TIPFAILED) {
        for (String d : job.getTaskDiagnostics(e.getTaskAttemptId())) {
          out.add(e.getTaskAttemptId() + ": " + d.lines().findFirst().orElse(""));
        }
      }
    }
    return out;
  }
}
