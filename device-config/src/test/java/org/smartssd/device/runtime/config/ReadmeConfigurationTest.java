package org.smartssd.device.runtime.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every configuration key has its line, with its default, in the README's table. */
class ReadmeConfigurationTest {
  @Test
  void everyKeyIsDocumentedWithItsDefault() throws IOException {
    Path readme = Path.of("..", "README.md");
    String text = Files.readString(readme);
    for (ConfigKey key : DeviceConfigKeys.all()) {
      String line = text.lines().filter(l -> l.startsWith("| `" + key.name() + "` |")).findFirst().orElse(null);
      assertTrue(line != null, key.name() + " has no line in " + readme.toAbsolutePath());
      String shown = key.defaultValue().isEmpty() ? emptyDefault(key) : "`" + key.defaultValue() + "`";
      assertTrue(line.contains("| " + shown + " |"), key.name() + " shows another default than " + shown + ": " + line);
    }
  }

  /** What an empty default means, as the table shows it. */
  private static String emptyDefault(ConfigKey key) {
    return key.name().equals(DeviceConfigKeys.DEVICE_NAME) ? "(host name)" : "(none)";
  }
}
