package org.smartssd.examples.loganalysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.smartssd.examples.wc98.FileType;
import org.smartssd.examples.wc98.Region;
import org.smartssd.examples.wc98.TraceStatistics;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * The result of one analysis, as DESIGN.md prints it: tab-separated lines sorted by region name (then
 * rank). For {@link Scenario#REGIONS}, {@code REGION<TAB>COUNT}; for {@link Scenario#TOP_TYPES},
 * {@code REGION<TAB>RANK<TAB>TYPE<TAB>COUNT}, ranks 1 to 5 by count, ties by type code ascending.
 * Only what the trace holds is listed: a region without requests has no line, and a region with fewer
 * than five types has fewer ranks (an empty trace prints nothing). Built from counts, whichever way
 * they were obtained, so that results of every mode and of a direct computation compare equal.
 */
public final class AnalysisResult {
  /** Ranks listed per region in {@link Scenario#TOP_TYPES}. */
  public static final int TOP = 5;
  private static final int REGIONS = Region.values().length;
  private static final int TYPES = FileType.values().length;
  private static final List<Region> BY_NAME = Arrays.stream(Region.values())
      .sorted(Comparator.comparing(Region::displayName)).toList();

  private final Scenario scenario;
  /** [region][type] for top types; [region][0] for regions. */
  private final long[][] counts;
  private final List<String> lines;

  private AnalysisResult(Scenario scenario, long[][] counts) {
    this.scenario = scenario;
    this.counts = counts;
    this.lines = List.copyOf(format(scenario, counts));
  }

  /** An empty result (no record counted yet). */
  public static AnalysisResult empty(Scenario scenario) {
    return new AnalysisResult(scenario, new long[REGIONS][scenario == Scenario.REGIONS ? 1 : TYPES]);
  }

  /** From the job's output lines, {@code REGION<TAB>COUNT} or {@code REGION<TAB>TYPE<TAB>COUNT}. */
  public static AnalysisResult fromJobOutput(Scenario scenario, List<String> jobLines) {
    long[][] c = new long[REGIONS][scenario == Scenario.REGIONS ? 1 : TYPES];
    int fields = scenario == Scenario.REGIONS ? 2 : 3;
    for (String line : jobLines) {
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != fields) {
        throw new IllegalArgumentException("unexpected line in the job's output for " + scenario + ": '" + line + "'");
      }
      try {
        int region = Region.valueOf(f[0]).code();
        int type = fields == 2 ? 0 : FileType.valueOf(f[1]).code();
        c[region][type] = Math.addExact(c[region][type], Long.parseLong(f[fields - 1]));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unexpected line in the job's output for " + scenario + ": '" + line + "'", e);
      }
    }
    return new AnalysisResult(scenario, c);
  }

  /** The direct computation: one loop over the records, no Hadoop. */
  public static AnalysisResult compute(Scenario scenario, Iterable<Wc98Record> records) {
    long[][] c = new long[REGIONS][TYPES];
    for (Wc98Record r : records) {
      c[r.region().code()][r.type().code()]++;
    }
    return fromCounts(scenario, c);
  }

  /** From requests per region and type, {@code counts[region code][type code]}. */
  static AnalysisResult fromCounts(Scenario scenario, long[][] counts) {
    long[][] c = new long[REGIONS][scenario == Scenario.REGIONS ? 1 : TYPES];
    for (int r = 0; r < REGIONS; r++) {
      for (int t = 0; t < TYPES; t++) {
        if (scenario == Scenario.REGIONS) {
          c[r][0] += counts[r][t];
        } else {
          c[r][t] = counts[r][t];
        }
      }
    }
    return new AnalysisResult(scenario, c);
  }

  /** From a trace's statistics (its per-region and per-region-and-type counts). */
  public static AnalysisResult fromStatistics(Scenario scenario, TraceStatistics statistics) {
    long[][] c = new long[REGIONS][scenario == Scenario.REGIONS ? 1 : TYPES];
    for (Region r : Region.values()) {
      if (scenario == Scenario.REGIONS) {
        c[r.code()][0] = statistics.count(r);
      } else {
        for (FileType t : FileType.values()) {
          c[r.code()][t.code()] = statistics.count(r, t);
        }
      }
    }
    return new AnalysisResult(scenario, c);
  }

  public Scenario scenario() {
    return scenario;
  }

  /** The lines to print, without line ends. */
  public List<String> lines() {
    return lines;
  }

  /** Records counted. */
  public long total() {
    long sum = 0;
    for (long[] row : counts) {
      for (long v : row) {
        sum += v;
      }
    }
    return sum;
  }

  /** The lines joined, each ended by a newline (nothing for an empty result). */
  public String text() {
    StringBuilder sb = new StringBuilder();
    lines.forEach(l -> sb.append(l).append('\n'));
    return sb.toString();
  }

  private static List<String> format(Scenario scenario, long[][] counts) {
    List<String> out = new ArrayList<>();
    for (Region region : BY_NAME) {
      long[] row = counts[region.code()];
      if (scenario == Scenario.REGIONS) {
        if (row[0] > 0) {
          out.add(region.displayName() + '\t' + row[0]);
        }
        continue;
      }
      List<FileType> ranked = Arrays.stream(FileType.values())
          .filter(t -> row[t.code()] > 0)
          .sorted(Comparator.comparingLong((FileType t) -> row[t.code()]).reversed()
              .thenComparingInt(FileType::code))
          .limit(TOP)
          .toList();
      for (int i = 0; i < ranked.size(); i++) {
        FileType t = ranked.get(i);
        out.add(region.displayName() + '\t' + (i + 1) + '\t' + t.displayName() + '\t' + row[t.code()]);
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AnalysisResult other && scenario == other.scenario && lines.equals(other.lines);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scenario, lines);
  }

  @Override
  public String toString() {
    return scenario + ": " + lines;
  }
}
