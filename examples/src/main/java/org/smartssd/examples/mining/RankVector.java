package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Where a PageRank job's tasks get the previous iteration's rank vector and the out-degrees, and its
 * reducer the base term and the damping factor: the one place that reads {@link #RANKS_PATH},
 * {@link #RANK_DEFAULT}, {@link #OUT_DEGREES_PATH}, {@link #DANGLING_PATH}, {@link #BASE} and
 * {@link #DAMPING_PPM}. The vector and
 * the out-degrees are files the configuration names ({@link SideFile}: a copy on each device that holds
 * edges, read whole in {@code setup}, in a device from its own flash), not values in the configuration:
 * the ranks file is the previous iteration's reducer output, {@code NODE<TAB>RANK} lines
 * ({@link RankReducer}), a node without a line having {@link #RANK_DEFAULT}; the out-degrees file is N
 * unsigned LEB128 varints ({@link Varints}), and the dangling nodes file (for the reducer) their ids, both
 * written once by the driver. The mappers' access goes through
 * {@link #rank} and {@link #outDegree} only.
 *
 * <p>Ranks are fixed point: {@link #ONE} is a rank of 1 (2^40), so that sums are integers, the same in
 * any order.
 */
public final class RankVector {
  /**
   * The previous iteration's ranks file (its reducer's output), as copies, comma-separated, one on each device
   * that holds edges. No default: the driver sets it from the second iteration on; unset, every node's rank
   * is {@link #RANK_DEFAULT} (the first iteration's uniform ranks).
   */
  public static final String RANKS_PATH = "smartssd.mining.pagerank.ranks-path";
  /**
   * The rank of a node the ranks file has no line for (no edge led to it: the previous iteration's base
   * term), or of every node without a ranks file. No default: the driver sets it each iteration.
   */
  public static final String RANK_DEFAULT = "smartssd.mining.pagerank.rank-default";
  /** The out-degrees file, as copies, comma-separated, one on each device that holds edges. No default: the driver sets it. */
  public static final String OUT_DEGREES_PATH = "smartssd.mining.pagerank.out-degrees-path";
  /**
   * The dangling nodes (those without out-links) file, as copies, comma-separated: their ids ascending, as
   * unsigned varints of the gaps (the first id, then each id less the one before). No default: the driver sets
   * it. The reducer reads it.
   */
  public static final String DANGLING_PATH = "smartssd.mining.pagerank.dangling-path";
  /**
   * What every node gets before its in-links' share, fixed point: the teleport term (1 - d) / N plus the
   * dangling nodes' ranks spread over all nodes (d x their sum / N). No default: the driver sets it.
   */
  public static final String BASE = "smartssd.mining.pagerank.base";
  /** The damping factor d in millionths. */
  public static final String DAMPING_PPM = "smartssd.mining.pagerank.damping-ppm";
  public static final int DAMPING_PPM_DEFAULT = 850_000;
  /** A rank of 1 in fixed point. */
  public static final long ONE = 1L << 40;
  public static final int MILLION = 1_000_000;

  private final long[] ranks;
  private final int[] outDegrees;

  private RankVector(long[] ranks, int[] outDegrees) {
    this.ranks = ranks;
    this.outDegrees = outDegrees;
  }

  /**
   * The rank vector and out-degrees of a job's configuration: the copies on the device of {@code near} (a
   * map task's split), else the first.
   *
   * @throws IOException naming the key and the file when a file cannot be read or is malformed
   * @throws IllegalArgumentException naming the key when one is missing or malformed
   */
  public static RankVector read(Configuration conf, Path near) throws IOException {
    int[] degrees = outDegrees(conf, near);
    long fallback = wholeNumber(conf, RANK_DEFAULT, "the PageRank driver sets it each iteration");
    long[] ranks = new long[degrees.length];
    java.util.Arrays.fill(ranks, fallback);
    Path file = SideFile.choose(conf, RANKS_PATH, near);
    if (file != null) {
      parseRanks(SideFile.read(conf, RANKS_PATH, file), ranks, RANKS_PATH + " '" + file + "'");
    }
    return new RankVector(ranks, degrees);
  }

  /** The out-degrees of {@link #OUT_DEGREES_PATH}: the copy on the device of {@code near}, else the first. */
  public static int[] outDegrees(Configuration conf, Path near) throws IOException {
    Path file = SideFile.choose(conf, OUT_DEGREES_PATH, near);
    if (file == null) {
      throw new IllegalArgumentException(OUT_DEGREES_PATH + " is not set: the PageRank driver sets it");
    }
    String what = OUT_DEGREES_PATH + " '" + file + "'";
    long[] values;
    try {
      values = Varints.decode(SideFile.read(conf, OUT_DEGREES_PATH, file), what);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    int[] d = new int[values.length];
    for (int i = 0; i < d.length; i++) {
      if (values[i] > Integer.MAX_VALUE) {
        throw new IOException(what + ": node " + i + " has out-degree " + values[i]);
      }
      d[i] = (int) values[i];
    }
    return d;
  }

  /** The dangling nodes of {@link #DANGLING_PATH}, ascending (the first copy). */
  public static int[] dangling(Configuration conf) throws IOException {
    Path file = SideFile.choose(conf, DANGLING_PATH, null);
    if (file == null) {
      throw new IllegalArgumentException(DANGLING_PATH + " is not set: the PageRank driver sets it");
    }
    String what = DANGLING_PATH + " '" + file + "'";
    long[] gaps;
    try {
      gaps = Varints.decode(SideFile.read(conf, DANGLING_PATH, file), what);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    int[] nodes = new int[gaps.length];
    long node = -1;
    for (int i = 0; i < gaps.length; i++) {
      node += i == 0 ? gaps[i] + 1 : gaps[i];
      if ((i > 0 && gaps[i] == 0) || node > Integer.MAX_VALUE) {
        throw new IOException(what + ": id " + (i + 1) + " of " + gaps.length + " is not above the one before, or is past "
            + Integer.MAX_VALUE);
      }
      nodes[i] = (int) node;
    }
    return nodes;
  }

  /** The bytes of a dangling nodes file: the nodes whose out-degree is 0, ascending, as varints of the gaps. */
  public static byte[] danglingFile(long[] outDegrees) {
    long[] gaps = new long[(int) java.util.Arrays.stream(outDegrees).filter(d -> d == 0).count()];
    for (int v = 0, i = 0, last = 0; v < outDegrees.length; v++) {
      if (outDegrees[v] == 0) {
        gaps[i] = i == 0 ? v : v - last;
        last = v;
        i++;
      }
    }
    return Varints.encode(gaps);
  }

  /** The bytes of an out-degrees file: each node's out-degree as an unsigned varint. */
  public static byte[] outDegreesFile(long[] outDegrees) {
    return Varints.encode(outDegrees);
  }

  /**
   * Reads {@code NODE<TAB>RANK} lines (decimal, each node at most once) into {@code ranks}, whose length is
   * the number of nodes; a node without a line keeps what it holds.
   *
   * @param what the file, for the error
   * @throws IOException naming the file and the line's byte offset when a line is not a rank of a node
   */
  static void parseRanks(byte[] text, long[] ranks, String what) throws IOException {
    boolean[] seen = new boolean[ranks.length];
    int at = 0;
    while (at < text.length) {
      int start = at;
      long node = 0;
      int digits = 0;
      while (at < text.length && text[at] >= '0' && text[at] <= '9' && digits < 10) {
        node = node * 10 + (text[at++] - '0');
        digits++;
      }
      if (digits == 0 || at >= text.length || text[at] != '\t' || node >= ranks.length || seen[(int) node]) {
        throw badLine(text, start, what, "not NODE<TAB>RANK of one of the " + ranks.length + " nodes, met once");
      }
      at++;
      long rank = 0;
      digits = 0;
      while (at < text.length && text[at] >= '0' && text[at] <= '9' && digits < 18) {
        rank = rank * 10 + (text[at++] - '0');
        digits++;
      }
      if (digits == 0 || at >= text.length || text[at] != '\n') {
        throw badLine(text, start, what, "its rank is not a whole number of at most 18 digits ending the line");
      }
      at++;
      seen[(int) node] = true;
      ranks[(int) node] = rank;
    }
  }

  private static IOException badLine(byte[] text, int start, String what, String why) {
    int end = start;
    while (end < text.length && end - start < 60 && text[end] != '\n') {
      end++;
    }
    return new IOException(what + ": the line at byte " + start + ", '"
        + new String(text, start, end - start, java.nio.charset.StandardCharsets.UTF_8) + "', is " + why);
  }

  /** The number of nodes. */
  public int nodes() {
    return ranks.length;
  }

  /** A node's rank in the previous iteration, fixed point. */
  public long rank(int node) {
    return ranks[node];
  }

  public int outDegree(int node) {
    return outDegrees[node];
  }

  /** {@link #BASE} of a configuration. */
  public static long base(Configuration conf) {
    return wholeNumber(conf, BASE, "the PageRank driver sets it each iteration");
  }

  private static long wholeNumber(Configuration conf, String key, String who) {
    String text = conf.get(key);
    if (text == null) {
      throw new IllegalArgumentException(key + " is not set: " + who);
    }
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + "='" + text + "' is not a whole number");
    }
  }

  /** {@link #DAMPING_PPM} of a configuration, 0 to a million. */
  public static int dampingPpm(Configuration conf) {
    String text = conf.getTrimmed(DAMPING_PPM, Integer.toString(DAMPING_PPM_DEFAULT));
    int ppm;
    try {
      ppm = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(DAMPING_PPM + "='" + text + "' is not a whole number");
    }
    if (ppm < 0 || ppm > MILLION) {
      throw new IllegalArgumentException(DAMPING_PPM + " must be between 0 and " + MILLION + ", not " + ppm);
    }
    return ppm;
  }
}
