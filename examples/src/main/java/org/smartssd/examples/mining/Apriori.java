package org.smartssd.examples.mining;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;

/**
 * Apriori (Agrawal and Srikant, 1994) as Hadoop jobs, one a pass: pass k's candidates (every item in pass
 * 1; after it, apriori-gen of pass k - 1's frequent itemsets: those joined on their first k - 2 items, less
 * any with a subset of k - 1 items that is not frequent) travel in the job's configuration
 * ({@link Candidates}); the map counts those each transaction contains ({@link AprioriMapper}), Hadoop's
 * {@link IntSumReducer} sums the counts, and the reducer keeps the itemsets with the minimum support
 * ({@link SupportReducer}): the global merge of every candidate's counts. Transactions are text lines of
 * item ids. The passes stop when the next pass would have no candidate, or after {@code maxPasses}.
 */
public final class Apriori implements IterativeMining<Apriori.State> {
  /** The most candidates a pass may have: they travel in the job's configuration. */
  static final int MAX_CANDIDATES = 2_000_000;

  /** {@code smartssd mine}'s minimum support: 1% of the transactions. */
  public static final double DEFAULT_SUPPORT = 0.01;

  /** A frequent itemset: its items, ascending, and the transactions that contain it. */
  public record Itemset(int[] items, long support) {}

  /**
   * The frequent itemsets found up to a pass (of every size up to it: by size, then lexicographically),
   * and each pass's candidates (how many).
   */
  public record State(int pass, List<Itemset> frequent, List<Integer> candidates) {
    /** The frequent itemsets of the last pass, lexicographically. */
    List<int[]> latest() {
      return frequent.stream().filter(i -> i.items().length == pass).map(Itemset::items).toList();
    }
  }

  private static final Comparator<int[]> LEXICOGRAPHIC = Arrays::compare;
  private static final Comparator<Itemset> ORDER = Comparator.<Itemset>comparingInt(i -> i.items().length)
      .thenComparing(Itemset::items, LEXICOGRAPHIC);

  private final int[][] transactions;
  private final long minSupport;
  private final double support;
  private final int maxPasses;
  private final String source;

  /**
   * @param transactions each a transaction's distinct items, ascending
   * @param support the fraction of the transactions an itemset must be in: its minimum support is that many
   *     transactions (rounded up, at least 1)
   */
  public Apriori(int[][] transactions, double support, int maxPasses, String source) {
    if (transactions.length == 0) {
      throw new IllegalArgumentException("no transaction");
    }
    if (!(support > 0 && support <= 1)) {
      throw new IllegalArgumentException("the support must be above 0 and at most 1, not " + support);
    }
    if (maxPasses < 1) {
      throw new IllegalArgumentException("passes must be 1 or more, not " + maxPasses);
    }
    for (int[] t : transactions) {
      for (int i = 0; i < t.length; i++) {
        if (t[i] < 0 || i > 0 && t[i] <= t[i - 1]) {
          throw new IllegalArgumentException("a transaction's items must be distinct, ascending and 0 or more: "
              + Arrays.toString(t));
        }
      }
    }
    this.transactions = transactions;
    this.support = support;
    this.minSupport = Math.max(1, (long) Math.ceil(support * transactions.length - 1e-9));
    this.maxPasses = maxPasses;
    this.source = source;
  }

  /** Apriori over {@code n} generated transactions of {@code meanItems} items on average ({@link AprioriData}). */
  public static Apriori generated(int n, double meanItems, double support, long seed, int maxPasses) {
    return new Apriori(AprioriData.generate(n, meanItems, seed), support, maxPasses,
        "generated like the IBM Quest generator: " + AprioriData.ITEMS + " items, " + AprioriData.PATTERNS
            + " patterns of mean size " + AprioriData.MEAN_PATTERN_SIZE + ", seed " + seed);
  }

  @Override
  public Algorithm algorithm() {
    return Algorithm.APRIORI;
  }

  @Override
  public String description() {
    double items = Arrays.stream(transactions).mapToInt(t -> t.length).average().orElse(0);
    return String.format(Locale.ROOT, "%,d transactions of %.2f items on average (%s), minimum support %s = %,d "
        + "transactions, at most %d passes", transactions.length, items, source, support, minSupport, maxPasses);
  }

