package org.smartssd.device.runtime.config;

import java.util.List;

/**
 * Every configuration key of the device, each name beside its default. Keys whose value is set by
 * the profile ({@link Profiles#PROFILE_KEYS}: flash geometry and timing, the host link, the cores and
 * their memory, the modelled host's clock, the powers) have no constant default: their default is the
 * default profile's value, so that the number is written once, in {@link Profiles}.
 */
public final class DeviceConfigKeys {

  /** The prefix this module owns; other prefixes belong to other modules and are ignored here. */
  public static final String PREFIX = "smartssd.device.";

  public static final String PROFILE = "smartssd.device.profile";
  public static final String PROFILE_DEFAULT = Profiles.MSST13_SATA;

  /** Empty means the local host name ("localhost" when it cannot be found). */
  public static final String DEVICE_NAME = "smartssd.device.name";
  public static final String DEVICE_NAME_DEFAULT = "";

  public static final String DATA_DIR = "smartssd.device.data-dir";
  public static final String DATA_DIR_DEFAULT = "./smartssd-data";

  public static final String HOST_BIND_ADDRESS = "smartssd.device.host.bind-address";
  public static final String HOST_BIND_ADDRESS_DEFAULT = "127.0.0.1";

  public static final String HOST_PORT = "smartssd.device.host.port";
  public static final String HOST_PORT_DEFAULT = "7070";

  /** Empty means none: the device listens on TCP only. */
  public static final String HOST_UNIX_SOCKET = "smartssd.device.host.unix-socket";
  public static final String HOST_UNIX_SOCKET_DEFAULT = "";

  /** Empty means none: any host that reaches the listening address is served (loopback only). */
  public static final String HOST_SECRET_FILE = "smartssd.device.host.secret-file";
  public static final String HOST_SECRET_FILE_DEFAULT = "";

  public static final String HOST_MAX_FRAME_BYTES = "smartssd.device.host.max-frame-bytes";
  public static final String HOST_MAX_FRAME_BYTES_DEFAULT = "67108864";

  /** Each connection has a reading thread: the limit bounds the device's threads and descriptors. */
  public static final String HOST_MAX_CONNECTIONS = "smartssd.device.host.max-connections";
  public static final String HOST_MAX_CONNECTIONS_DEFAULT = "1024";

  /**
   * How long a connection may leave the device waiting on it in the middle of something: an answer
   * it does not read, or a frame it started and does not finish sending. Past it the connection is
   * closed, so that one stalled host holds no worker, no memory and no slot for long.
   */
  public static final String HOST_IO_TIMEOUT_MS = "smartssd.device.host.io-timeout-ms";
  public static final String HOST_IO_TIMEOUT_MS_DEFAULT = "30000";

  /**
   * How long a connection that holds nothing on the device may stay silent. 10 minutes is Kafka's
   * broker default for the same setting ({@code connections.max.idle.ms}, 600000).
   */
  public static final String HOST_IDLE_TIMEOUT_MS = "smartssd.device.host.idle-timeout-ms";
  public static final String HOST_IDLE_TIMEOUT_MS_DEFAULT = "600000";

  /**
   * Bytes of request frames the device holds at once over all its connections, being received or
   * waiting for a worker: a frame's declared length is reserved before its payload is read.
   */
  public static final String HOST_FRAME_MEMORY_BYTES = "smartssd.device.host.frame-memory-bytes";
  public static final String HOST_FRAME_MEMORY_BYTES_DEFAULT = "268435456";

  public static final String HOST_WORKER_THREADS = "smartssd.device.host.worker-threads";
  public static final String HOST_WORKER_THREADS_DEFAULT = "8";

  public static final String PACE = "smartssd.device.pace";
  public static final String PACE_DEFAULT = "false";

  // Set by the profile.
  public static final String FLASH_CHANNELS = "smartssd.device.flash.channels";
  public static final String FLASH_WAYS_PER_CHANNEL = "smartssd.device.flash.ways-per-channel";
  public static final String FLASH_BLOCKS_PER_WAY = "smartssd.device.flash.blocks-per-way";
  public static final String FLASH_PAGES_PER_BLOCK = "smartssd.device.flash.pages-per-block";
  public static final String FLASH_PAGE_SIZE_BYTES = "smartssd.device.flash.page-size-bytes";

  public static final String FLASH_STRIPE_UNIT_PAGES = "smartssd.device.flash.stripe-unit-pages";
  public static final String FLASH_STRIPE_UNIT_PAGES_DEFAULT = "1";

