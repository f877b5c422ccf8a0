package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every fs.objfs.* key (and smartssd.transport) has its line in the README's table. */
class ReadmeConfigurationTest {
  @Test
  void everyKeyHasItsLine() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    int keys = 0;
    for (Field f : ObjfsConfigKeys.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class && !f.getName().endsWith("_DEFAULT")
          && !f.getName().equals("PREFIX")) {
        String key = (String) f.get(null);
        assertThat(readme).as(key).contains("| `" + key + "` |");
        keys++;
      }
    }
    assertThat(keys).isEqualTo(12);
  }
}
