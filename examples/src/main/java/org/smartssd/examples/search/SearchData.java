package org.smartssd.examples.search;

import java.util.Arrays;
import java.util.Random;
import org.smartssd.device.tasklet.builtin.HammingSearch;
import org.smartssd.examples.mining.GaussianClusters;

/**
 * A similarity search's data set, generated: {@code items} feature vectors of {@code dimensions}
 * coordinates in Gaussian clusters ({@link GaussianClusters}, the same model as k-means' points, their
 * deviations optionally spread wider), each
 * item's id its place in that order (0 to items - 1); its code by {@link SimHash}; and {@code queries}
 * queries, each a perturbed copy of a distinct item drawn at random (Gaussian noise of deviation
 * {@value #QUERY_NOISE} added to every coordinate), hashed the same way. Deterministic by the seed:
 * the points are drawn from {@code seed} (so they are those {@code smartssd mine --algorithm kmeans}
 * makes with the same seed, dimensions and clusters), the hyperplanes from {@code seed + 1}, the
 * queries from {@code seed + 2}. The model's clusters are far apart for their deviations (centres in
 * [-50, 50], deviations 1 to 4): their codes stay close, which makes the search easy to prune; a
 * wider spread makes clusters overlap.
 */
public final class SearchData {
  /**
   * The deviation of a query's noise, a coordinate. A choice: half the smallest cluster deviation
   * (1), so that a query stays nearer its item than most of the item's cluster does.
   */
  public static final double QUERY_NOISE = 0.5;

  /**
   * What to generate.
   *
   * @param spread how many times the k-means model's deviation the clusters' are (1: its own)
   */
  public record Parameters(int items, int dimensions, int bits, int queries, int clusters, double spread, long seed) {
    /** Clusters of the k-means model's own deviations. */
    public Parameters(int items, int dimensions, int bits, int queries, int clusters, long seed) {
      this(items, dimensions, bits, queries, clusters, 1, seed);
    }

    public Parameters {
      if (!(spread > 0 && spread <= 1000)) {
        throw new IllegalArgumentException("the spread must be above 0 and at most 1000, not " + spread);
      }
      if (items < 1 || dimensions < 1 || queries < 1 || clusters < 1) {
        throw new IllegalArgumentException("items, dimensions, queries and clusters must be 1 or more: " + items + ", "
            + dimensions + ", " + queries + ", " + clusters);
      }
      if (queries > items) {
        throw new IllegalArgumentException(queries + " queries, each a copy of a distinct item, need as many items, "
            + "not " + items);
      }
      if (bits < 1 || bits > HammingSearch.MAX_BITS) {
        throw new IllegalArgumentException("bits must be between 1 and " + HammingSearch.MAX_BITS + ", not " + bits);
      }
    }

    public int words() {
      return HammingSearch.words(bits);
    }
  }

  private final Parameters parameters;
  /** Item i's code at {@code i x words}. */
  private final long[] codes;
  /** Item i's cluster: its class, as a retrieval's precision counts it. */
  private final int[] labels;
  private final long[][] queryCodes;
  private final int[] queryItems;

  private SearchData(Parameters parameters, long[] codes, int[] labels, long[][] queryCodes, int[] queryItems) {
    this.parameters = parameters;
    this.codes = codes;
    this.labels = labels;
    this.queryCodes = queryCodes;
    this.queryItems = queryItems;
  }

  public static SearchData generate(Parameters p) {
    int words = p.words();
    SimHash hash = new SimHash(p.bits(), p.dimensions(), p.seed() + 1);
    Random queryRandom = new Random(p.seed() + 2);
    int[] queryItems = distinct(p.queries(), p.items(), queryRandom);
    int[] queryOf = new int[p.items()];
    Arrays.fill(queryOf, -1);
    for (int q = 0; q < queryItems.length; q++) {
      queryOf[queryItems[q]] = q;
    }
    GaussianClusters clusters = new GaussianClusters(p.clusters(), p.dimensions(), p.spread(), new Random(p.seed()));
    long[] codes = new long[Math.multiplyExact(p.items(), words)];
    int[] labels = new int[p.items()];
    double[][] queryVectors = new double[p.queries()][];
    double[] vector = new double[p.dimensions()];
    for (int i = 0; i < p.items(); i++) {
      labels[i] = clusters.next(vector);
      hash.hash(vector, codes, i * words);
      if (queryOf[i] >= 0) {
        queryVectors[queryOf[i]] = vector.clone();
      }
    }
    long[][] queryCodes = new long[p.queries()][words];
    for (int q = 0; q < p.queries(); q++) {
      double[] v = queryVectors[q];
      for (int i = 0; i < v.length; i++) {
        v[i] += QUERY_NOISE * queryRandom.nextGaussian();
      }
      hash.hash(v, queryCodes[q], 0);
    }
    return new SearchData(p, codes, labels, queryCodes, queryItems);
  }

  /** {@code n} distinct numbers below {@code bound}, in the order drawn. */
  private static int[] distinct(int n, int bound, Random random) {
    int[] out = new int[n];
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (int k = 0; k < n; ) {
      int v = random.nextInt(bound);
      if (seen.add(v)) {
        out[k++] = v;
      }
    }
    return out;
  }

  public Parameters parameters() {
    return parameters;
  }

  public int items() {
    return parameters.items();
  }

  public int bits() {
    return parameters.bits();
  }

  /** Item {@code id}'s code (a copy). */
  public long[] code(int id) {
    int words = parameters.words();
    return Arrays.copyOfRange(codes, id * words, (id + 1) * words);
  }

  /** Word {@code k} of item {@code id}'s code. */
  long word(int id, int k) {
    return codes[id * parameters.words() + k];
  }

  /** The queries' codes, a query each. */
  public java.util.List<long[]> queryCodes() {
    return java.util.Arrays.stream(queryCodes).map(long[]::clone).toList();
  }

  /** The item each query is a perturbed copy of, a query each. */
  public java.util.List<Integer> queryItems() {
    return java.util.Arrays.stream(queryItems).boxed().toList();
  }

  /**
   * Precision at T (the Cognitive SSD's Precision@T, with the clusters as the classes): the share of
   * the items found for the queries that are of the cluster of the item the query copies.
   *
   * @param found each query's items, by id
   */
  public double precision(java.util.List<? extends java.util.List<Long>> found) {
    long same = 0;
    long all = 0;
    for (int q = 0; q < found.size(); q++) {
      for (long id : found.get(q)) {
        same += labels[(int) id] == labels[queryItems[q]] ? 1 : 0;
        all++;
      }
    }
    return all == 0 ? Double.NaN : (double) same / all;
  }

  /** One line on how the data was made. */
  public String description() {
    Parameters p = parameters;
    return String.format(java.util.Locale.ROOT, "%,d items of %d dimensions in %d Gaussian clusters (%sseed %d), "
        + "%d-bit codes by SimHash (random projection); %d queries, each a copy of a random item with Gaussian noise "
        + "of deviation %.1f a coordinate", p.items(), p.dimensions(), p.clusters(), p.spread() == 1 ? ""
            : String.format(java.util.Locale.ROOT, "deviations x %s, ", p.spread()), p.seed(), p.bits(), p.queries(),
        QUERY_NOISE);
  }
}
