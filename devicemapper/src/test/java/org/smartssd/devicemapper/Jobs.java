package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.objectfs.ObjfsConfigKeys;

/** A device in this JVM, files on it through objfs, and jobs on Hadoop's local runner. */
final class Jobs implements AutoCloseable {
  /** What a device needs to run MapReduce tasklets. */
  static final String SHARED_PACKAGES = org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_SHARED_PACKAGES_DEFAULT;

  final SimulatedDevice device;
  final URI root;
  final FileSystem fs;
  private final java.nio.file.Path work;
  private int jobs;

  private Jobs(SimulatedDevice device, java.nio.file.Path work) throws IOException {
    this.device = device;
    this.root = URI.create("objfs://" + device.address() + "/");
    this.work = work;
    this.fs = FileSystem.newInstance(root, conf());
  }

  /**
   * A device sharing Hadoop's packages and the MapReduce runtime with tasklets, as by default (or, with
   * {@code shareHadoop} false, only the tasklet API: a device that cannot run MapReduce tasklets).
   */
  static Jobs start(java.nio.file.Path work, boolean shareHadoop) throws IOException {
    return start(work, shareHadoop, Map.of());
  }

  /** As {@link #start(java.nio.file.Path, boolean)}, with more device settings. */
  static Jobs start(java.nio.file.Path work, boolean shareHadoop, Map<String, String> settings) throws IOException {
    Map<String, String> o = TestDevices.small(work.resolve("device"));
    o.putAll(settings);
    o.put("smartssd.device.isp.shared-packages", shareHadoop ? SHARED_PACKAGES : "org.smartssd.device.tasklet.");
    return new Jobs(TestDevices.start(o), work);
  }

  /** The local runner, polling for completion every 50 ms, its files under the test's directory. */
  Configuration conf() {
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.client.completion.pollinterval", "50");
    conf.set("hadoop.tmp.dir", work.resolve("hadoop").toString());
    conf.set("fs.defaultFS", "file:///");
    conf.set(ObjfsConfigKeys.CONNECT_TIMEOUT, "5s");
    conf.set(ObjfsConfigKeys.REQUEST_TIMEOUT, "30s");
    device.config().secret().ifPresent(s -> conf.set(ObjfsConfigKeys.SECRET_FILE, s.source()));
    return conf;
  }

  Path path(String devicePath) {
    return new Path(root.resolve(devicePath.startsWith("/") ? devicePath.substring(1) : devicePath));
  }

  void write(String devicePath, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(path(devicePath), true)) {
      out.write(bytes);
    }
  }

  /** A fresh local output directory. */
  Path output() {
    return new Path(work.resolve("out-" + (++jobs)).toUri());
  }

  /** Runs the job to completion and returns its counters. */
  static Counters run(Job job) throws Exception {
    assertThat(job.waitForCompletion(false)).as("job %s succeeded", job.getJobName()).isTrue();
    return job.getCounters();
  }

  /** The job's output lines, sorted. */
  static List<String> lines(Path output) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<java.nio.file.Path> files = Files.list(java.nio.file.Path.of(output.toUri()))) {
      for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
        if (f.getFileName().toString().startsWith("part-")) {
          lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
        }
      }
    }
    Collections.sort(lines);
    return lines;
  }

  /** "KEY\tCOUNT" output lines as a map. */
  static Map<String, Long> counts(Path output) throws IOException {
    return counts(lines(output));
  }

  /** "KEY\tCOUNT" lines as a map. */
  static Map<String, Long> counts(List<String> lines) {
    Map<String, Long> counts = new TreeMap<>();
    for (String line : lines) {
      int tab = line.lastIndexOf('\t');
      counts.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
    }
    return counts;
  }

  static long counter(Counters counters, Enum<?> counter) {
    return counters.findCounter(counter).getValue();
  }

  @Override
  public void close() throws IOException {
    try {
      fs.close();
    } finally {
      device.close();
    }
  }
}
