package org.smartssd.examples.search;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.tasklet.builtin.HammingSearch;
import org.smartssd.device.tasklet.builtin.Neighbour;
import org.smartssd.examples.loganalysis.CommandDevices;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.MeasuredJob;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;
import org.smartssd.examples.loganalysis.WorkDirectory;
import org.smartssd.objectfs.DeviceClients;

/**
 * A similarity search end to end ({@code smartssd search}): generate the items and queries, lay the
 * items out, store them on a device through objfs, and find each query's T nearest items by Hamming
 * distance on the host (brute force over the records read through objfs) and in the device (the
 * built-in {@code HammingTopT}: one execution over every item with every query; laid out clustered,
 * also nearest buckets first, in rounds), each measured as the log analysis's runs are; check that the
 * device's answers equal the host's, and the host's a computation in memory.
 *
 * <p>Without a given device it starts its own (a child JVM, unpaced). Before the measured runs each
 * mode runs once (not reported, but checked), so that neither side is measured cold.
 */
public final class SimilaritySearch {
  /** Where the items go on the device. */
  static final String DEVICE_DIRECTORY = "/smartssd-search";

  /** How a search runs. */
  public enum SearchMode {
    /** On the host: every record read through objfs and compared with every query. */
    HOST("host", Mode.HOST_NORMAL),
    /** In the device: one execution compares every item with every query. */
    DEVICE("device", Mode.DEVICE),
    /** In the device, laid out clustered: the buckets nearest each query first, in rounds ({@link BucketRounds}). */
    DEVICE_PRUNED("device-pruned", Mode.DEVICE);

    private final String optionName;
    private final Mode measuredAs;

    SearchMode(String optionName, Mode measuredAs) {
      this.optionName = optionName;
      this.measuredAs = measuredAs;
    }

    public String optionName() {
      return optionName;
    }

    @Override
    public String toString() {
      return optionName;
    }
  }

  /**
   * What to search.
   *
   * @param prefixBits the clustered layout's bucket prefix
   * @param device a running device to use ({@code host:port}), or null to start one
   * @param deviceProperties keys for the device it starts
   */
  public record Options(SearchData.Parameters data, int top, Layout layout, int prefixBits, String profile,
      String device, Map<String, String> hadoopProperties, Map<String, String> deviceProperties) {}

  /**
   * One measured search.
   *
   * @param neighbours each query's top T, best first
   * @param executionPagesRead flash pages the device's executions read (0 on the host)
   * @param rounds the scans made (1 but for the pruned search)
   * @param itemsRead items scanned, summed over the scans
   * @param comparisons items compared with a query, summed
   */
  public record ModeRun(SearchMode mode, RunStatistics statistics, List<List<Neighbour>> neighbours,
      long executionPagesRead, int executions, int rounds, long itemsRead, long comparisons) {}

  /**
   * What was searched and found.
   *
   * @param queryItems the item each query is a perturbed copy of
   * @param precision the share of the items found (by the host) of the cluster of the item their query copies
   * @param pageBytes the device's flash page
   * @param filledBuckets the clustered layout's buckets that hold items (0 for the plain one)
   * @param disagreements where an answer differs from the host's, or the host's from the computation in memory
   */
  public record Outcome(Options options, String description, List<Integer> queryItems, double precision,
      String profile, boolean paced, int pageBytes, int filledBuckets, List<ModeRun> runs, List<String> disagreements,
      double generateSeconds, double totalSeconds) {
    /** Whether every device answer equals the host's brute force (and the host's the computation in memory). */
    public boolean exact() {
      return disagreements.isEmpty();
    }
  }

  /** What a search found, what it scanned to find it, and its executions in the device. */
  private record Found(List<List<Neighbour>> neighbours, int rounds, long itemsRead, long comparisons,
      List<ExecutionStatistics> executions, List<org.smartssd.device.WorkProfile> profiles) {
    long executionPagesRead() {
      return executions.stream().mapToLong(ExecutionStatistics::pagesRead).sum();
    }
  }

  private final Options options;
  private final PrintWriter log;

  public SimilaritySearch(Options options, PrintWriter log) {
    this.options = options;
    this.log = log;
  }

