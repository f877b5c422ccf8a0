package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class Wc98GeneratorTest {
  /** docs/WC98.md: share of requests by local hour (GMT+2), 0h to 23h, in percent. */
  static final double[] PUBLISHED_LOCAL_HOUR_PERCENT = {
    3.41, 2.82, 2.81, 2.63, 2.44, 2.39, 2.16, 2.13, 2.36, 2.50, 2.56, 2.53,
    2.57, 2.86, 3.57, 4.43, 6.26, 8.19, 8.34, 6.73, 5.01, 6.89, 8.40, 6.02
  };
  private static final int RECORDS = 1_000_000;

  private static TraceStatistics statistics;
  private static final Map<Long, FileType> typeOfObject = new HashMap<>();
  private static final Map<Long, Long> sizeOfObject = new HashMap<>();
  private static final Set<Integer> serverBytes = new HashSet<>();
  private static final long[] perDay = new long[120];
  private static boolean consistentObjects = true;
  private static boolean noSizeWhere304OrHead = true;

  @BeforeAll
  static void generateOneMillion() throws IOException {
    statistics = new TraceStatistics();
    long firstDay = InvocationCounts.TRACE_START.getEpochSecond() / 86_400;
    new Wc98Generator(GeneratorParameters.defaults()).generate(RECORDS, r -> {
      statistics.accept(r);
      serverBytes.add(r.server());
      perDay[(int) ((r.timestamp() + 7200) / 86_400 - firstDay)]++;
      FileType known = typeOfObject.putIfAbsent(r.objectId(), r.type());
      consistentObjects &= known == null || known == r.type();
      if (r.httpStatus() == 200 && r.method() != Method.HEAD) {
        Long size = sizeOfObject.putIfAbsent(r.objectId(), r.size());
        consistentObjects &= size == null || size == r.size();
      }
      if (r.httpStatus() == 304 || r.method() == Method.HEAD) {
        noSizeWhere304OrHead &= !r.hasSize();
      }
    });
  }

  @Test
  void sameSeedSameBytesOtherSeedOtherBytes() throws IOException {
    GeneratorParameters p = GeneratorParameters.defaults();
    byte[] a = binary(new Wc98Generator(p.withSeed(42)), 50_000);
    byte[] b = binary(new Wc98Generator(p.withSeed(42)), 50_000);
    Wc98Generator reused = new Wc98Generator(p.withSeed(42));
    assertArrayEquals(a, b);
    assertArrayEquals(a, binary(reused, 50_000));
    assertArrayEquals(a, binary(reused, 50_000));
    assertEquals(50_000 * 20, a.length);
    assertFalse(java.util.Arrays.equals(a, binary(new Wc98Generator(p.withSeed(43)), 50_000)));
  }

  @Test
  void typeMixAndNotModifiedShareMatchFormatMd() {
    assertEquals(RECORDS, statistics.records());
    double images = statistics.share(FileType.IMAGE);
    double html = statistics.share(FileType.HTML);
    assertTrue(images >= 0.85 && images <= 0.91, "images " + images);
    assertTrue(html >= 0.07 && html <= 0.13, "HTML " + html);
    double notModified = statistics.notModifiedShare();
    assertTrue(notModified >= 0.16 && notModified <= 0.22, "304s " + notModified);
    for (FileType t : FileType.values()) {
      assertTrue(statistics.count(t) > 0, t + " never requested");
    }
  }

  @Test
  void expectedTypeSharesComeCloseToTheTargets() {
    Map<FileType, Double> expected = new Wc98Generator(GeneratorParameters.defaults()).expectedTypeShares();
    assertEquals(0.88, expected.get(FileType.IMAGE), 0.01);
    assertEquals(0.10, expected.get(FileType.HTML), 0.01);
    assertEquals(1.0, expected.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
    assertEquals(expected.get(FileType.IMAGE), statistics.share(FileType.IMAGE), 0.005);
  }

  @Test
  void allFourRegionsAnd33Servers() {
    for (Region r : Region.values()) {
      assertTrue(statistics.share(r) > 0.05, r + " " + statistics.share(r));
    }
    assertEquals(GeneratorParameters.TRACE_SERVERS, serverBytes.size());
    Map<Region, Integer> servers = GeneratorParameters.defaults().serversPerRegion();
    for (int server : serverBytes) {
      assertTrue((server & 0x1F) < servers.get(Region.fromCode(server >>> 5)), "server byte " + server);
    }
  }

  @Test
  void timestampsAreInTheWindowAndInOrder() {
    assertTrue(statistics.inTimeOrder());
    assertFalse(statistics.firstTime().isBefore(InvocationCounts.TRACE_START));
    assertTrue(statistics.lastTime().isBefore(InvocationCounts.TRACE_END));
  }

  @Test
  void hourlyShapeFollowsThePublishedLocalHourShares() {
    long[] hours = statistics.requestsByLocalHour();
    double[] generated = new double[24];
    for (int h = 0; h < 24; h++) {
      generated[h] = hours[h];
    }
    double r = pearson(generated, PUBLISHED_LOCAL_HOUR_PERCENT);
    assertTrue(r > 0.9, "Pearson r " + r);
  }

  @Test
  void dailyVolumeFollowsTheRealCounts() {
    InvocationCounts counts = InvocationCounts.standard();
    long firstDay = InvocationCounts.TRACE_START.getEpochSecond() / 86_400;
    double[] expected = new double[perDay.length];
    for (int i = 0; i < counts.minutes(); i++) {
      expected[(int) ((counts.minuteStart(i) + 7200) / 86_400 - firstDay)] += (double) counts.count(i) * RECORDS
          / counts.total();
    }
    for (int d = 0; d < perDay.length; d++) {
      double sigma = Math.sqrt(expected[d]);
      assertEquals(expected[d], perDay[d], 5 * sigma + 1, "local day " + d);
    }
  }

  @Test
  void popularityIsConcentrated() {
    // With uniform popularity the top 1% of objects would take about 1% of requests.
    assertTrue(statistics.topObjectShare(0.01) > 0.5, "top 1% " + statistics.topObjectShare(0.01));
    assertTrue(statistics.distinctObjects() <= GeneratorParameters.TRACE_OBJECTS);
    assertTrue(statistics.distinctObjects() > 10_000, "objects " + statistics.distinctObjects());
  }

  @Test
  void uniformPopularityIsNotConcentrated() throws IOException {
    TraceStatistics uniform = new TraceStatistics();
    new Wc98Generator(GeneratorParameters.defaults().withZipfExponent(0)).generate(200_000, uniform);
    assertTrue(uniform.topObjectShare(0.01) < 0.05, "top 1% " + uniform.topObjectShare(0.01));
  }

  @Test
  void objectsKeepTheirTypeAndSizeAnd304sHaveNoSize() {
    assertTrue(consistentObjects);
    assertTrue(noSizeWhere304OrHead);
  }

  @Test
  void clientsRepeat() {
    assertTrue(statistics.distinctClients() < RECORDS / 10, "clients " + statistics.distinctClients());
    assertTrue(statistics.distinctClients() > 1000, "clients " + statistics.distinctClients());
  }

  @Test
  void aWindowOfLocalDays() throws IOException {
    GeneratorParameters p = GeneratorParameters.defaults()
        .withLocalDays(LocalDate.of(1998, 6, 30), LocalDate.of(1998, 7, 1));
    assertEquals(Instant.parse("1998-06-29T22:00:00Z"), p.windowStart());
    assertEquals(Instant.parse("1998-07-01T22:00:00Z"), p.windowEnd());
    List<Wc98Record> records = new ArrayList<>();
    new Wc98Generator(p).generate(20_000, records::add);
    assertEquals(20_000, records.size());
    long previous = 0;
    for (Wc98Record r : records) {
      assertTrue(r.timestamp() >= p.windowStart().getEpochSecond() && r.timestamp() < p.windowEnd().getEpochSecond());
      assertTrue(r.timestamp() >= previous);
      previous = r.timestamp();
    }
    GeneratorParameters all = GeneratorParameters.defaults().withLocalDays(null, null);
    assertEquals(InvocationCounts.TRACE_START, all.windowStart());
    assertEquals(InvocationCounts.TRACE_END, all.windowEnd());
  }

  @Test
  void zeroRecordsAndProgress() throws IOException {
    List<Long> progress = new ArrayList<>();
    Wc98Generator generator = new Wc98Generator(GeneratorParameters.defaults());
    generator.generate(0, r -> {
      throw new AssertionError("no record expected");
    }, progress::add);
    assertEquals(List.of(0L), progress);
    progress.clear();
    generator.generate(Wc98Generator.PROGRESS_INTERVAL * 2L + 5, r -> {}, progress::add);
    assertEquals(List.of((long) Wc98Generator.PROGRESS_INTERVAL, 2L * Wc98Generator.PROGRESS_INTERVAL,
        2L * Wc98Generator.PROGRESS_INTERVAL + 5), progress);
    assertThrows(IllegalArgumentException.class, () -> generator.generate(-1, r -> {}));
  }

  @Test
  void rejectsBadParameters() {
    GeneratorParameters p = GeneratorParameters.defaults();
    Instant after = Instant.parse("1999-01-01T00:00:00Z");
    assertThrows(IllegalArgumentException.class,
        () -> new Wc98Generator(p.withWindow(after, after.plusSeconds(86_400))));
    assertThrows(IllegalArgumentException.class, () -> p.withWindow(after, after));
    assertThrows(IllegalArgumentException.class, () -> p.withZipfExponent(-1));
    assertThrows(IllegalArgumentException.class, () -> p.withZipfExponent(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> p.withObjectCount(0));
  }

  @Test
  void typeAssignmentMeetsThePopulationExactly() {
    GeneratorParameters p = GeneratorParameters.defaults();
    int n = p.objectCount();
    double[] weight = new double[n];
    for (int r = 0; r < n; r++) {
      weight[r] = 1.0 / n;
    }
    FileType[] types = Wc98Generator.assignTypes(weight, p);
    Map<FileType, Integer> population = new HashMap<>();
    for (FileType t : types) {
      population.merge(t, 1, Integer::sum);
    }
    double total = p.populationShares().values().stream().mapToDouble(Double::doubleValue).sum();
    for (FileType t : FileType.values()) {
      assertEquals(p.populationShares().get(t) / total * n, population.getOrDefault(t, 0), 1.0, t.name());
    }
  }

  private static byte[] binary(Wc98Generator generator, long records) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TraceWriter writer = TraceWriter.open(bytes, TraceFormat.BINARY)) {
      generator.generate(records, writer);
    }
    return bytes.toByteArray();
  }

  static double pearson(double[] x, double[] y) {
    double mx = 0;
    double my = 0;
    for (int i = 0; i < x.length; i++) {
      mx += x[i] / x.length;
      my += y[i] / y.length;
    }
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < x.length; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
      syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / Math.sqrt(sxx * syy);
  }
}