  public long minSupport() {
    return minSupport;
  }

  @Override
  public State initial() {
    return new State(0, List.of(), List.of());
  }

  /** apriori-gen: the candidates of the pass after the one that found {@code frequent} (lexicographic, ascending). */
  static int[][] candidates(List<int[]> frequent) {
    if (frequent.isEmpty()) {
      return new int[0][];
    }
    int k = frequent.get(0).length;
    Set<String> known = new HashSet<>();
    for (int[] f : frequent) {
      known.add(Arrays.toString(f));
    }
    List<int[]> out = new ArrayList<>();
    for (int i = 0; i < frequent.size(); i++) {
      int[] a = frequent.get(i);
      for (int j = i + 1; j < frequent.size(); j++) {
        int[] b = frequent.get(j);
        if (!Arrays.equals(a, 0, k - 1, b, 0, k - 1)) {
          break; // sorted: the itemsets sharing a's first k - 1 items follow it
        }
        int[] c = Arrays.copyOf(a, k + 1);
        c[k] = b[k - 1];
        if (allSubsetsFrequent(c, known)) {
          out.add(c);
          if (out.size() > MAX_CANDIDATES) {
            throw new IllegalStateException("pass " + (k + 1) + " would have more than " + MAX_CANDIDATES
                + " candidates, which travel in the job's configuration: raise the minimum support");
          }
        }
      }
    }
    return out.toArray(new int[0][]);
  }

