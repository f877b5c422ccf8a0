package org.smartssd.examples.mining;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * PageRank (power iterations) as Hadoop jobs over an edge list: each iteration's job gives every edge's
 * destination its source's share of rank ({@link PageRankMapper}), sums each node's shares (Hadoop's own
 * {@link LongSumReducer}) and makes the new ranks ({@link RankReducer}); the previous ranks (the last
 * iteration's reducer output) and the out-degrees are files on the devices, which the job's configuration
 * names and its tasks read ({@link RankVector}). Edges are 8-byte records.
 *
 * <p>rank'(v) = base + d x sum over edges u -> v of rank(u) / outdeg(u), where base = ((1 - d) + d x the
 * dangling nodes' rank) / N: a node without out-links spreads its rank over all nodes, as if it linked to
 * every one, so that the ranks keep summing to 1 (less what the rounding down of fixed point drops). All in
 * fixed point ({@link RankVector#ONE}), with d in millionths: every sum is an integer sum, exact in any
 * order. The first ranks are 1 / N each. A fixed number of iterations.
 */
public final class PageRank implements IterativeMining<long[]> {
  /** {@code smartssd mine}'s damping factor, the usual one. */
  public static final double DEFAULT_DAMPING = 0.85;

  private final Graph graph;
  private final long[] outDegrees;
  private final int dampingPpm;
  private final int iterations;

  /** @param damping d, 0 to 1, taken in millionths */
  public PageRank(Graph graph, double damping, int iterations) {
    if (!(damping >= 0 && damping <= 1)) {
      throw new IllegalArgumentException("the damping factor must be between 0 and 1, not " + damping);
    }
    if (iterations < 1) {
      throw new IllegalArgumentException("iterations must be 1 or more, not " + iterations);
    }
    this.graph = graph;
    this.outDegrees = graph.outDegrees();
    this.dampingPpm = (int) Math.round(damping * RankVector.MILLION);
    this.iterations = iterations;
  }

  @Override
  public Algorithm algorithm() {
    return Algorithm.PAGERANK;
  }

  @Override
  public String description() {
    long dangling = IntStream.range(0, graph.nodes()).filter(v -> outDegrees[v] == 0).count();
    return String.format(Locale.ROOT, "%,d nodes (%,d dangling), %,d edges: %s; damping %s, %d iterations",
        graph.nodes(), dangling, graph.edges(), graph.source(), dampingPpm / (double) RankVector.MILLION, iterations);
  }

  @Override
  public long[] initial() {
    long[] ranks = new long[graph.nodes()];
    java.util.Arrays.fill(ranks, RankVector.ONE / graph.nodes());
    return ranks;
  }

  /** What every node gets before its in-links' share: ((1 - d) + d x the dangling nodes' rank) / N, fixed point. */
  long base(long[] ranks) {
    long dangling = 0;
    for (int v = 0; v < ranks.length; v++) {
      if (outDegrees[v] == 0) {
        dangling += ranks[v];
      }
    }
    return base(dangling);
  }

  /** The base term from the dangling nodes' rank (fixed point). */
  long base(long danglingRank) {
    long teleport = RankVector.ONE * (RankVector.MILLION - dampingPpm) / RankVector.MILLION;
    return (teleport + Math.multiplyExact(danglingRank, (long) dampingPpm) / RankVector.MILLION) / graph.nodes();
  }

  /** The names of the side files: the out-degrees (for the mappers), the dangling nodes (for the reducer). */
  static final String OUT_DEGREES_FILE = "out-degrees";
  static final String DANGLING_FILE = "dangling";

  @Override
  public boolean stateInDevices() {
    return true;
  }

  /**
   * The out-degrees (N varints, read by every iteration's mappers) and the dangling nodes (read by its reducer),
   * written once to each device.
   */
  @Override
  public Map<String, byte[]> sideFiles() {
    return Map.of(OUT_DEGREES_FILE, RankVector.outDegreesFile(outDegrees), DANGLING_FILE,
        RankVector.danglingFile(outDegrees));
  }

  /**
   * An iteration's job. Its ranks are the previous iteration's reducer output (the step's state file; none for
   * the first iteration, whose ranks are all 1 / N), a node without a line having the previous job's base; its
   * base term comes from the dangling nodes' rank the previous job's reducer counted (for the first iteration,
   * from the first ranks). The driver reads no rank to make it.
   */
  @Override
  public Job job(Configuration conf, Step<long[]> step) throws IOException {
    long rankDefault;
    long base;
    if (step.previous() == null) {
      long[] first = initial();
      rankDefault = first[0];
      base = base(first);
    } else {
      rankDefault = RankVector.base(step.previous().getConfiguration());
      base = base(step.previous().getCounters().findCounter(RankReducer.Totals.DANGLING_RANK).getValue());
      if (step.stateFiles().isEmpty()) {
        throw new IllegalArgumentException("pagerank iteration " + step.iteration() + ": no ranks file from iteration "
            + (step.iteration() - 1));
      }
    }
    List<Path> degrees = step.sideFiles().get(OUT_DEGREES_FILE);
    List<Path> dangling = step.sideFiles().get(DANGLING_FILE);
    if (degrees == null || degrees.isEmpty() || dangling == null || dangling.isEmpty()) {
      throw new IllegalArgumentException("pagerank iteration " + step.iteration() + ": no out-degrees or dangling "
          + "nodes file");
    }
    Job job = Job.getInstance(conf, "pagerank iteration " + step.iteration());
    job.setJarByClass(PageRank.class);
    job.setInputFormatClass(FixedLengthInputFormat.class);
    FixedLengthInputFormat.setRecordLength(job.getConfiguration(), PageRankMapper.EDGE_BYTES);
    for (Path input : step.inputs()) {
      FileInputFormat.addInputPath(job, input);
    }
    Configuration c = job.getConfiguration();
    if (!step.stateFiles().isEmpty()) {
      c.set(RankVector.RANKS_PATH, String.join(",", step.stateFiles().stream().map(Path::toString).toList()));
    }
    c.setLong(RankVector.RANK_DEFAULT, rankDefault);
    c.set(RankVector.OUT_DEGREES_PATH, String.join(",", degrees.stream().map(Path::toString).toList()));
    c.set(RankVector.DANGLING_PATH, String.join(",", dangling.stream().map(Path::toString).toList()));
    c.setLong(RankVector.BASE, base);
    c.setInt(RankVector.DAMPING_PPM, dampingPpm);
    job.setMapperClass(PageRankMapper.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(RankReducer.class);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(LongWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setNumReduceTasks(1);
    FileOutputFormat.setOutputPath(job, step.output());
    return job;
  }

  @Override
  public long[] next(long[] ranks, int iteration, List<String> output) throws IOException {
    long[] next = new long[ranks.length];
    java.util.Arrays.fill(next, base(ranks)); // a node no edge leads to gets no line
    boolean[] seen = new boolean[ranks.length];
    for (String line : output) {
      String[] f = line.split("\t");
      try {
        int v = Integer.parseInt(f[0]);
        if (f.length != 2 || v < 0 || v >= ranks.length || seen[v]) {
          throw new NumberFormatException("not NODE<TAB>RANK of a node met once");
        }
        seen[v] = true;
        next[v] = Long.parseLong(f[1]);
      } catch (NumberFormatException e) {
        throw new IOException("iteration " + iteration + ": the reducer's line '" + line + "' is not a rank: "
            + e.getMessage(), e);
      }
    }
    return next;
  }

  @Override
  public boolean stop(long[] before, long[] after, int iteration) {
    return iteration >= iterations;
  }

  /** The same iterations in memory: the shares summed node by node over the edges, the same fixed point. */
  @Override
  public List<long[]> direct() {
    List<long[]> states = new ArrayList<>();
    long[] ranks = initial();
    int n = graph.nodes();
    for (int iteration = 1; ; iteration++) {
      long[] sums = new long[n];
      for (int e = 0; e < graph.edges(); e++) {
        int u = graph.sources()[e];
        sums[graph.targets()[e]] += ranks[u] / outDegrees[u];
      }
      long dangling = 0;
      for (int v = 0; v < n; v++) {
        dangling += outDegrees[v] == 0 ? ranks[v] : 0;
      }
      long base = (RankVector.ONE * (RankVector.MILLION - dampingPpm) / RankVector.MILLION
          + dangling * dampingPpm / RankVector.MILLION) / n;
      long[] next = new long[n];
      for (int v = 0; v < n; v++) {
        next[v] = base + sums[v] * dampingPpm / RankVector.MILLION;
      }
      states.add(next);
      if (stop(ranks, next, iteration)) {
        return states;
      }
      ranks = next;
    }
  }

  /** The ranks, 64 nodes a line: {@code NODES A..B: RANK RANK ...} (fixed point). */
  @Override
  public List<String> lines(long[] ranks) {
    List<String> lines = new ArrayList<>();
    for (int from = 0; from < ranks.length; from += 64) {
      int to = Math.min(ranks.length, from + 64);
      StringBuilder sb = new StringBuilder("nodes ").append(from).append("..").append(to - 1).append(':');
      for (int v = from; v < to; v++) {
        sb.append(' ').append(ranks[v]);
      }
      lines.add(sb.toString());
    }
    return lines;
  }

  /** The ten highest ranks, and the ranks' sum. */
  @Override
  public List<String> summary(long[] ranks) {
    List<String> lines = new ArrayList<>();
    IntStream.range(0, ranks.length).boxed()
        .sorted(Comparator.<Integer>comparingLong(v -> ranks[v]).reversed().thenComparing(v -> v)).limit(10)
        .forEach(v -> lines.add(String.format(Locale.ROOT, "node %d: rank %.6f (%,d in-links, %,d out-links)", v,
            ranks[v] / (double) RankVector.ONE, inDegree(v), outDegrees[v])));
    long sum = 0;
    for (long r : ranks) {
      sum += r;
    }
    lines.add(String.format(Locale.ROOT, "the ranks sum to %.9f", sum / (double) RankVector.ONE));
    return lines;
  }

  private int[] inDegrees;

  private int inDegree(int v) {
    if (inDegrees == null) {
      inDegrees = new int[graph.nodes()];
      for (int t : graph.targets()) {
        inDegrees[t]++;
      }
    }
    return inDegrees[v];
  }

  @Override
  public void load(Configuration conf, List<Path> targets) throws IOException {
    DataParts.write(conf, targets, graph.edges(), (out, from, to) -> {
      DataOutputStream data = new DataOutputStream(out);
      for (int e = (int) from; e < to; e++) {
        data.writeInt(graph.sources()[e]);
        data.writeInt(graph.targets()[e]);
      }
      data.flush();
    });
  }

  @Override
  public long records() {
    return graph.edges();
  }

  @Override
  public long bytes() {
    return (long) graph.edges() * PageRankMapper.EDGE_BYTES;
  }

  @Override
  public int recordBytes() {
    return PageRankMapper.EDGE_BYTES;
  }
}
