package org.smartssd.examples.cli;

import static org.smartssd.examples.cli.Arguments.check;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.smartssd.device.runtime.cli.Cli;
import org.smartssd.device.tasklet.builtin.HammingSearch;
import org.smartssd.examples.search.BucketDirectory;
import org.smartssd.examples.search.Layout;
import org.smartssd.examples.search.SearchData;
import org.smartssd.examples.search.SearchReport;
import org.smartssd.examples.search.SimilaritySearch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd search}: similarity search by Hamming distance, on the host and in the device. */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    description = {
      "Similarity search over binary codes, the Cognitive SSD's in-storage retrieval: generate --items feature "
          + "vectors of --dims dimensions in Gaussian clusters, make their --bits-bit codes by random projection "
          + "(SimHash: the signs of dot products with seeded Gaussian hyperplanes), store the items (u64 id, code) on "
          + "the device through objfs, make --queries queries (perturbed copies of random items, hashed the same "
          + "way), and find each query's --top nearest items by Hamming distance: on the host (every record read "
          + "through objfs, brute force) and in the device (the built-in tasklet HammingTopT, every query in one "
          + "scan); with --layout clustered the items are sorted by code and also searched nearest buckets first, "
          + "in rounds, exactly. Prints the table and writes results.json (exact: every device answer equals the "
          + "host's) and results.csv to --report.",
      "Without --device it starts its own device (a child JVM, unpaced, on a temporary data directory). Exits 1 if "
          + "a device answer differs from the host's, 2 for bad arguments."})