  public static final String FLASH_OVERPROVISIONING_PERCENT = "smartssd.device.flash.overprovisioning-percent";
  public static final String FLASH_OVERPROVISIONING_PERCENT_DEFAULT = "7";

  /** Punch holes in the backing files for erased and dead flash pages, where the platform allows it. */
  public static final String FLASH_RECLAIM_SPACE = "smartssd.device.flash.reclaim-space";
  public static final String FLASH_RECLAIM_SPACE_DEFAULT = "true";

  // Set by the profile.
  public static final String FLASH_CELL_READ_NS = "smartssd.device.flash.cell-read-ns";
  public static final String FLASH_CELL_PROGRAM_NS = "smartssd.device.flash.cell-program-ns";
  public static final String FLASH_BLOCK_ERASE_NS = "smartssd.device.flash.block-erase-ns";
  public static final String FLASH_CHANNEL_MB_PER_S = "smartssd.device.flash.channel-mb-per-s";
  public static final String LINK_MB_PER_S = "smartssd.device.link.mb-per-s";
  public static final String LINK_COMMAND_NS = "smartssd.device.link.command-ns";

  public static final String META_CHECKPOINT_LOG_BYTES = "smartssd.device.meta.checkpoint-log-bytes";
  public static final String META_CHECKPOINT_LOG_BYTES_DEFAULT = "67108864";
  /** HDFS's {@code dfs.namenode.accesstime.precision}, whose default is one hour. */
  public static final String META_ACCESS_TIME_PRECISION_MS = "smartssd.device.meta.access-time-precision-ms";
  public static final String META_ACCESS_TIME_PRECISION_MS_DEFAULT = "3600000";

  /** HDFS's {@code dfs.permissions.enabled}, on by default. */
  public static final String PERMISSIONS_ENABLED = "smartssd.device.permissions.enabled";
  public static final String PERMISSIONS_ENABLED_DEFAULT = "true";
  /** HDFS's {@code dfs.permissions.superusergroup}, {@code supergroup} by default. */
  public static final String PERMISSIONS_SUPERUSERGROUP = "smartssd.device.permissions.superusergroup";
  public static final String PERMISSIONS_SUPERUSERGROUP_DEFAULT = "supergroup";

  public static final String GC_MIN_FREE_BLOCKS_PER_WAY = "smartssd.device.gc.min-free-blocks-per-way";
  public static final String GC_MIN_FREE_BLOCKS_PER_WAY_DEFAULT = "2";

  // In-storage processing. Set by the profile: the cores and their clock, the controller's clock, the
  // modelled host's clock, the device DRAM's bandwidth and a lane's memory.
  // Active Flash: analysis attached to data as it is written, idle time, and garbage collection in it.
  public static final String ACTIVE_BUFFER_BYTES = "smartssd.device.active.buffer-bytes";
  public static final String ACTIVE_BUFFER_BYTES_DEFAULT = "16777216";
  public static final String ACTIVE_IDLE_AFTER_MS = "smartssd.device.active.idle-after-ms";
  public static final String ACTIVE_IDLE_AFTER_MS_DEFAULT = "5";
  public static final String ACTIVE_IDLE_GC = "smartssd.device.active.idle-gc";
  public static final String ACTIVE_IDLE_GC_DEFAULT = "false";
  public static final String ACTIVE_IDLE_GC_THRESHOLD = "smartssd.device.active.idle-gc-threshold";
  public static final String ACTIVE_IDLE_GC_THRESHOLD_DEFAULT = "0.9";

  public static final String ISP_CORES = "smartssd.device.isp.cores";
  public static final String ISP_CORE_MHZ = "smartssd.device.isp.core-mhz";
  public static final String ISP_CONTROLLER_MHZ = "smartssd.device.isp.controller-mhz";
  public static final String ISP_HOST_MHZ = "smartssd.device.isp.host-mhz";
  /** 0 means unbounded. */
  public static final String ISP_LANE_MEMORY_BYTES = "smartssd.device.isp.lane-memory-bytes";

  public static final String ISP_COMPUTE_MODEL = "smartssd.device.isp.compute-model";
  public static final String ISP_COMPUTE_MODEL_DEFAULT = "counted";

  public static final String ISP_CYCLES_PER_BYTE = "smartssd.device.isp.cycles-per-byte";
  public static final String ISP_CYCLES_PER_BYTE_DEFAULT = "4";

  // The cost of counted work (compute-model counted) on a device core and on the host's CPU.
  public static final String ISP_CYCLES_PER_OP = "smartssd.device.isp.cycles-per-op";
  public static final String ISP_CYCLES_PER_OP_DEFAULT = "1";

