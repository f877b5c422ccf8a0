package org.smartssd.device.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.*;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.smartssd.device.DeviceGeometry;

class ProfilesTest {

  private static final long GIB = 1L << 30;
  /** A source note names the source's authors. */
  private static final Pattern SOURCE_NOTE = Pattern.compile(
      "source: ((Kang|Bae|Cho|Boboila|Blem) et al\\.,?|ARM,|Arm,|X-bit labs,|7-cpu\\.com,) .+");
  /** A choice note says why, in some words. */
  private static final Pattern CHOICE_NOTE = Pattern.compile("choice: .{10,}");

  static List<String> names() {
    return List.copyOf(Profiles.names());
  }

  @Test
  void namesInOrderWithTheDefaultFirst() {
    assertEquals(List.of("msst13-sata", "issd-current", "issd-future", "xsd", "nvme-gen4", "active-flash"), names());
  }

  @ParameterizedTest
  @MethodSource("names")
  void everyProfileSetsEveryProfileKeyWithASourceNote(String name) {
    List<String> keys = new java.util.ArrayList<>(Profiles.PROFILE_KEYS);
    Profiles.OPTIONAL_KEYS.stream().filter(Profiles.parameters(name)::containsKey).forEach(keys::add);
    assertEquals(keys, List.copyOf(Profiles.parameters(name).keySet()));
    assertEquals(keys, List.copyOf(Profiles.sources(name).keySet()));
    Profiles.sources(name).forEach((key, note) -> {
      // A source is cited by its authors; a choice says why, not just that it is one.
      assertTrue(SOURCE_NOTE.matcher(note).matches() || CHOICE_NOTE.matcher(note).matches(),
          name + " " + key + ": " + note);
    });
    assertTrue(!Profiles.description(name).isBlank());
  }

  /** Where a profile's source gives no figure it keeps the key's default, and says so. */
  @ParameterizedTest
  @MethodSource("names")
  void aValueKeptAtTheKeysDefaultIsTheDefaultAndSaysSo(String name) {
    Profiles.sources(name).forEach((key, note) -> {
      if (note.startsWith("choice: the key's default")) {
        assertEquals(DeviceConfigKeys.find(key).defaultValue(), Profiles.parameters(name).get(key), name + " " + key);
      }
    });
  }

  /** The powers are measured by Kang et al. only: the other profiles keep them as the key's default, noted. */
  @Test
  void onlyTheSmartSsdProfileHasASourceForThePowers() {
    for (String key : List.of(ENERGY_DEVICE_ACTIVE_W, ENERGY_DEVICE_IDLE_W, ENERGY_HOST_ACTIVE_W, ENERGY_HOST_IDLE_W)) {
      // The host's power while it waits is a choice: the source measured it running the job.
      assertTrue(Profiles.sources("msst13-sata").get(key).startsWith(key.equals(ENERGY_HOST_IDLE_W)
          ? "choice: the source measured its host at 35 to 40 W" : "source: Kang et al., MSST 2013"), key);
      for (String other : List.of("issd-current", "issd-future", "xsd", "nvme-gen4", "active-flash")) {
        assertTrue(Profiles.sources(other).get(key).startsWith("choice: the key's default"), other + " " + key);
        assertEquals(Profiles.parameters("msst13-sata").get(key), Profiles.parameters(other).get(key), other + " " + key);
      }
    }
    EnergyParameters e = load("msst13-sata").energy();
    assertEquals(1.2, e.deviceActiveWatts());
    assertEquals(0.9, e.deviceIdleWatts());
    assertEquals(40, e.hostActiveWatts());
    assertEquals(35, e.hostIdleWatts());
  }

  @ParameterizedTest
  @MethodSource("names")
  void everyProfileLoads(String name) {
    DeviceConfig config = DeviceConfig.load(Map.of(DeviceConfigKeys.PROFILE, name));
    assertEquals(name, config.profile());
    Profiles.parameters(name).forEach((key, value) -> assertEquals(value, config.effective().get(key), key));
  }

  @Test
  void msst13InternalReadBandwidthIsOnePointSixTimesTheLink() {
    TimingParameters timing = load("msst13-sata").timing();
    DeviceGeometry geometry = load("msst13-sata").geometry();
    assertEquals(250e6, timing.linkBytesPerSecond());
    assertEquals(400e6, internal("msst13-sata"));
    assertEquals(1.6, internal("msst13-sata") / timing.linkBytesPerSecond(), 1e-12);
    assertEquals(32 * GIB, geometry.rawCapacityBytes());
    assertEquals(8192, geometry.pageSizeBytes());
  }

