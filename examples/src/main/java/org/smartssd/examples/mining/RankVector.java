package org.smartssd.examples.mining;

import java.util.Base64;
import org.apache.hadoop.conf.Configuration;

/**
 * Where a PageRank job's mappers get the previous iteration's rank vector and the out-degrees, and its
 * reducer the teleport term and the damping factor: the job's configuration, the one place that reads
 * {@link #RANKS}, {@link #OUT_DEGREES}, {@link #BASE} and {@link #DAMPING_PPM}. The configuration carries
 * all N ranks and N out-degrees (unsigned LEB128 varints, Base64: about 5 to 7 bytes a node), so the
 * graphs it suits have up to a few million nodes; the mappers' access goes through {@link #rank} and
 * {@link #outDegree} only, so that the vector can come from elsewhere (an object in the device) later.
 *
 * <p>Ranks are fixed point: {@link #ONE} is a rank of 1 (2^40), so that sums are integers, the same in
 * any order.
 */
public final class RankVector {
  /** The previous iteration's ranks, N fixed-point values. No default: the driver sets them each iteration. */
  public static final String RANKS = "smartssd.mining.pagerank.ranks";
  /** Each node's out-degree, N values. No default: the driver sets them. */
  public static final String OUT_DEGREES = "smartssd.mining.pagerank.out-degrees";
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
   * The rank vector and out-degrees of a job's configuration.
   *
   * @throws IllegalArgumentException naming the key when one is missing or malformed, or they differ in length
   */
  public static RankVector of(Configuration conf) {
    long[] ranks = decode(conf, RANKS);
    long[] degrees = decode(conf, OUT_DEGREES);
    if (ranks.length != degrees.length) {
      throw new IllegalArgumentException(RANKS + " holds " + ranks.length + " nodes, " + OUT_DEGREES + " "
          + degrees.length);
    }
    int[] d = new int[degrees.length];
    for (int i = 0; i < d.length; i++) {
      if (degrees[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(OUT_DEGREES + ": node " + i + " has out-degree " + degrees[i]);
      }
      d[i] = (int) degrees[i];
    }
    return new RankVector(ranks, d);
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
    String text = conf.get(BASE);
    if (text == null) {
      throw new IllegalArgumentException(BASE + " is not set: the PageRank driver sets it each iteration");
    }
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(BASE + "='" + text + "' is not a whole number");
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

  /** The value of {@link #RANKS} or {@link #OUT_DEGREES} for these values (each 0 or more). */
  public static String encode(long[] values) {
    return Base64.getEncoder().encodeToString(Varints.encode(values));
  }

  private static long[] decode(Configuration conf, String key) {
    String text = conf.get(key);
    if (text == null) {
      throw new IllegalArgumentException(key + " is not set: the PageRank driver sets it each iteration");
    }
    byte[] b;
    try {
      b = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + " is not Base64: " + e.getMessage());
    }
    return Varints.decode(b, key);
  }
}