  public static final String ISP_DRAM_ACCESS_NS = "smartssd.device.isp.dram-access-ns";
  public static final String ISP_DRAM_ACCESS_NS_DEFAULT = "41.25";

  public static final String ISP_MEMORY_PRICING = "smartssd.device.isp.memory-pricing";
  public static final String ISP_MEMORY_PRICING_DEFAULT = "calibrated";

  public static final String ISP_CACHES = "smartssd.device.isp.caches";
  public static final String ISP_CACHES_DEFAULT = "none";

  public static final String ISP_L1_MISS_NS = "smartssd.device.isp.l1-miss-ns";
  public static final String ISP_L1_MISS_NS_DEFAULT = "41.25";

  // Set by the profile.
  public static final String ISP_DRAM_MB_PER_S = "smartssd.device.isp.dram-mb-per-s";

  public static final String ISP_LIBRARY_CALL_OPS = "smartssd.device.isp.library-call-ops";
  public static final String ISP_LIBRARY_CALL_OPS_DEFAULT = "24";

  public static final String HOST_CPU_CYCLES_PER_OP = "smartssd.device.host-cpu.cycles-per-op";
  public static final String HOST_CPU_CYCLES_PER_OP_DEFAULT = "0.17";

  public static final String HOST_CPU_MEMORY_ACCESS_NS = "smartssd.device.host-cpu.memory-access-ns";
  public static final String HOST_CPU_MEMORY_ACCESS_NS_DEFAULT = "0";

  public static final String HOST_CPU_COPY_MB_PER_S = "smartssd.device.host-cpu.copy-mb-per-s";
  public static final String HOST_CPU_COPY_MB_PER_S_DEFAULT = "53000";

  public static final String HOST_CPU_CORES = "smartssd.device.host-cpu.cores";
  public static final String HOST_CPU_CORES_DEFAULT = "1";

  public static final String ISP_MERGE = "smartssd.device.isp.merge";
  public static final String ISP_MERGE_DEFAULT = "host";

  public static final String ISP_THREADS = "smartssd.device.isp.threads";
  public static final String ISP_THREADS_DEFAULT = "0";

  public static final String ISP_READ_REQUEST_PAGES = "smartssd.device.isp.read-request-pages";
  public static final String ISP_READ_REQUEST_PAGES_DEFAULT = "8";

  public static final String ISP_INTERNAL_READ_PRIORITY = "smartssd.device.isp.internal-read-priority";
  public static final String ISP_INTERNAL_READ_PRIORITY_DEFAULT = "low";

  public static final String ISP_LANE_BUFFER_BYTES = "smartssd.device.isp.lane-buffer-bytes";
  public static final String ISP_LANE_BUFFER_BYTES_DEFAULT = "1048576";

  public static final String ISP_OUTPUT_BUDGET_BYTES = "smartssd.device.isp.output-budget-bytes";
  public static final String ISP_OUTPUT_BUDGET_BYTES_DEFAULT = "268435456";

  public static final String ISP_MEMORY_BUDGET_BYTES = "smartssd.device.isp.memory-budget-bytes";
  public static final String ISP_MEMORY_BUDGET_BYTES_DEFAULT = "67108864";

  public static final String ISP_TIME_LIMIT_MS = "smartssd.device.isp.time-limit-ms";
  public static final String ISP_TIME_LIMIT_MS_DEFAULT = "600000";

  public static final String ISP_MAX_EXECUTIONS = "smartssd.device.isp.max-executions";
  public static final String ISP_MAX_EXECUTIONS_DEFAULT = "16";

  /** Half the device's executions: no one connection can take every slot. */
  public static final String ISP_MAX_EXECUTIONS_PER_CONNECTION = "smartssd.device.isp.max-executions-per-connection";
  public static final String ISP_MAX_EXECUTIONS_PER_CONNECTION_DEFAULT = "8";

  /** Tasklets also go when the connection that installed them ends. */
  public static final String ISP_MAX_TASKLETS = "smartssd.device.isp.max-tasklets";
  public static final String ISP_MAX_TASKLETS_DEFAULT = "1024";

  public static final String ISP_MAX_RECORD_BYTES = "smartssd.device.isp.max-record-bytes";
  public static final String ISP_MAX_RECORD_BYTES_DEFAULT = "1048576";

  public static final String ISP_CODE_CACHE_BYTES = "smartssd.device.isp.code-cache-bytes";
  public static final String ISP_CODE_CACHE_BYTES_DEFAULT = "67108864";

  public static final String ISP_LOADED_CODE_ENTRIES = "smartssd.device.isp.loaded-code-entries";
  public static final String ISP_LOADED_CODE_ENTRIES_DEFAULT = "16";