  /** Bae et al., Table 5: the SSD core at 400 MHz, the host CPU at 2.5 GHz, channel memory of a few KB. */
  @ParameterizedTest
  @CsvSource({"issd-current", "issd-future"})
  void issdControllerHostAndChannelMemory(String name) {
    IspParameters isp = load(name).isp();
    assertEquals(400, isp.controllerMhz());
    assertEquals(2500, isp.hostMhz());
    assertEquals(8192, isp.laneMemoryBytes());
    assertTrue(isp.laneMemoryBounded());
    for (String key : List.of(ISP_CONTROLLER_MHZ, ISP_HOST_MHZ)) {
      assertTrue(Profiles.sources(name).get(key).startsWith("source: Bae et al., iSSD, Table 5"), key);
    }
    String memory = Profiles.sources(name).get(ISP_LANE_MEMORY_BYTES);
    assertTrue(memory.contains("Table 5") && memory.contains("pivot"), memory);
    assertTrue(Profiles.sources(name).get(ISP_DRAM_MB_PER_S).startsWith("choice: the key's default"));
  }

  /** Only the iSSD gives a core's memory; the others leave a lane's memory unbounded. */
  @ParameterizedTest
  @CsvSource({"msst13-sata", "xsd", "nvme-gen4", "active-flash"})
  void laneMemoryIsUnboundedWithoutASource(String name) {
    assertEquals(Profiles.UNBOUNDED, Profiles.parameters(name).get(ISP_LANE_MEMORY_BYTES));
    assertTrue(Profiles.sources(name).get(ISP_LANE_MEMORY_BYTES).startsWith("choice: unbounded"));
    assertEquals(Long.MAX_VALUE, load(name).isp().laneMemoryBytes());
    assertFalse(load(name).isp().laneMemoryBounded());
  }

  @Test
  void issdCurrentAndFuture() {
    DeviceGeometry current = load("issd-current").geometry();
    assertEquals(32, current.channels());
    assertEquals(8, current.waysPerChannel());
    assertEquals(8192, current.pageSizeBytes());
    assertEquals(50_000, load("issd-current").timing().cellReadNanos());
    assertEquals(250e6, load("issd-current").timing().linkBytesPerSecond());
    assertEquals(32 * 400e6, internal("issd-current"));

    DeviceGeometry future = load("issd-future").geometry();
    assertEquals(256, future.channels());
    assertEquals(256 * 400e6, internal("issd-future"));
    assertEquals(current.rawCapacityBytes(), future.rawCapacityBytes());
    assertEquals(32 * GIB, future.rawCapacityBytes());
  }

  /** Cho et al., Table III: 8 flash channels, 0.4 GB/s of flash in all, 3.2 GB/s of DRAM, 4 CPU cores at 0.4 GHz. */
  @Test
  void xsdCarriesItsTableIII() {
    DeviceConfig xsd = load("xsd");
    assertEquals(8, xsd.geometry().channels());
    assertEquals(0.4e9, internal("xsd"));
    assertEquals(4, xsd.isp().cores());
    assertEquals(400, xsd.isp().coreMhz());
    assertEquals(400, xsd.isp().controllerMhz());
    assertEquals(3200, xsd.isp().core().copyMbPerS());
    for (String key : List.of(FLASH_CHANNELS, FLASH_CHANNEL_MB_PER_S, ISP_CORES, ISP_CORE_MHZ, ISP_CONTROLLER_MHZ,
        ISP_DRAM_MB_PER_S)) {
      assertTrue(Profiles.sources("xsd").get(key).startsWith("source: Cho et al., XSD, Table III"), key);
    }
  }

  /**
   * Where the XSD gives a figure the msst13-sata profile only chose, the xsd profile cites it; where
   * it gives none, it says so. Its host link is its own choice (from its Section I's ratio), not the
   * Smart SSD's SATA link.
   */
  @Test
  void xsdDiffersFromTheSmartSsdWhereItsSourceSaysSo() {
    Map<String, String> xsd = Profiles.sources("xsd");
    Map<String, String> msst13 = Profiles.sources("msst13-sata");
    for (String key : List.of(FLASH_CHANNELS, FLASH_CHANNEL_MB_PER_S, ISP_CORES, ISP_DRAM_MB_PER_S)) {
      assertTrue(msst13.get(key).startsWith("choice"), "msst13-sata chose " + key + ": " + msst13.get(key));
      assertTrue(xsd.get(key).startsWith("source: Cho et al."), "xsd cites " + key + ": " + xsd.get(key));
    }
    // The Smart SSD's clocks are its controller's (Samsung's MDX), the XSD's its Table III's.
    for (String key : List.of(ISP_CORE_MHZ, ISP_CONTROLLER_MHZ)) {
      assertTrue(msst13.get(key).startsWith("source: X-bit labs"), "msst13-sata cites " + key + ": " + msst13.get(key));
      assertTrue(xsd.get(key).startsWith("source: Cho et al."), "xsd cites " + key + ": " + xsd.get(key));
    }
    for (String key : List.of(FLASH_WAYS_PER_CHANNEL, FLASH_PAGE_SIZE_BYTES, FLASH_CELL_READ_NS,
        FLASH_CELL_PROGRAM_NS)) {
      assertTrue(xsd.get(key).startsWith("choice: the XSD gives none"), key + ": " + xsd.get(key));
    }
    assertEquals(200e6, load("xsd").timing().linkBytesPerSecond());
    assertEquals(2.0, internal("xsd") / load("xsd").timing().linkBytesPerSecond(), 1e-12);
    assertTrue(xsd.get(LINK_MB_PER_S).startsWith("choice: the XSD names no host interface"));
    assertNotEquals(Profiles.parameters("msst13-sata").get(LINK_MB_PER_S), Profiles.parameters("xsd").get(LINK_MB_PER_S));
  }

