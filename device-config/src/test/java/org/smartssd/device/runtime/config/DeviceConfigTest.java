package org.smartssd.device.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.smartssd.device.runtime.config.DeviceConfigKeys.*;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.smartssd.device.DeviceGeometry;

class DeviceConfigTest {

  @Test
  void defaults() {
    DeviceConfig config = DeviceConfig.defaults();
    assertEquals("msst13-sata", config.profile());
    assertFalse(config.deviceName().isBlank());
    assertEquals(Path.of("./smartssd-data"), config.dataDir());
    assertEquals("127.0.0.1", config.bindAddress());
    assertEquals(7070, config.port());
    assertTrue(config.unixSocket().isEmpty());
    assertEquals(64 << 20, config.maxFrameBytes());
    assertEquals(8, config.workerThreads());
    assertFalse(config.paced());
    assertEquals(new DeviceGeometry(8, 4, 1024, 128, 8192, 1), config.geometry());
    assertEquals(7, config.overprovisioningPercent());
    assertEquals(new TimingParameters(50_000, 1_200_000, 3_000_000, 50e6, 250e6, 20_000, true), config.timing());
    assertEquals(64L << 20, config.checkpointLogBytes());
    assertEquals(2, config.gcMinFreeBlocksPerWay());
    assertEquals(300, config.isp().controllerMhz());
    assertEquals(3, config.isp().cores());
    assertEquals(2500, config.isp().hostMhz());
    assertEquals(3200, config.isp().core().copyMbPerS());
    assertEquals(Long.MAX_VALUE, config.isp().laneMemoryBytes(), "unbounded");
    assertEquals("0", config.effective().get(ISP_LANE_MEMORY_BYTES));
  }

  /** The keys that moved into the profiles are overridden as before: an override beats the profile. */
  @Test
  void overridesBeatTheProfileForThePowersClocksAndMemories() {
    DeviceConfig config = DeviceConfig.load(Map.of(
        PROFILE, "issd-current",
        ISP_CONTROLLER_MHZ, "800",
        ISP_HOST_MHZ, "3000",
        ISP_DRAM_MB_PER_S, "6400",
        ISP_LANE_MEMORY_BYTES, "2048",
        ENERGY_DEVICE_IDLE_W, "0.5",
        ENERGY_HOST_ACTIVE_W, "90"));
    assertEquals(800, config.isp().controllerMhz());
    assertEquals(800, config.isp().controller().mhz());
    assertEquals(3000, config.isp().hostMhz());
    assertEquals(3000, config.isp().host().mhz());
    assertEquals(6400, config.isp().core().copyMbPerS());
    assertEquals(2048, config.isp().laneMemoryBytes());
    assertEquals(0.5, config.energy().deviceIdleWatts());
    assertEquals(1.2, config.energy().deviceActiveWatts(), "from the profile");
    assertEquals(90, config.energy().hostActiveWatts());
    assertEquals("2048", config.effective().get(ISP_LANE_MEMORY_BYTES));
  }

