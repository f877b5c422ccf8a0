package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.smartssd.device.WorkProfile;
import org.smartssd.opcount.CoreCost;

/**
 * A run's profile ({@link RunProfile}) as a user reads it: for the devices and for the host, the counted
 * work by owner (the job's code, Hadoop's, the device mapper's runtime, the built-in tasklets) and the
 * methods that did the most, each priced as the model prices it (modelled time on one core), per record
 * and in all; folded stacks of the same, which flamegraph.pl and speedscope read; a chart of the owners.
 */
public final class ProfileReport {
  /** Methods listed in a table. */
  static final int TOP_METHODS = 25;

  private ProfileReport() {}

  /** One side of a run: its profile, the core its work is priced on, and the counts it must add up to. */
  record Side(String name, WorkProfile profile, CoreCost core, WorkProfile.Work counted, String coreName) {}

  /** The sides of a run that have a profile: the devices' (device work), the host's (when counted). */
  static List<Side> sides(RunStatistics s) {
    RunProfile p = s.profile();
    List<Side> sides = new ArrayList<>();
    if (p == null) {
      return sides;
    }
    if (p.deviceExecutions() > 0) {
      sides.add(new Side("device", p.device(), s.parameters().device(), work(s.device().counted()),
          "one device core"));
    }
    if (p.host() != null && s.hostCounted() != null) {
      sides.add(new Side("host", p.host(), s.parameters().host(), work(s.hostCounted()), "one host core"));
    }
    return sides;
  }

  static WorkProfile.Work work(org.smartssd.opcount.OpCounts c) {
    return new WorkProfile.Work(c.ops(), c.memoryAccesses(), c.libraryCalls(), c.bulkBytes(), c.libraryReads());
  }

  /** Modelled nanoseconds of some work on a core. */
  static double nanos(CoreCost core, WorkProfile.Work w) {
    return core.nanos(w.ops(), w.memoryAccesses(), w.libraryCalls(), w.bulkBytes(), w.libraryReads());
  }

  /** The profile's folded stacks, a path's weight its modelled nanoseconds on {@code core}, rounded. */
  public static String folded(WorkProfile profile, CoreCost core) {
    return profile.folded(w -> Math.round(nanos(core, w)));
  }

  /** The records a run's figures are per, or 0 when its records are not of one size. */
  static long records(RunStatistics s) {
    return s.recordBytes() > 1 ? s.records() : 0;
  }

  /** The table of a run's profile: every side's owners and top methods. */
  public static String table(String title, RunStatistics s) {
    StringBuilder b = new StringBuilder();
    long records = records(s);
    b.append("work profile: ").append(title).append(records > 0
        ? String.format(Locale.ROOT, " (%,d records; per record and in all)", records) : " (in all)").append('\n');
    RunProfile p = s.profile();
    if (p == null) {
      return b.append("  (not profiled)\n").toString();
    }
    if (p.deviceExecutions() > 0 && !p.deviceComplete()) {
      b.append(String.format(Locale.ROOT, "  NOTE: %d of the %d device executions wrote a profile (the device's "
          + "protocol or compute model did not allow it; see the log): the device figures below are theirs only%n",
          p.deviceProfiles(), p.deviceExecutions()));
    }
    if (p.host() == null) {
      b.append("  the host's work is not counted in this JVM (no counting agent): no host profile\n");
    }
    for (Side side : sides(s)) {
      b.append(side(side, records));
    }
    return b.toString();
  }

  /**
   * The table of one side's profile with nothing to check it against (the profiles a job's splits wrote):
   * its owners and top methods, priced on {@code core}, per record when {@code records > 0}.
   */
  public static String table(String title, WorkProfile profile, CoreCost core, long records) {
    return table(title, profile, null, core, records);
  }

  /** As {@link #table(String, WorkProfile, CoreCost, long)}, checked against the counted work when it is known. */
  public static String table(String title, WorkProfile profile, WorkProfile.Work counted, CoreCost core,
      long records) {
    return "work profile: " + title + (records > 0
        ? String.format(Locale.ROOT, " (%,d records; per record and in all)", records) : " (in all)") + "\n"
        + side(new Side("device", profile, core, counted, "one device core"), records);
  }

