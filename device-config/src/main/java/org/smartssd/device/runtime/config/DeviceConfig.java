package org.smartssd.device.runtime.config;

import static org.smartssd.device.runtime.config.DeviceConfigKeys.*;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.protocol.HostSecret;
import org.smartssd.opcount.CoreCost;

/**
 * The device's configuration, read and validated in one place. Precedence: key defaults, then the
 * profile's values, then the overrides. Immutable; every value was checked when it was loaded.
 */
public final class DeviceConfig {

  private static final Logger LOG = LoggerFactory.getLogger(DeviceConfig.class);
  private static final double BYTES_PER_MB = 1_000_000.0;
  /** The device mapper's adapter package before it was split into .tasklet and .wire (issue 16). */
  private static final String SPLIT_MAPPER_PACKAGE = "org.smartssd.devicemapper.runtime.";

  private final String profile;
  private final String deviceName;
  private final Path dataDir;
  private final String bindAddress;
  private final int port;
  private final Path unixSocket;
  private final HostSecret secret;
  private final int maxFrameBytes;
  private final int workerThreads;
  private final int maxConnections;
  private final long ioTimeoutMs;
  private final long idleTimeoutMs;
  private final int frameMemoryBytes;
  private final boolean paced;
  private final DeviceGeometry geometry;
  private final int overprovisioningPercent;
  private final boolean reclaimSpace;
  private final TimingParameters timing;
  private final long checkpointLogBytes;
  private final long accessTimePrecisionMs;
  private final boolean permissionsEnabled;
  private final String superGroup;
  private final int gcMinFreeBlocksPerWay;
  private final IspParameters isp;
  private final ActiveParameters active;
  private final EnergyParameters energy;
  private final SortedMap<String, String> effective;

  /**
   * Loads the configuration. Keys of this module ({@value DeviceConfigKeys#PREFIX}*) must be known;
   * other keys are left to their modules and ignored.
   *
   * @throws ConfigException naming the key, the bad value and what is expected
   */
  public static DeviceConfig load(Map<String, String> overrides) {
    Objects.requireNonNull(overrides, "overrides");
    Map<String, String> own = new TreeMap<>();
    overrides.forEach((key, value) -> {
      if (key == null || !key.startsWith(PREFIX)) {
        return;
      }
      if (DeviceConfigKeys.find(key) == null) {
        throw unknownKey(key);
      }
      if (value == null) {
        throw new ConfigException(key, "has no value");
      }
      own.put(key, value.trim());
    });
    String profile = own.getOrDefault(PROFILE, PROFILE_DEFAULT);
    if (!Profiles.names().contains(profile)) {
      throw ValueParser.bad(PROFILE, profile, "is not a known profile; expected one of: "
          + String.join(", ", Profiles.names()));
    }
    Map<String, String> merged = new TreeMap<>();
    DeviceConfigKeys.all().forEach(key -> merged.put(key.name(), key.defaultValue()));
    merged.putAll(Profiles.parameters(profile));
    merged.putAll(own);
    DeviceConfig config = new DeviceConfig(merged);
    LOG.debug("device configuration: {}", config.effective);
    return config;
  }

  /** The configuration with no overrides: the default profile and every default. */
  public static DeviceConfig defaults() {
    return load(Map.of());
  }

