package org.smartssd.examples.mining;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * k-means (Lloyd's iterations) as Hadoop jobs: each iteration's job assigns every point to its nearest
 * centroid ({@link KMeansMapper}), sums each cluster's points ({@link PartialSumCombiner}) and makes the
 * new centroids ({@link CentroidReducer}); the centroids are a file on the devices, the last iteration's
 * reducer output, which the job's configuration names and its tasks read ({@link Centroids}). After the
 * last iteration a map-only job writes each point's cluster next to the points ({@link AssignmentMapper}). Points are fixed-length records of {@code d} big-endian floats. The first
 * centroids are {@code k} distinct points drawn by the seed. A cluster no point joins keeps its centroid.
 * The iterations stop after {@code maxIterations}, or once no centroid moved more than {@code epsilon}
 * (Euclidean; with 0, once an iteration changed no centroid).
 */
public final class KMeans implements IterativeMining<KMeans.State> {
  /**
   * Centroids and how many points each has (0 before the first iteration, and for a cluster no point joined).
   */
  public record State(double[][] centroids, long[] counts) {}

  /** {@code smartssd mine}'s clusters and a point's floats (the iSSD's Table 4's 8 dimensions). */
  public static final int DEFAULT_K = 8;
  public static final int DEFAULT_DIMENSIONS = 8;

  private final float[] points;
  private final int n;
  private final int d;
  private final int k;
  private final long seed;
  private final int maxIterations;
  private final double epsilon;
  private final String source;

  /**
   * @param points {@code n x d} coordinates, point after point
   * @param source where the points came from, for the description
   */
  public KMeans(float[] points, int d, int k, long seed, int maxIterations, double epsilon, String source) {
    if (d < 1 || d > Centroids.MAX_DIMENSIONS || points.length % d != 0) {
      throw new IllegalArgumentException("points of " + d + " dimensions, " + points.length + " coordinates");
    }
    this.points = points;
    this.n = points.length / d;
    this.d = d;
    if (k < 1 || k > n) {
      throw new IllegalArgumentException("k must be between 1 and the " + n + " points, not " + k);
    }
    if (maxIterations < 1 || !(epsilon >= 0)) {
      throw new IllegalArgumentException("iterations must be 1 or more and epsilon 0 or more: " + maxIterations
          + ", " + epsilon);
    }
    for (float x : points) {
      if (!PartialSum.summable(x)) {
        throw new IllegalArgumentException("a coordinate is " + x + ": not a number within "
            + PartialSum.MAX_COORDINATE);
      }
    }
    this.k = k;
    this.seed = seed;
    this.maxIterations = maxIterations;
    this.epsilon = epsilon;
    this.source = source;
  }

  /**
   * k-means over {@code n} generated points of {@code d} dimensions ({@link KMeansData}: {@code k} Gaussian
   * clusters), its first centroids drawn by the same seed.
   */
  public static KMeans generated(int n, int d, int k, long seed, int maxIterations, double epsilon) {
    return new KMeans(KMeansData.generate(n, d, k, seed), d, k, seed, maxIterations, epsilon,
        "generated: " + k + " Gaussian clusters, seed " + seed);
  }

  @Override
  public Algorithm algorithm() {
    return Algorithm.KMEANS;
  }

  @Override
  public String description() {
    return String.format(Locale.ROOT, "%,d points of %d dimensions (%s), k = %d, at most %d iterations, epsilon %s",
        n, d, source, k, maxIterations, epsilon);
  }

  @Override
  public State initial() {
    // k distinct points, drawn by the seed: the first centroids.
    Random random = new Random(seed ^ 0x6b6d65616e73L);
    Set<Integer> chosen = new LinkedHashSet<>();
    Set<String> distinct = new java.util.HashSet<>();
    int tries = 0;
    while (chosen.size() < k && tries++ < 100 * k + n) {
      int p = random.nextInt(n);
      if (distinct.add(Arrays.toString(point(p)))) {
        chosen.add(p);
      }
    }
    for (int p = 0; chosen.size() < k && p < n; p++) {
      if (distinct.add(Arrays.toString(point(p)))) {
        chosen.add(p);
      }
    }
    if (chosen.size() < k) {
      throw new IllegalArgumentException("k = " + k + " but the points hold only " + chosen.size() + " distinct ones");
    }
    double[][] c = new double[k][];
    int j = 0;
    for (int p : chosen) {
      float[] x = point(p);
      c[j] = new double[d];
      for (int i = 0; i < d; i++) {
        c[j][i] = x[i];
      }
      j++;
    }
    return new State(c, new long[k]);
  }

  private float[] point(int p) {
    return Arrays.copyOfRange(points, p * d, p * d + d);
  }

  @Override
  public boolean stateInDevices() {
    return true;
  }

  /** The first centroids, as the reducer writes centroids (0 points each). */
  @Override
  public byte[] initialStateFile() {
    State first = initial();
    return Centroids.file(first.centroids(), first.counts());
  }

  /** An iteration's job: its centroids are the previous iteration's output (or the first centroids), read by its tasks. */
  @Override
  public Job job(Configuration conf, Step<State> step) throws IOException {
    Job job = pointsJob(conf, "kmeans iteration " + step.iteration(), step);
    job.setMapperClass(KMeansMapper.class);
    job.setCombinerClass(PartialSumCombiner.class);
    job.setReducerClass(CentroidReducer.class);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(PartialSum.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(1);
    return job;
  }

  /** A job over the step's points that reads the step's centroids file, writing text to the step's output. */
  private Job pointsJob(Configuration conf, String name, Step<State> step) throws IOException {
    if (step.stateFiles().isEmpty()) {
      throw new IllegalArgumentException(name + ": no centroids file to start from");
    }
    Job job = Job.getInstance(conf, name);
    job.setJarByClass(KMeans.class);
    job.setInputFormatClass(FixedLengthInputFormat.class);
    FixedLengthInputFormat.setRecordLength(job.getConfiguration(), recordBytes());
    for (Path input : step.inputs()) {
      FileInputFormat.addInputPath(job, input);
    }
    job.getConfiguration().setInt(Centroids.DIMENSIONS, d);
    job.getConfiguration().set(Centroids.CENTROIDS_PATH,
        String.join(",", step.stateFiles().stream().map(Path::toString).toList()));
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, step.output());
    return job;
  }

  @Override
  public State next(State state, int iteration, List<String> output) throws IOException {
    Centroids c = Centroids.parse((String.join("\n", output) + "\n").getBytes(StandardCharsets.UTF_8), d,
        "iteration " + iteration + "'s reducer output");
    if (c.k() != k) {
      throw new IOException("iteration " + iteration + ": the reducer wrote " + c.k() + " centroids, not " + k);
    }
    double[][] centroids = new double[k][];
    long[] counts = new long[k];
    for (int j = 0; j < k; j++) {
      centroids[j] = c.centroid(j).clone();
      counts[j] = c.count(j);
    }
    return new State(centroids, counts);
  }

  @Override
  public String finalJobName() {
    return "assignments";
  }

  /** Each point's cluster by the last centroids ({@link AssignmentMapper}), map-only. */
  @Override
  public Job finalJob(Configuration conf, Step<State> step) throws IOException {
    Job job = pointsJob(conf, "kmeans assignments", step);
    job.setMapperClass(AssignmentMapper.class);
    job.setMapOutputKeyClass(LongWritable.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(0);
    return job;
  }

  /** {@code OFFSET<TAB>CLUSTER} for each point of the part: its byte offset in the part, its nearest last centroid. */
  @Override
  public List<String> finalLines(State last, int part, int parts) {
    long first = DataParts.first(n, parts, part);
    long end = DataParts.first(n, parts, part + 1);
    List<String> lines = new ArrayList<>();
    for (long p = first; p < end; p++) {
      lines.add((p - first) * recordBytes() + "\t" + nearest(last.centroids(), (int) p));
    }
    return lines;
  }

  /**
   * The direct computation's nearest centroid to point {@code p}: squared distance summed over the dimensions
   * in order, in double; the lowest index of those equally near.
   */
  private int nearest(double[][] c, int p) {
    int best = 0;
    double bestDistance = Double.POSITIVE_INFINITY;
    for (int j = 0; j < c.length; j++) {
      double distance = 0;
      for (int i = 0; i < d; i++) {
        double diff = points[p * d + i] - c[j][i];
        distance += diff * diff;
      }
      if (distance < bestDistance) {
        bestDistance = distance;
        best = j;
      }
    }
    return best;
  }

  @Override
  public boolean stop(State before, State after, int iteration) {
    return iteration >= maxIterations || largestMove(before, after) <= epsilon;
  }

  /** How far the centroid that moved most moved (Euclidean). */
  static double largestMove(State before, State after) {
    double largest = 0;
    for (int j = 0; j < before.centroids().length; j++) {
      double s = 0;
      for (int i = 0; i < before.centroids()[j].length; i++) {
        double diff = after.centroids()[j][i] - before.centroids()[j][i];
        s += diff * diff;
      }
      largest = Math.max(largest, Math.sqrt(s));
    }
    return largest;
  }

  /**
   * The same iterations in memory: every point to its nearest centroid (squared distance summed over the
   * dimensions in order, in double; the lowest index of those equally near), sums in the same fixed point,
   * the mean as the reducer takes it.
   */
  @Override
  public List<State> direct() {
    List<State> states = new ArrayList<>();
    State state = initial();
    for (int iteration = 1; ; iteration++) {
      long[][] sums = new long[k][d];
      long[] counts = new long[k];
      double[][] c = state.centroids();
      for (int p = 0; p < n; p++) {
        int best = nearest(c, p);
        counts[best]++;
        for (int i = 0; i < d; i++) {
          sums[best][i] += Math.round(points[p * d + i] * PartialSum.SCALE);
        }
      }
      double[][] next = new double[k][];
      for (int j = 0; j < k; j++) {
        next[j] = c[j].clone();
        if (counts[j] > 0) {
          for (int i = 0; i < d; i++) {
            next[j][i] = sums[j][i] / (PartialSum.SCALE * counts[j]);
          }
        }
      }
      State after = new State(next, counts);
      states.add(after);
      if (stop(state, after, iteration)) {
        return states;
      }
      state = after;
    }
  }

  @Override
  public List<String> lines(State state) {
    List<String> lines = new ArrayList<>();
    for (int j = 0; j < k; j++) {
      lines.add(Centroids.line(j, state.counts()[j], state.centroids()[j]));
    }
    return lines;
  }

  @Override
  public List<String> summary(State state) {
    List<String> lines = new ArrayList<>();
    for (int j = 0; j < Math.min(k, 10); j++) {
      StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "cluster %d: %,d points, centroid (", j,
          state.counts()[j]));
      for (int i = 0; i < d; i++) {
        sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", state.centroids()[j][i]));
      }
      lines.add(sb.append(')').toString());
    }
    if (k > 10) {
      lines.add(String.format(Locale.ROOT, "(%d more clusters)", k - 10));
    }
    return lines;
  }

  @Override
  public void load(Configuration conf, List<Path> targets) throws IOException {
    DataParts.write(conf, targets, n, (out, from, to) -> {
      DataOutputStream data = new DataOutputStream(out);
      for (long i = from * d; i < to * d; i++) {
        data.writeFloat(points[(int) i]);
      }
      data.flush();
    });
  }

  @Override
  public long records() {
    return n;
  }

  @Override
  public long bytes() {
    return (long) n * recordBytes();
  }

  @Override
  public int recordBytes() {
    return 4 * d;
  }
}
