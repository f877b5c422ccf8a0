package org.smartssd.examples.mining;

import java.io.DataOutputStream;
import java.io.IOException;
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
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * k-means (Lloyd's iterations) as Hadoop jobs: each iteration's job assigns every point to its nearest
 * centroid ({@link KMeansMapper}), sums each cluster's points ({@link PartialSumCombiner}) and makes the
 * new centroids ({@link CentroidReducer}); the centroids travel in the job's configuration
 * ({@link Centroids}). Points are fixed-length records of {@code d} big-endian floats. The first
 * centroids are {@code k} distinct points drawn by the seed. A cluster no point joins keeps its centroid.
 * The iterations stop after {@code maxIterations}, or once no centroid moved more than {@code epsilon}
 * (Euclidean; with 0, once an iteration changed no centroid).
 */
public final class KMeans implements IterativeMining<KMeans.State> {
  /**
   * Centroids and how many points each has (0 before the first iteration, and for a cluster no point joined).
   */
  public record State(double[][] centroids, long[] counts) {}

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
  public Job job(Configuration conf, State state, int iteration, List<Path> inputs, Path output) throws IOException {
    Job job = Job.getInstance(conf, "kmeans iteration " + iteration);
    job.setJarByClass(KMeans.class);
    job.setInputFormatClass(FixedLengthInputFormat.class);
    FixedLengthInputFormat.setRecordLength(job.getConfiguration(), recordBytes());
    for (Path input : inputs) {
      FileInputFormat.addInputPath(job, input);
    }
    job.getConfiguration().setInt(Centroids.DIMENSIONS, d);
    job.getConfiguration().set(Centroids.CENTROIDS, Centroids.encode(state.centroids()));
    job.setMapperClass(KMeansMapper.class);
    job.setCombinerClass(PartialSumCombiner.class);
    job.setReducerClass(CentroidReducer.class);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(PartialSum.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setNumReduceTasks(1);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  @Override
  public State next(State state, int iteration, List<String> output) throws IOException {
    double[][] c = new double[k][];
    long[] counts = new long[k];
    for (int j = 0; j < k; j++) {
      c[j] = state.centroids()[j].clone();
    }
    boolean[] seen = new boolean[k];
    for (String line : output) {
      String[] f = line.split("\t");
      try {
        if (f.length != 3) {
          throw new NumberFormatException("not CLUSTER<TAB>POINTS<TAB>COORDINATES");
        }
        int j = Integer.parseInt(f[0]);
        String[] x = f[2].split(" ");
        if (j < 0 || j >= k || seen[j] || x.length != d) {
          throw new NumberFormatException("cluster " + j + " of " + k + " with " + x.length + " coordinates");
        }
        seen[j] = true;
        counts[j] = Long.parseLong(f[1]);
        for (int i = 0; i < d; i++) {
          c[j][i] = Double.parseDouble(x[i]);
        }
      } catch (NumberFormatException e) {
        throw new IOException("iteration " + iteration + ": the reducer's line '" + line + "' is not a centroid: "
            + e.getMessage(), e);
      }
    }
    return new State(c, counts);
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
        int best = 0;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (int j = 0; j < k; j++) {
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
      StringBuilder sb = new StringBuilder().append(j).append('\t').append(state.counts()[j]).append('\t');
      for (int i = 0; i < d; i++) {
        sb.append(i == 0 ? "" : " ").append(state.centroids()[j][i]);
      }
      lines.add(sb.toString());
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
