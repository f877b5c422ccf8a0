package org.smartssd.examples.wc98;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every number the {@link Wc98Generator} uses. Each default says where it comes from: <b>docs/WC98.md</b>
 * (the trace's documentation and Arlitt and Jin's workload study) or <b>choice</b> (not known here, so
 * chosen by this project; the README's table of the generator names them as choices).
 * Shares are fractions and need not add up to exactly 1: each map is normalised.
 *
 * @param seed of every random choice; the same parameters give the same trace, byte for byte. Default
 *     {@value #DEFAULT_SEED} (choice)
 * @param windowStart the first instant of the generated period; requests arrive in the minutes that
 *     start in {@code [windowStart, windowEnd)} in proportion to the real per-minute counts
 *     (docs/WC98.md's {@code invocation_count.csv}). Default the start of the trace, 1998-04-30 21:30 GMT
 * @param windowEnd the end of the period, exclusive. Default the end of the trace, 1998-07-26 22:00 GMT
 *     (midnight in Paris)
 * @param objectCount distinct URLs that can be requested. Default 89,997, the whole trace's (docs/WC98.md)
 * @param zipfExponent popularity of the object of rank {@code r} is proportional to {@code 1/r^s}.
 *     Default 1.1 (choice): the smallest round exponent at which docs/WC98.md's request mix by type and
 *     its URL population by type can both be met closely (with 1.0 the many rarely requested
 *     directories and dynamic pages alone would take 3.8% of requests); the top 1% of objects then take
 *     about 75% of requests, the most popular one about 13.5%
 * @param requestShares share of requests by type: IMAGE 88% and HTML 10% (docs/WC98.md), the remaining 2%
 *     split over the other types (choice: JAVA 0.6%, DIRECTORY 0.5%, DYNAMIC 0.3%, AUDIO, TEXT,
 *     FORMATTED and COMPRESSED 0.1% each, OTHER 0.08%, VIDEO and PROGRAMS 0.05%, ICL 0.02%). The
 *     generator assigns each object one type so that the popularity-weighted mix comes as close to
 *     these shares as the population shares allow ({@link Wc98Generator#expectedTypeShares()})
 * @param populationShares share of the object population by type (not weighted by requests), from
 *     docs/WC98.md's URL population by extension: IMAGE 31.6% (gif 23.2 + jpg 8.4), HTML 31.9% (htm 22.3
 *     + html 9.6), DIRECTORY 21.8%, DYNAMIC 3.7%, COMPRESSED 0.56% (zip), AUDIO 0.40% (ram), JAVA
 *     0.37% (class); the other 9.67% is a choice: OTHER 4.57%, TEXT 3%, FORMATTED 1.5%, VIDEO 0.3%,
 *     PROGRAMS 0.2%, ICL 0.1%
 * @param sizes response size of an object by type: a log-normal draw per object, fixed for the
 *     object (choice, see {@link #defaults()}); docs/WC98.md gives no sizes
 * @param notModifiedShare share of responses that are 304 Not Modified, without a size: 0.19
 *     (docs/WC98.md)
 * @param otherStatusShares share of responses with statuses other than 200 and 304 (choice: 206
 *     0.1%, 302 0.4%, 404 0.5%, 500 0.05%); every code must have its own index in the trace's table.
 *     200 OK takes what is left
 * @param messageBodyBytes the size of the response for a status other than 200, 206 and 304 (a
 *     redirect or error message): 300 bytes (choice). A 206 response carries a uniform part of the
 *     object; a HEAD request gets no size
 * @param methodShares request methods: GET 99.9%, HEAD 0.08%, POST 0.02% (choice)
 * @param httpVersionShares HTTP version of a client's requests, drawn once per client: HTTP/1.0 79%,
 *     HTTP/1.1 21% (choice)
 * @param regionShares share of clients, and so of requests, served by each site: SANTA_CLARA 30%,
 *     PLANO 15%, HERNDON 35%, PARIS 20% (choice; docs/WC98.md says only that all four carry traffic
 *     unevenly). A client keeps its site
 * @param serversPerRegion servers at each site, numbered from 0; a request goes to one of its site's
 *     servers uniformly: SANTA_CLARA 10, PLANO 6, HERNDON 10, PARIS 7 (33 in all as in docs/WC98.md; the
 *     split is a choice)
 * @param activeClients clients active at any time: each request comes from one of them, chosen
 *     uniformly, so clients repeat. Default 20,000 (choice)
 * @param newClientProbability the chance that a request comes from a new client, who replaces a
 *     random active one; clients get increasing IDs from 0 on first appearance, as in the trace, and a
 *     client makes about {@code 1/newClientProbability} requests. Default 0.02 (choice: 50 requests a
 *     client, about 140,000 clients in 7,000,000 requests)
 */
public record GeneratorParameters(
    long seed,
    Instant windowStart,
    Instant windowEnd,
    int objectCount,
    double zipfExponent,
    Map<FileType, Double> requestShares,
    Map<FileType, Double> populationShares,
    Map<FileType, SizeDistribution> sizes,
    double notModifiedShare,
    Map<Integer, Double> otherStatusShares,
    long messageBodyBytes,
    Map<Method, Double> methodShares,
    Map<HttpVersion, Double> httpVersionShares,
    Map<Region, Double> regionShares,
    Map<Region, Integer> serversPerRegion,
    int activeClients,
    double newClientProbability) {

  public static final long DEFAULT_SEED = 1998;
  /** Distinct URLs in the whole trace (docs/WC98.md). */
  public static final int TRACE_OBJECTS = 89_997;
  /** Servers in the whole trace (docs/WC98.md). */
  public static final int TRACE_SERVERS = 33;
  public static final double DEFAULT_ZIPF_EXPONENT = 1.1;
  /** The site's local time, in which the trace's days and docs/WC98.md's hourly shares are counted. */
  public static final ZoneOffset SITE_TIME = ZoneOffset.ofHours(2);

  /**
   * A response size drawn once per object: {@code medianBytes * exp(sigma * N(0,1))}, rounded, at least
   * 1 byte.
   */
  public record SizeDistribution(long medianBytes, double sigma) {
    public SizeDistribution {
      if (medianBytes < 1 || medianBytes >= Wc98Record.SIZE_NONE || !(sigma >= 0) || sigma > 10) {
        throw new IllegalArgumentException("size distribution needs a median of 1 byte or more and a sigma of 0-10, not "
            + medianBytes + " and " + sigma);
      }
    }
  }

  public GeneratorParameters {
    if (windowStart == null || windowEnd == null || !windowStart.isBefore(windowEnd)) {
      throw new IllegalArgumentException("the window must start before it ends: " + windowStart + " to " + windowEnd);
    }
    if (objectCount < 1) {
      throw new IllegalArgumentException("objectCount must be 1 or more, not " + objectCount);
    }
    if (!(zipfExponent >= 0) || zipfExponent > 10) {
      throw new IllegalArgumentException("the Zipf exponent must be between 0 and 10, not " + zipfExponent);
    }
    requestShares = shares("requestShares", requestShares, FileType.class);
    populationShares = shares("populationShares", populationShares, FileType.class);
    for (FileType t : FileType.values()) {
      if (requestShares.getOrDefault(t, 0.0) > 0 && populationShares.getOrDefault(t, 0.0) == 0) {
        throw new IllegalArgumentException(t + " has a share of requests but no objects (populationShares)");
      }
    }
    sizes = Map.copyOf(sizes);
    for (FileType t : FileType.values()) {
      if (populationShares.getOrDefault(t, 0.0) > 0 && !sizes.containsKey(t)) {
        throw new IllegalArgumentException("no size distribution for " + t);
      }
    }
    if (!(notModifiedShare >= 0 && notModifiedShare <= 1)) {
      throw new IllegalArgumentException("notModifiedShare must be between 0 and 1, not " + notModifiedShare);
    }
    otherStatusShares = Map.copyOf(otherStatusShares);
    double otherStatuses = 0;
    for (Map.Entry<Integer, Double> e : otherStatusShares.entrySet()) {
      int code = e.getKey();
      if (code == 200 || code == 304 || !StatusCodes.isTabulated(code)) {
        throw new IllegalArgumentException("otherStatusShares: " + code
            + " is not a status other than 200 and 304 in the trace's table");
      }
      if (!(e.getValue() >= 0)) {
        throw new IllegalArgumentException("otherStatusShares: share of " + code + " is " + e.getValue());
      }
      otherStatuses += e.getValue();
    }
    if (notModifiedShare + otherStatuses > 1) {
      throw new IllegalArgumentException("304 and the other statuses add up to more than all responses");
    }
    if (messageBodyBytes < 0 || messageBodyBytes >= Wc98Record.SIZE_NONE) {
      throw new IllegalArgumentException("messageBodyBytes must be a uint32 below 0xFFFFFFFF, not " + messageBodyBytes);
    }
    methodShares = shares("methodShares", methodShares, Method.class);
    httpVersionShares = shares("httpVersionShares", httpVersionShares, HttpVersion.class);
    regionShares = shares("regionShares", regionShares, Region.class);
    serversPerRegion = Map.copyOf(serversPerRegion);
    for (Region r : Region.values()) {
      int servers = serversPerRegion.getOrDefault(r, 0);
      if (servers < 0 || servers > Wc98Record.MAX_SERVERS_PER_REGION) {
        throw new IllegalArgumentException("servers at " + r + " must be 0-32, not " + servers);
      }
      if (regionShares.getOrDefault(r, 0.0) > 0 && servers == 0) {
        throw new IllegalArgumentException(r + " has a share of requests but no servers");
      }
    }
    if (activeClients < 1) {
      throw new IllegalArgumentException("activeClients must be 1 or more, not " + activeClients);
    }
    if (!(newClientProbability > 0 && newClientProbability <= 1)) {
      throw new IllegalArgumentException("newClientProbability must be in (0, 1], not " + newClientProbability);
    }
  }

  /** The defaults documented above: the whole trace, docs/WC98.md's figures and this project's choices. */
  public static GeneratorParameters defaults() {
    Map<FileType, Double> requests = new EnumMap<>(FileType.class);
    requests.put(FileType.IMAGE, 0.88);
    requests.put(FileType.HTML, 0.10);
    requests.put(FileType.JAVA, 0.006);
    requests.put(FileType.DIRECTORY, 0.005);
    requests.put(FileType.DYNAMIC, 0.003);
    requests.put(FileType.AUDIO, 0.001);
    requests.put(FileType.TEXT, 0.001);
    requests.put(FileType.FORMATTED, 0.001);
    requests.put(FileType.COMPRESSED, 0.001);
    requests.put(FileType.OTHER, 0.0008);
    requests.put(FileType.VIDEO, 0.0005);
    requests.put(FileType.PROGRAMS, 0.0005);
    requests.put(FileType.ICL, 0.0002);

    Map<FileType, Double> population = new EnumMap<>(FileType.class);
    population.put(FileType.IMAGE, 0.232 + 0.084);
    population.put(FileType.HTML, 0.223 + 0.096);
    population.put(FileType.DIRECTORY, 0.218);
    population.put(FileType.DYNAMIC, 0.037);
    population.put(FileType.COMPRESSED, 0.0056);
    population.put(FileType.AUDIO, 0.0040);
    population.put(FileType.JAVA, 0.0037);
    population.put(FileType.OTHER, 0.0457);
    population.put(FileType.TEXT, 0.03);
    population.put(FileType.FORMATTED, 0.015);
    population.put(FileType.VIDEO, 0.003);
    population.put(FileType.PROGRAMS, 0.002);
    population.put(FileType.ICL, 0.001);

    Map<FileType, SizeDistribution> sizes = new EnumMap<>(FileType.class);
    sizes.put(FileType.HTML, new SizeDistribution(6_000, 0.9));
    sizes.put(FileType.IMAGE, new SizeDistribution(2_500, 1.1));
    sizes.put(FileType.AUDIO, new SizeDistribution(80, 0.3)); // .ram files are small metafiles
    sizes.put(FileType.VIDEO, new SizeDistribution(500_000, 1.0));
    sizes.put(FileType.JAVA, new SizeDistribution(4_000, 0.8));
    sizes.put(FileType.FORMATTED, new SizeDistribution(60_000, 1.0));
    sizes.put(FileType.DYNAMIC, new SizeDistribution(3_000, 0.8));
    sizes.put(FileType.TEXT, new SizeDistribution(2_000, 1.0));
    sizes.put(FileType.COMPRESSED, new SizeDistribution(200_000, 1.2));
    sizes.put(FileType.PROGRAMS, new SizeDistribution(300_000, 1.0));
    sizes.put(FileType.DIRECTORY, new SizeDistribution(5_000, 0.8));
    sizes.put(FileType.ICL, new SizeDistribution(1_000, 0.5));
    sizes.put(FileType.OTHER, new SizeDistribution(3_000, 1.0));

    return new GeneratorParameters(
        DEFAULT_SEED,
        InvocationCounts.TRACE_START,
        InvocationCounts.TRACE_END,
        TRACE_OBJECTS,
        DEFAULT_ZIPF_EXPONENT,
        requests,
        population,
        sizes,
        0.19,
        Map.of(206, 0.001, 302, 0.004, 404, 0.005, 500, 0.0005),
        300,
        Map.of(Method.GET, 0.999, Method.HEAD, 0.0008, Method.POST, 0.0002),
        Map.of(HttpVersion.HTTP_1_0, 0.79, HttpVersion.HTTP_1_1, 0.21),
        Map.of(Region.SANTA_CLARA, 0.30, Region.PLANO, 0.15, Region.HERNDON, 0.35, Region.PARIS, 0.20),
        Map.of(Region.SANTA_CLARA, 10, Region.PLANO, 6, Region.HERNDON, 10, Region.PARIS, 7),
        20_000,
        0.02);
  }

  public GeneratorParameters withSeed(long newSeed) {
    return new GeneratorParameters(newSeed, windowStart, windowEnd, objectCount, zipfExponent, requestShares,
        populationShares, sizes, notModifiedShare, otherStatusShares, messageBodyBytes, methodShares,
        httpVersionShares, regionShares, serversPerRegion, activeClients, newClientProbability);
  }

  /** Requests arrive in {@code [start, end)} (GMT instants). */
  public GeneratorParameters withWindow(Instant start, Instant end) {
    return new GeneratorParameters(seed, start, end, objectCount, zipfExponent, requestShares, populationShares,
        sizes, notModifiedShare, otherStatusShares, messageBodyBytes, methodShares, httpVersionShares,
        regionShares, serversPerRegion, activeClients, newClientProbability);
  }

  /**
   * Requests arrive from midnight of {@code firstDay} to the end of {@code lastDay}, days of the site's
   * local time (GMT+2; the trace's files are such days). A null day means the trace's first or last.
   */
  public GeneratorParameters withLocalDays(LocalDate firstDay, LocalDate lastDay) {
    Instant start = firstDay == null ? InvocationCounts.TRACE_START : firstDay.atStartOfDay(SITE_TIME).toInstant();
    Instant end = lastDay == null ? InvocationCounts.TRACE_END : lastDay.plusDays(1).atStartOfDay(SITE_TIME).toInstant();
    return withWindow(start, end);
  }

  public GeneratorParameters withZipfExponent(double exponent) {
    return new GeneratorParameters(seed, windowStart, windowEnd, objectCount, exponent, requestShares,
        populationShares, sizes, notModifiedShare, otherStatusShares, messageBodyBytes, methodShares,
        httpVersionShares, regionShares, serversPerRegion, activeClients, newClientProbability);
  }

  public GeneratorParameters withObjectCount(int objects) {
    return new GeneratorParameters(seed, windowStart, windowEnd, objects, zipfExponent, requestShares,
        populationShares, sizes, notModifiedShare, otherStatusShares, messageBodyBytes, methodShares,
        httpVersionShares, regionShares, serversPerRegion, activeClients, newClientProbability);
  }

  /** Shares as given (each map is normalised when used); an empty or all-zero map, or a negative share, is an error. */
  private static <K extends Enum<K>> Map<K, Double> shares(String name, Map<K, Double> shares, Class<K> keys) {
    Map<K, Double> copy = new EnumMap<>(keys);
    copy.putAll(shares);
    double sum = 0;
    for (Map.Entry<K, Double> e : copy.entrySet()) {
      if (!(e.getValue() >= 0) || e.getValue().isInfinite()) {
        throw new IllegalArgumentException(name + ": share of " + e.getKey() + " is " + e.getValue());
      }
      sum += e.getValue();
    }
    if (!(sum > 0)) {
      throw new IllegalArgumentException(name + ": no positive share");
    }
    return Map.copyOf(copy);
  }

  /** The shares of an enum's constants, normalised to add up to 1, indexed by ordinal. */
  static <K extends Enum<K>> double[] normalised(Map<K, Double> shares, K[] keys) {
    double[] out = new double[keys.length];
    double sum = 0;
    for (K k : keys) {
      out[k.ordinal()] = shares.getOrDefault(k, 0.0);
      sum += out[k.ordinal()];
    }
    for (int i = 0; i < out.length; i++) {
      out[i] /= sum;
    }
    return out;
  }

  /** The statuses other than 200 and 304 in ascending code order, for a deterministic table. */
  Map<Integer, Double> otherStatusesSorted() {
    return new TreeMap<>(otherStatusShares);
  }
}
