package org.smartssd.device.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeviceConfigKeysTest {

  @Test
  void keysAreUniqueLowerCaseAndOurs() {
    Set<String> names = new HashSet<>();
    for (ConfigKey key : DeviceConfigKeys.all()) {
      assertTrue(names.add(key.name()), "duplicate " + key.name());
      assertTrue(key.name().startsWith(DeviceConfigKeys.PREFIX), key.name());
      assertTrue(key.name().matches("[a-z0-9.-]+"), key.name());
      assertFalse(key.unit().isBlank(), key.name());
      assertFalse(key.description().isBlank(), key.name());
    }
    assertEquals(DeviceConfigKeys.all().size(), names.size());
  }

  @Test
  void everyKeySaysWhereItsDefaultComesFrom() {
    for (ConfigKey key : DeviceConfigKeys.all()) {
      assertTrue(key.source().startsWith("source: ") || key.source().startsWith("choice")
          || key.source().startsWith("calibration: "), key + "");
    }
  }

  @Test
  void profileKeysDefaultToTheDefaultProfile() {
    var defaults = Profiles.parameters(DeviceConfigKeys.PROFILE_DEFAULT);
    for (String name : Profiles.PROFILE_KEYS) {
      assertEquals(defaults.get(name), DeviceConfigKeys.find(name).defaultValue(), name);
    }
  }

  @Test
  void constantsMatchTheRegistry() {
    assertEquals("7070", DeviceConfigKeys.find(DeviceConfigKeys.HOST_PORT).defaultValue());
    assertEquals("msst13-sata", DeviceConfigKeys.find(DeviceConfigKeys.PROFILE).defaultValue());
    assertEquals("67108864", DeviceConfigKeys.find(DeviceConfigKeys.META_CHECKPOINT_LOG_BYTES).defaultValue());
  }
}