  public static final String ISP_SHARED_PACKAGES = "smartssd.device.isp.shared-packages";
  /**
   * The tasklet API, Hadoop's packages and the device mapper's MapReduce runtime: tasklet code reaches
   * only what the allow list lets it of them (TaskletSandbox), so a device runs MapReduce tasklets
   * wherever Hadoop and the runtime are on its class path (and refuses them, saying why, where not).
   */
  public static final String ISP_SHARED_PACKAGES_DEFAULT =
      "org.smartssd.device.tasklet.,org.apache.hadoop.,org.smartssd.devicemapper.tasklet.,org.smartssd.devicemapper.wire.";

  // Energy. The device's and the host's powers are set by the profile (Kang et al. measured 35-40 W for
  // the host, 0.9-1.2 W for the Smart SSD); the flash's and the link's come from datasheets, the same
  // for every profile.
  public static final String ENERGY_DEVICE_ACTIVE_W = "smartssd.device.energy.device-active-w";
  public static final String ENERGY_DEVICE_IDLE_W = "smartssd.device.energy.device-idle-w";
  public static final String ENERGY_HOST_ACTIVE_W = "smartssd.device.energy.host-active-w";
  public static final String ENERGY_HOST_IDLE_W = "smartssd.device.energy.host-idle-w";
  public static final String ENERGY_FLASH_VOLTS = "smartssd.device.energy.flash-volts";
  public static final String ENERGY_FLASH_VOLTS_DEFAULT = "3.3";
  public static final String ENERGY_FLASH_MA = "smartssd.device.energy.flash-ma";
  public static final String ENERGY_FLASH_MA_DEFAULT = "10";
  public static final String ENERGY_LINK_PJ_PER_BIT = "smartssd.device.energy.link-pj-per-bit";
  public static final String ENERGY_LINK_PJ_PER_BIT_DEFAULT = "1.4";

  private static final String CHOICE = "choice";

