package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.fs.InvalidPathException;
import org.junit.jupiter.api.Test;

class DevicePathsTest {

  @Test
  void acceptsWhatTheDeviceStores() {
    assertThat(DevicePaths.check("", "objfs://h:1")).isEqualTo("/");
    assertThat(DevicePaths.check("/", "objfs://h:1/")).isEqualTo("/");
    assertThat(DevicePaths.check("/a/b c/d:e", "u")).isEqualTo("/a/b c/d:e");
    assertThat(DevicePaths.check("/" + "n".repeat(255), "u")).hasSize(256);
  }

  @Test
  void rejectsWhatItCannot() {
    assertThatThrownBy(() -> DevicePaths.check("/" + "n".repeat(256), "objfs://h:1/nnn"))
        .isInstanceOf(InvalidPathException.class)
        .hasMessageContaining("objfs://h:1/nnn");
    assertThatThrownBy(() -> DevicePaths.check("/a/../b", "u")).isInstanceOf(InvalidPathException.class);
    assertThatThrownBy(() -> DevicePaths.check("/a\0b", "u")).isInstanceOf(InvalidPathException.class);
    assertThatThrownBy(() -> DevicePaths.check(("/" + "d".repeat(200)).repeat(21), "u"))
        .hasMessageContaining("4096");
  }

  @Test
  void joinsAndNames() {
    assertThat(DevicePaths.join("/", "a")).isEqualTo("/a");
    assertThat(DevicePaths.join("/a", "b")).isEqualTo("/a/b");
    assertThat(DevicePaths.name("/a/b")).isEqualTo("b");
    assertThat(DevicePaths.name("/")).isEmpty();
  }
}