  private static String side(Side side, long records) {
    StringBuilder b = new StringBuilder();
    WorkProfile.Work total = side.profile().total();
    double totalNanos = nanos(side.core(), total);
    b.append(String.format(Locale.ROOT, "%n  %s: %,d ops, %,d heap accesses, %,d library calls, %,d bulk bytes,"
        + " %,d library reads; modelled %.3f s on %s (%s)%n", side.name(), total.ops(), total.memoryAccesses(),
        total.libraryCalls(), total.bulkBytes(), total.libraryReads(), totalNanos / 1e9, side.coreName(),
        describe(side.core())));
    if (side.profile().truncated()) {
      b.append("  some work past the profile's bounds is per method only, under '" + WorkProfile.DEEPER + "'\n");
    }
    boolean whole = side.counted() == null || total.equals(side.counted());
    b.append(side.counted() == null ? "" : whole ? "  the profile adds up to the counted work exactly\n"
        : String.format(Locale.ROOT, "  NOTE: the counted work is %,d ops, %,d heap accesses, %,d calls, %,d bulk bytes,"
            + " %,d library reads: the profile differs by %,d ops%n", side.counted().ops(),
            side.counted().memoryAccesses(), side.counted().libraryCalls(), side.counted().bulkBytes(),
            side.counted().libraryReads(), side.counted().ops() - total.ops()));
    b.append(String.format(Locale.ROOT, "  %-28s %7s %12s %10s %10s %10s %10s %14s%n", "owner", "share", "ops/rec",
        "heap/rec", "calls/rec", "bulk/rec", "reads/rec", "modelled s"));
    Map<String, WorkProfile.Work> owners = side.profile().byOwner(WorkProfile::owner, WorkProfile.Work::ops);
    for (String owner : WorkProfile.OWNERS) {
      WorkProfile.Work w = owners.get(owner);
      if (w == null) {
        continue;
      }
      double ns = nanos(side.core(), w);
      b.append(String.format(Locale.ROOT, "  %-28s %6.1f%% %12s %10s %10s %10s %10s %14.3f%n", owner,
          100 * ns / totalNanos, per(w.ops(), records), per(w.memoryAccesses(), records),
          per(w.libraryCalls(), records), per(w.bulkBytes(), records), per(w.libraryReads(), records), ns / 1e9));
    }
    b.append(String.format(Locale.ROOT, "  top methods by modelled time (their own work, all paths):%n"));
    b.append(String.format(Locale.ROOT, "  %7s %10s %10s %9s %9s %9s %9s %15s %13s  %s%n", "share", "ns/rec",
        "ops/rec", "heap/rec", "calls/rec", "bulk/rec", "reads/rec", "ops", "heap", "method"));
    Map<String, WorkProfile.Work> methods = side.profile().byMethod(w -> Math.round(nanos(side.core(), w) * 1000));
    int listed = 0;
    for (Map.Entry<String, WorkProfile.Work> e : methods.entrySet()) {
      if (listed++ == TOP_METHODS) {
        break;
      }
      WorkProfile.Work w = e.getValue();
      double ns = nanos(side.core(), w);
      b.append(String.format(Locale.ROOT, "  %6.1f%% %10s %10s %9s %9s %9s %9s %,15d %,13d  %s%n",
          100 * ns / totalNanos, records > 0 ? String.format(Locale.ROOT, "%.1f", ns / records) : "-",
          per(w.ops(), records), per(w.memoryAccesses(), records), per(w.libraryCalls(), records),
          per(w.bulkBytes(), records), per(w.libraryReads(), records), w.ops(), w.memoryAccesses(), e.getKey()));
    }
    if (methods.size() > TOP_METHODS) {
      b.append(String.format(Locale.ROOT, "  (%d more methods: the folded stacks have them all)%n",
          methods.size() - TOP_METHODS));
    }
    return b.toString();
  }