  private DeviceConfig(Map<String, String> merged) {
    ValueParser values = new ValueParser(merged);
    profile = values.text(PROFILE);
    deviceName = merged.get(DEVICE_NAME).isBlank() ? localHostName() : merged.get(DEVICE_NAME);
    dataDir = values.path(DATA_DIR);
    bindAddress = values.nonBlank(HOST_BIND_ADDRESS);
    port = values.wholeNumber(HOST_PORT, 0, 65535);
    unixSocket = values.optionalAbsolutePath(HOST_UNIX_SOCKET);
    secret = secret(values.text(HOST_SECRET_FILE), bindAddress);
    // Below this a WRITE or READ has no room for data beside its fixed fields: the device would be unusable.
    maxFrameBytes = values.wholeNumber(HOST_MAX_FRAME_BYTES, org.smartssd.device.client.ClientOptions.MAX_FRAME_BYTES_MIN,
        Integer.MAX_VALUE);
    workerThreads = values.wholeNumber(HOST_WORKER_THREADS, 1, Integer.MAX_VALUE);
    maxConnections = values.wholeNumber(HOST_MAX_CONNECTIONS, 1, Integer.MAX_VALUE);
    ioTimeoutMs = values.wholeNumber(HOST_IO_TIMEOUT_MS, 1L, TimeUnit.DAYS.toMillis(1));
    idleTimeoutMs = values.wholeNumber(HOST_IDLE_TIMEOUT_MS, 0L, TimeUnit.DAYS.toMillis(365));
    frameMemoryBytes = values.wholeNumber(HOST_FRAME_MEMORY_BYTES, 1, Integer.MAX_VALUE);
    if (frameMemoryBytes < maxFrameBytes) {
      // A frame of the largest size must fit, or it would wait for room that never comes.
      throw new ConfigException(HOST_FRAME_MEMORY_BYTES, "'" + frameMemoryBytes + "' is below " + HOST_MAX_FRAME_BYTES
          + " (" + maxFrameBytes + "): a frame of the largest size accepted must fit");
    }
    paced = values.bool(PACE);
    geometry = geometry(values);
    overprovisioningPercent = values.wholeNumber(FLASH_OVERPROVISIONING_PERCENT, 0, 50);
    reclaimSpace = values.bool(FLASH_RECLAIM_SPACE);
    timing = new TimingParameters(
        values.wholeNumber(FLASH_CELL_READ_NS, 1L, Long.MAX_VALUE),
        values.wholeNumber(FLASH_CELL_PROGRAM_NS, 1L, Long.MAX_VALUE),
        values.wholeNumber(FLASH_BLOCK_ERASE_NS, 1L, Long.MAX_VALUE),
        values.positiveDecimal(FLASH_CHANNEL_MB_PER_S) * BYTES_PER_MB,
        values.positiveDecimal(LINK_MB_PER_S) * BYTES_PER_MB,
        values.wholeNumber(LINK_COMMAND_NS, 0L, Long.MAX_VALUE),
        internalReadsYield(values));
    checkpointLogBytes = values.wholeNumber(META_CHECKPOINT_LOG_BYTES, 1L, Long.MAX_VALUE);
    accessTimePrecisionMs = values.wholeNumber(META_ACCESS_TIME_PRECISION_MS, 0L, Long.MAX_VALUE);
    permissionsEnabled = values.bool(PERMISSIONS_ENABLED);
    superGroup = values.nonBlank(PERMISSIONS_SUPERUSERGROUP);
    gcMinFreeBlocksPerWay = values.wholeNumber(GC_MIN_FREE_BLOCKS_PER_WAY, 1, Integer.MAX_VALUE);
    if (gcMinFreeBlocksPerWay >= geometry.blocksPerWay()) {
      // Garbage collection needs blocks holding data to reclaim, besides the free ones it keeps.
      throw ValueParser.bad(GC_MIN_FREE_BLOCKS_PER_WAY, merged.get(GC_MIN_FREE_BLOCKS_PER_WAY),
          "must be less than " + FLASH_BLOCKS_PER_WAY + " (" + geometry.blocksPerWay() + ")");
    }
    isp = isp(values, merged);
    active = active(values, geometry);
    energy = energy(values, geometry, timing, isp);
    TreeMap<String, String> shown = new TreeMap<>(merged);
    shown.put(DEVICE_NAME, deviceName);
    effective = Collections.unmodifiableSortedMap(shown);
  }

