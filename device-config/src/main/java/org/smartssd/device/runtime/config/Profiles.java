package org.smartssd.device.runtime.config;

import static org.smartssd.device.runtime.config.DeviceConfigKeys.ENERGY_DEVICE_ACTIVE_W;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ENERGY_DEVICE_IDLE_W;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ENERGY_HOST_ACTIVE_W;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ENERGY_HOST_IDLE_W;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_BLOCKS_PER_WAY;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_BLOCK_ERASE_NS;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_CELL_PROGRAM_NS;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_CELL_READ_NS;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_CHANNELS;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_CHANNEL_MB_PER_S;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_PAGES_PER_BLOCK;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_PAGE_SIZE_BYTES;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.FLASH_WAYS_PER_CHANNEL;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.LINK_COMMAND_NS;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_CONTROLLER_MHZ;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_CORES;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_CACHES;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_CYCLES_PER_OP;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_DRAM_ACCESS_NS;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_CORE_MHZ;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_DRAM_MB_PER_S;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_HOST_MHZ;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_L1_MISS_NS;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_LANE_MEMORY_BYTES;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_MEMORY_PRICING;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.LINK_MB_PER_S;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Named parameter sets: the flash, the host link, the device's cores and their memory, the modelled
 * host's clock, and the device's and the host's powers. Every value carries a note saying whether it is
 * a source's ("source: " and the citation) or ours ("choice: " and why). A profile whose source gives
 * no figure for a key keeps the key's default (the default profile's value), and its note says so
 * ("choice: the key's default, ...").
 */
public final class Profiles {

  public static final String MSST13_SATA = "msst13-sata";
  public static final String ISSD_CURRENT = "issd-current";
  public static final String ISSD_FUTURE = "issd-future";
  public static final String XSD = "xsd";
  public static final String NVME_GEN4 = "nvme-gen4";
  public static final String ACTIVE_FLASH = "active-flash";

  /** The keys every profile sets; the others come from key defaults or overrides. */
  public static final List<String> PROFILE_KEYS = List.of(
      FLASH_CHANNELS, FLASH_WAYS_PER_CHANNEL, FLASH_BLOCKS_PER_WAY, FLASH_PAGES_PER_BLOCK,
      FLASH_PAGE_SIZE_BYTES, FLASH_CELL_READ_NS, FLASH_CELL_PROGRAM_NS, FLASH_BLOCK_ERASE_NS,
      FLASH_CHANNEL_MB_PER_S, LINK_MB_PER_S, LINK_COMMAND_NS, ISP_CORES, ISP_CORE_MHZ,
      ISP_CONTROLLER_MHZ, ISP_HOST_MHZ, ISP_DRAM_MB_PER_S, ISP_LANE_MEMORY_BYTES,
      ENERGY_DEVICE_ACTIVE_W, ENERGY_DEVICE_IDLE_W, ENERGY_HOST_ACTIVE_W, ENERGY_HOST_IDLE_W);

  /**
   * Keys a profile may set besides {@link #PROFILE_KEYS}: what counted work costs on its cores. A profile
   * that does not set them has the keys' defaults (a single-issue core without caches, the Smart SSD's,
   * priced by the memory calibration).
   */
  public static final List<String> OPTIONAL_KEYS = List.of(ISP_CYCLES_PER_OP, ISP_DRAM_ACCESS_NS, ISP_MEMORY_PRICING,
      ISP_CACHES, ISP_L1_MISS_NS);

  /**
   * The defaults of {@link #OPTIONAL_KEYS}, for {@code keep} (compile-time constants: DeviceConfigKeys's
   * own table is built from these profiles, so it cannot be read while they are).
   */
  private static final Map<String, String> OPTIONAL_DEFAULTS = Map.of(
      ISP_CYCLES_PER_OP, DeviceConfigKeys.ISP_CYCLES_PER_OP_DEFAULT,
      ISP_DRAM_ACCESS_NS, DeviceConfigKeys.ISP_DRAM_ACCESS_NS_DEFAULT,
      ISP_MEMORY_PRICING, DeviceConfigKeys.ISP_MEMORY_PRICING_DEFAULT,
      ISP_CACHES, DeviceConfigKeys.ISP_CACHES_DEFAULT,
      ISP_L1_MISS_NS, DeviceConfigKeys.ISP_L1_MISS_NS_DEFAULT);