  private static String describe(CoreCost c) {
    return String.format(Locale.ROOT, "%.0f MHz, %.3g cycles an op, %.4g ns a heap access, %.3g ops a library call,"
        + " %.4g ns a library read, %.0f MB/s copies", c.mhz(), c.cyclesPerOp(), c.memoryAccessNanos(),
        c.libraryCallOps(), c.libraryReadNanos(), c.copyMbPerS());
  }

  private static String per(long n, long records) {
    return records > 0 ? String.format(Locale.ROOT, "%.2f", (double) n / records) : "-";
  }

  /**
   * The profile's summary for a run's JSON: each side's counted work, whether it adds up to the counts,
   * and each owner's work and modelled seconds on one core.
   */
  static Map<String, Object> toMap(RunStatistics s) {
    Map<String, Object> m = new LinkedHashMap<>();
    RunProfile p = s.profile();
    m.put("device_executions", p.deviceExecutions());
    m.put("device_profiles", p.deviceProfiles());
    for (Side side : sides(s)) {
      Map<String, Object> one = new LinkedHashMap<>();
      WorkProfile.Work total = side.profile().total();
      one.put("ops", total.ops());
      one.put("memory_accesses", total.memoryAccesses());
      one.put("library_calls", total.libraryCalls());
      one.put("bulk_bytes", total.bulkBytes());
      one.put("library_reads", total.libraryReads());
      one.put("adds_up", total.equals(side.counted()));
      one.put("truncated", side.profile().truncated());
      one.put("modelled_s_on_one_core", nanos(side.core(), total) / 1e9);
      Map<String, Object> owners = new LinkedHashMap<>();
      side.profile().byOwner(WorkProfile::owner, WorkProfile.Work::ops).forEach((owner, w) -> {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("ops", w.ops());
        o.put("memory_accesses", w.memoryAccesses());
        o.put("library_calls", w.libraryCalls());
        o.put("bulk_bytes", w.bulkBytes());
        o.put("library_reads", w.libraryReads());
        o.put("modelled_s_on_one_core", nanos(side.core(), w) / 1e9);
        owners.put(owner, o);
      });
      one.put("owners", owners);
      m.put(side.name(), one);
    }
    return m;
  }

  /**
   * Writes the run's table ({@code NAME.txt}) and each side's folded stacks ({@code NAME-device.folded},
   * {@code NAME-host.folded}: a path's weight is its modelled nanoseconds on one core, rounded).
   *
   * @return the files written
   */
  public static List<Path> write(Path dir, String name, String title, RunStatistics s) throws IOException {
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>();
    Path table = dir.resolve(name + ".txt");
    Files.writeString(table, table(title, s), StandardCharsets.UTF_8);
    files.add(table);
    for (Side side : sides(s)) {
      Path folded = dir.resolve(name + "-" + side.name() + ".folded");
      Files.writeString(folded, folded(side.profile(), side.core()), StandardCharsets.UTF_8);
      files.add(folded);
    }
    return files;
  }

  /**
   * A chart of runs' modelled core time by owner: a stacked bar a run and side.
   *
   * @param runs each run's label and statistics, in order
   */
  public static Path chart(Path dir, String file, Map<String, RunStatistics> runs) throws IOException {
    List<String> categories = new ArrayList<>();
    Map<String, List<Double>> byOwner = new LinkedHashMap<>();
    for (String owner : WorkProfile.OWNERS) {
      byOwner.put(owner, new ArrayList<>());
    }
    for (Map.Entry<String, RunStatistics> run : runs.entrySet()) {
      for (Side side : sides(run.getValue())) {
        categories.add(run.getKey() + ": " + side.name());
        Map<String, WorkProfile.Work> owners = side.profile().byOwner(WorkProfile::owner, WorkProfile.Work::ops);
        for (String owner : WorkProfile.OWNERS) {
          WorkProfile.Work w = owners.get(owner);
          byOwner.get(owner).add(w == null ? 0 : nanos(side.core(), w) / 1e9);
        }
      }
    }
    byOwner.values().removeIf(ys -> ys.stream().allMatch(y -> y == 0));
    return ComparisonCharts.stackedBars(dir, file, "Counted work by owner, priced on one core (modelled)",
        "run: side", "seconds on one core (modelled)", categories, byOwner);
  }
}