  private static EnergyParameters energy(ValueParser values, DeviceGeometry geometry, TimingParameters timing,
      IspParameters isp) {
    // A flash operation draws the chip's active current at its supply voltage for the operation's time.
    double flashWatts = values.positiveDecimal(ENERGY_FLASH_VOLTS) * values.nonNegativeDecimal(ENERGY_FLASH_MA) / 1000;
    return new EnergyParameters(values.positiveDecimal(ENERGY_DEVICE_ACTIVE_W),
        values.positiveDecimal(ENERGY_DEVICE_IDLE_W), values.positiveDecimal(ENERGY_HOST_ACTIVE_W),
        values.positiveDecimal(ENERGY_HOST_IDLE_W), isp.cores(), isp.hostCores(),
        flashWatts * timing.cellReadNanos() / 1e9, flashWatts * timing.cellProgramNanos() / 1e9,
        flashWatts * timing.blockEraseNanos() / 1e9,
        values.nonNegativeDecimal(ENERGY_LINK_PJ_PER_BIT) * 8 / 1e12);
  }

  private static boolean internalReadsYield(ValueParser values) {
    String priority = values.nonBlank(ISP_INTERNAL_READ_PRIORITY);
    if (!priority.equals("low") && !priority.equals("equal")) {
      throw ValueParser.bad(ISP_INTERNAL_READ_PRIORITY, priority, "must be low or equal");
    }
    return priority.equals("low");
  }

  /**
   * With {@code memory-pricing=calibrated} on a core without caches, the DRAM reads of compiled code a
   * counted heap access: 0.655 and 0.751 data reads a counted access (stack traffic included, so an upper
   * bound for a core whose stack is in TCM) in the two calibration kernels without library calls, arrayScan
   * and objectGraph, under callgrind (bench/memory-calibration, docs/benchmarks/memory-calibration,
   * 2026-12-07), their mean; their stores (0.16 and 0.25) retire into the core's write buffer.
   */
  static final double CALIBRATED_READS_PER_ACCESS = 0.70;

  /**
   * With {@code memory-pricing=calibrated} and {@code caches=l1}, the reads of compiled code that miss a
   * 32 KiB 4-way L1 data cache of 32-byte lines (the Cortex-A9's) a counted heap access: 0.063 (arrayScan)
   * and 0.188 (objectGraph) under callgrind's cache simulation (the same runs), their mean. None of them
   * missed the simulated 1 MiB L2 (the kernels' data fit in it), so no DRAM term is added: a tasklet whose
   * state outgrows an L2 is priced low.
   */
  static final double CALIBRATED_L1_MISSES_PER_ACCESS = 0.125;

  /**
   * With {@code memory-pricing=calibrated} and {@code caches=l1}, the L1 misses a data read inside a library
   * call makes: none. In the library kernels of bench/memory-calibration (docs/benchmarks/memory-calibration/
   * library-calibration.md, 2026-12-07) the misses beyond those of the loops' counted accesses are -0.13 to
   * 0.00 a call: a call reads what its caller handed it, already in the cache. On a core without caches
   * each such read is a DRAM round trip ({@code dram-access-ns}), as a counted access's reads are.
   */
  static final double CALIBRATED_L1_MISSES_PER_LIBRARY_READ = 0.0;

  /** How the device core's counted work is priced: {@code memory-pricing} with {@code caches}. */
  private static CoreCost deviceCore(ValueParser values, double libraryCallOps, CoreCost host) {
    double mhz = values.positiveDecimal(ISP_CORE_MHZ);
    double dramMbPerS = values.positiveDecimal(ISP_DRAM_MB_PER_S);
    String pricing = values.nonBlank(ISP_MEMORY_PRICING);
    String caches = values.nonBlank(ISP_CACHES);
    if (!caches.equals("none") && !caches.equals("l1")) {
      throw ValueParser.bad(ISP_CACHES, caches, "must be none or l1");
    }
    boolean cached = caches.equals("l1");
    double dramNanos = values.nonNegativeDecimal(ISP_DRAM_ACCESS_NS);
    double missNanos = values.nonNegativeDecimal(ISP_L1_MISS_NS);
    double cyclesPerOp = values.positiveDecimal(ISP_CYCLES_PER_OP);
    switch (pricing) {
      case "calibrated":
        return new CoreCost(mhz, cyclesPerOp, cached ? CALIBRATED_L1_MISSES_PER_ACCESS * missNanos
            : CALIBRATED_READS_PER_ACCESS * dramNanos, libraryCallOps, dramMbPerS,
            cached ? CALIBRATED_L1_MISSES_PER_LIBRARY_READ * missNanos : dramNanos);
      case "per-access":
        // The rule before issue 32: library calls have no memory term.
        return new CoreCost(mhz, cyclesPerOp, cached ? 0 : dramNanos, libraryCallOps, dramMbPerS);
      case "host-cpi":
        // The iSSD's Eq. 13: the host's CPI for the same instructions, at the device core's rate. A heap
        // access's extra time on the host is cycles the device core spends too, at its own clock.
        return new CoreCost(mhz, host.cyclesPerOp(), host.memoryAccessNanos() * host.mhz() / mhz, libraryCallOps,
            dramMbPerS, host.libraryReadNanos() * host.mhz() / mhz);
      default:
        throw ValueParser.bad(ISP_MEMORY_PRICING, pricing, "must be calibrated, per-access or host-cpi");
    }
  }