public final class SearchCommand implements Callable<Integer> {
  /** The most items: their records and codes are held in memory (a choice). */
  static final int MAX_ITEMS = 20_000_000;
  /** The most queries in one search (a choice: their codes travel in one parameter of the tasklet). */
  static final int MAX_QUERIES = 4096;
  /** A parameter is one protocol string: at most 65,535 bytes of UTF-8. */
  static final int MAX_PARAMETER_CHARS = 65_535;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--items", paramLabel = "N", defaultValue = "200000",
      description = "Items to generate and search (default: ${DEFAULT-VALUE}).")
  int items;

  @Option(names = "--dims", paramLabel = "D", defaultValue = "64",
      description = "Dimensions of the feature vectors (default: ${DEFAULT-VALUE}).")
  int dims;

  @Option(names = "--bits", paramLabel = "B", defaultValue = "64",
      description = "Bits of a code, 1 to " + HammingSearch.MAX_BITS + " (default: ${DEFAULT-VALUE}).")
  int bits;

  @Option(names = "--top", paramLabel = "T", defaultValue = "10",
      description = "Nearest items to find for each query (default: ${DEFAULT-VALUE}).")
  int top;

  @Option(names = "--queries", paramLabel = "Q", defaultValue = "16",
      description = "Queries, all answered by one scan in the device (default: ${DEFAULT-VALUE}).")
  int queries;

  @Option(names = "--clusters", paramLabel = "K", defaultValue = "64",
      description = "Gaussian clusters of the feature vectors (default: ${DEFAULT-VALUE}).")
  int clusters;

  @Option(names = "--spread", paramLabel = "S", defaultValue = "1",
      description = "How many times the k-means model's deviations (1 to 4) the clusters' are: more makes them "
          + "overlap (default: ${DEFAULT-VALUE}).")
  double spread;

  @Option(names = "--layout", paramLabel = "plain|clustered", defaultValue = "plain",
      description = "How the items lie on the device: plain (in id order) or clustered (sorted by code, so similar "
          + "codes share pages, and searched nearest buckets first) (default: ${DEFAULT-VALUE}).")
  String layout;

  @Option(names = "--prefix-bits", paramLabel = "K",
      description = "clustered: the code bits that name a bucket, 1 to " + BucketDirectory.MAX_PREFIX_BITS
          + ", at most --bits (default: log2(items) + 3, at most 32 and --bits).")
  Integer prefixBits;

  @Option(names = "--profile", paramLabel = "P", defaultValue = "msst13-sata",
      description = "Profile of the device search starts (default: ${DEFAULT-VALUE}). Ignored with --device.")
  String profile;

  @Option(names = "--device", paramLabel = "HOST:PORT",
      description = "Use this running device instead of starting one. The items go to /smartssd-search on it, "
          + "replacing what is there.")
  String device;

  @Option(names = "--report", paramLabel = "DIR", defaultValue = "smartssd-search-report",
      description = "Where to write results.json and results.csv (default: ./${DEFAULT-VALUE}).")
  Path report;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1998",
      description = "Seed of the vectors, the hyperplanes and the queries (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--work-profile", paramLabel = "DIR",
      description = "Profile each run's counted work by method and call path, in the devices and on the host, and "
          + "write it to this directory: per run a table (owners' shares, top methods; also printed to standard "
          + "error) and folded stacks for flamegraph.pl and speedscope, and a chart of the owners. Counts are "
          + "unchanged; wall times are longer.")
  Path workProfile;

  @Option(names = "-D", paramLabel = "key=value", description = "A Hadoop configuration key (objfs's, say).")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(names = "--device-conf", paramLabel = "key=value",
      description = "A configuration key of the device search starts (smartssd.device.*). Ignored with --device.")
  Map<String, String> deviceProperties = new LinkedHashMap<>();

  @Override
  public Integer call() throws IOException, InterruptedException {
    HadoopLogging.quiet();
    CommandLine cl = spec.commandLine();
    Layout chosen;
    try {
      chosen = Layout.parse(layout.trim());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--layout: " + e.getMessage());
    }
    check(cl, items >= 1 && items <= MAX_ITEMS, "--items must be between 1 and %,d, not %d", MAX_ITEMS, items);
    check(cl, dims >= 1 && dims <= 4096, "--dims must be between 1 and 4096, not %d", dims);
    check(cl, bits >= 1 && bits <= HammingSearch.MAX_BITS, "--bits must be between 1 and %d, not %d",
        HammingSearch.MAX_BITS, bits);
    check(cl, (long) items * HammingSearch.recordBytes(bits) <= Integer.MAX_VALUE - 8,
        "--items %,d of %d bits are more record bytes than search holds in memory (2 GiB)", items, bits);
    check(cl, top >= 1 && top <= items, "--top must be between 1 and --items (%d), not %d", items, top);
    check(cl, queries >= 1 && queries <= Math.min(items, MAX_QUERIES),
        "--queries must be between 1 and %d (and at most --items: each is a copy of a distinct item), not %d",
        MAX_QUERIES, queries);
    check(cl, (long) queries * top <= HammingSearch.MAX_KEPT, "--queries x --top must be at most %,d (the lists "
        + "a lane keeps), not %,d", HammingSearch.MAX_KEPT, (long) queries * top);
    check(cl, (long) queries * (((bits + 3) >>> 2) + 1) <= MAX_PARAMETER_CHARS, "--queries %d of %d bits do not fit "
        + "in one tasklet parameter (%,d characters at most): fewer queries or shorter codes", queries, bits,
        MAX_PARAMETER_CHARS);
    check(cl, clusters >= 1 && clusters <= items, "--clusters must be between 1 and --items (%d), not %d", items,
        clusters);
    check(cl, spread > 0 && spread <= 1000, "--spread must be above 0 and at most 1000, not %s", spread);
    int prefix = 0;
    if (chosen == Layout.CLUSTERED) {
      int most = Math.min(BucketDirectory.MAX_PREFIX_BITS, bits);
      prefix = prefixBits != null ? prefixBits : defaultPrefixBits(items, most);
      check(cl, prefix >= 1 && prefix <= most, "--prefix-bits must be between 1 and %d (and at most --bits), not %d",
          most, prefix);
      check(cl, (long) queries * Math.min(items, 1L << prefix) <= 1L << 26, "--queries x min(--items, "
          + "2^--prefix-bits) must be at most 2^26 (the search orders the buckets for each query), not %d x %d",
          queries, Math.min(items, 1L << prefix));
    } else if (prefixBits != null) {
      throw new CommandLine.ParameterException(cl, "--prefix-bits is a parameter of --layout clustered, not of "
          + chosen);
    }
    if (device != null) {
      DeviceOptions.checked(cl, "search", List.of(device), null);
    }
    DeviceConf.checked(cl, deviceProperties, profile);
    PrintWriter out = cl.getOut();
    PrintWriter err = cl.getErr();
    SimilaritySearch.Options options = new SimilaritySearch.Options(new SearchData.Parameters(items, dims, bits,
        queries, clusters, spread, seed), top, chosen, prefix, profile, device, properties, deviceProperties);
    SimilaritySearch.Outcome outcome;
    if (workProfile != null) {
      org.smartssd.examples.loganalysis.WorkProfiling.enable();
    }
    try {
      outcome = new SimilaritySearch(options, err).run();
    } finally {
      org.smartssd.examples.loganalysis.WorkProfiling.disable();
    }
    SearchReport r = new SearchReport(outcome);
    out.print(r.table());
    List<Path> files = r.write(report);
    if (workProfile != null) {
      java.util.Map<String, org.smartssd.examples.loganalysis.RunStatistics> runs = new java.util.LinkedHashMap<>();
      for (SimilaritySearch.ModeRun run : outcome.runs()) {
        runs.put("search-" + run.mode().optionName(), run.statistics());
      }
      WorkProfileOutput.write(err, workProfile, runs);
    }
    out.printf(Locale.ROOT, "%nreport: %s%n", String.join(", ", files.stream().map(Path::toString).toList()));
    out.printf(Locale.ROOT, "search took %.1f s (all of it: generating, hashing, loading, warm-up, the runs)%n",
        outcome.totalSeconds());
    out.flush();
    if (!outcome.exact()) {
      err.println("smartssd: the answers are not exact: " + String.join("; ", outcome.disagreements()));
      err.flush();
      return Cli.EXIT_FAILED;
    }
    return 0;
  }

  /**
   * The default bucket prefix: log2(items) + 3 bits, at least 1, at most {@code most}. A choice, from
   * the search at 8 to 32 bits (BENCHMARKS.md): the longer the prefix, the closer a bucket's lower bound
   * to its items' distances, and clustered codes fill few of the buckets however many there are; the
   * directory holds only those (8 bytes each), so its cost stops the gain only past about this.
   */
  static int defaultPrefixBits(int items, int most) {
    int bits = 63 - Long.numberOfLeadingZeros(items) + 3;
    return Math.max(1, Math.min(most, bits));
  }
}
