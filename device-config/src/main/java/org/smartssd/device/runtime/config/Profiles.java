package org.smartssd.device.runtime.config;

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
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_CORES;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.ISP_CORE_MHZ;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.LINK_MB_PER_S;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Named parameter sets for the flash and the host link. Every value carries a note saying whether it
 * is the source's ("source: ...") or ours ("choice..."), so the README can tell them apart.
 */
public final class Profiles {

  public static final String MSST13_SATA = "msst13-sata";
  public static final String ISSD_CURRENT = "issd-current";
  public static final String ISSD_FUTURE = "issd-future";
  public static final String XSD = "xsd";
  public static final String NVME_GEN4 = "nvme-gen4";

  /** The keys every profile sets; the others come from key defaults or overrides. */
  public static final List<String> PROFILE_KEYS = List.of(
      FLASH_CHANNELS, FLASH_WAYS_PER_CHANNEL, FLASH_BLOCKS_PER_WAY, FLASH_PAGES_PER_BLOCK,
      FLASH_PAGE_SIZE_BYTES, FLASH_CELL_READ_NS, FLASH_CELL_PROGRAM_NS, FLASH_BLOCK_ERASE_NS,
      FLASH_CHANNEL_MB_PER_S, LINK_MB_PER_S, LINK_COMMAND_NS, ISP_CORES, ISP_CORE_MHZ);

  private static final String MSST13_PAPER = "Kang et al., MSST 2013";
  private static final String MSST13 = "source: " + MSST13_PAPER;
  private static final String ISSD_T1 = "source: Bae et al., iSSD, Table 1";
  private static final String ISSD_T5 = "source: Bae et al., iSSD, Table 5";
  private static final String XSD_T3 = "source: Cho et al., XSD, Table III";
  private static final String CHOICE = "choice";

  private static final Map<String, Profile> PROFILES = build();

  private Profiles() {}

  /** Profile names, the default ({@value #MSST13_SATA}) first. */
  public static Set<String> names() {
    return PROFILES.keySet();
  }

  /** Key to value for every key in {@link #PROFILE_KEYS}. */
  public static Map<String, String> parameters(String name) {
    return profile(name).values;
  }

  /** Key to "source: ..." or "choice..." for every value of {@link #parameters}. */
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

    // The source's prototype: SATA 3 Gb/s, internal reads 1.6 times the link.
    all.put(MSST13_SATA, new Builder("Kang et al., MSST 2013: the Smart SSD prototype on SATA")
        .set(LINK_MB_PER_S, "250", MSST13 + " (SATA 3 Gb/s); 250 MB/s as in iSSD Table 1 (SATA 3G)")
        // 8 x 50 MB/s = 400 MB/s = 1.6 x 250 MB/s, the source's internal-to-link ratio.
        .set(FLASH_CHANNELS, "8", "choice: 8 x 50 MB/s = 1.6 x the link, the ratio of " + MSST13_PAPER)
        .set(FLASH_CHANNEL_MB_PER_S, "50", "choice: 8 x 50 MB/s = 1.6 x the link, the ratio of " + MSST13_PAPER)
        .set(FLASH_WAYS_PER_CHANNEL, "4", CHOICE)
        .set(FLASH_PAGE_SIZE_BYTES, "8192", CHOICE)
        .set(FLASH_PAGES_PER_BLOCK, "128", CHOICE)
        .set(FLASH_BLOCKS_PER_WAY, "1024", "choice: 32 GiB raw")
        .set(ISP_CORES, "4", "choice: a multi-core embedded controller (the source gives no count)")
        .set(ISP_CORE_MHZ, "400", "choice: the iSSD's SSD core rate (Bae et al., Table 5)")
        .set(FLASH_CELL_READ_NS, "50000", "choice: the iSSD Table 5 figure")
        .set(FLASH_CELL_PROGRAM_NS, "1200000", "choice: the iSSD Table 5 figure")
        .set(FLASH_BLOCK_ERASE_NS, "3000000", CHOICE)
        .set(LINK_COMMAND_NS, "20000", CHOICE)
        .build());

    // The iSSD's current setting: 32 channels of 8 ways, MLC channels of 400 MB/s.
    all.put(ISSD_CURRENT, issd("Bae et al., iSSD_C: the iSSD's current setting", "32", "128")
        .set(ISP_CORES, "32", "source: Bae et al., iSSD: a channel core for each channel")
        .set(ISP_CORE_MHZ, "200", "source: Bae et al., iSSD_C: 32 channels and their CPUs of 200 MHz")
        .build());

    // The iSSD's future setting: as the current one with 256 channels (same raw capacity).
    all.put(ISSD_FUTURE, issd("Bae et al., iSSD_F: the iSSD's future setting", "256", "16")
        .set(ISP_CORES, "256", "source: Bae et al., iSSD: a channel core for each channel")
        .set(ISP_CORE_MHZ, "800", "source: Bae et al., iSSD_F: 256 channels and their CPUs of 800 MHz")
        .build());

