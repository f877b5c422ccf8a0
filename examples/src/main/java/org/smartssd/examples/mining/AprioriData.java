package org.smartssd.examples.mining;

import java.util.Arrays;
import java.util.Random;

/**
 * Market-basket transactions like those of the IBM Quest generator (Agrawal and Srikant, "Fast
 * Algorithms for Mining Association Rules", VLDB 1994, section 2.4.3), generated, deterministic by seed.
 * {@code patterns} potentially large itemsets are drawn first: their sizes Poisson with mean
 * {@code meanPatternSize}; the first one's items uniform over the {@code items}, each later one taking a
 * fraction of its items (exponential, mean 0.5) from the one before and the rest uniformly; each with a
 * weight (exponential, mean 1) and a corruption level (normal, mean 0.5, deviation 0.1, within [0, 1]).
 * A transaction's size is Poisson with mean {@code meanTransactionSize} (at least 1); it is filled with
 * patterns drawn by weight, each corrupted (an item dropped while a uniform number is below its
 * corruption level); a pattern that does not fit goes in anyway half the time, and otherwise into the
 * next transaction. A transaction is its distinct items, ascending.
 */
public final class AprioriData {
  private AprioriData() {}

  /** The IBM generator's defaults the iSSD's Table 4 does not set: 1,000 items, 2,000 patterns of mean size 4. */
  public static final int ITEMS = 1000;
  public static final int PATTERNS = 2000;
  public static final double MEAN_PATTERN_SIZE = 4;
  /** {@code smartssd mine}'s mean items a transaction (the iSSD's Table 4). */
  public static final double MEAN_TRANSACTION_SIZE = 8;

  public static int[][] generate(int transactions, double meanTransactionSize, long seed) {
    return generate(transactions, meanTransactionSize, ITEMS, PATTERNS, MEAN_PATTERN_SIZE, seed);
  }

  public static int[][] generate(int transactions, double meanTransactionSize, int items, int patterns,
      double meanPatternSize, long seed) {
    if (transactions < 1 || !(meanTransactionSize >= 1) || items < 1 || patterns < 1 || !(meanPatternSize >= 1)) {
      throw new IllegalArgumentException("transactions, items and patterns must be 1 or more, and the mean sizes "
          + "at least 1");
    }
    Random random = new Random(seed);
    int[][] pattern = new int[patterns][];
    double[] cumulative = new double[patterns];
    double[] corruption = new double[patterns];
    double total = 0;
    for (int p = 0; p < patterns; p++) {
      int size = Math.min(items, Math.max(1, poisson(random, meanPatternSize)));
      int[] set = new int[size];
      int filled = 0;
      if (p > 0) {
        double fraction = Math.min(1, -0.5 * Math.log(1 - random.nextDouble()));
        int[] previous = pattern[p - 1];
        int taken = Math.min(previous.length, (int) Math.round(fraction * size));
        for (int i = 0; i < taken; i++) {
          set[filled++] = previous[random.nextInt(previous.length)];
        }
      }
      while (filled < size) {
        set[filled++] = random.nextInt(items);
      }
      pattern[p] = Arrays.stream(set).distinct().sorted().toArray();
      total += -Math.log(1 - random.nextDouble());
      cumulative[p] = total;
      corruption[p] = Math.max(0, Math.min(1, 0.5 + 0.1 * random.nextGaussian()));
    }
    int[][] out = new int[transactions][];
    int[] carried = null;
    int[] basket = new int[64];
    for (int t = 0; t < transactions; t++) {
      int size = Math.max(1, poisson(random, meanTransactionSize));
      int n = 0;
      while (n < size) {
        int[] chosen;
        if (carried != null) {
          chosen = carried;
          carried = null;
        } else {
          int p = Arrays.binarySearch(cumulative, random.nextDouble() * total);
          chosen = corrupt(random, pattern[p < 0 ? Math.min(patterns - 1, -p - 1) : p], corruption[p < 0
              ? Math.min(patterns - 1, -p - 1) : p]);
        }
        if (chosen.length == 0) {
          continue;
        }
        if (n + chosen.length > size && n > 0 && random.nextBoolean()) {
          carried = chosen;
          break;
        }
        if (basket.length < n + chosen.length) {
          basket = Arrays.copyOf(basket, 2 * (n + chosen.length));
        }
        System.arraycopy(chosen, 0, basket, n, chosen.length);
        n += chosen.length;
      }
      out[t] = Arrays.stream(basket, 0, n).distinct().sorted().toArray();
    }
    return out;
  }

  /** The pattern less the items dropped while a uniform number is below its corruption level. */
  private static int[] corrupt(Random random, int[] pattern, double level) {
    int[] kept = pattern.clone();
    int n = kept.length;
    while (n > 0 && random.nextDouble() < level) {
      int drop = random.nextInt(n);
      kept[drop] = kept[--n];
    }
    return Arrays.copyOf(kept, n);
  }

  /** A Poisson variate (Knuth's method; the means here are small). */
  private static int poisson(Random random, double mean) {
    double limit = Math.exp(-mean);
    double product = random.nextDouble();
    int k = 0;
    while (product > limit) {
      product *= random.nextDouble();
      k++;
    }
    return k;
  }
}