  private static IspParameters isp(ValueParser values, Map<String, String> merged) {
    String computeModelName = values.nonBlank(ISP_COMPUTE_MODEL);
    IspParameters.ComputeModel computeModel = null;
    for (IspParameters.ComputeModel m : IspParameters.ComputeModel.values()) {
      if (m.optionName().equals(computeModelName)) {
        computeModel = m;
      }
    }
    if (computeModel == null) {
      throw ValueParser.bad(ISP_COMPUTE_MODEL, computeModelName, "must be counted, measured or cycles");
    }
    double libraryCallOps = values.nonNegativeDecimal(ISP_LIBRARY_CALL_OPS);
    CoreCost host = new CoreCost(values.positiveDecimal(ISP_HOST_MHZ), values.positiveDecimal(HOST_CPU_CYCLES_PER_OP),
        values.nonNegativeDecimal(HOST_CPU_MEMORY_ACCESS_NS), libraryCallOps,
        values.positiveDecimal(HOST_CPU_COPY_MB_PER_S));
    CoreCost core = deviceCore(values, libraryCallOps, host);
    String merge = values.nonBlank(ISP_MERGE);
    if (!merge.equals("host") && !merge.equals("device")) {
      throw ValueParser.bad(ISP_MERGE, merge, "must be host or device");
    }
    int threads = values.wholeNumber(ISP_THREADS, 0, 4096);
    List<String> shared = new ArrayList<>();
    for (String prefix : merged.get(ISP_SHARED_PACKAGES).split(",")) {
      if (!prefix.isBlank()) {
        shared.add(prefix.trim());
      }
    }
    if (shared.contains(SPLIT_MAPPER_PACKAGE) || shared.contains(SPLIT_MAPPER_PACKAGE.substring(0,
        SPLIT_MAPPER_PACKAGE.length() - 1))) {
      throw ValueParser.bad(ISP_SHARED_PACKAGES, merged.get(ISP_SHARED_PACKAGES), "names " + SPLIT_MAPPER_PACKAGE
          + ", which no longer exists: the device mapper's adapter is in org.smartssd.devicemapper.tasklet. and"
          + " org.smartssd.devicemapper.wire. now (list both)");
    }
    return new IspParameters(
        values.wholeNumber(ISP_CORES, 1, 65536),
        values.positiveDecimal(ISP_CORE_MHZ),
        values.positiveDecimal(ISP_CONTROLLER_MHZ),
        values.positiveDecimal(ISP_HOST_MHZ),
        computeModel,
        values.positiveDecimal(ISP_CYCLES_PER_BYTE),
        core,
        host,
        values.wholeNumber(HOST_CPU_CORES, 1, 4096),
        merge.equals("device"),
        threads == 0 ? Runtime.getRuntime().availableProcessors() : threads,
        values.wholeNumber(ISP_READ_REQUEST_PAGES, 1, 65536),
        values.wholeNumber(ISP_LANE_BUFFER_BYTES, 1024, Integer.MAX_VALUE),
        laneMemoryBytes(values),
        values.wholeNumber(ISP_OUTPUT_BUDGET_BYTES, 1L, Long.MAX_VALUE),
        values.wholeNumber(ISP_MEMORY_BUDGET_BYTES, 1L, Long.MAX_VALUE),
        values.wholeNumber(ISP_TIME_LIMIT_MS, 1L, Long.MAX_VALUE),
        values.wholeNumber(ISP_MAX_EXECUTIONS, 1, 4096),
        values.wholeNumber(ISP_MAX_EXECUTIONS_PER_CONNECTION, 1, 4096),
        values.wholeNumber(ISP_MAX_TASKLETS, 1, 1 << 20),
        values.wholeNumber(ISP_MAX_RECORD_BYTES, 1, Integer.MAX_VALUE),
        values.wholeNumber(ISP_CODE_CACHE_BYTES, 0L, Long.MAX_VALUE),
        values.wholeNumber(ISP_LOADED_CODE_ENTRIES, 0, 4096),
        shared);
  }