    // An XSD-like device: 8 flash channels, 0.4 GB/s of flash bandwidth in all.
    all.put(XSD, new Builder("Cho et al., XSD: an XSD-like device with 8 flash channels")
        .set(FLASH_CHANNELS, "8", XSD_T3)
        .set(FLASH_CHANNEL_MB_PER_S, "50", XSD_T3 + " (0.4 GB/s over 8 channels)")
        .set(FLASH_WAYS_PER_CHANNEL, "4", CHOICE)
        .set(FLASH_PAGE_SIZE_BYTES, "8192", CHOICE)
        .set(FLASH_PAGES_PER_BLOCK, "128", CHOICE)
        .set(FLASH_BLOCKS_PER_WAY, "1024", "choice: 32 GiB raw")
        .set(LINK_MB_PER_S, "250", CHOICE)
        .set(ISP_CORES, "4", XSD_T3 + " (4 embedded CPU cores; its GPU is not modelled)")
        .set(ISP_CORE_MHZ, "400", XSD_T3 + " (CPU at 0.4 GHz, the lower of its two clocks)")
        .set(FLASH_CELL_READ_NS, "50000", CHOICE)
        .set(FLASH_CELL_PROGRAM_NS, "1200000", CHOICE)
        .set(FLASH_BLOCK_ERASE_NS, "3000000", CHOICE)
        .set(LINK_COMMAND_NS, "20000", CHOICE)
        .build());

    // A current NVMe drive on PCIe 4.0 x4 (figures of the issue, typical of such drives).
    all.put(NVME_GEN4, new Builder("a current NVMe drive on PCIe 4.0 x4")
        .set(FLASH_CHANNELS, "8", "choice: typical of current PCIe 4.0 drives")
        .set(FLASH_CHANNEL_MB_PER_S, "1200", "choice: typical of current drives (about 1.2 GB/s a channel)")
        .set(FLASH_PAGE_SIZE_BYTES, "16384", "choice: typical of current TLC flash (16 KiB pages)")
        .set(LINK_MB_PER_S, "7000", "choice: PCIe 4.0 x4 carries about 7 GB/s")
        .set(FLASH_WAYS_PER_CHANNEL, "4", CHOICE)
        .set(FLASH_PAGES_PER_BLOCK, "256", CHOICE)
        .set(FLASH_BLOCKS_PER_WAY, "512", "choice: 64 GiB raw")
        .set(FLASH_CELL_READ_NS, "45000", CHOICE)
        .set(FLASH_CELL_PROGRAM_NS, "700000", CHOICE)
        .set(FLASH_BLOCK_ERASE_NS, "3000000", CHOICE)
        .set(LINK_COMMAND_NS, "5000", CHOICE)
        .set(ISP_CORES, "4", CHOICE)
        .set(ISP_CORE_MHZ, "1000", CHOICE)
        .build());

    return Collections.unmodifiableMap(all);
  }

  private static Builder issd(String description, String channels, String blocksPerWay) {
    return new Builder(description)
        .set(FLASH_CHANNELS, channels, ISSD_T5)
        .set(FLASH_WAYS_PER_CHANNEL, "8", ISSD_T5)
        .set(FLASH_PAGE_SIZE_BYTES, "8192", ISSD_T5)
        .set(FLASH_CELL_READ_NS, "50000", ISSD_T5)
        .set(FLASH_CELL_PROGRAM_NS, "1200000", ISSD_T5)
        .set(LINK_MB_PER_S, "250", ISSD_T1 + " (SATA 3G: 250 MB/s)")
        .set(FLASH_CHANNEL_MB_PER_S, "400", ISSD_T1 + " (MLC flash channel: 400 MB/s)")
        .set(FLASH_PAGES_PER_BLOCK, "128", CHOICE)
        .set(FLASH_BLOCKS_PER_WAY, blocksPerWay, "choice: 32 GiB raw")
        .set(FLASH_BLOCK_ERASE_NS, "3000000", CHOICE)
        .set(LINK_COMMAND_NS, "20000", CHOICE);
  }

  private record Profile(String description, Map<String, String> values, Map<String, String> sources) {}

  /** Collects one profile's values and checks that it sets every profile key. */
  private static final class Builder {
    private final String description;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> sources = new LinkedHashMap<>();

    Builder(String description) {
      this.description = description;
    }

    Builder set(String key, String value, String source) {
      values.put(key, value);
      sources.put(key, source);
      return this;
    }

    Profile build() {
      if (!values.keySet().equals(Set.copyOf(PROFILE_KEYS))) {
        throw new IllegalStateException("profile '" + description + "' sets " + values.keySet()
            + ", expected " + PROFILE_KEYS);
      }
      Map<String, String> orderedValues = new LinkedHashMap<>();
      Map<String, String> orderedSources = new LinkedHashMap<>();
      for (String key : PROFILE_KEYS) {
        orderedValues.put(key, values.get(key));
        orderedSources.put(key, sources.get(key));
      }
      return new Profile(description, Collections.unmodifiableMap(orderedValues),
          Collections.unmodifiableMap(orderedSources));
    }
  }
}