  /** The value of {@link DeviceConfigKeys#ISP_LANE_MEMORY_BYTES} that means unbounded. */
  public static final String UNBOUNDED = "0";

  private static final String MSST13_PAPER = "Kang et al., MSST 2013";
  private static final String MSST13 = "source: " + MSST13_PAPER;
  private static final String ISSD_T1 = "source: Bae et al., iSSD, Table 1";
  private static final String ISSD_T5 = "source: Bae et al., iSSD, Table 5";
  private static final String XSD_T3 = "source: Cho et al., XSD, Table III";
  private static final String AF_PLATFORM = "source: Boboila et al., Active Flash, its experimental platforms";
  /** What the choices below share, so that each note says it the same way. */
  private static final String NO_ERASE = "choice: none of the sources gives a block erase time (3 ms in every profile)";
  private static final String NO_COMMAND = "choice: none of the sources gives a per-command cost";
  private static final String NO_BLOCK = "choice: none of the sources gives pages per block (128 pages: 1 MiB blocks of"
      + " 8 KiB pages)";
  private static final String XSD_NO_FLASH = "choice: the XSD gives none (its flash model is its reference [2]'s, of"
      + " which its Table III restates only the channels and the bandwidth)";
  private static final String ISSD_HOST = "the iSSD's host CPU (Bae et al., Table 5: 2.5 GHz)";
  private static final String AF_NO_FLASH = "as msst13-sata: Active Flash's slides give no flash or link figures (its"
      + " flash was the Microsoft Research SSD simulator's)";
  private static final String XSD_DRAM = "the XSD's DRAM bandwidth (Cho et al., Table III: 3.2 GB/s)";
  private static final String KANG_POWER = "the Smart SSD prototype's measured power (Kang et al., MSST 2013)";
  /** Arm's Cortex-R82 announcement. */
  private static final String R82 = "source: Arm, Cortex-R82 announcement (September 2020, as reported by LinuxGizmos,"
      + " \"Cortex-R82 runs 64-bit Linux with up to 1TB RAM\")";
  /** Samsung's SATA controller of 2012 (SSD 840 and 840 Pro), the Smart SSD prototype's time. */
  private static final String MDX = "source: X-bit labs, Samsung 840 Pro review (2012), and AnandTech, article 7152"
      + " (2013): Samsung's MDX controller of the SSD 840 and 840 Pro, three ARM Cortex-R4 cores at 300 MHz; the"
      + " Smart SSD prototype (Kang et al., MSST 2013) names no controller, only \"a real SATA-based SSD\" of"
      + " Samsung's, whose SATA controller of 2012 this is (the MEX of July 2013, at 400 MHz, came after it)";

  private static final Map<String, Profile> PROFILES = build();

  private Profiles() {}

  /** Profile names, the default ({@value #MSST13_SATA}) first. */
  public static Set<String> names() {
    return PROFILES.keySet();
  }

  /** Key to value for every key in {@link #PROFILE_KEYS}, and for those of {@link #OPTIONAL_KEYS} the profile sets. */
  public static Map<String, String> parameters(String name) {
    return profile(name).values;
  }

  /** Key to "source: ..." or "choice: ..." for every value of {@link #parameters}. */
  public static Map<String, String> sources(String name) {
    return profile(name).sources;
  }

  /** One line saying what the profile models. */
  public static String description(String name) {
    return profile(name).description;
  }

  private static Profile profile(String name) {
    Profile profile = PROFILES.get(name);
    if (profile == null) {
      throw new ConfigException("unknown profile '" + name + "'; known profiles: " + String.join(", ", names()));
    }
    return profile;
  }