  private static final List<ConfigKey> ALL = List.of(
      key(PROFILE, PROFILE_DEFAULT, "name",
          "named parameter set (the flash, the host link, the device's cores and their memory, the modelled host's clock, the powers): "
              + String.join(", ", Profiles.names())),
      key(DEVICE_NAME, DEVICE_NAME_DEFAULT, "name",
          "the device's name in logs and device info; empty means the local host name"),
      key(DATA_DIR, DATA_DIR_DEFAULT, "path", "directory of the flash backing files and the metadata"),
      key(HOST_BIND_ADDRESS, HOST_BIND_ADDRESS_DEFAULT, "address", "address the host interface listens on"),
      key(HOST_PORT, HOST_PORT_DEFAULT, "port", "TCP port of the host interface; 0 means any free port"),
      key(HOST_UNIX_SOCKET, HOST_UNIX_SOCKET_DEFAULT, "path",
          "absolute path of a Unix domain socket the host interface also listens on, created at start (replacing one left by a device that was killed) and removed at stop; empty means none"),
      key(HOST_SECRET_FILE, HOST_SECRET_FILE_DEFAULT, "path",
          "file holding the secret every connection must prove it holds before it is served (readable by its owner only; make one with `smartssd secret FILE`); empty means none, allowed only with a loopback bind address"),
      key(HOST_MAX_FRAME_BYTES, HOST_MAX_FRAME_BYTES_DEFAULT, "bytes", "largest frame payload accepted (at least 1024)"),
      key(HOST_WORKER_THREADS, HOST_WORKER_THREADS_DEFAULT, "threads", "threads executing commands"),
      key(HOST_MAX_CONNECTIONS, HOST_MAX_CONNECTIONS_DEFAULT, "connections",
          "connections served at once (over TCP and the Unix socket together); one more is closed at once, with a warning in the log"),
      key(HOST_IO_TIMEOUT_MS, HOST_IO_TIMEOUT_MS_DEFAULT, "ms",
          "a connection that leaves an answer unread, or a frame it started unfinished, for this long is closed (that connection only)"),
      key(HOST_IDLE_TIMEOUT_MS, HOST_IDLE_TIMEOUT_MS_DEFAULT, "ms",
          "a connection that sends nothing for this long while it holds nothing (no command in progress, no open file, no tasklet or execution of its own) is closed; 0 means never"),
      key(HOST_FRAME_MEMORY_BYTES, HOST_FRAME_MEMORY_BYTES_DEFAULT, "bytes",
          "request frame bytes held at once over all connections (at least `host.max-frame-bytes`); a frame waits for room up to `host.io-timeout-ms`, then is answered `BUSY` and its connection closed"),
      key(PACE, PACE_DEFAULT, "boolean", "hold each answer until its modelled completion"),
      profileKey(FLASH_CHANNELS, "channels", "flash channels (buses), read in parallel"),
      profileKey(FLASH_WAYS_PER_CHANNEL, "ways", "ways (dies) on each channel; cell operations overlap across them"),
      profileKey(FLASH_BLOCKS_PER_WAY, "blocks", "erase blocks in each way"),
      profileKey(FLASH_PAGES_PER_BLOCK, "pages", "pages in each erase block"),
      profileKey(FLASH_PAGE_SIZE_BYTES, "bytes", "size of a flash page"),
      key(FLASH_STRIPE_UNIT_PAGES, FLASH_STRIPE_UNIT_PAGES_DEFAULT, "pages",
          "pages of an object placed on one channel before the next"),
      key(FLASH_OVERPROVISIONING_PERCENT, FLASH_OVERPROVISIONING_PERCENT_DEFAULT, "percent",
          "share of the raw capacity hidden from the host, kept for garbage collection (0 to 50)"),
      key(FLASH_RECLAIM_SPACE, FLASH_RECLAIM_SPACE_DEFAULT, "boolean",
          "give the disk space of erased flash blocks, and of pages whose data was deleted or rewritten, back to the file system by punching holes in the backing files (Linux fallocate, through the device's native library), so that disk use follows live data; where that cannot work the device says why at start and in device stats; false keeps the bytes (disk use then grows with the bytes written)"),
      profileKey(FLASH_CELL_READ_NS, "ns", "time to read a page from the cells into the die's register"),
      profileKey(FLASH_CELL_PROGRAM_NS, "ns", "time to program a page from the die's register into the cells"),
      profileKey(FLASH_BLOCK_ERASE_NS, "ns", "time to erase a block"),
      profileKey(FLASH_CHANNEL_MB_PER_S, "MB/s", "bus bandwidth of one channel, decimal MB (10^6 bytes) per second"),
      profileKey(LINK_MB_PER_S, "MB/s", "host link bandwidth, decimal MB (10^6 bytes) per second, each way"),
      profileKey(LINK_COMMAND_NS, "ns", "fixed cost of a command on the host interface, besides its data"),
      key(META_ACCESS_TIME_PRECISION_MS, META_ACCESS_TIME_PRECISION_MS_DEFAULT, "ms",
          "opening a file, or reading it in an execution, sets its access time when it is older than this (journalled: at most one write a file this often); 0 keeps access times as they were created or set"),
      key(PERMISSIONS_ENABLED, PERMISSIONS_ENABLED_DEFAULT, "boolean",
          "check every command against the owner, group and permission of what it touches, for the user its connection identified as (PROTOCOL.md, \"Users and permissions\"); false keeps them without checking"),
      key(PERMISSIONS_SUPERUSERGROUP, PERMISSIONS_SUPERUSERGROUP_DEFAULT, "group",
          "members of this group pass every permission check, as the user the device runs as does; also the group of the root and of what a data directory from before permissions held"),
      key(META_CHECKPOINT_LOG_BYTES, META_CHECKPOINT_LOG_BYTES_DEFAULT, "bytes",
          "metadata journal size that triggers a checkpoint"),
      key(GC_MIN_FREE_BLOCKS_PER_WAY, GC_MIN_FREE_BLOCKS_PER_WAY_DEFAULT, "blocks",
          "garbage collection starts when a way has fewer free blocks than this"),
      profileKey(ISP_CORES, "cores", "device cores running tasklets; channel c is served by core c mod cores (one lane each)"),
      profileKey(ISP_CORE_MHZ, "MHz", "clock of a device core"),
      profileKey(ISP_CONTROLLER_MHZ, "MHz",
          "clock of the controller core that merges lanes' results when isp.merge is device (the iSSD's SSD core)"),
      profileKey(ISP_HOST_MHZ, "MHz",
          "clock of the modelled host CPU, which runs the host's counted work; with compute-model measured, the lanes' CPU time is scaled by host-mhz / core-mhz"),
      profileKey(ISP_LANE_MEMORY_BYTES, "bytes",
          "memory of a lane (a channel core's channel memory, the iSSD's M_ch), for its function's state; 0 means unbounded. Only the analytic model reads it (the swap term, the iSSD's Eq. 9): the simulator bounds no lane's memory"),
      key(ISP_COMPUTE_MODEL, ISP_COMPUTE_MODEL_DEFAULT, "counted|measured|cycles",
          "modelled compute: counted (the bytecode instructions the tasklet's code and the libraries it uses execute, by kind, priced by the core's parameters below: the same input gives the same time on any machine), measured (the lanes' CPU time on this machine, scaled by host-mhz / core-mhz: depends on the machine and its load), or cycles (cycles-per-byte for every tasklet)"),
      key(ISP_CYCLES_PER_BYTE, ISP_CYCLES_PER_BYTE_DEFAULT, "cycles/byte",
          "device-core cycles per input byte read, with compute-model cycles"),
      new ConfigKey(ISP_CYCLES_PER_OP, ISP_CYCLES_PER_OP_DEFAULT, "cycles",
          "device-core cycles per counted bytecode instruction (compute-model counted; the iSSD's Eq. 13: time = CPI x instructions / clock)",
          "choice: one cycle an instruction, one bytecode taken as one instruction (J-RAF2's portable measure of work, Binder, Hulaas et al.): no sustained CPI of the profiles' in-order embedded cores (the MDX's Cortex-R4, the Cortex-A9, the Cortex-R82) is published; the calibration (bench/memory-calibration) finds the JIT's x86 code 0.34 to 0.60 instructions a counted op on the kernels without library calls"),
      new ConfigKey(ISP_DRAM_ACCESS_NS, ISP_DRAM_ACCESS_NS_DEFAULT, "ns",
          "extra time of each heap access (field, static or array load or store, allocation) on a device core: the device DRAM's latency, paid in full because the cores have no caches",
          "source: JEDEC JESD79-3 DDR3-1600K speed bin: tRP + tRCD + CL = 3 x 13.75 ns for an access to a closed row; Kang et al. (MSST 2013): the Smart SSD's cores lack caches and its DRAM latency is high"),
      key(ISP_MEMORY_PRICING, ISP_MEMORY_PRICING_DEFAULT, "calibrated|per-access|host-cpi",
          "how a device core's counted work is priced (compute-model counted): calibrated, its heap accesses as the JIT's compiled code touches memory under callgrind (bench/memory-calibration): without caches each costs 0.70 x dram-access-ns (the data reads of a counted access, stack included; stores retire into a write buffer), with caches=l1 each costs 0.125 x l1-miss-ns (the reads that miss a 32 KiB L1); per-access, the rule before issue 32: each costs dram-access-ns without caches, nothing with them; host-cpi, the iSSD's Eq. 13: the host's cycles-per-op and memory-access-ns for the same counted work, at the device core's clock (cycles-per-op, dram-access-ns and caches unused)"),
      key(ISP_CACHES, ISP_CACHES_DEFAULT, "none|l1",
          "the device core's data caches: none (the Smart SSD's cores, Kang et al., MSST 2013: every read goes to DRAM) or l1 (a level-1 data cache, priced with the miss rate of a 32 KiB 4-way cache of 32-byte lines, the Cortex-A9's, under callgrind; its misses cost l1-miss-ns)"),
      new ConfigKey(ISP_L1_MISS_NS, ISP_L1_MISS_NS_DEFAULT, "ns",
          "extra time of a read that misses the device core's L1 data cache, with caches l1 (the next level's latency: an L2's, or the DRAM's where there is none)",
          "choice: the DRAM's latency of dram-access-ns, for a core whose L1 misses go to DRAM; a profile with an L2 sets its latency"),
      profileKey(ISP_DRAM_MB_PER_S, "MB/s",
          "bandwidth of the device's DRAM for bulk copies and array zeroing on a device core (compute-model counted)"),
      new ConfigKey(ISP_LIBRARY_CALL_OPS, ISP_LIBRARY_CALL_OPS_DEFAULT, "ops",
          "counted ops that a call into uncounted code (the Java platform's, libraries outside the shared packages) stands for, on the device's cores and on the host's",
          "calibration: smartssd calibrate host (2026-11-24, the development machine, the median of four runs: 22.5 to 24.4): a library call's time over an op's"),
      new ConfigKey(HOST_CPU_CYCLES_PER_OP, HOST_CPU_CYCLES_PER_OP_DEFAULT, "cycles",
          "host CPU cycles per counted bytecode instruction, heap accesses served by its caches (the host's counted work: map, sort and spill, combine, reduce)",
          "calibration: smartssd calibrate host (2026-11-24, the development machine, 2596 MHz, the median of four runs: 0.169 to 0.178): the fitted time of an op times the clock"),
      new ConfigKey(HOST_CPU_MEMORY_ACCESS_NS, HOST_CPU_MEMORY_ACCESS_NS_DEFAULT, "ns",
          "extra time of each heap access on the host CPU",
          "choice: a host's caches serve its heap accesses, so their cost is in cycles-per-op (in every kernel of smartssd calibrate host they move with the ops, and a fit cannot tell the two apart)"),
      new ConfigKey(HOST_CPU_COPY_MB_PER_S, HOST_CPU_COPY_MB_PER_S_DEFAULT, "MB/s",
          "bandwidth of bulk copies and array zeroing on the host CPU",
          "calibration: smartssd calibrate host (2026-11-24, the development machine, the median of four runs: 47,700 to 58,700)"),
      new ConfigKey(HOST_CPU_CORES, HOST_CPU_CORES_DEFAULT, "cores",
          "host CPU cores sharing the host's counted work (its modelled compute time is the work's time on one core divided by this)",
          "choice: a map task's one core: Hadoop 2 and later give a map task one virtual core (mapreduce.map.cpu.vcores, default 1); the sources do not say how many cores their hosts' jobs used (the iSSD's Eq. 6 adds a host's function times on one CPU)"),
      key(ISP_MERGE, ISP_MERGE_DEFAULT, "host|device",
          "where lanes' partial results are merged: sent to the host (the Smart SSD's design) or merged on the controller core first (the iSSD's)"),
      key(ISP_THREADS, ISP_THREADS_DEFAULT, "threads",
          "machine threads running one execution's lanes; 0 means the number of processors"),
      key(ISP_READ_REQUEST_PAGES, ISP_READ_REQUEST_PAGES_DEFAULT, "pages",
          "pages of one channel in an internal read request; one page while host operations are booked on the channel (on the modelled clock)"),
      new ConfigKey(ISP_INTERNAL_READ_PRIORITY, ISP_INTERNAL_READ_PRIORITY_DEFAULT, "low|equal",
          "how executions' internal reads share the channels and ways with host operations, on the modelled clock: low, they yield (a host operation waits only for the internal read in progress and goes before the others); equal, first come first served (host operations wait behind every internal read booked before them)",
          "source: Kang et al., MSST 2013: internal read requests have a lower priority than normal reads (low); equal is the blocking device the Cognitive SSD compares against (Liang et al., Table 2)"),
      key(ISP_LANE_BUFFER_BYTES, ISP_LANE_BUFFER_BYTES_DEFAULT, "bytes",
          "results a lane may hold before it waits for the host to read them (back-pressure)"),
      key(ISP_OUTPUT_BUDGET_BYTES, ISP_OUTPUT_BUDGET_BYTES_DEFAULT, "bytes",
          "results an execution may produce in all; past it the execution fails"),
      key(ISP_MEMORY_BUDGET_BYTES, ISP_MEMORY_BUDGET_BYTES_DEFAULT, "bytes",
          "heap a tasklet may allocate in one event; past it the execution fails"),
      key(ISP_TIME_LIMIT_MS, ISP_TIME_LIMIT_MS_DEFAULT, "ms",
          "wall-clock time an execution may run; past it the execution fails and its lanes are stopped. A host may ask for less (the execution option `time-limit-ms`), never more: a larger one is refused with BAD_REQUEST"),
      key(ISP_MAX_EXECUTIONS, ISP_MAX_EXECUTIONS_DEFAULT, "executions",
          "executions running at once; more are refused with BUSY"),
      key(ISP_MAX_EXECUTIONS_PER_CONNECTION, ISP_MAX_EXECUTIONS_PER_CONNECTION_DEFAULT, "executions",
          "executions one connection may have running at once; more are refused with BUSY"),
      key(ISP_MAX_TASKLETS, ISP_MAX_TASKLETS_DEFAULT, "tasklets",
          "tasklets installed at once; more are refused with BUSY. A tasklet is removed by REMOVE_OBJECT or when the connection that installed it ends"),
      key(ISP_MAX_RECORD_BYTES, ISP_MAX_RECORD_BYTES_DEFAULT, "bytes",
          "longest delimited record a tasklet may get; a longer one fails the execution"),
      key(ISP_CODE_CACHE_BYTES, ISP_CODE_CACHE_BYTES_DEFAULT, "bytes",
          "tasklet jars kept by SHA-256 so that a host installs the same code again without sending it (least recently used go first; 0: none)"),
      key(ISP_LOADED_CODE_ENTRIES, ISP_LOADED_CODE_ENTRIES_DEFAULT, "tasklets",
          "tasklets whose loaded classes are kept by their jar's SHA-256 and class name, so that installing the same code again reuses its classes and the machine code the JVM compiled for them (their static fields keep their values, as in a reused JVM); a failed or stopped execution drops its tasklet's; least recently used go first; 0: load the classes anew at every install"),
      new ConfigKey(ACTIVE_BUFFER_BYTES, ACTIVE_BUFFER_BYTES_DEFAULT, "bytes",
          "the device DRAM that holds pages written under an attached analysis (EXECUTE_OBJECT option attach=write) until the analysis has taken them; when it is full, the attachment's overflow policy decides: the writer waits, or the pages are left on flash for idle time",
          "choice: 16 MiB; Boboila et al. (Active Flash) give no size for the SSD-resident DRAM (their controller board had 1 GB); a page is the least"),
      new ConfigKey(ACTIVE_IDLE_AFTER_MS, ACTIVE_IDLE_AFTER_MS_DEFAULT, "ms",
          "the device is idle once no host command has arrived or been completing for this long on the modelled clock; then it analyses deferred pages, and collects garbage if active.idle-gc says so",
          "choice: the slides give no idle detector; 5 ms is longer than any single flash operation of the profiles (a block erase: 3 ms in every profile), so that a gap inside one command's work is never taken for idleness"),
      key(ACTIVE_IDLE_GC, ACTIVE_IDLE_GC_DEFAULT, "boolean",
          "collect garbage in idle time (when no deferred analysis is left) while the free flash is under active.idle-gc-threshold of the reserved space; false leaves garbage collection to writes that run short of erased blocks"),
      new ConfigKey(ACTIVE_IDLE_GC_THRESHOLD, ACTIVE_IDLE_GC_THRESHOLD_DEFAULT, "fraction",
          "idle-time garbage collection runs while the free pages (erased ones that writes can take before garbage collection must run in the foreground: above the gc.min-free-blocks-per-way every way keeps) are fewer than this fraction of the reserved (over-provisioned) pages",
          "source: Boboila et al., Active Flash, simulator parameters: GC-idle threshold (fraction of reserved space) 0.9"),
      key(ISP_SHARED_PACKAGES, ISP_SHARED_PACKAGES_DEFAULT, "package prefixes",
          "comma-separated package prefixes of the device's own classes that tasklet code may see (and use only as the device's allow list lets it); the device mapper's runtime among them runs MapReduce tasklets"),
      profileKey(ENERGY_DEVICE_ACTIVE_W, "W",
          "modelled power of the device with all its cores busy; each busy core adds (active - idle) / cores to the idle power"),
      profileKey(ENERGY_DEVICE_IDLE_W, "W", "modelled power of the idle device, drawn for the whole of a run"),
      profileKey(ENERGY_HOST_ACTIVE_W, "W",
          "modelled power of the host while all its cores compute; each busy core adds (active - idle) / host-cpu.cores"),
      profileKey(ENERGY_HOST_IDLE_W, "W", "modelled power of the host while it waits, drawn for the whole of a run"),
      new ConfigKey(ENERGY_FLASH_VOLTS, ENERGY_FLASH_VOLTS_DEFAULT, "V",
          "supply voltage of the flash chips; a page read, a page program and a block erase each cost volts x flash-ma x the operation's time (flash.cell-read-ns, cell-program-ns, block-erase-ns)",
          "source: Numonyx NAND01G-B2B / NAND02G-B2C datasheet, 3 V devices (2.7 to 3.6 V)"),
      new ConfigKey(ENERGY_FLASH_MA, ENERGY_FLASH_MA_DEFAULT, "mA",
          "active current of a flash chip during a read, program or erase",
          "source: Numonyx NAND01G-B2B / NAND02G-B2C datasheet, Table 23 (3 V devices): read, program and erase operating current 10 mA typical"),
      new ConfigKey(ENERGY_LINK_PJ_PER_BIT, ENERGY_LINK_PJ_PER_BIT_DEFAULT, "pJ/bit",
          "energy of moving one bit over the host link",
          "source: IBM Research, \"A 1.4-pJ/b, power-scalable 16x12-Gb/s source-synchronous I/O with DFE receiver in 32nm SOI CMOS technology\""));

  private DeviceConfigKeys() {}

  /** Every key, in the order of the README's table. */
  public static List<ConfigKey> all() {
    return ALL;
  }

  /** The key of that name, or {@code null}. */
  static ConfigKey find(String name) {
    for (ConfigKey key : ALL) {
      if (key.name().equals(name)) {
        return key;
      }
    }
    return null;
  }

  private static ConfigKey key(String name, String defaultValue, String unit, String description) {
    return new ConfigKey(name, defaultValue, unit, description, CHOICE);
  }

  private static ConfigKey profileKey(String name, String unit, String description) {
    return new ConfigKey(name, Profiles.parameters(PROFILE_DEFAULT).get(name), unit,
        description + " (set by the profile)", Profiles.sources(PROFILE_DEFAULT).get(name));
  }
}
