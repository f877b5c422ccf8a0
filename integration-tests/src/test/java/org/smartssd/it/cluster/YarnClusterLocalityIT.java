package org.smartssd.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.examples.loganalysis.CountSumReducer;

/**
 * Plain MapReduce jobs (no device) on a three-node {@link YarnCluster}: every map runs on the node its
 * split names, and a job survives losing a NodeManager, re-running that node's maps, the finished one too.
 *
 * <p>The node of an attempt is read from the job's task completion events (each names the node's map
 * output server, {@code http://<node host>:<shuffle port>}); the task itself counts the host its split
 * named and the node it runs on (the {@code NM_HOST} its NodeManager set), so that each task's report
 * ties its split to its node.
 */
class YarnClusterLocalityIT {
  private static final Logger LOG = LoggerFactory.getLogger(YarnClusterLocalityIT.class);
  private static final int NODES = 3;
  private static final int SPLITS_PER_NODE = 2;
  private static final int SPLITS = NODES * SPLITS_PER_NODE;
  private static final int RECORDS_PER_SPLIT = 1000;
  private static final int KEYS = 7;

  private static final String SPLIT_HOSTS = "it.split.hosts";
  private static final String HELD_SPLITS = "it.split.held";
  private static final String MARKER_DIR = "it.marker.dir";
  private static final String SPLIT_HOST_GROUP = "split host";
  private static final String NODE_GROUP = "ran on";
  private static final long HOLD_LIMIT_MS = 120_000;

  @TempDir Path dir;

  @Test
  void everyMapRunsOnTheNodeItsSplitNames() throws Exception {
    try (YarnCluster yarn = YarnCluster.start(NODES, dir.resolve("yarn"))) {
      assertEquals(NODES, Stream.of(hosts(yarn)).distinct().count(), List.of(hosts(yarn)).toString());
      Job job = job(yarn, "");
      assertTrue(job.waitForCompletion(false), job.getStatus().toString());
      assertEquals(expected(), output());

      var counters = job.getCounters();
      assertEquals(SPLITS, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(), counters.toString());
      assertEquals(SPLITS, counters.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(), counters.toString());
      assertEquals(0, counters.findCounter(JobCounter.RACK_LOCAL_MAPS).getValue(), counters.toString());
      assertEquals(0, counters.findCounter(JobCounter.OTHER_LOCAL_MAPS).getValue(), counters.toString());

      Map<TaskID, String> ranOn = successfulMapNodes(job);
      TaskReport[] reports = job.getTaskReports(TaskType.MAP);
      assertEquals(SPLITS, reports.length);
      Map<String, Integer> perNode = new TreeMap<>();
      for (TaskReport report : reports) {
        String named = only(report, SPLIT_HOST_GROUP);
        assertEquals(named, ranOn.get(report.getTaskID()), "the node of " + report.getTaskID());
        assertEquals(named, only(report, NODE_GROUP), "NM_HOST inside " + report.getTaskID());
        perNode.merge(named, 1, Integer::sum);
      }
      Map<String, Integer> expectedPerNode = new TreeMap<>();
      for (String host : hosts(yarn)) {
        expectedPerNode.put(host, SPLITS_PER_NODE);
      }
      assertEquals(expectedPerNode, perNode);
    }
  }

