package org.smartssd.examples.mining;

import java.util.Base64;
import org.apache.hadoop.conf.Configuration;

/**
 * An Apriori pass's candidate itemsets, as the job's configuration carries them: the one place that reads
 * {@link #PASS}, {@link #CANDIDATES} and {@link #MIN_SUPPORT}. Pass 1 has none (every item is a
 * candidate); pass k's are itemsets of k items (ascending), in lexicographic order, packed as varints
 * (Base64). Finding the candidates a transaction contains walks them as a prefix tree: at depth j, the
 * candidates that share the first j items form a range whose j-th items ascend, searched by bisection.
 */
public final class Candidates {
  /** The pass: the size of its candidate itemsets. */
  public static final String PASS = "smartssd.mining.apriori.pass";
  public static final int PASS_DEFAULT = 1;
  /** The candidates of a pass after the first: k x count items as varints, Base64. */
  public static final String CANDIDATES = "smartssd.mining.apriori.candidates";
  /** Transactions an itemset must be in to be frequent. */
  public static final String MIN_SUPPORT = "smartssd.mining.apriori.min-support";
  public static final long MIN_SUPPORT_DEFAULT = 1;

  private final int k;
  /** count x k items, candidate after candidate. */
  private final int[] items;

  private Candidates(int k, int[] items) {
    this.k = k;
    this.items = items;
  }

  /**
   * The pass and candidates of a job's configuration.
   *
   * @throws IllegalArgumentException naming the key when one is malformed, or candidates are not in order
   */
  public static Candidates of(Configuration conf) {
    String passText = conf.getTrimmed(PASS, Integer.toString(PASS_DEFAULT));
    int k;
    try {
      k = Integer.parseInt(passText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(PASS + "='" + passText + "' is not a whole number");
    }
    if (k < 1) {
      throw new IllegalArgumentException(PASS + " must be 1 or more, not " + k);
    }
    if (k == 1) {
      return new Candidates(1, new int[0]);
    }
    String text = conf.get(CANDIDATES);
    if (text == null) {
      throw new IllegalArgumentException(CANDIDATES + " is not set: the Apriori driver sets it for pass " + k);
    }
    long[] values;
    try {
      values = Varints.decode(Base64.getDecoder().decode(text), CANDIDATES);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(CANDIDATES + ": " + e.getMessage());
    }
    if (values.length % k != 0) {
      throw new IllegalArgumentException(CANDIDATES + " holds " + values.length + " items, not itemsets of " + k);
    }
    int[] items = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      if (values[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(CANDIDATES + ": item " + values[i] + " is not an int");
      }
      items[i] = (int) values[i];
    }
    for (int c = 0; c < items.length / k; c++) {
      for (int j = 1; j < k; j++) {
        if (items[c * k + j] <= items[c * k + j - 1]) {
          throw new IllegalArgumentException(CANDIDATES + ": candidate " + c + "'s items do not ascend");
        }
      }
      if (c > 0 && compare(items, c - 1, c, k) >= 0) {
        throw new IllegalArgumentException(CANDIDATES + ": candidate " + c + " is not after candidate " + (c - 1));
      }
    }
    return new Candidates(k, items);
  }

  /** {@link #MIN_SUPPORT} of a configuration, 1 or more. */
  public static long minSupport(Configuration conf) {
    String text = conf.getTrimmed(MIN_SUPPORT, Long.toString(MIN_SUPPORT_DEFAULT));
    long s;
    try {
      s = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(MIN_SUPPORT + "='" + text + "' is not a whole number");
    }
    if (s < 1) {
      throw new IllegalArgumentException(MIN_SUPPORT + " must be 1 or more, not " + s);
    }
    return s;
  }

  /** The value of {@link #CANDIDATES}: itemsets of the same size, items ascending, in lexicographic order. */
  public static String encode(int[][] candidates) {
    int k = candidates.length == 0 ? 0 : candidates[0].length;
    long[] values = new long[candidates.length * k];
    for (int c = 0; c < candidates.length; c++) {
      for (int j = 0; j < k; j++) {
        values[c * k + j] = candidates[c][j];
      }
    }
    return Base64.getEncoder().encodeToString(Varints.encode(values));
  }

  private static int compare(int[] items, int a, int b, int k) {
    for (int j = 0; j < k; j++) {
      int c = Integer.compare(items[a * k + j], items[b * k + j]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** The pass: the size of the candidates. */
  public int pass() {
    return k;
  }

  public int count() {
    return k == 1 ? 0 : items.length / k;
  }

  /** Candidate {@code c}'s {@code j}-th item. */
  public int item(int c, int j) {
    return items[c * k + j];
  }

  /** Receives the candidates a transaction contains. */
  public interface Found {
    void found(int candidate) throws java.io.IOException, InterruptedException;
  }

  /**
   * Tells {@code found} of every candidate whose items are all among the transaction's, once each.
   *
   * @param transaction its distinct items, ascending, in its first {@code n} places
   */
  public void contained(int[] transaction, int n, Found found) throws java.io.IOException, InterruptedException {
    if (count() > 0) {
      walk(transaction, n, 0, count(), 0, 0, found);
    }
  }

  private void walk(int[] t, int n, int lo, int hi, int depth, int from, Found found)
      throws java.io.IOException, InterruptedException {
    int last = items[(hi - 1) * k + depth];
    for (int i = from; i <= n - (k - depth) && t[i] <= last; i++) {
      int a = lowerBound(lo, hi, depth, t[i]);
      if (a == hi || items[a * k + depth] != t[i]) {
        continue;
      }
      if (depth == k - 1) {
        found.found(a);
      } else {
        walk(t, n, a, upperBound(a, hi, depth, t[i]), depth + 1, i + 1, found);
      }
      lo = a;
    }
  }

  /** The first candidate in [lo, hi) whose item at {@code depth} is more than {@code value}. */
  private int upperBound(int lo, int hi, int depth, int value) {
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (items[mid * k + depth] <= value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The first candidate in [lo, hi) whose item at {@code depth} is {@code value} or more. */
  private int lowerBound(int lo, int hi, int depth, int value) {
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (items[mid * k + depth] < value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