  @Test
  void nvmeGen4() {
    DeviceConfig nvme = load("nvme-gen4");
    assertEquals(8, nvme.geometry().channels());
    assertEquals(1200e6, nvme.timing().channelBytesPerSecond());
    assertEquals(16384, nvme.geometry().pageSizeBytes());
    assertEquals(7000e6, nvme.timing().linkBytesPerSecond());
    assertTrue(internal("nvme-gen4") > nvme.timing().linkBytesPerSecond());
    assertEquals(64 * GIB, nvme.geometry().rawCapacityBytes());
    // Its tasklets run on a quad Cortex-R82 cluster with L1 caches whose misses go to DRAM.
    assertEquals(4, nvme.isp().cores());
    assertEquals(1800, nvme.isp().coreMhz());
    assertEquals(0.125 * 41.25, nvme.isp().core().memoryAccessNanos(), 1e-9);
  }

  /** The iSSD's profiles price as the iSSD does: the host's cycles for the same counted work. */
  @Test
  void theIssdProfilesPriceAtTheHostsCpi() {
    for (String name : List.of("issd-current", "issd-future")) {
      IspParameters isp = load(name).isp();
      assertEquals(isp.host().cyclesPerOp(), isp.core().cyclesPerOp(), name);
      assertEquals(0, isp.core().memoryAccessNanos(), name);
      assertTrue(Profiles.sources(name).get(ISP_MEMORY_PRICING).startsWith("source: Bae et al., iSSD, Eq. 13"), name);
      IspParameters ours = DeviceConfig.load(Map.of(DeviceConfigKeys.PROFILE, name, ISP_MEMORY_PRICING, "calibrated"))
          .isp();
      assertEquals(0.70 * 41.25, ours.core().memoryAccessNanos(), 1e-9, name + " with this project's pricing");
    }
  }

  /**
   * Active Flash's platforms: the controller a dual-core 1 GHz Cortex-A9, the host a 2.4 GHz Q6600; the
   * slides give nothing of the flash, the link or the powers, which stay msst13-sata's.
   */
  @Test
  void activeFlashIsItsControllerAndHostOnTheSmartSsdsFlash() {
    IspParameters isp = load("active-flash").isp();
    assertEquals(2, isp.cores());
    assertEquals(1000, isp.coreMhz());
    assertEquals(1000, isp.controllerMhz());
    assertEquals(2400, isp.hostMhz());
    // A core with caches: a heap access costs the calibrated L1 misses at the L2's latency; one cycle an op
    // (no sustained CPI found).
    assertEquals(1, isp.core().cyclesPerOp());
    assertEquals(0.125 * 19, isp.core().memoryAccessNanos(), 1e-9);
    assertEquals(0.70 * 41.25, load("msst13-sata").isp().core().memoryAccessNanos(), 1e-9, "no caches: DRAM");
    // Before issue 32's calibration, the caches served every access.
    assertEquals(0, DeviceConfig.load(Map.of(DeviceConfigKeys.PROFILE, "active-flash", ISP_MEMORY_PRICING, "per-access"))
        .isp().core().memoryAccessNanos());
    for (String key : List.of(ISP_CORES, ISP_CORE_MHZ, ISP_CONTROLLER_MHZ, ISP_HOST_MHZ)) {
      assertTrue(Profiles.sources("active-flash").get(key).startsWith("source: Boboila et al., Active Flash"), key);
    }
    Profiles.parameters("active-flash").forEach((key, value) -> {
      if (key.startsWith("smartssd.device.flash.") || key.startsWith("smartssd.device.link.")) {
        assertEquals(Profiles.parameters("msst13-sata").get(key), value, key);
      }
    });
  }

  @Test
  void unknownProfileListsTheKnownOnes() {
    ConfigException e = assertThrows(ConfigException.class, () -> Profiles.parameters("sata-9000"));
    assertTrue(e.getMessage().contains("sata-9000"), e.getMessage());
    for (String name : Profiles.names()) {
      assertTrue(e.getMessage().contains(name), e.getMessage());
    }
  }

  private static DeviceConfig load(String profile) {
    return DeviceConfig.load(Map.of(DeviceConfigKeys.PROFILE, profile));
  }

  private static double internal(String profile) {
    DeviceConfig config = load(profile);
    return config.geometry().channels() * config.timing().channelBytesPerSecond();
  }
}