  /**
   * Calibrated (the default), a counted heap access costs the calibration's reads an access at the DRAM's
   * latency on a core without caches, and its L1 misses at the miss latency on one with an L1; per access
   * (the rule before), one DRAM round trip or, with caches, nothing; host-cpi (the iSSD's Eq. 13), the
   * host's cycles for the same work at the device core's clock. The lanes' core and the controller's alike.
   */
  @Test
  void memoryIsPricedAsCalibratedPerAccessOrAtTheHostsCpi() {
    org.smartssd.opcount.OpCounts accesses = new org.smartssd.opcount.OpCounts(0, 100, 0, 0);
    org.smartssd.opcount.CoreCost calibrated = DeviceConfig.load(Map.of(ISP_DRAM_ACCESS_NS, "50")).isp().core();
    assertEquals(0.70 * 50, calibrated.memoryAccessNanos(), 1e-9);
    assertEquals(100 * 35, calibrated.nanos(accesses));
    DeviceConfig cached = DeviceConfig.load(Map.of(ISP_CACHES, "l1", ISP_L1_MISS_NS, "20", ISP_DRAM_ACCESS_NS, "50"));
    assertEquals(0.125 * 20, cached.isp().core().memoryAccessNanos(), 1e-9);
    assertEquals(0.125 * 20, cached.isp().controller().memoryAccessNanos(), 1e-9);
    // Reads inside library calls: a DRAM round trip each without caches, their calibrated L1 misses with an L1.
    assertEquals(50, calibrated.libraryReadNanos(), 1e-9);
    assertEquals(DeviceConfig.CALIBRATED_L1_MISSES_PER_LIBRARY_READ * 20, cached.isp().core().libraryReadNanos(), 1e-9);
    assertEquals(DeviceConfig.CALIBRATED_L1_MISSES_PER_LIBRARY_READ * 20, cached.isp().controller().libraryReadNanos(),
        1e-9);
    assertEquals(0, DeviceConfig.load(Map.of()).isp().host().libraryReadNanos());

    DeviceConfig perAccess = DeviceConfig.load(Map.of(ISP_MEMORY_PRICING, "per-access", ISP_DRAM_ACCESS_NS, "50"));
    assertEquals(50, perAccess.isp().core().memoryAccessNanos());
    assertEquals(50, perAccess.isp().controller().memoryAccessNanos());
    assertEquals(0, perAccess.isp().core().libraryReadNanos()); // the rule before: no memory term for library calls
    assertEquals(0, DeviceConfig.load(Map.of(ISP_MEMORY_PRICING, "per-access", ISP_CACHES, "l1")).isp().core()
        .memoryAccessNanos());

    DeviceConfig hostCpi = DeviceConfig.load(Map.of(ISP_MEMORY_PRICING, "host-cpi", ISP_CORE_MHZ, "200",
        ISP_HOST_MHZ, "2000", HOST_CPU_CYCLES_PER_OP, "0.5", HOST_CPU_MEMORY_ACCESS_NS, "1", ISP_CYCLES_PER_OP, "3"));
    org.smartssd.opcount.CoreCost host = hostCpi.isp().host();
    org.smartssd.opcount.CoreCost core = hostCpi.isp().core();
    assertEquals(0.5, core.cyclesPerOp());
    org.smartssd.opcount.OpCounts work = new org.smartssd.opcount.OpCounts(1000, 100, 0, 0);
    // The same cycles on both sides: the device's time is the host's times the clocks' ratio.
    assertEquals(host.cycles(work), core.cycles(work), 1e-6);
    assertEquals(10 * host.nanos(work), core.nanos(work), 1);
    assertEquals(0, core.libraryReadNanos()); // the iSSD prices instructions by the host's CPI alone

    for (Map.Entry<String, String> bad : Map.of(ISP_MEMORY_PRICING, "cached", ISP_CACHES, "l2").entrySet()) {
      ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
          () -> DeviceConfig.load(Map.of(bad.getKey(), bad.getValue())));
      assertTrue(e.getMessage().contains(bad.getKey()) && e.getMessage().contains(bad.getValue()), e.getMessage());
    }
  }

  @Test
  void laneMemoryZeroIsUnboundedAndAnyOtherValueBoundsIt() {
    assertEquals(8192, DeviceConfig.load(Map.of(PROFILE, "issd-future")).isp().laneMemoryBytes());
    DeviceConfig unbounded = DeviceConfig.load(Map.of(PROFILE, "issd-future", ISP_LANE_MEMORY_BYTES, " 0 "));
    assertEquals(Long.MAX_VALUE, unbounded.isp().laneMemoryBytes());
    assertFalse(unbounded.isp().laneMemoryBounded());
    assertEquals(1, DeviceConfig.load(Map.of(ISP_LANE_MEMORY_BYTES, "1")).isp().laneMemoryBytes());
    assertEquals(16384, DeviceConfig.load(Map.of(PROFILE, "xsd", ISP_LANE_MEMORY_BYTES, "16384")).isp()
        .laneMemoryBytes());
  }

  /** What a device reports (DEVICE_INFO's parameters, its effective configuration) loads back to the same. */
  @Test
  void theEffectiveConfigurationLoadsBackToTheSameParameters() {
    DeviceConfig device = DeviceConfig.load(Map.of(PROFILE, "issd-current", ISP_LANE_MEMORY_BYTES, "4096"));
    DeviceConfig reported = DeviceConfig.load(device.effective());
    assertEquals(device.effective(), reported.effective());
    assertEquals(4096, reported.isp().laneMemoryBytes());
    assertEquals(device.isp().controllerMhz(), reported.isp().controllerMhz());
    assertEquals(device.energy(), reported.energy());
  }

  @Test
  void profileSelectsTheParameters() {
    DeviceConfig config = DeviceConfig.load(Map.of(PROFILE, "issd-future"));
    assertEquals(256, config.geometry().channels());
    assertEquals(8, config.geometry().waysPerChannel());
    assertEquals(400e6, config.timing().channelBytesPerSecond());
    assertEquals(7070, config.port(), "keys the profile does not set keep their defaults");
  }

  @Test
  void overridesBeatTheProfileWhichBeatsTheDefaults() {
    DeviceConfig config = DeviceConfig.load(Map.of(
        PROFILE, "issd-current",
        FLASH_CHANNELS, "16",
        FLASH_CHANNEL_MB_PER_S, "12.5",
        FLASH_STRIPE_UNIT_PAGES, "4",
        HOST_PORT, "0",
        PACE, "TRUE"));
    assertEquals(16, config.geometry().channels());
    assertEquals(8, config.geometry().waysPerChannel(), "from the profile");
    assertEquals(4, config.geometry().stripeUnitPages());
    assertEquals(12.5e6, config.timing().channelBytesPerSecond());
    assertEquals(0, config.port());
    assertTrue(config.paced());
    assertEquals("16", config.effective().get(FLASH_CHANNELS));
  }

  @Test
  void valuesAreTrimmed() {
    DeviceConfig config = DeviceConfig.load(Map.of(HOST_PORT, " 9000 ", DEVICE_NAME, " ssd0 "));
    assertEquals(9000, config.port());
    assertEquals("ssd0", config.deviceName());
    assertEquals("ssd0", config.effective().get(DEVICE_NAME));
  }

  @Test
  void effectiveHoldsEveryKeyWithItsValue() {
    DeviceConfig config = DeviceConfig.load(Map.of(HOST_WORKER_THREADS, "3"));
    for (ConfigKey key : DeviceConfigKeys.all()) {
      assertTrue(config.effective().containsKey(key.name()), key.name());
    }
    assertEquals(DeviceConfigKeys.all().size(), config.effective().size());
    assertEquals("3", config.effective().get(HOST_WORKER_THREADS));
    assertEquals(config.deviceName(), config.effective().get(DEVICE_NAME), "the resolved name, not the empty default");
    assertThrows(UnsupportedOperationException.class, () -> config.effective().put(HOST_PORT, "1"));
  }

  @Test
  void keysOfOtherModulesAreIgnored() {
    DeviceConfig config = DeviceConfig.load(Map.of("fs.objfs.buffer-bytes", "whatever", "smartssd.mapper.x", "y"));
    assertEquals(7070, config.port());
  }

  @Test
  void unknownKeyIsNamedWithASuggestion() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> DeviceConfig.load(Map.of("smartssd.device.flash.chanels", "4")));
    assertEquals("smartssd.device.flash.chanels", e.key());
    assertTrue(e.getMessage().contains("did you mean smartssd.device.flash.channels?"), e.getMessage());

    ConfigException far = assertThrows(ConfigException.class,
        () -> DeviceConfig.load(Map.of("smartssd.device.turbo", "on")));
    assertTrue(far.getMessage().startsWith("smartssd.device.turbo: unknown configuration key"), far.getMessage());
    assertFalse(far.getMessage().contains("did you mean"), far.getMessage());
  }

  /** A configuration written before the device mapper's package was split says what to list now. */
  @Test
  void theSplitMapperPackageIsNamedWithItsSuccessors() {
    ConfigException e = assertThrows(ConfigException.class, () -> DeviceConfig.load(Map.of(
        "smartssd.device.isp.shared-packages", "org.smartssd.device.tasklet.,org.smartssd.devicemapper.runtime.")));
    assertEquals("smartssd.device.isp.shared-packages", e.key());
    assertTrue(e.getMessage().contains("org.smartssd.devicemapper.tasklet. and org.smartssd.devicemapper.wire."),
        e.getMessage());
  }

  @Test
  void nullValueIsNamed() {
    Map<String, String> overrides = new HashMap<>();
    overrides.put(HOST_PORT, null);
    ConfigException e = assertThrows(ConfigException.class, () -> DeviceConfig.load(overrides));
    assertEquals(HOST_PORT, e.key());
  }

  @ParameterizedTest(name = "{0} = ''{1}''")
  @CsvSource(delimiter = '|', value = {
      "smartssd.device.profile                        | sata-9000 | is not a known profile; expected one of: msst13-sata, issd-current",
      "smartssd.device.host.port                      | 65536     | must be between 0 and 65535",
      "smartssd.device.host.port                      | -1        | must be between 0 and 65535",
      "smartssd.device.host.port                      | http      | is not a whole number",
      "smartssd.device.host.max-frame-bytes           | 0         | must be at least 1024",
      "smartssd.device.host.max-frame-bytes           | 1         | must be at least 1024",
      "smartssd.device.host.max-frame-bytes           | 3000000000 | must be at most 2147483647",
      "smartssd.device.host.worker-threads            | 0         | must be at least 1",
      "smartssd.device.host.frame-memory-bytes        | 1048576   | is below smartssd.device.host.max-frame-bytes (67108864)",
      "smartssd.device.host.io-timeout-ms             | 0         | must be between 1 and 86400000",
      "smartssd.device.host.idle-timeout-ms           | -1        | must be between 0 and",
      "smartssd.device.isp.max-executions-per-connection | 0      | must be between 1 and 4096",
      "smartssd.device.isp.max-tasklets               | 0         | must be between 1 and",
      "smartssd.device.host.unix-socket               | device.sock | is not an absolute path",
      "smartssd.device.host.unix-socket               | ./run/device.sock | is not an absolute path",
      "smartssd.device.pace                           | yes       | must be true or false",
      "smartssd.device.flash.channels                 | abc       | is not a whole number",
      "smartssd.device.flash.channels                 | 0         | must be at least 1",
      "smartssd.device.flash.channels                 | 2.5       | is not a whole number",
      "smartssd.device.flash.ways-per-channel         | -4        | must be at least 1",
      "smartssd.device.flash.blocks-per-way           | 0         | must be at least 1",
      "smartssd.device.flash.blocks-per-way           | 99999999999999999999 | must be at most 2147483647",
      "smartssd.device.flash.blocks-per-way           | 1000000   | makes the geometry too large",
      "smartssd.device.flash.pages-per-block          | 0         | must be at least 1",
      "smartssd.device.flash.page-size-bytes          | 0         | must be at least 1",
      "smartssd.device.flash.stripe-unit-pages        | 0         | must be at least 1",
      "smartssd.device.flash.overprovisioning-percent | 51        | must be between 0 and 50",
      "smartssd.device.flash.overprovisioning-percent | -1        | must be between 0 and 50",
      "smartssd.device.flash.cell-read-ns             | 0         | must be at least 1",
      "smartssd.device.flash.cell-program-ns          | x         | is not a whole number",
      "smartssd.device.flash.block-erase-ns           | 0         | must be at least 1",
      "smartssd.device.flash.channel-mb-per-s         | fast      | is not a number",
      "smartssd.device.flash.channel-mb-per-s         | 0         | must be a positive number",
      "smartssd.device.flash.channel-mb-per-s         | NaN       | must be a positive number",
      "smartssd.device.link.mb-per-s                  | -250      | must be a positive number",
      "smartssd.device.link.mb-per-s                  | Infinity  | must be a positive number",
      "smartssd.device.link.command-ns                | -1        | must be at least 0",
      "smartssd.device.meta.checkpoint-log-bytes      | 0         | must be at least 1",
      "smartssd.device.gc.min-free-blocks-per-way     | 0         | must be at least 1",
      "smartssd.device.gc.min-free-blocks-per-way     | 1024      | must be less than smartssd.device.flash.blocks-per-way (1024)",
      "smartssd.device.isp.lane-memory-bytes          | -1        | must be at least 0",
      "smartssd.device.isp.lane-memory-bytes          | 8KB       | is not a whole number",
      "smartssd.device.isp.lane-memory-bytes          | 2.5       | is not a whole number",
      "smartssd.device.isp.lane-memory-bytes          | 99999999999999999999 | must be at most 9223372036854775807",
      "smartssd.device.isp.controller-mhz             | 0         | must be a positive number",
      "smartssd.device.isp.host-mhz                   | fast      | is not a number",
      "smartssd.device.isp.dram-mb-per-s              | -3200     | must be a positive number",
      "smartssd.device.energy.device-idle-w           | 0         | must be a positive number",
      "smartssd.device.energy.host-active-w           | NaN       | must be a positive number",
  })
  void everyBadValueIsNamedWithWhatIsExpected(String key, String value, String expected) {
    ConfigException e = assertThrows(ConfigException.class, () -> DeviceConfig.load(Map.of(key, value)));
    assertEquals(key, e.key());
    assertTrue(e.getMessage().startsWith(key + ": '" + value + "' "), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"smartssd.device.host.bind-address", "smartssd.device.data-dir"})
  void emptyValuesAreNamed(String key) {
    ConfigException e = assertThrows(ConfigException.class, () -> DeviceConfig.load(Map.of(key, "  ")));
    assertEquals(key + ": must not be empty", e.getMessage());
  }

  @Test
  void invalidPathIsNamed() {
    ConfigException e = assertThrows(ConfigException.class, () -> DeviceConfig.load(Map.of(DATA_DIR, "a\0b")));
    assertEquals(DATA_DIR, e.key());
    assertTrue(e.getMessage().contains("is not a valid path"), e.getMessage());
  }

  @Test
  void unixSocketIsAnAbsolutePathOrNothing() {
    assertEquals(Path.of("/run/smartssd/device.sock"),
        DeviceConfig.load(Map.of(HOST_UNIX_SOCKET, " /run/smartssd/device.sock ")).unixSocket().orElseThrow());
    assertTrue(DeviceConfig.load(Map.of(HOST_UNIX_SOCKET, "  ")).unixSocket().isEmpty(), "blank means none");
    ConfigException e = assertThrows(ConfigException.class, () -> DeviceConfig.load(Map.of(HOST_UNIX_SOCKET, "/a\0b")));
    assertEquals(HOST_UNIX_SOCKET, e.key());
    assertTrue(e.getMessage().contains("is not a valid path"), e.getMessage());
  }

  @Test
  void geometryAtTheAddressableLimitLoads() {
    // 4 x 4 x 4096 x 32767 = 2,147,418,112 pages, just under Integer.MAX_VALUE.
    DeviceConfig config = DeviceConfig.load(Map.of(FLASH_CHANNELS, "4", FLASH_WAYS_PER_CHANNEL, "4",
        FLASH_BLOCKS_PER_WAY, "4096", FLASH_PAGES_PER_BLOCK, "32767"));
    assertEquals(2_147_418_112, config.geometry().totalPages());
  }

  @Test
  void twoConfigurationsAreIndependent() {
    DeviceConfig a = DeviceConfig.load(Map.of(HOST_PORT, "7001"));
    DeviceConfig b = DeviceConfig.load(Map.of(HOST_PORT, "7002", PROFILE, "xsd"));
    assertEquals(7001, a.port());
    assertEquals("msst13-sata", a.profile());
    assertEquals(7002, b.port());
  }
}
