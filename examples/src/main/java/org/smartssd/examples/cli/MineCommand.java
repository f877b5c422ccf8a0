package org.smartssd.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.smartssd.device.runtime.cli.Cli;
import org.smartssd.examples.mining.Algorithm;
import org.smartssd.examples.mining.Apriori;
import org.smartssd.examples.mining.AprioriData;
import org.smartssd.examples.mining.Graph;
import org.smartssd.examples.mining.GraphFiles;
import org.smartssd.examples.mining.IterativeMining;
import org.smartssd.examples.mining.KMeans;
import org.smartssd.examples.mining.Mine;
import org.smartssd.examples.mining.MiningReport;
import org.smartssd.examples.mining.PageRank;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code smartssd mine}: the iSSD's data-mining workloads as Hadoop jobs, on the host and in the devices. */
@Command(
    name = "mine",
    mixinStandardHelpOptions = true,
    description = {
      "Run one of the iSSD's data-mining workloads (k-means, PageRank, Apriori) as ordinary Hadoop jobs, one an "
          + "iteration: make its data set (generated, deterministic by --seed; PageRank can read a real graph with "
          + "--graph), compute its iterations directly in memory, load the data into the devices, run every iteration "
          + "host-normal (an ordinary job over objfs with its combiner) and in the devices (the same mapper and "
          + "combiner through DeviceJobClient), check every iteration of both against the direct computation, print "
          + "the table (measured wall time, modelled time, host-interface bytes, per mode, totals over the "
          + "iterations) and write the report (results.csv, results.json, charts).",
      "Without --device it starts its own devices (--devices, default 1), each in a child JVM, unpaced, on a "
          + "temporary data directory. Exits 1 if any iteration disagrees with the direct computation, 2 for bad "
          + "arguments."})
