package org.smartssd.examples.wc98;

import java.io.IOException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates a World Cup 1998 trace faithful to the published statistics (docs/WC98.md), deterministic by
 * seed; every number it uses is a {@link GeneratorParameters parameter}.
 *
 * <ul>
 *   <li>Arrivals: the N timestamps are N independent draws from the real per-minute counts of the
 *       window (a minute in proportion to its count, then a uniform second in it), delivered in time
 *       order as the trace's files are. They are produced sorted directly, as the order statistics of
 *       N uniforms (the minimum of the k uniforms left above u is {@code u + (1-u)(1 - V^(1/k))}),
 *       mapped through the cumulative counts: no sort and no memory per record.
 *   <li>Objects: Zipf popularity over the object population, sampled with an alias table. Each object
 *       has one type, assigned by popularity rank so that both the population by type and the
 *       popularity-weighted request mix by type come close to their targets (see
 *       {@link #expectedTypeShares()}), and one size drawn from its type's distribution. Object IDs are
 *       a seeded permutation of {@code 0..objectCount-1}, so popularity does not follow the ID.
 *   <li>Clients: a pool of active clients; each request comes from one of them, or with a small chance
 *       from a new client who takes a random place in the pool. A client keeps its site and HTTP
 *       version.
 *   <li>Statuses: 304 without a size, a few others, 200 for the rest; see {@link GeneratorParameters}.
 * </ul>
 *
 * <p>A generator is immutable and can be used from several threads; every {@link #generate} call
 * starts from the seed and gives the same records.
 */
public final class Wc98Generator {
  private static final Logger LOG = LoggerFactory.getLogger(Wc98Generator.class);
  /** How often, in records, {@link #generate} reports progress. */
  static final int PROGRESS_INTERVAL = 1 << 16;
  /** Separates the random stream that builds the object table from the one that draws requests. */
  private static final long OBJECT_TABLE_SALT = 0x5DEECE66DL;

  private final GeneratorParameters parameters;

  // Arrivals: the window's minutes with their cumulative counts.
  private final long[] minuteStart;
  private final long[] cumulative;
  private final double windowRequests;

  // Objects, by popularity rank (0 = most popular).
  private final AliasTable popularity;
  private final long[] objectIdOfRank;
  private final FileType[] typeOfRank;
  private final long[] sizeOfRank;
  private final Map<FileType, Double> expectedTypeShares;

  // Responses.
  private final AliasTable statuses;
  private final int[] statusCode;
  private final AliasTable methods;
  private final Method[] methodOf;
  private final AliasTable versions;
  private final AliasTable regions;
  private final int[] serversOfRegion;

  public Wc98Generator(GeneratorParameters parameters) {
    this(parameters, InvocationCounts.standard());
  }

  Wc98Generator(GeneratorParameters parameters, InvocationCounts counts) {
    this.parameters = parameters;

    int first = counts.firstMinuteAtOrAfter(parameters.windowStart().getEpochSecond());
    int end = counts.firstMinuteAtOrAfter(parameters.windowEnd().getEpochSecond());
    int minutes = Math.max(0, end - first);
    minuteStart = new long[minutes];
    cumulative = new long[minutes];
    long sum = 0;
    for (int i = 0; i < minutes; i++) {
      minuteStart[i] = counts.minuteStart(first + i);
      sum += counts.count(first + i);
      cumulative[i] = sum;
    }
    if (sum == 0) {
      throw new IllegalArgumentException("the trace has no requests between " + parameters.windowStart() + " and "
          + parameters.windowEnd() + " (it runs from " + InvocationCounts.TRACE_START + " to "
          + InvocationCounts.TRACE_END + ")");
    }
    windowRequests = sum;

    int n = parameters.objectCount();
    double[] weight = new double[n];
    double total = 0;
    for (int r = 0; r < n; r++) {
      weight[r] = Math.pow(r + 1, -parameters.zipfExponent());
      total += weight[r];
    }
    for (int r = 0; r < n; r++) {
      weight[r] /= total;
    }
    popularity = new AliasTable(weight);
    typeOfRank = assignTypes(weight, parameters);
    double[] share = new double[FileType.values().length];
    for (int r = 0; r < n; r++) {
      share[typeOfRank[r].ordinal()] += weight[r];
    }
    Map<FileType, Double> expected = new EnumMap<>(FileType.class);
    for (FileType t : FileType.values()) {
      expected.put(t, share[t.ordinal()]);
    }
    expectedTypeShares = Collections.unmodifiableMap(expected);

    SplittableRandom tableRandom = new SplittableRandom(parameters.seed() ^ OBJECT_TABLE_SALT);
    objectIdOfRank = new long[n];
    for (int r = 0; r < n; r++) {
      objectIdOfRank[r] = r;
    }
    for (int r = n - 1; r > 0; r--) {
      int j = tableRandom.nextInt(r + 1);
      long swap = objectIdOfRank[r];
      objectIdOfRank[r] = objectIdOfRank[j];
      objectIdOfRank[j] = swap;
    }
    sizeOfRank = new long[n];
    for (int r = 0; r < n; r++) {
      GeneratorParameters.SizeDistribution d = parameters.sizes().get(typeOfRank[r]);
      double size = Math.rint(d.medianBytes() * Math.exp(d.sigma() * tableRandom.nextGaussian()));
      sizeOfRank[r] = (long) Math.max(1, Math.min(size, Wc98Record.SIZE_NONE - 1));
    }

    Map<Integer, Double> others = parameters.otherStatusesSorted();
    statusCode = new int[2 + others.size()];
    double[] statusWeight = new double[statusCode.length];
    statusCode[0] = 200;
    statusCode[1] = 304;
    statusWeight[1] = parameters.notModifiedShare();
    double rest = 1 - parameters.notModifiedShare();
    int k = 2;
    for (Map.Entry<Integer, Double> e : others.entrySet()) {
      statusCode[k] = e.getKey();
      statusWeight[k++] = e.getValue();
      rest -= e.getValue();
    }
    statusWeight[0] = Math.max(0, rest);
    statuses = new AliasTable(statusWeight);

    methodOf = Method.values();
    methods = new AliasTable(GeneratorParameters.normalised(parameters.methodShares(), methodOf));
    versions = new AliasTable(GeneratorParameters.normalised(parameters.httpVersionShares(), HttpVersion.values()));
    regions = new AliasTable(GeneratorParameters.normalised(parameters.regionShares(), Region.values()));
    serversOfRegion = new int[Region.values().length];
    for (Region r : Region.values()) {
      serversOfRegion[r.ordinal()] = parameters.serversPerRegion().getOrDefault(r, 0);
    }
    if (LOG.isDebugEnabled()) {
      LOG.debug("wc98 generator: {} requests in the window's {} minutes, {} objects, Zipf {}, expected type shares {}",
          sum, minutes, n, parameters.zipfExponent(), expectedTypeShares);
    }
  }

  public GeneratorParameters parameters() {
    return parameters;
  }

  /**
   * The share of requests each type gets in expectation: the popularity of the objects assigned to it.
   * It equals {@link GeneratorParameters#requestShares()} where the population shares allow; where they
   * do not (many objects of a type that should get few requests), that type gets more.
   */
  public Map<FileType, Double> expectedTypeShares() {
    return expectedTypeShares;
  }

  /** Generates {@code records} records in time order into the sink. */
  public void generate(long records, RecordSink sink) throws IOException {
    generate(records, sink, done -> {});
  }

  /**
   * Generates {@code records} records in time order into the sink, telling {@code progress} how many
   * are done every {@value #PROGRESS_INTERVAL} records and at the end.
   */
  public void generate(long records, RecordSink sink, LongConsumer progress) throws IOException {
    if (records < 0) {
      throw new IllegalArgumentException("records must be 0 or more, not " + records);
    }
    SplittableRandom random = new SplittableRandom(parameters.seed());
    int poolSize = parameters.activeClients();
    double newClient = parameters.newClientProbability();
    long[] clientId = new long[poolSize];
    byte[] clientRegion = new byte[poolSize];
    byte[] clientVersion = new byte[poolSize];
    long nextClientId = 0;
    for (int i = 0; i < poolSize; i++) {
      clientId[i] = nextClientId++;
      clientRegion[i] = (byte) regions.sample(random);
      clientVersion[i] = (byte) versions.sample(random);
    }

    int lastMinute = minuteStart.length - 1;
    int minute = 0;
    double position = 0; // in [0, 1): where the previous request fell in the window's requests
    for (long i = 0; i < records; i++) {
      // The smallest of the (records - i) uniforms still to come above the previous one.
      double v = 1.0 - random.nextDouble();
      position += (1.0 - position) * -Math.expm1(Math.log(v) / (records - i));
      double x = position * windowRequests;
      while (minute < lastMinute && cumulative[minute] <= x) {
        minute++;
      }
      long before = minute == 0 ? 0 : cumulative[minute - 1];
      int second = (int) ((x - before) * 60 / (cumulative[minute] - before));
      long timestamp = minuteStart[minute] + Math.max(0, Math.min(59, second));

      int rank = popularity.sample(random);

      double c = random.nextDouble();
      int slot;
      if (c < newClient) {
        slot = (int) (c / newClient * poolSize);
        slot = Math.min(slot, poolSize - 1);
        clientId[slot] = nextClientId++;
        clientRegion[slot] = (byte) regions.sample(random);
        clientVersion[slot] = (byte) versions.sample(random);
      } else {
        slot = Math.min((int) ((c - newClient) / (1.0 - newClient) * poolSize), poolSize - 1);
      }
      int region = clientRegion[slot];
      int server = region << 5 | random.nextInt(serversOfRegion[region]);

      Method method = methodOf[methods.sample(random)];
      int code = statusCode[statuses.sample(random)];
      long size;
      if (method == Method.HEAD || code == 304) {
        size = Wc98Record.SIZE_NONE;
      } else if (code == 200) {
        size = sizeOfRank[rank];
      } else if (code == 206) {
        size = 1 + random.nextLong(sizeOfRank[rank]);
      } else {
        size = parameters.messageBodyBytes();
      }
      int status = clientVersion[slot] << 6 | StatusCodes.index(code);

      sink.accept(new Wc98Record(timestamp, clientId[slot] & Wc98Record.UINT32_MAX, objectIdOfRank[rank], size,
          method, status, typeOfRank[rank], server));
      if ((i + 1) % PROGRESS_INTERVAL == 0) {
        progress.accept(i + 1);
      }
    }
    progress.accept(records);
  }

  /**
   * Gives each popularity rank a type. Going from the most popular object down, each object goes to
   * the type whose remaining request share per remaining object is the largest (the type that most
   * needs popular objects), unless the object alone is more popular than that average, in which case
   * it goes to the type with the most request share left, which can take it without overshooting.
   * The counts per type are the population shares (largest remainders), so the population is met
   * exactly and the request mix as closely as the population allows.
   */
  static FileType[] assignTypes(double[] weight, GeneratorParameters parameters) {
    FileType[] types = FileType.values();
    int n = weight.length;
    double[] need = GeneratorParameters.normalised(parameters.requestShares(), types);
    double[] population = GeneratorParameters.normalised(parameters.populationShares(), types);
    int[] slots = new int[types.length];
    double[] remainder = new double[types.length];
    int assigned = 0;
    for (int t = 0; t < types.length; t++) {
      double exact = population[t] * n;
      slots[t] = (int) Math.floor(exact);
      remainder[t] = exact - slots[t];
      assigned += slots[t];
    }
    while (assigned < n) {
      int best = 0;
      for (int t = 1; t < types.length; t++) {
        if (remainder[t] > remainder[best]) {
          best = t;
        }
      }
      slots[best]++;
      remainder[best] = -1;
      assigned++;
    }

    FileType[] typeOfRank = new FileType[n];
    for (int r = 0; r < n; r++) {
      int byRatio = -1;
      int byNeed = -1;
      for (int t = 0; t < types.length; t++) {
        if (slots[t] == 0) {
          continue;
        }
        if (byRatio < 0 || need[t] / slots[t] > need[byRatio] / slots[byRatio]) {
          byRatio = t;
        }
        if (byNeed < 0 || need[t] > need[byNeed]) {
          byNeed = t;
        }
      }
      int t = need[byRatio] / slots[byRatio] >= weight[r] ? byRatio : byNeed;
      typeOfRank[r] = types[t];
      need[t] -= weight[r];
      slots[t]--;
    }
    return typeOfRank;
  }
}