  public Outcome run() throws IOException, InterruptedException {
    long started = System.nanoTime();
    Configuration conf = LogAnalysis.configuration(options.hadoopProperties());
    SearchData.Parameters p = options.data();
    SearchData data = SearchData.generate(p);
    ItemObject items = ItemObject.of(data, options.layout(), options.prefixBits());
    double generateSeconds = (System.nanoTime() - started) / 1e9;
    say("%s; laid out %s: generated and hashed in %.1f s", data.description(), options.layout(), generateSeconds);
    List<long[]> queries = data.queryCodes();
    HammingSearch direct = new HammingSearch(p.bits(), options.top(), queries.toArray(new long[0][]));
    direct.scan(ByteBuffer.wrap(items.records()));
    List<List<Neighbour>> expected = direct.lists().sorted();
    List<SearchMode> modes = options.layout() == Layout.CLUSTERED
        ? List.of(SearchMode.HOST, SearchMode.DEVICE, SearchMode.DEVICE_PRUNED)
        : List.of(SearchMode.HOST, SearchMode.DEVICE);
    try (WorkDirectory work = WorkDirectory.create("smartssd-search-");
        CommandDevices devices = options.device() == null
            ? CommandDevices.start(conf, work.path(), options.profile(), 1, options.deviceProperties())
            : CommandDevices.given(conf, List.of(options.device()))) {
      say("%s", devices.description());
      String base = "objfs://" + devices.addresses().get(0) + DEVICE_DIRECTORY;
      Path itemsPath = new Path(base + "/items");
      Path directoryPath = new Path(base + "/items.buckets");
      write(conf, itemsPath, items.records());
      if (items.directory() != null) {
        write(conf, directoryPath, items.directory().encode());
      }
      say("stored %,d item records of %d bytes (%,d bytes) at %s", items.items(), items.recordBytes(),
          items.records().length, itemsPath);
      try (SocketDeviceClient client = SocketDeviceClient.connect(DeviceAddress.parse(devices.addresses().get(0)),
          DeviceClients.clientOptions(conf))) {
        int pageBytes = client.info().geometry().pageSizeBytes();
        Runner runner = new Runner(conf, client, itemsPath, directoryPath, queries, pageBytes);
        List<String> disagreements = new ArrayList<>();
        say("warming up (each mode once, not reported)");
        for (SearchMode mode : modes) {
          compare("warm-up " + mode, runner.run(mode).result().neighbours(), expected, disagreements);
        }
        List<ModeRun> runs = new ArrayList<>();
        for (SearchMode mode : modes) {
          System.gc(); // not inside the measurement: each mode starts with a clean heap
          MeasuredJob.Measurement<Found> m = runner.run(mode);
          Found found = m.result();
          RunStatistics s = m.statistics(() -> "search", mode.measuredAs, items.records().length, items.recordBytes());
          runs.add(new ModeRun(mode, s, found.neighbours(), found.executionPagesRead(), found.executions().size(),
              found.rounds(), found.itemsRead(), found.comparisons()));
          say("%s: %.3f s measured, %.4f s modelled, %,d host-interface bytes, %,d pages read%s", mode,
              s.wallSeconds(), s.modelledSeconds(), s.hostInterfaceBytes(), pagesRead(s),
              mode == SearchMode.DEVICE_PRUNED ? String.format(Locale.ROOT, " (%d rounds, %,d of %,d item "
                  + "comparisons)", found.rounds(), found.comparisons(), (long) items.items() * queries.size()) : "");
        }
        for (ModeRun r : runs) {
          if (r.mode() == SearchMode.HOST) {
            compare("host", r.neighbours(), expected, disagreements);
          } else {
            compare(r.mode().optionName(), r.neighbours(), runs.get(0).neighbours(), disagreements);
          }
        }
        int filled = items.directory() == null ? 0 : items.directory().buckets();
        double precision = data.precision(runs.get(0).neighbours().stream()
            .map(l -> l.stream().map(Neighbour::id).toList()).toList());
        return new Outcome(options, data.description(), data.queryItems(), precision, devices.profile(),
            devices.paced(), pageBytes, filled, runs, disagreements, generateSeconds,
            (System.nanoTime() - started) / 1e9);
      }
    }
  }

  /** Pages the device read during a run (for the host's reads and its executions alike). */
  static long pagesRead(RunStatistics s) {
    return s.devices().stream().mapToLong(d -> d.flash().pagesRead()).sum();
  }

  /** Runs the modes, measured. */
  private final class Runner {
    private final Configuration conf;
    private final SocketDeviceClient client;
    private final Path items;
    private final Path directory;
    private final List<long[]> queries;
    private final int pageBytes;

    Runner(Configuration conf, SocketDeviceClient client, Path items, Path directory, List<long[]> queries,
        int pageBytes) {
      this.conf = conf;
      this.client = client;
      this.items = items;
      this.directory = directory;
      this.queries = queries;
      this.pageBytes = pageBytes;
    }

    MeasuredJob.Measurement<Found> run(SearchMode mode) throws IOException, InterruptedException {
      int bits = options.data().bits();
      int top = options.top();
      long all = (long) options.data().items() * queries.size();
      return MeasuredJob.run(conf, List.of(items), () -> {
        Found found;
        if (mode == SearchMode.HOST) {
          found = new Found(HostSearch.bruteForce(conf, items, bits, top, queries), 1, options.data().items(), all,
              List.of(), List.of());
        } else {
          try (DeviceSearch device = new DeviceSearch(client, items.toUri().getPath(), bits, top, queries)) {
            if (mode == SearchMode.DEVICE) {
              found = new Found(device.scanAll(), 1, options.data().items(), all, device.executions(),
                  device.profiles());
            } else {
              BucketDirectory buckets = BucketDirectory.decode(read(conf, directory));
              BucketRounds.Outcome o = new BucketRounds(buckets, queries, top, HammingSearch.recordBytes(bits),
                  pageBytes).search(ranges -> device.scan(ranges, buckets));
              found = new Found(o.neighbours(), o.rounds(), o.itemsRead(), o.comparisons(), device.executions(),
                  device.profiles());
            }
          }
        }
        return new MeasuredJob.Done<>(found, found.executions(), found.profiles());
      });
    }
  }

  private static void compare(String what, List<List<Neighbour>> found, List<List<Neighbour>> reference,
      List<String> disagreements) {
    for (int q = 0; q < reference.size(); q++) {
      if (!found.get(q).equals(reference.get(q))) {
        disagreements.add(String.format(Locale.ROOT, "%s, query %d: found %s, the %s %s", what, q,
            abbreviated(found.get(q)), what.equals("host") ? "computation in memory" : "host", abbreviated(
                reference.get(q))));
      }
    }
  }

  private static String abbreviated(List<Neighbour> list) {
    String s = list.toString();
    return s.length() <= 200 ? s : s.substring(0, 197) + "...";
  }

  private static void write(Configuration conf, Path path, byte[] bytes) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    try (OutputStream out = fs.create(path, true)) {
      out.write(bytes);
    }
  }

  private static byte[] read(Configuration conf, Path path) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    try (InputStream in = fs.open(path)) {
      return in.readAllBytes();
    }
  }

  private void say(String format, Object... args) {
    log.printf(Locale.ROOT, "search: " + format + "%n", args);
    log.flush();
  }
}