  private static boolean allSubsetsFrequent(int[] c, Set<String> known) {
    int[] subset = new int[c.length - 1];
    for (int drop = 0; drop < c.length - 2; drop++) { // dropping either of the last two gives a joined itemset
      for (int i = 0, j = 0; i < c.length; i++) {
        if (i != drop) {
          subset[j++] = c[i];
        }
      }
      if (!known.contains(Arrays.toString(subset))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Job job(Configuration conf, Step<State> step) throws IOException {
    int pass = step.iteration();
    State state = step.state();
    Path output = step.output();
    Job job = Job.getInstance(conf, "apriori pass " + pass);
    job.setJarByClass(Apriori.class);
    job.setInputFormatClass(TextInputFormat.class);
    for (Path input : step.inputs()) {
      FileInputFormat.addInputPath(job, input);
    }
    Configuration c = job.getConfiguration();
    c.setInt(Candidates.PASS, pass);
    if (pass > 1) {
      c.set(Candidates.CANDIDATES, Candidates.encode(candidates(state.latest())));
    }
    c.setLong(Candidates.MIN_SUPPORT, minSupport);
    job.setMapperClass(AprioriMapper.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(SupportReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setNumReduceTasks(1);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  @Override
  public State next(State state, int pass, List<String> output) throws IOException {
    List<Itemset> found = new ArrayList<>();
    for (String line : output) {
      try {
        String[] f = line.split("\t");
        if (f.length != 2) {
          throw new NumberFormatException("not ITEMSET<TAB>SUPPORT");
        }
        int[] items = Arrays.stream(f[0].split(" ")).mapToInt(Integer::parseInt).toArray();
        if (items.length != pass) {
          throw new NumberFormatException("an itemset of " + items.length + " items in pass " + pass);
        }
        found.add(new Itemset(items, Long.parseLong(f[1])));
      } catch (NumberFormatException e) {
        throw new IOException("pass " + pass + ": the reducer's line '" + line + "' is not a frequent itemset: "
            + e.getMessage(), e);
      }
    }
    return state(state, pass, found);
  }

  /** The state after a pass that found {@code found} (in any order). */
  private State state(State before, int pass, List<Itemset> found) {
    List<Itemset> all = new ArrayList<>(before.frequent());
    all.addAll(found);
    all.sort(ORDER);
    List<Integer> candidates = new ArrayList<>(before.candidates());
    candidates.add(pass == 1 ? (int) Arrays.stream(transactions).flatMapToInt(Arrays::stream).distinct().count()
        : candidates(before.latest()).length);
    return new State(pass, List.copyOf(all), List.copyOf(candidates));
  }

  @Override
  public boolean stop(State before, State after, int pass) {
    return pass >= maxPasses || candidates(after.latest()).length == 0;
  }

  /**
   * The frequent itemsets found directly by another algorithm, Eclat (Zaki, 2000): each item's set of
   * transactions, intersected depth first; then cut into the passes Apriori makes, with its rule to stop.
   */
  @Override
  public List<State> direct() {
    int maxItem = Arrays.stream(transactions).flatMapToInt(Arrays::stream).max().orElse(-1);
    BitSet[] tids = new BitSet[maxItem + 1];
    for (int t = 0; t < transactions.length; t++) {
      for (int item : transactions[t]) {
        if (tids[item] == null) {
          tids[item] = new BitSet(transactions.length);
        }
        tids[item].set(t);
      }
    }
    List<Integer> items = new ArrayList<>();
    List<BitSet> sets = new ArrayList<>();
    for (int item = 0; item <= maxItem; item++) {
      if (tids[item] != null && tids[item].cardinality() >= minSupport) {
        items.add(item);
        sets.add(tids[item]);
      }
    }
    List<Itemset> frequent = new ArrayList<>();
    eclat(new int[0], items, sets, frequent);
    List<State> states = new ArrayList<>();
    State state = initial();
    for (int pass = 1; ; pass++) {
      int size = pass;
      State after = state(state, pass, frequent.stream().filter(i -> i.items().length == size).toList());
      states.add(after);
      if (stop(state, after, pass)) {
        return states;
      }
      state = after;
    }
  }

  private void eclat(int[] prefix, List<Integer> items, List<BitSet> sets, List<Itemset> out) {
    for (int i = 0; i < items.size(); i++) {
      int[] itemset = Arrays.copyOf(prefix, prefix.length + 1);
      itemset[prefix.length] = items.get(i);
      out.add(new Itemset(itemset, sets.get(i).cardinality()));
      List<Integer> nextItems = new ArrayList<>();
      List<BitSet> nextSets = new ArrayList<>();
      for (int j = i + 1; j < items.size(); j++) {
        BitSet both = (BitSet) sets.get(i).clone();
        both.and(sets.get(j));
        if (both.cardinality() >= minSupport) {
          nextItems.add(items.get(j));
          nextSets.add(both);
        }
      }
      if (!nextItems.isEmpty()) {
        eclat(itemset, nextItems, nextSets, out);
      }
    }
  }

  @Override
  public List<String> lines(State state) {
    List<String> lines = new ArrayList<>();
    for (Itemset i : state.frequent()) {
      lines.add(text(i.items()) + "\t" + i.support());
    }
    return lines;
  }

  private static String text(int[] items) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < items.length; i++) {
      sb.append(i == 0 ? "" : " ").append(items[i]);
    }
    return sb.toString();
  }

  /** Each pass's candidates and frequent itemsets, and the most frequent itemsets of the last pass that found any. */
  @Override
  public List<String> summary(State state) {
    List<String> lines = new ArrayList<>();
    int largest = 0;
    for (int pass = 1; pass <= state.pass(); pass++) {
      int size = pass;
      long found = state.frequent().stream().filter(i -> i.items().length == size).count();
      if (found > 0) {
        largest = pass;
      }
      lines.add(String.format(Locale.ROOT, "pass %d: %,d candidates, %,d frequent itemsets of %d item%s", pass,
          state.candidates().get(pass - 1), found, pass, pass == 1 ? "" : "s"));
    }
    int size = largest;
    state.frequent().stream().filter(i -> i.items().length == size)
        .sorted(Comparator.comparingLong(Itemset::support).reversed().thenComparing(Itemset::items, LEXICOGRAPHIC))
        .limit(5).forEach(i -> lines.add(String.format(Locale.ROOT, "{%s}: in %,d transactions", text(i.items()),
            i.support())));
    return lines;
  }

  @Override
  public void load(Configuration conf, List<Path> targets) throws IOException {
    DataParts.write(conf, targets, transactions.length, (out, from, to) -> {
      for (int t = (int) from; t < to; t++) {
        out.write((text(transactions[t]) + "\n").getBytes(StandardCharsets.US_ASCII));
      }
    });
  }

  @Override
  public long records() {
    return transactions.length;
  }

  @Override
  public long bytes() {
    long bytes = 0;
    for (int[] t : transactions) {
      bytes += text(t).length() + 1;
    }
    return bytes;
  }

  @Override
  public int recordBytes() {
    return 1;
  }
}
