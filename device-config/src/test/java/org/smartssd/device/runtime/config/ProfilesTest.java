package org.smartssd.device.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.smartssd.device.DeviceGeometry;

class ProfilesTest {

  private static final long GIB = 1L << 30;

  static List<String> names() {
    return List.copyOf(Profiles.names());
  }

  @Test
  void namesInOrderWithTheDefaultFirst() {
    assertEquals(List.of("msst13-sata", "issd-current", "issd-future", "xsd", "nvme-gen4"), names());
  }

  @ParameterizedTest
  @MethodSource("names")
  void everyProfileSetsEveryProfileKeyWithASourceNote(String name) {
    assertEquals(Profiles.PROFILE_KEYS, List.copyOf(Profiles.parameters(name).keySet()));
    assertEquals(Profiles.PROFILE_KEYS, List.copyOf(Profiles.sources(name).keySet()));
    Profiles.sources(name).forEach((key, note) ->
        assertTrue(note.startsWith("source: ") || note.startsWith("choice"), name + " " + key + ": " + note));
    assertTrue(!Profiles.description(name).isBlank());
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

  @Test
  void xsdHasEightChannelsOfPointFourGigabytesInAll() {
    assertEquals(8, load("xsd").geometry().channels());
    assertEquals(0.4e9, internal("xsd"));
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