  private static Map<String, Profile> build() {
    Map<String, Profile> all = new LinkedHashMap<>();

    // The source's prototype: SATA 3 Gb/s, internal reads 1.6 times the link; its power and its host's.
    Profile msst13 = new Builder("Kang et al., MSST 2013: the Smart SSD prototype on SATA", null)
        .set(LINK_MB_PER_S, "250", MSST13 + " (SATA 3 Gb/s); 250 MB/s as in iSSD Table 1 (SATA 3G)")
        // 8 x 50 MB/s = 400 MB/s = 1.6 x 250 MB/s, the source's internal-to-link ratio.
        .set(FLASH_CHANNELS, "8", "choice: 8 x 50 MB/s = 1.6 x the link, the ratio of " + MSST13_PAPER)
        .set(FLASH_CHANNEL_MB_PER_S, "50", "choice: 8 x 50 MB/s = 1.6 x the link, the ratio of " + MSST13_PAPER)
        .set(FLASH_WAYS_PER_CHANNEL, "4", "choice: the source gives none; with 4 the cell reads overlap behind the"
            + " bus, so the channel's bus (the source's 1.6 ratio) bounds its reads")
        .set(FLASH_PAGE_SIZE_BYTES, "8192", "choice: the source gives none; the iSSD's 8 KiB (Bae et al., Table 5)")
        .set(FLASH_PAGES_PER_BLOCK, "128", NO_BLOCK)
        .set(FLASH_BLOCKS_PER_WAY, "1024", "choice: 32 GiB raw")
        .set(ISP_CORES, "3", "choice: all three of the controller's cores (" + MDX.substring("source: ".length())
            + "); no source says how many the firmware leaves to tasklets. The slides suggest \"application"
            + " processors\" for background work in a future Smart SSD, so tasklets shared the firmware's cores; the"
            + " model charges no compute to the firmware, so three is an upper bound on the tasklets' compute")
        .set(ISP_CORE_MHZ, "300", MDX)
        .set(FLASH_CELL_READ_NS, "50000", "choice: the source gives none; the iSSD's (Bae et al., Table 5)")
        .set(FLASH_CELL_PROGRAM_NS, "1200000", "choice: the source gives none; the iSSD's (Bae et al., Table 5)")
        .set(FLASH_BLOCK_ERASE_NS, "3000000", NO_ERASE)
        .set(LINK_COMMAND_NS, "20000", NO_COMMAND + " (20 us for a SATA link)")
        .set(ISP_CONTROLLER_MHZ, "300", MDX + "; the controller core is one of them")
        .set(ISP_HOST_MHZ, "2500", "choice: the source gives no host clock; " + ISSD_HOST)
        .set(ISP_DRAM_MB_PER_S, "3200", "choice: the source gives no DRAM bandwidth (only that its latency is high); "
            + XSD_DRAM)
        .set(ISP_LANE_MEMORY_BYTES, UNBOUNDED, "choice: unbounded: the source gives no memory a core (its cores share"
            + " the device's DRAM)")
        .set(ENERGY_DEVICE_ACTIVE_W, "1.2", MSST13 + ": the Smart SSD drew 0.9 to 1.2 W (the upper end taken as all"
            + " cores busy)")
        .set(ENERGY_DEVICE_IDLE_W, "0.9", MSST13 + ": the Smart SSD drew 0.9 to 1.2 W (the lower end taken as idle)")
        .set(ENERGY_HOST_ACTIVE_W, "40", MSST13 + ": the host system used 35 to 40 W (the upper end taken as"
            + " computing)")
        .set(ENERGY_HOST_IDLE_W, "35", "choice: the source measured its host at 35 to 40 W while the host ran the"
            + " job, and says its CPUs were mostly idle while the Smart SSD ran it, without a wattage: the lower end"
            + " of the range it measured is taken for the host waiting (" + MSST13_PAPER + ")")
        .build();
    all.put(MSST13_SATA, msst13);

    // The iSSD's current setting: 32 channels of 8 ways, MLC channels of 400 MB/s.
    all.put(ISSD_CURRENT, issd("Bae et al., iSSD_C: the iSSD's current setting", msst13, "32", "128")
        .set(ISP_CORES, "32", "source: Bae et al., iSSD: a channel core for each channel")
        .set(ISP_CORE_MHZ, "200", "source: Bae et al., iSSD_C: 32 channels and their CPUs of 200 MHz")
        .build());

    // The iSSD's future setting: as the current one with 256 channels (same raw capacity).
    all.put(ISSD_FUTURE, issd("Bae et al., iSSD_F: the iSSD's future setting", msst13, "256", "16")
        .set(ISP_CORES, "256", "source: Bae et al., iSSD: a channel core for each channel")
        .set(ISP_CORE_MHZ, "800", "source: Bae et al., iSSD_F: 256 channels and their CPUs of 800 MHz")
        .build());

    // An XSD-like device: Table III's 8 flash channels (0.4 GB/s in all), DRAM, and 4 CPU cores at 0.4 GHz.
    all.put(XSD, new Builder("Cho et al., XSD: an XSD-like device with 8 flash channels (its GPU not modelled)",
        msst13)
        .set(FLASH_CHANNELS, "8", XSD_T3)
        .set(FLASH_CHANNEL_MB_PER_S, "50", XSD_T3 + " (0.4 GB/s over 8 channels)")
        .set(ISP_CORES, "4", XSD_T3 + " (4 embedded CPU cores; its GPU is not modelled)")
        .set(ISP_CORE_MHZ, "400", XSD_T3 + " (CPU frequency 1.6/0.4 GHz: 0.4 GHz is the CPU that supports the normal"
            + " XSD operation, 1.6 GHz the high-performance CPU it is compared with)")
        .set(ISP_CONTROLLER_MHZ, "400", XSD_T3 + " (the CPU that supports the normal XSD operation runs at 0.4 GHz)")
        .set(ISP_DRAM_MB_PER_S, "3200", XSD_T3 + " (DRAM bandwidth 3.2 GB/s)")
        // The XSD names no host interface. Its Section I puts a typical SSD's internal bandwidth at about 2 to 4
        // times its host interface's: 0.4 GB/s at the low end of that ratio is 200 MB/s.
        .set(LINK_MB_PER_S, "200", "choice: the XSD names no host interface; 200 MB/s puts its 0.4 GB/s of flash at"
            + " 2 x the link, the low end of the approximately 2-4x a typical SSD's internal bandwidth has over its"
            + " host interface (Cho et al., Section I)")
        .set(FLASH_WAYS_PER_CHANNEL, "4", XSD_NO_FLASH + "; as msst13-sata")
        .set(FLASH_PAGE_SIZE_BYTES, "8192", XSD_NO_FLASH + "; the iSSD's 8 KiB (Bae et al., Table 5)")
        .set(FLASH_CELL_READ_NS, "50000", XSD_NO_FLASH + "; the iSSD's (Bae et al., Table 5)")
        .set(FLASH_CELL_PROGRAM_NS, "1200000", XSD_NO_FLASH + "; the iSSD's (Bae et al., Table 5)")
        .set(FLASH_PAGES_PER_BLOCK, "128", NO_BLOCK)
        .set(FLASH_BLOCKS_PER_WAY, "1024", "choice: 32 GiB raw")
        .set(FLASH_BLOCK_ERASE_NS, "3000000", NO_ERASE)
        .set(LINK_COMMAND_NS, "20000", NO_COMMAND + " (20 us, as the SATA profiles)")
        .set(ISP_LANE_MEMORY_BYTES, UNBOUNDED, "choice: unbounded: the XSD gives no memory size (its CPU and GPU share"
            + " the device's DRAM)")
        .keep(ISP_HOST_MHZ, ISSD_HOST + "; the XSD gives no host CPU")
        .keep(ENERGY_DEVICE_ACTIVE_W, KANG_POWER + "; the XSD did not consider energy (its Section V)")
        .keep(ENERGY_DEVICE_IDLE_W, KANG_POWER + "; the XSD did not consider energy (its Section V)")
        .keep(ENERGY_HOST_ACTIVE_W, KANG_POWER + "; the XSD did not consider energy (its Section V)")
        .keep(ENERGY_HOST_IDLE_W, KANG_POWER + "; the XSD did not consider energy (its Section V)")
        .build());

    // A current NVMe drive on PCIe 4.0 x4 (figures typical of such drives) whose tasklets run on a quad
    // Cortex-R82 cluster, Arm's real-time core for computational storage (Arm's figures).
    all.put(NVME_GEN4, new Builder("a current NVMe drive on PCIe 4.0 x4, its tasklets on a quad Cortex-R82 cluster",
        msst13)
        .set(FLASH_CHANNELS, "8", "choice: typical of current PCIe 4.0 drives")
        .set(FLASH_CHANNEL_MB_PER_S, "1200", "choice: typical of current drives (about 1.2 GB/s a channel)")
        .set(FLASH_PAGE_SIZE_BYTES, "16384", "choice: typical of current TLC flash (16 KiB pages)")
        .set(LINK_MB_PER_S, "7000", "choice: PCIe 4.0 x4 carries about 7 GB/s")
        .set(FLASH_WAYS_PER_CHANNEL, "4", "choice: no source; as the other 8-channel profiles")
        .set(FLASH_PAGES_PER_BLOCK, "256", "choice: no source; 4 MiB blocks of 16 KiB pages")
        .set(FLASH_BLOCKS_PER_WAY, "512", "choice: 64 GiB raw")
        .set(FLASH_CELL_READ_NS, "45000", "choice: no source gives a current drive's cell times")
        .set(FLASH_CELL_PROGRAM_NS, "700000", "choice: no source gives a current drive's cell times")
        .set(FLASH_BLOCK_ERASE_NS, "3000000", NO_ERASE)
        .set(LINK_COMMAND_NS, "5000", NO_COMMAND + " (5 us for an NVMe command, below SATA's 20 us)")
        .set(ISP_CORES, "4", R82 + ": \"a typical quad-core cluster\" (up to four cores a cluster)")
        .set(ISP_CORE_MHZ, "1800", R82 + ": a quad-core cluster in 5 nm \"would operate at above 1.8GHz\"")
        .set(ISP_CACHES, "l1", "source: Arm, Cortex-R82 Processor Datasheet: private L1 instruction and data caches a"
            + " core (the calibration's L1 is the Cortex-A9's 32 KB one)")
        .keep(ISP_L1_MISS_NS, "an L1 miss goes to DRAM: the R82's L2 is optional and no latency of it is published")
        .keep(ISP_CYCLES_PER_OP, "one cycle a counted op: the R82 is an in-order superscalar core (Arm's datasheet), but"
            + " no sustained CPI of it is published")
        .set(ISP_LANE_MEMORY_BYTES, UNBOUNDED, "choice: unbounded: no source gives a current drive's memory a core")
        .set(ISP_CONTROLLER_MHZ, "1800", R82 + ": the merging core is one of the cluster's")
        .keep(ISP_HOST_MHZ, ISSD_HOST + "; no source gives this profile's host")
        .keep(ISP_DRAM_MB_PER_S, XSD_DRAM + "; no source gives a current drive's DRAM bandwidth")
        .keep(ENERGY_DEVICE_ACTIVE_W, KANG_POWER + "; no source gives a current drive's power")
        .keep(ENERGY_DEVICE_IDLE_W, KANG_POWER + "; no source gives a current drive's power")
        .keep(ENERGY_HOST_ACTIVE_W, KANG_POWER + "; no source gives this profile's host's power")
        .keep(ENERGY_HOST_IDLE_W, KANG_POWER + "; no source gives this profile's host's power")
        .build());

    // Active Flash's controller: a dual-core 1 GHz ARM Cortex-A9 standing in for the SSD controller, against an
    // Intel Core 2 Quad Q6600 at 2.4 GHz as the host. The slides give no flash, link or power figures: those
    // stay msst13-sata's.
    all.put(ACTIVE_FLASH, new Builder("Boboila et al., Active Flash: an SSD whose controller is a dual-core 1 GHz"
        + " ARM Cortex-A9", msst13)
        .set(ISP_CORES, "2", AF_PLATFORM + " (a dual-core 1 GHz ARM Cortex-A9, standing in for the SSD controller)")
        .set(ISP_CORE_MHZ, "1000", AF_PLATFORM + " (a dual-core 1 GHz ARM Cortex-A9)")
        .set(ISP_CONTROLLER_MHZ, "1000", AF_PLATFORM + " (the same Cortex-A9: the controller is what runs the"
            + " analysis there)")
        .set(ISP_HOST_MHZ, "2400", AF_PLATFORM + " (host: an Intel Core 2 Quad Q6600 at 2.4 GHz)")
        .keep(ISP_CYCLES_PER_OP, "one cycle a counted op: no published sustained CPI of the Cortex-A9 was found (Blem"
            + " et al., HPCA 2013, measure one on SPEC and server workloads; its figures were not reached), and its peak"
            + " dual issue (0.5, the value before issue 32) is not a sustained rate")
        .set(ISP_CACHES, "l1", "source: ARM, Cortex-A9 Technical Reference Manual, and the slides' Pandaboard (TI"
            + " OMAP4430: a 32 KB L1 data cache a core and 1 MB of L2): the calibration's L1 is this geometry")
        .set(ISP_L1_MISS_NS, "19", "source: 7-cpu.com, ARM Cortex-A9 (Samsung Exynos 4210, a Cortex-A9 with a 1 MB L2):"
            + " an L2 hit takes 19 cycles beyond the L1's 4, 19 ns at the Pandaboard's 1 GHz (the calibration's kernels"
            + " missed no L2, so no DRAM latency is added)")
        .keep(LINK_MB_PER_S, AF_NO_FLASH)
        .keep(FLASH_CHANNELS, AF_NO_FLASH)
        .keep(FLASH_CHANNEL_MB_PER_S, AF_NO_FLASH)
        .keep(FLASH_WAYS_PER_CHANNEL, AF_NO_FLASH)
        .keep(FLASH_PAGE_SIZE_BYTES, AF_NO_FLASH)
        .keep(FLASH_PAGES_PER_BLOCK, AF_NO_FLASH)
        .keep(FLASH_BLOCKS_PER_WAY, AF_NO_FLASH)
        .keep(FLASH_CELL_READ_NS, AF_NO_FLASH)
        .keep(FLASH_CELL_PROGRAM_NS, AF_NO_FLASH)
        .keep(FLASH_BLOCK_ERASE_NS, AF_NO_FLASH)
        .keep(LINK_COMMAND_NS, AF_NO_FLASH)
        .keep(ISP_DRAM_MB_PER_S, XSD_DRAM + "; the slides give no DRAM bandwidth (the Pandaboard's 1 GB of DDR2 is"
            + " its size)")
        .set(ISP_LANE_MEMORY_BYTES, UNBOUNDED, "choice: unbounded: the controller's cores share its DRAM (1 GB on the"
            + " slides' Pandaboard)")
        .keep(ENERGY_DEVICE_ACTIVE_W, KANG_POWER + "; the slides give Active Flash's energy as a ratio only (about 70%"
            + " saved), no power")
        .keep(ENERGY_DEVICE_IDLE_W, KANG_POWER + "; the slides give no power")
        .keep(ENERGY_HOST_ACTIVE_W, KANG_POWER + "; the slides give no power")
        .keep(ENERGY_HOST_IDLE_W, KANG_POWER + "; the slides give no power")
        .build());

    return Collections.unmodifiableMap(all);
  }