  private static ActiveParameters active(ValueParser values, DeviceGeometry geometry) {
    long buffer = values.wholeNumber(ACTIVE_BUFFER_BYTES, geometry.pageSizeBytes(), Long.MAX_VALUE);
    double threshold = values.nonNegativeDecimal(ACTIVE_IDLE_GC_THRESHOLD);
    if (threshold > 1) {
      throw ValueParser.bad(ACTIVE_IDLE_GC_THRESHOLD, Double.toString(threshold), "must be a fraction from 0 to 1");
    }
    return new ActiveParameters(buffer, values.wholeNumber(ACTIVE_IDLE_AFTER_MS, 0L, 1L << 40) * 1_000_000L,
        values.bool(ACTIVE_IDLE_GC), threshold);
  }

  /** A lane's memory; 0 in configuration means unbounded, {@link Long#MAX_VALUE} here. */
  private static long laneMemoryBytes(ValueParser values) {
    long bytes = values.wholeNumber(ISP_LANE_MEMORY_BYTES, 0L, Long.MAX_VALUE);
    return bytes == 0 ? Long.MAX_VALUE : bytes;
  }

  private static DeviceGeometry geometry(ValueParser values) {
    int channels = values.wholeNumber(FLASH_CHANNELS, 1, Integer.MAX_VALUE);
    int ways = values.wholeNumber(FLASH_WAYS_PER_CHANNEL, 1, Integer.MAX_VALUE);
    int blocks = values.wholeNumber(FLASH_BLOCKS_PER_WAY, 1, Integer.MAX_VALUE);
    int pages = values.wholeNumber(FLASH_PAGES_PER_BLOCK, 1, Integer.MAX_VALUE);
    int pageSize = values.wholeNumber(FLASH_PAGE_SIZE_BYTES, 1, Integer.MAX_VALUE);
    int stripeUnit = values.wholeNumber(FLASH_STRIPE_UNIT_PAGES, 1, Integer.MAX_VALUE);
    // Physical page addresses are ints, so the array may hold at most Integer.MAX_VALUE pages.
    long totalPages;
    try {
      totalPages = Math.multiplyExact(Math.multiplyExact((long) channels * ways, (long) blocks), (long) pages);
    } catch (ArithmeticException e) {
      totalPages = Long.MAX_VALUE;
    }
    if (totalPages > Integer.MAX_VALUE) {
      throw ValueParser.bad(FLASH_BLOCKS_PER_WAY, Integer.toString(blocks), "makes the geometry too large: "
          + channels + " channels x " + ways + " ways x " + blocks + " blocks x " + pages + " pages is more than the "
          + Integer.MAX_VALUE + " addressable pages; lower it, or " + FLASH_CHANNELS + ", "
          + FLASH_WAYS_PER_CHANNEL + " or " + FLASH_PAGES_PER_BLOCK);
    }
    return new DeviceGeometry(channels, ways, blocks, pages, pageSize, stripeUnit);
  }

