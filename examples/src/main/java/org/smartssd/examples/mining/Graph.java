package org.smartssd.examples.mining;

import java.util.Arrays;
import java.util.Random;

/**
 * A directed graph as an edge list: nodes 0 to {@code nodes - 1}, edge {@code i} from {@code sources[i]}
 * to {@code targets[i]}.
 *
 * @param source where it came from (a file, or "generated ...")
 */
public record Graph(int nodes, int[] sources, int[] targets, String source) {
  public Graph {
    if (sources.length != targets.length) {
      throw new IllegalArgumentException(sources.length + " sources for " + targets.length + " targets");
    }
    for (int i = 0; i < sources.length; i++) {
      if (sources[i] < 0 || sources[i] >= nodes || targets[i] < 0 || targets[i] >= nodes) {
        throw new IllegalArgumentException("edge " + i + " is " + sources[i] + " -> " + targets[i] + ", outside the "
            + nodes + " nodes");
      }
    }
  }

  /** {@code smartssd mine}'s mean out-degree of a generated graph. */
  public static final double MEAN_OUT_DEGREE = 8;

  public int edges() {
    return sources.length;
  }

  /** Each node's out-degree. */
  public long[] outDegrees() {
    long[] d = new long[nodes];
    for (int s : sources) {
      d[s]++;
    }
    return d;
  }

  /**
   * A generated power-law graph, deterministic by seed: directed preferential attachment. Nodes arrive one
   * by one; each gets an out-degree drawn from a geometric distribution of mean {@code meanOutDegree} (so
   * that about 1 / (mean + 1) of the nodes have none: dangling nodes, as web pages without links are), and
   * links to that many distinct earlier nodes, each drawn with probability 0.8 in proportion to the
   * in-links it has already (the end of an earlier edge drawn uniformly) and otherwise uniformly, so that
   * in-degrees follow a power law. The first node has no earlier node to link to.
   */
  public static Graph generate(int nodes, double meanOutDegree, long seed) {
    if (nodes < 2 || !(meanOutDegree > 0)) {
      throw new IllegalArgumentException("a generated graph needs 2 nodes or more and a positive mean out-degree: "
          + nodes + ", " + meanOutDegree);
    }
    Random random = new Random(seed);
    double p = 1 / (meanOutDegree + 1); // geometric on 0, 1, 2, ...: mean (1 - p) / p
    int[] sources = new int[Math.max(16, (int) Math.min(Integer.MAX_VALUE - 8, nodes * (meanOutDegree + 1)))];
    int[] targets = new int[sources.length];
    int edges = 0;
    int[] chosen = new int[64];
    for (int v = 1; v < nodes; v++) {
      int degree = 0;
      while (random.nextDouble() >= p) {
        degree++;
      }
      degree = Math.min(degree, v);
      if (chosen.length < degree) {
        chosen = new int[Math.max(degree, 2 * chosen.length)];
      }
      int picked = 0;
      for (int tries = 0; picked < degree && tries < 20 * degree; tries++) {
        int t = edges > 0 && random.nextDouble() < 0.8 ? targets[random.nextInt(edges)] : random.nextInt(v);
        boolean seen = false;
        for (int i = 0; i < picked; i++) {
          seen |= chosen[i] == t;
        }
        if (!seen) {
          chosen[picked++] = t;
        }
      }
      if (edges + picked > sources.length) {
        int size = (int) Math.min(Integer.MAX_VALUE - 8, 2L * sources.length + picked);
        sources = Arrays.copyOf(sources, size);
        targets = Arrays.copyOf(targets, size);
      }
      for (int i = 0; i < picked; i++) {
        sources[edges] = v;
        targets[edges++] = chosen[i];
      }
    }
    return new Graph(nodes, Arrays.copyOf(sources, edges), Arrays.copyOf(targets, edges),
        String.format(java.util.Locale.ROOT, "generated: directed preferential attachment, mean out-degree %s, seed %d",
            meanOutDegree, seed));
  }
}