public final class MineCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--algorithm", required = true, paramLabel = "kmeans|pagerank|apriori",
      description = "The workload: kmeans (clustering points), pagerank (ranking a graph's nodes), apriori "
          + "(frequent itemsets of transactions).")
  String algorithm;

  @Option(names = "--size", paramLabel = "N",
      description = "The data set's size: points for kmeans (default 200,000), nodes of the generated graph for "
          + "pagerank (default 100,000), transactions for apriori (default 10,000).")
  Long size;

  @Option(names = "--iterations", paramLabel = "N",
      description = "At most this many iterations (apriori: passes). Defaults: kmeans 30 and pagerank 10 (the iSSD's "
          + "Table 4), apriori 20 (it stops when a pass would have no candidate).")
  Integer iterations;

  @Option(names = "--k", paramLabel = "K", description = "kmeans: clusters (default: ${DEFAULT-VALUE}).",
      defaultValue = "" + KMeans.DEFAULT_K)
  int k;

  @Option(names = "--dimensions", paramLabel = "D",
      description = "kmeans: coordinates of a point, each a float (default: ${DEFAULT-VALUE}, the iSSD's Table 4).",
      defaultValue = "" + KMeans.DEFAULT_DIMENSIONS)
  int dimensions;

  @Option(names = "--epsilon", paramLabel = "E", defaultValue = "0",
      description = "kmeans: stop once no centroid moves more than this (default: ${DEFAULT-VALUE}: once an iteration "
          + "moves none).")
  double epsilon;

  @Option(names = "--damping", paramLabel = "D", defaultValue = "" + PageRank.DEFAULT_DAMPING,
      description = "pagerank: the damping factor, 0 to 1 (default: ${DEFAULT-VALUE}).")
  double damping;

  @Option(names = "--out-degree", paramLabel = "M", defaultValue = "" + Graph.MEAN_OUT_DEGREE,
      description = "pagerank: the generated graph's mean out-degree (default: ${DEFAULT-VALUE}).")
  double outDegree;

  @Option(names = "--graph", paramLabel = "FILE",
      description = "pagerank: a real graph instead of a generated one: graph-tool's .gt or .gt.gz (such as the "
          + "networks of Debian's python3-graph-tool, graph_tool/collection/polblogs.gt.gz), or a SNAP-style edge "
          + "list (SOURCE TARGET a line, plain or .gz). Not with --size.")
  Path graph;

  @Option(names = "--support", paramLabel = "S", defaultValue = "" + Apriori.DEFAULT_SUPPORT,
      description = "apriori: the minimum support, as a fraction of the transactions (default: ${DEFAULT-VALUE}).")
  double support;

  @Option(names = "--items", paramLabel = "T", defaultValue = "" + AprioriData.MEAN_TRANSACTION_SIZE,
      description = "apriori: the mean items a generated transaction holds (default: ${DEFAULT-VALUE}, the iSSD's "
          + "Table 4).")
  double items;

  @Option(names = "--profile", paramLabel = "P", defaultValue = "msst13-sata",
      description = "Profile of the devices mine starts (default: ${DEFAULT-VALUE}). Ignored with --device.")
  String profile;

  @Option(names = "--device", paramLabel = "HOST:PORT",
      description = "Use this running device instead of starting any (repeatable: the data set is spread over all "
          + "given devices, which must be all paced or all unpaced). The data goes to /smartssd-mine on each, "
          + "replacing what is there.")
  List<String> devices = new ArrayList<>();

  @Option(names = "--devices", paramLabel = "N",
      description = "How many devices mine starts, each its own child JVM (default: 1). Not with --device.")
  Integer deviceCount;

  @Option(names = "--report", paramLabel = "DIR", defaultValue = "smartssd-mine-report",
      description = "Where to write results.csv, results.json and the charts (default: ./${DEFAULT-VALUE}).")
  Path report;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1998",
      description = "Seed of the generated data set, and of k-means' first centroids (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--work-profile", paramLabel = "DIR",
      description = "Profile each job's counted work by method and call path, in the devices and on the host, and "
          + "write it to this directory: per job (each iteration, each job after them) a table (owners' shares, top "
          + "methods; also printed to standard error) and folded stacks for flamegraph.pl and speedscope, and a chart "
          + "of the owners. Counts are unchanged; wall times are longer.")
  Path workProfile;

  @Option(names = "-D", paramLabel = "key=value", description = "A Hadoop configuration key for the jobs.")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(names = "--device-conf", paramLabel = "key=value",
      description = "A configuration key of the devices mine starts (smartssd.device.*). Ignored with --device.")
  Map<String, String> deviceProperties = new LinkedHashMap<>();

  /** The options that belong to one algorithm only. */
  private static final Map<String, Algorithm> OWN = Map.of("--k", Algorithm.KMEANS, "--dimensions", Algorithm.KMEANS,
      "--epsilon", Algorithm.KMEANS, "--damping", Algorithm.PAGERANK, "--out-degree", Algorithm.PAGERANK,
      "--graph", Algorithm.PAGERANK, "--support", Algorithm.APRIORI, "--items", Algorithm.APRIORI);

  @Override
  public Integer call() throws IOException, InterruptedException {
    HadoopLogging.quietWithoutSplitLines();
    System.setProperty("java.awt.headless", "true");
    CommandLine cl = spec.commandLine();
    Algorithm chosen;
    try {
      chosen = Algorithm.parse(algorithm.trim());
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--algorithm: " + e.getMessage());
    }
    for (Map.Entry<String, Algorithm> own : OWN.entrySet()) {
      if (own.getValue() != chosen && cl.getParseResult().hasMatchedOption(own.getKey())) {
        throw new CommandLine.ParameterException(cl, own.getKey() + " is a parameter of --algorithm "
            + own.getValue() + ", not of " + chosen);
      }
    }
    int toStart = DeviceOptions.checked(cl, "mine", devices, deviceCount);
    DeviceConf.checked(cl, deviceProperties, profile);
    IterativeMining<?> workload = workload(cl, chosen);
    PrintWriter out = cl.getOut();
    PrintWriter err = cl.getErr();
    Mine.Options options = new Mine.Options(workload, profile, devices, toStart, properties, deviceProperties);
    Mine.Outcome outcome;
    if (workProfile != null) {
      org.smartssd.examples.loganalysis.WorkProfiling.enable();
    }
    try {
      outcome = new Mine(options, err).run();
    } finally {
      org.smartssd.examples.loganalysis.WorkProfiling.disable();
    }
    MiningReport r = new MiningReport(outcome);
    out.print(r.table());
    out.flush();
    List<Path> files = r.write(report);
    if (workProfile != null) {
      java.util.Map<String, org.smartssd.examples.loganalysis.RunStatistics> runs = new java.util.LinkedHashMap<>();
      for (org.smartssd.examples.mining.MiningRun.ModeRun mode : outcome.modes()) {
        for (org.smartssd.examples.mining.MiningRun.Iteration i : mode.iterations()) {
          runs.put(chosen.optionName() + "-" + i.mode().optionName() + "-iteration-" + i.iteration(), i.statistics());
        }
        for (org.smartssd.examples.mining.MiningRun.FinalJob job : mode.after()) {
          runs.put(chosen.optionName() + "-" + job.mode().optionName() + "-" + job.name().replaceAll("[^A-Za-z0-9._-]",
              "_"), job.statistics());
        }
      }
      WorkProfileOutput.write(err, workProfile, runs);
    }
    out.printf(Locale.ROOT, "%nreport: %s%n", String.join(", ", files.stream().map(Path::toString).toList()));
    out.printf(Locale.ROOT, "mine took %.1f s (all of it: generating, computing directly, loading, warm-up, the runs)%n",
        outcome.totalSeconds());
    out.flush();
    if (!outcome.agree()) {
      err.println("smartssd: the runs disagree with the direct computation: " + String.join("; ",
          outcome.disagreements()));
      err.flush();
      return Cli.EXIT_FAILED;
    }
    return 0;
  }

  /** The workload with its data set, made from the options; a ParameterException naming a bad one. */
  private IterativeMining<?> workload(CommandLine cl, Algorithm chosen) throws IOException {
    if (size != null && size < 1) {
      throw new CommandLine.ParameterException(cl, "--size must be 1 or more, not " + size);
    }
    if (iterations != null && iterations < 1) {
      throw new CommandLine.ParameterException(cl, "--iterations must be 1 or more, not " + iterations);
    }
    switch (chosen) {
      case KMEANS -> {
        long n = size == null ? 200_000 : size;
        if (dimensions < 1 || dimensions > 4096) {
          throw new CommandLine.ParameterException(cl, "--dimensions must be between 1 and 4096, not " + dimensions);
        }
        if (n * dimensions > Integer.MAX_VALUE - 8) {
          throw new CommandLine.ParameterException(cl, "--size " + n + " points of " + dimensions
              + " dimensions are more coordinates than mine holds in memory");
        }
        if (k < 1 || k > n) {
          throw new CommandLine.ParameterException(cl, "--k must be between 1 and the --size of " + n + " points, not "
              + k);
        }
        if (!(epsilon >= 0)) {
          throw new CommandLine.ParameterException(cl, "--epsilon must be 0 or more, not " + epsilon);
        }
        return KMeans.generated((int) n, dimensions, k, seed, iterations == null ? 30 : iterations, epsilon);
      }
      case PAGERANK -> {
        if (!(damping >= 0 && damping <= 1)) {
          throw new CommandLine.ParameterException(cl, "--damping must be between 0 and 1, not " + damping);
        }
        Graph g;
        if (graph != null) {
          if (size != null) {
            throw new CommandLine.ParameterException(cl, "--size sizes a generated graph; --graph gives a real one: "
                + "give one or the other");
          }
          if (!Files.isRegularFile(graph)) {
            throw new CommandLine.ParameterException(cl, "--graph " + graph + " is not a file");
          }
          try {
            g = GraphFiles.read(graph);
          } catch (IOException e) {
            throw new CommandLine.ParameterException(cl, "--graph: " + e.getMessage());
          }
        } else {
          long n = size == null ? 100_000 : size;
          if (n < 2 || n > 50_000_000) {
            throw new CommandLine.ParameterException(cl, "--size must be between 2 and 50,000,000 nodes for a "
                + "generated graph, not " + n);
          }
          if (!(outDegree > 0 && outDegree <= 1000)) {
            throw new CommandLine.ParameterException(cl, "--out-degree must be above 0 and at most 1000, not "
                + outDegree);
          }
          g = Graph.generate((int) n, outDegree, seed);
        }
        return new PageRank(g, damping, iterations == null ? 10 : iterations);
      }
      default -> {
        long n = size == null ? 10_000 : size;
        if (n > 10_000_000) {
          throw new CommandLine.ParameterException(cl, "--size must be at most 10,000,000 transactions, not " + n);
        }
        if (!(support > 0 && support <= 1)) {
          throw new CommandLine.ParameterException(cl, "--support must be above 0 and at most 1 (a fraction of the "
              + "transactions), not " + support);
        }
        if (!(items >= 1 && items <= 1000)) {
          throw new CommandLine.ParameterException(cl, "--items must be between 1 and 1000, not " + items);
        }
        return Apriori.generated((int) n, items, support, seed, iterations == null ? 20 : iterations);
      }
    }
  }
}
