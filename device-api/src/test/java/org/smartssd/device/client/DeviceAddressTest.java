package org.smartssd.device.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceAddressTest {

  @ParameterizedTest
  @CsvSource({
      "127.0.0.1:7070, 127.0.0.1, 7070",
      "node-07.example.org:1, node-07.example.org, 1",
      "localhost:65535, localhost, 65535",
      "[::1]:7070, ::1, 7070",
      "[fe80::1%eth0]:9000, fe80::1%eth0, 9000"})
  void parsesAndPrintsBack(String text, String host, int port) {
    DeviceAddress address = DeviceAddress.parse(text);
    assertEquals(new DeviceAddress(host, port), address);
    assertEquals(text, address.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "host", "host:", ":7070", "host:0", "host:65536", "host:-1", "host:http",
      "::1:7070", "[::1]7070", "[::1", "[]:7070", "[::1]:"})
  void rejectsBadTextNamingIt(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceAddress.parse(text));
    assertTrue(e.getMessage().startsWith("bad device address '" + text + "': "), e.getMessage());
  }

  @Test
  void constructorChecksToo() {
    assertThrows(IllegalArgumentException.class, () -> new DeviceAddress("", 1));
    assertThrows(IllegalArgumentException.class, () -> new DeviceAddress("h", 0));
    assertThrows(NullPointerException.class, () -> new DeviceAddress(null, 1));
  }
}