  @Test
  void aJobSurvivesLosingANodeManagerAndReRunsItsMaps() throws Exception {
    try (YarnCluster yarn = YarnCluster.start(NODES, dir.resolve("yarn"))) {
      // Split 2i+1 (on node i) holds its first attempt until released; split 2i finishes at once.
      List<String> held = new ArrayList<>();
      for (int s = 1; s < SPLITS; s += SPLITS_PER_NODE) {
        held.add(Integer.toString(s));
      }
      Path markers = Files.createDirectories(dir.resolve("markers"));
      Job job = job(yarn, String.join(",", held));
      job.submit();
      awaitMaps(job, markers, held.size(), SPLITS - held.size());

      // Lose a node that holds a finished map and a running one, but not the application master.
      int master = yarn.applicationMasterNode(job.getJobID());
      assertTrue(master >= 0, "no node runs the application master");
      int victim = master == 0 ? 1 : 0;
      String lostHost = yarn.nodeHost(victim);
      yarn.loseNodeManager(victim);
      assertEquals(NodeState.LOST, yarn.nodeState(victim));
      Files.createFile(markers.resolve("release"));

      assertTrue(job.waitForCompletion(false), job.getStatus().toString());
      assertEquals(expected(), output());

      var counters = job.getCounters();
      LOG.info("Counters of the job that lost node {} ({}): {}", victim, lostHost, counters);
      // Six first attempts, each on its split's node; then the lost node's two maps again, elsewhere: the
      // finished one's output went with the node, the running one with its JVM. Both attempts count as
      // killed (by the node's loss), not failed.
      assertEquals(SPLITS + SPLITS_PER_NODE, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
          counters.toString());
      assertEquals(SPLITS, counters.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(), counters.toString());
      assertEquals(SPLITS_PER_NODE, counters.findCounter(JobCounter.RACK_LOCAL_MAPS).getValue()
          + counters.findCounter(JobCounter.OTHER_LOCAL_MAPS).getValue(), counters.toString());
      assertEquals(SPLITS_PER_NODE, counters.findCounter(JobCounter.NUM_KILLED_MAPS).getValue(), counters.toString());
      assertEquals(0, counters.findCounter(JobCounter.NUM_FAILED_MAPS).getValue(), counters.toString());

      // The re-run tasks are exactly the lost node's, and they finished on other nodes.
      Map<TaskID, String> ranOn = successfulMapNodes(job);
      List<TaskID> reRun = new ArrayList<>();
      for (TaskReport report : job.getTaskReports(TaskType.MAP)) {
        String named = only(report, SPLIT_HOST_GROUP);
        String node = ranOn.get(report.getTaskID());
        assertEquals(node, only(report, NODE_GROUP), "NM_HOST inside " + report.getTaskID());
        if (named.equals(lostHost)) {
          assertNotEquals(lostHost, node, report.getTaskID() + " finished on the lost node");
          reRun.add(report.getTaskID());
        } else {
          assertEquals(named, node, "the node of " + report.getTaskID());
        }
      }
      assertEquals(SPLITS_PER_NODE, reRun.size());
      Map<TaskID, List<TaskCompletionEvent>> byTask = mapEvents(job).stream()
          .collect(Collectors.groupingBy(e -> e.getTaskAttemptId().getTaskID()));
      for (TaskID task : reRun) {
        assertTrue(byTask.get(task).stream().anyMatch(e -> e.getStatus() != TaskCompletionEvent.Status.SUCCEEDED
            && host(e).equals(lostHost)), "an attempt of " + task + " lost with the node: " + byTask.get(task));
      }
    }
  }

  private static String[] hosts(YarnCluster yarn) {
    String[] hosts = new String[NODES];
    for (int i = 0; i < NODES; i++) {
      hosts[i] = yarn.nodeHost(i);
    }
    return hosts;
  }