  private static Builder issd(String description, Profile base, String channels, String blocksPerWay) {
    return new Builder(description, base)
        .set(FLASH_CHANNELS, channels, ISSD_T5)
        .set(FLASH_WAYS_PER_CHANNEL, "8", ISSD_T5)
        .set(FLASH_PAGE_SIZE_BYTES, "8192", ISSD_T5)
        .set(FLASH_CELL_READ_NS, "50000", ISSD_T5)
        .set(FLASH_CELL_PROGRAM_NS, "1200000", ISSD_T5)
        .set(LINK_MB_PER_S, "250", ISSD_T1 + " (SATA 3G: 250 MB/s; Table 5: a 3 Gbps host interface)")
        .set(FLASH_CHANNEL_MB_PER_S, "400", ISSD_T1 + " (MLC flash channel: 400 MB/s)")
        .set(FLASH_PAGES_PER_BLOCK, "128", NO_BLOCK)
        .set(FLASH_BLOCKS_PER_WAY, blocksPerWay, "choice: 32 GiB raw")
        .set(FLASH_BLOCK_ERASE_NS, "3000000", NO_ERASE)
        .set(LINK_COMMAND_NS, "20000", NO_COMMAND + " (20 us for a SATA link)")
        .set(ISP_CONTROLLER_MHZ, "400", ISSD_T5 + " (SSD core rate 400 MHz: the SSD core does the global merge)")
        .set(ISP_HOST_MHZ, "2500", ISSD_T5 + " (host CPU rate 2.5 GHz)")
        .set(ISP_MEMORY_PRICING, "host-cpi", "source: Bae et al., iSSD, Eq. 13 and Table 3: a function's time is CPI x"
            + " #INS / CPU rate, with the CPI and the instruction count measured on the host and reused for the channel"
            + " cores, no memory term of their own (memory-pricing=calibrated is this project's alternative)")
        // Table 5 lists 2, 4, 8 and 16 KB; which is the pivot (set in bold) the text does not say.
        .set(ISP_LANE_MEMORY_BYTES, "8192", "choice: 8 KB of the channel memory sizes of Bae et al., Table 5 (2, 4, 8"
            + " and 16 KB; the text does not say which is the pivot, and Table 6 has the ISP's times within 0.2% over"
            + " them): the smallest that holds one 8 KiB page, the unit Eq. 1 reads from the cells into channel"
            + " memory")
        .keep(ISP_DRAM_MB_PER_S, XSD_DRAM + "; the iSSD gives no device DRAM bandwidth (its Table 1's DDR3 6.4 GB/s"
            + " is the host's main memory)")
        .keep(ENERGY_DEVICE_ACTIVE_W, KANG_POWER + "; the iSSD gives no power")
        .keep(ENERGY_DEVICE_IDLE_W, KANG_POWER + "; the iSSD gives no power")
        .keep(ENERGY_HOST_ACTIVE_W, KANG_POWER + "; the iSSD gives no power")
        .keep(ENERGY_HOST_IDLE_W, KANG_POWER + "; the iSSD gives no power");
  }

