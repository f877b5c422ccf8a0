package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Every smartssd.mapper.* key has its line in CONFIG.md's table, and its defaults are valid. */
class ConfigDocTest {
  @Test
  void everyKeyHasItsLine() throws Exception {
    String doc = Files.readString(Path.of("CONFIG.md"));
    int keys = 0;
    for (Field f : DeviceMapperConfigKeys.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class && !f.getName().endsWith("_DEFAULT")
          && !f.getName().equals("PREFIX")) {
        String key = (String) f.get(null);
        assertThat(doc).as(key).contains("| `" + key + "` |");
        keys++;
      }
    }
    assertThat(keys).isEqualTo(25);
  }

  @Test
  void theDefaultsAreValid() {
    DeviceMapperSettings s = DeviceMapperSettings.from(new Configuration(false));
    assertThat(s.placement()).isEqualTo(DeviceMapperSettings.Placement.DEVICE);
    assertThat(s.fallback()).isEqualTo(DeviceMapperSettings.Fallback.AUTO);
    assertThat(s.bufferRecords()).isEqualTo(10_000);
    assertThat(s.bufferBytes()).isEqualTo(4 << 20);
    assertThat(s.resultBatchBytes()).isEqualTo(64 << 10);
    assertThat(s.merge()).isEmpty();
    assertThat(s.profileDir()).isEmpty();
    assertThat(s.polling().min().toMillis()).isEqualTo(1);
    assertThat(s.polling().max().toMillis()).isEqualTo(500);
    assertThat(s.sharedPackages()).containsExactly("org.apache.hadoop.", "org.smartssd.devicemapper.tasklet.",
        "org.smartssd.devicemapper.wire.");
  }
}