  private static ConfigException unknownKey(String key) {
    String suggestion = null;
    int best = Integer.MAX_VALUE;
    for (ConfigKey known : DeviceConfigKeys.all()) {
      int distance = editDistance(key, known.name());
      if (distance < best) {
        best = distance;
        suggestion = known.name();
      }
    }
    // Only suggest a key that is plausibly a misspelling, not merely the nearest of many.
    boolean close = best <= Math.max(3, key.length() / 5);
    return new ConfigException(key, "unknown configuration key"
        + (close ? "; did you mean " + suggestion + "?" : "; see the README for the keys of " + PREFIX + "*"));
  }

  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException | SecurityException e) {
      LOG.debug("cannot find the local host name, using localhost", e);
      return "localhost";
    }
  }

  public IspParameters isp() {
    return isp;
  }

  public EnergyParameters energy() {
    return energy;
  }

  public String profile() {
    return profile;
  }

  public String deviceName() {
    return deviceName;
  }

  public Path dataDir() {
    return dataDir;
  }

  public String bindAddress() {
    return bindAddress;
  }

  /** TCP port of the host interface; 0 means any free port. */
  public int port() {
    return port;
  }

  /** The secret hosts must prove they hold; empty for none (then the bind address is a loopback one). */
  public Optional<HostSecret> secret() {
    return Optional.ofNullable(secret);
  }

  /**
   * Reads the secret file; without one, refuses a bind address other hosts can reach: a device
   * reachable from the network serves only hosts that hold its secret.
   */
  private static HostSecret secret(String file, String bindAddress) {
    if (file.isEmpty()) {
      if (!isLoopback(bindAddress)) {
        throw new ConfigException(HOST_SECRET_FILE, "is required with bind address " + bindAddress + ", which other hosts"
            + " can reach: give the device a secret (make one with `smartssd secret FILE`, then `--secret-file FILE`)"
            + " or bind to 127.0.0.1");
      }
      return null;
    }
    try {
      return HostSecret.read(Path.of(file));
    } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
      throw new ConfigException(HOST_SECRET_FILE, HostSecret.reason(e));
    }
  }

  private static boolean isLoopback(String address) {
    try {
      for (InetAddress a : InetAddress.getAllByName(address)) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      throw new ConfigException(HOST_BIND_ADDRESS, "'" + address + "' is not a known host or address");
    }
  }

  /** The Unix domain socket the host interface also listens on; empty for none. */
  public Optional<Path> unixSocket() {
    return Optional.ofNullable(unixSocket);
  }

  public int maxFrameBytes() {
    return maxFrameBytes;
  }

  /** Connections served at once; one more is closed as soon as it is accepted. */
  public int maxConnections() {
    return maxConnections;
  }

  public long ioTimeoutMs() {
    return ioTimeoutMs;
  }

  /** 0 means connections are never closed for being idle. */
  public long idleTimeoutMs() {
    return idleTimeoutMs;
  }

  public int frameMemoryBytes() {
    return frameMemoryBytes;
  }

  public int workerThreads() {
    return workerThreads;
  }

  /** Whether each answer is held until its modelled completion. */
  public boolean paced() {
    return paced;
  }

  public DeviceGeometry geometry() {
    return geometry;
  }

  public int overprovisioningPercent() {
    return overprovisioningPercent;
  }

  /** Whether erased and dead flash pages give their disk space back ({@code flash.reclaim-space}). */
  public boolean reclaimSpace() {
    return reclaimSpace;
  }

  public TimingParameters timing() {
    return timing;
  }

  public long checkpointLogBytes() {
    return checkpointLogBytes;
  }

  /** An open sets a file's access time when it is older than this; 0: never. */
  public long accessTimePrecisionMs() {
    return accessTimePrecisionMs;
  }

  public boolean permissionsEnabled() {
    return permissionsEnabled;
  }

  /** Members of this group are superusers. */
  public String superGroup() {
    return superGroup;
  }

  /** Analysis attached to data as it is written, idle time and garbage collection in it. */
  public ActiveParameters active() {
    return active;
  }

  public int gcMinFreeBlocksPerWay() {
    return gcMinFreeBlocksPerWay;
  }

  /** Every key of the registry with its effective value (the device name resolved). */
  public SortedMap<String, String> effective() {
    return effective;
  }

  @Override
  public String toString() {
    return "DeviceConfig[profile=" + profile + ", name=" + deviceName + ", geometry=" + geometry + "]";
  }
}