  private record Profile(String description, Map<String, String> values, Map<String, String> sources) {}

  /** Every key a profile may set, in order: {@link #PROFILE_KEYS}, then {@link #OPTIONAL_KEYS}. */
  private static List<String> keys() {
    List<String> all = new java.util.ArrayList<>(PROFILE_KEYS);
    all.addAll(OPTIONAL_KEYS);
    return all;
  }

  /** Collects one profile's values and checks that it sets every profile key. */
  private static final class Builder {
    private final String description;
    /** The default profile, whose values are the profile keys' defaults; null while building it. */
    private final Profile base;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> sources = new LinkedHashMap<>();

    Builder(String description, Profile base) {
      this.description = description;
      this.base = base;
    }

    Builder set(String key, String value, String source) {
      if (values.containsKey(key)) {
        throw new IllegalStateException("profile '" + description + "' sets " + key + " twice");
      }
      values.put(key, value);
      sources.put(key, source);
      return this;
    }

    /**
     * Keeps the key's default (the default profile's value) where this profile's source gives no
     * figure; the note says so, what the default is, and why.
     */
    Builder keep(String key, String why) {
      if (base == null) {
        throw new IllegalStateException("the default profile has no default to keep for " + key);
      }
      // A profile key's default is the default profile's value; an optional key's is its own.
      String value = PROFILE_KEYS.contains(key) ? base.values.get(key) : OPTIONAL_DEFAULTS.get(key);
      return set(key, value, "choice: the key's default, " + why);
    }

    Profile build() {
      Set<String> required = new java.util.HashSet<>(values.keySet());
      required.removeAll(OPTIONAL_KEYS);
      if (!required.equals(Set.copyOf(PROFILE_KEYS))) {
        throw new IllegalStateException("profile '" + description + "' sets " + values.keySet()
            + ", expected " + PROFILE_KEYS + " and any of " + OPTIONAL_KEYS);
      }
      Map<String, String> orderedValues = new LinkedHashMap<>();
      Map<String, String> orderedSources = new LinkedHashMap<>();
      for (String key : keys()) {
        if (values.containsKey(key)) {
          orderedValues.put(key, values.get(key));
          orderedSources.put(key, sources.get(key));
        }
      }
      return new Profile(description, Collections.unmodifiableMap(orderedValues),
          Collections.unmodifiableMap(orderedSources));
    }
  }
}
