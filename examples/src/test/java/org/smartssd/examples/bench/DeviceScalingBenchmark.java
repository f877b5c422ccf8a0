package org.smartssd.examples.bench;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.smartssd.examples.loganalysis.AnalysisRun;
import org.smartssd.examples.loganalysis.Comparison;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.examples.loganalysis.RunStatistics;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.wc98.GeneratorParameters;

/**
 * Device-mode scenario 1 (accesses per region) with 1, 2 and 4 devices holding the same trace, each
 * device a child JVM started by {@link Comparison} (as {@code smartssd compare --modes device
 * --scenarios regions --devices N} does), unpaced and paced. Each round runs every device count once,
 * in turn, so that drift in the machine's load touches them alike; the table gives medians over the
 * rounds and their ratio to the one-device median.
 *
 * <pre>
 * bench/run examples org.smartssd.examples.bench.DeviceScalingBenchmark [RECORDS [ROUNDS [COUNTS [PROFILE [KEYS]]]]]
 * </pre>
 *
 * RECORDS defaults to 7,000,000 (the source's run), ROUNDS to 3, COUNTS to {@code 1,2,4}, PROFILE to
 * {@code msst13-sata}; KEYS, comma-separated {@code key=value}, are device keys (as compare's
 * {@code --device-conf}), e.g. {@code smartssd.device.isp.compute-model=cycles}.
 */
public final class DeviceScalingBenchmark {
  private DeviceScalingBenchmark() {}

  public static void main(String[] args) throws Exception {
    long records = args.length > 0 ? Long.parseLong(args[0]) : 7_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int[] counts = args.length > 2 ? Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
        : new int[] {1, 2, 4};
    String profile = args.length > 3 ? args[3] : "msst13-sata";
    Map<String, String> deviceKeys = new LinkedHashMap<>();
    if (args.length > 4) {
      for (String kv : args[4].split(",")) {
        int eq = kv.indexOf('=');
        if (eq < 1) {
          throw new IllegalArgumentException("device key '" + kv + "' is not key=value");
        }
        deviceKeys.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    PrintWriter log = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    Path reports = Files.createTempDirectory("smartssd-scaling-");

    // [count][paced 0/1][wall, modelled][round]
    Map<Integer, double[][][]> figures = new LinkedHashMap<>();
    for (int n : counts) {
      figures.put(n, new double[2][2][rounds]);
    }
    long started = System.nanoTime();
    for (int round = 0; round < rounds; round++) {
      for (int n : counts) {
        Comparison.Options options = new Comparison.Options(records, profile, List.of(), n, reports.resolve("r" + n),
            GeneratorParameters.DEFAULT_SEED, List.of(Scenario.REGIONS), List.of(Mode.DEVICE), Map.of(), deviceKeys,
            List.of(), false);
        Comparison.Outcome outcome = new Comparison(options, log).run();
        if (!outcome.agree()) {
          throw new IllegalStateException("results disagree: " + outcome.disagreements());
        }
        for (AnalysisRun run : outcome.runs()) {
          RunStatistics s = run.statistics();
          int paced = Boolean.TRUE.equals(s.paced()) ? 1 : 0;
          figures.get(n)[paced][0][round] = s.wallSeconds();
          figures.get(n)[paced][1][round] = s.modelledSeconds();
          System.out.printf(Locale.ROOT, "round %d, %d device(s), %-8s wall %.3f s, modelled %.3f s; per device "
              + "modelled:%s%n", round + 1, n, paced == 1 ? "paced" : "unpaced", s.wallSeconds(), s.modelledSeconds(),
              perDevice(s));
        }
      }
    }
    System.out.printf(Locale.ROOT, "%n%,d records, profile %s%s, device mode, scenario regions; medians of %d rounds; "
        + "ratio: to the %d-device median%n", records, profile, deviceKeys.isEmpty() ? "" : " " + deviceKeys, rounds,
        counts[0]);
    System.out.printf(Locale.ROOT, "%-8s  %-8s  %12s  %6s  %16s  %6s%n", "devices", "paced", "wall s", "ratio",
        "modelled s", "ratio");
    double[][] base = new double[2][2];
    int first = counts[0];
    for (int paced = 0; paced < 2; paced++) {
      for (int k = 0; k < 2; k++) {
        base[paced][k] = median(figures.get(first)[paced][k]);
      }
    }
    for (int paced = 0; paced < 2; paced++) {
      for (int n : counts) {
        double wall = median(figures.get(n)[paced][0]);
        double modelled = median(figures.get(n)[paced][1]);
        System.out.printf(Locale.ROOT, "%-8d  %-8s  %12.3f  %6.2f  %16.3f  %6.2f%n", n, paced == 1 ? "yes" : "no",
            wall, wall / base[paced][0], modelled, modelled / base[paced][1]);
      }
    }
    System.out.printf(Locale.ROOT, "%nall of it took %.0f s%n", (System.nanoTime() - started) / 1e9);
    deleteRecursively(reports);
  }

  private static String perDevice(RunStatistics s) {
    List<String> each = new ArrayList<>();
    for (RunStatistics.DeviceShare d : s.devices()) {
      each.add(String.format(Locale.ROOT, " %.3f", d.modelledNanos() / 1e9));
    }
    return String.join("", each);
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static void deleteRecursively(Path dir) throws java.io.IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