  /** A job of {@link #SPLITS} splits, {@link #SPLITS_PER_NODE} naming each node; {@code held} lists split indices. */
  private Job job(YarnCluster yarn, String held) throws IOException {
    Configuration conf = yarn.jobConf();
    List<String> splitHosts = new ArrayList<>();
    for (int s = 0; s < SPLITS; s++) {
      splitHosts.add(yarn.nodeHost(s / SPLITS_PER_NODE));
    }
    conf.set(SPLIT_HOSTS, String.join(",", splitHosts));
    conf.set(HELD_SPLITS, held);
    conf.set(MARKER_DIR, dir.resolve("markers").toString());
    // Reducers start only once every map has finished: they take no room a map could use, and while a
    // map is held no reducer is done, so that the maps of a lost node are run again.
    conf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
    // A held map must not get a speculative twin: attempts are counted.
    conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    conf.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);
    Job job = Job.getInstance(conf, "locality");
    job.setInputFormatClass(HostSplits.class);
    job.setMapperClass(ModuloMapper.class);
    job.setReducerClass(CountSumReducer.class); // the log analysis's own sum
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setNumReduceTasks(1);
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(dir.resolve("output").toUri()));
    return job;
  }

  /** Waits until {@code finished} maps succeeded and {@code held} maps started and wait for release. */
  private static void awaitMaps(Job job, Path markers, int held, int finished) throws Exception {
    long deadline = System.nanoTime() + 90_000_000_000L;
    while (true) {
      long succeeded = mapEvents(job).stream()
          .filter(e -> e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED).count();
      long started;
      try (Stream<Path> files = Files.list(markers)) {
        started = files.filter(p -> p.getFileName().toString().startsWith("started-")).count();
      }
      if (succeeded == finished && started == held) {
        return;
      }
      if (job.isComplete() || System.nanoTime() > deadline) {
        throw new AssertionError("expected " + finished + " maps finished and " + held + " held, saw " + succeeded
            + " and " + started + "; job " + job.getStatus());
      }
      Thread.sleep(100);
    }
  }

  private static List<TaskCompletionEvent> mapEvents(Job job) throws IOException, InterruptedException {
    List<TaskCompletionEvent> events = new ArrayList<>();
    while (true) {
      TaskCompletionEvent[] batch = job.getTaskCompletionEvents(events.size(), 100);
      if (batch.length == 0) {
        break;
      }
      events.addAll(List.of(batch));
    }
    events.removeIf(e -> !e.isMapTask());
    return events;
  }

  /** The node (host) on which each map task's successful attempt ran. */
  private static Map<TaskID, String> successfulMapNodes(Job job) throws IOException, InterruptedException {
    Map<TaskID, String> nodes = new HashMap<>();
    for (TaskCompletionEvent e : mapEvents(job)) {
      if (e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        nodes.put(e.getTaskAttemptId().getTaskID(), host(e));
      }
    }
    return nodes;
  }

  private static String host(TaskCompletionEvent event) {
    return URI.create(event.getTaskTrackerHttp()).getHost();
  }

  /** The name of the one counter in a task's group. */
  private static String only(TaskReport report, String group) {
    CounterGroup counters = report.getTaskCounters().getGroup(group);
    List<String> names = new ArrayList<>();
    for (Counter c : counters) {
      names.add(c.getName());
    }
    assertEquals(1, names.size(), group + " of " + report.getTaskID() + ": " + names);
    return names.get(0);
  }

  private static Map<String, Long> expected() {
    Map<String, Long> sums = new TreeMap<>();
    for (long n = 0; n < (long) SPLITS * RECORDS_PER_SPLIT; n++) {
      sums.merge(ModuloMapper.key(n), n, Long::sum);
    }
    return sums;
  }

  private Map<String, Long> output() throws IOException {
    Map<String, Long> sums = new TreeMap<>();
    try (Stream<Path> parts = Files.list(dir.resolve("output"))) {
      for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
        for (String line : Files.readAllLines(part)) {
          String[] kv = line.split("\t");
          assertEquals(null, sums.put(kv[0], Long.parseLong(kv[1])), "key twice: " + kv[0]);
        }
      }
    }
    return sums;
  }

  /** A split of numbers in memory that names one host. */
  public static final class HostSplit extends InputSplit implements Writable {
    private int index;
    private String host;

    public HostSplit() {
    }

    HostSplit(int index, String host) {
      this.index = index;
      this.host = host;
    }

    @Override
    public long getLength() {
      return RECORDS_PER_SPLIT;
    }

    @Override
    public String[] getLocations() {
      return new String[] {host};
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(index);
      out.writeUTF(host);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      index = in.readInt();
      host = in.readUTF();
    }
  }

  /** One {@link HostSplit} for each host listed in {@link #SPLIT_HOSTS}. */
  public static final class HostSplits extends InputFormat<LongWritable, NullWritable> {
    @Override
    public List<InputSplit> getSplits(JobContext context) {
      String[] hosts = context.getConfiguration().getStrings(SPLIT_HOSTS);
      if (hosts == null) {
        throw new IllegalArgumentException(SPLIT_HOSTS + " is not set");
      }
      List<InputSplit> splits = new ArrayList<>();
      for (int i = 0; i < hosts.length; i++) {
        splits.add(new HostSplit(i, hosts[i]));
      }
      return splits;
    }

    @Override
    public RecordReader<LongWritable, NullWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
      return new RecordReader<>() {
        private long first;
        private long next;
        private final LongWritable key = new LongWritable();

        @Override
        public void initialize(InputSplit s, TaskAttemptContext c) {
          first = (long) ((HostSplit) s).index * RECORDS_PER_SPLIT;
          next = first;
        }

        @Override
        public boolean nextKeyValue() {
          if (next == first + RECORDS_PER_SPLIT) {
            return false;
          }
          key.set(next++);
          return true;
        }

        @Override
        public LongWritable getCurrentKey() {
          return key;
        }

        @Override
        public NullWritable getCurrentValue() {
          return NullWritable.get();
        }

        @Override
        public float getProgress() {
          return (next - first) / (float) RECORDS_PER_SPLIT;
        }

        @Override
        public void close() {
        }
      };
    }
  }

  /**
   * Emits (n mod 7, n). Counts its split's host and its node; the first attempt of a held split marks that it
   * started and waits for the release marker.
   */
  public static final class ModuloMapper extends Mapper<LongWritable, NullWritable, Text, LongWritable> {
    private final Text word = new Text();
    private final LongWritable number = new LongWritable();

    static String key(long n) {
      return "k" + (n % KEYS);
    }

    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      HostSplit split = (HostSplit) context.getInputSplit();
      context.getCounter(SPLIT_HOST_GROUP, split.host).increment(1);
      String node = System.getenv(ApplicationConstants.Environment.NM_HOST.name());
      if (node == null) {
        throw new IllegalStateException("NM_HOST is not set: this task does not run in a YARN container");
      }
      context.getCounter(NODE_GROUP, node).increment(1);
      Configuration conf = context.getConfiguration();
      boolean held = List.of(conf.getTrimmedStrings(HELD_SPLITS)).contains(Integer.toString(split.index));
      if (held && context.getTaskAttemptID().getId() == 0) {
        Path markers = Path.of(conf.get(MARKER_DIR));
        Files.createFile(markers.resolve("started-" + split.index));
        long deadline = System.nanoTime() + HOLD_LIMIT_MS * 1_000_000;
        while (!Files.exists(markers.resolve("release"))) {
          if (System.nanoTime() > deadline) {
            throw new IOException("split " + split.index + " was not released within " + HOLD_LIMIT_MS + " ms");
          }
          context.progress();
          Thread.sleep(50);
        }
      }
    }

    @Override
    protected void map(LongWritable key, NullWritable value, Context context) throws IOException, InterruptedException {
      word.set(key(key.get()));
      number.set(key.get());
      context.write(word, number);
    }
  }
}
