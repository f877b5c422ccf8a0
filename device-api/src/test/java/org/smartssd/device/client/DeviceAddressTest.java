package org.smartssd.device.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
    assertFalse(address.isUnix());
    assertNull(address.unixSocket());
  }

  @ParameterizedTest
  @ValueSource(strings = {"unix:/run/smartssd.sock", "unix:/tmp/a b/device 1.sock", "unix:/"})
  void parsesAndPrintsBackAUnixSocket(String text) {
    DeviceAddress address = DeviceAddress.parse(text);
    Path path = Path.of(text.substring("unix:".length()));
    assertEquals(DeviceAddress.unix(path), address);
    assertTrue(address.isUnix());
    assertEquals(path, address.unixSocket());
    assertNull(address.host());
    assertEquals(0, address.port());
    assertEquals(text, address.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "host", "host:", ":7070", "host:0", "host:65536", "host:-1", "host:http",
      "::1:7070", "[::1]7070", "[::1", "[]:7070", "[::1]:",
      "unix:", "unix:device.sock", "unix:./device.sock", "unix:run/x.sock", "unix:7070", "unix:/a\0b"})
  void rejectsBadTextNamingIt(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceAddress.parse(text));
    assertTrue(e.getMessage().startsWith("bad device address '" + text + "': "), e.getMessage());
  }

  @Test
  void aRelativeOrEmptySocketPathSaysWhatIsExpected() {
    IllegalArgumentException relative = assertThrows(IllegalArgumentException.class,
        () -> DeviceAddress.parse("unix:device.sock"));
    assertEquals("bad device address 'unix:device.sock': the socket path 'device.sock' is not absolute; "
        + "expected unix:/absolute/path", relative.getMessage());
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> DeviceAddress.parse("unix:"));
    assertEquals("bad device address 'unix:': no socket path; expected unix:/absolute/path", empty.getMessage());
  }

  @Test
  void constructorChecksToo() {
    assertThrows(IllegalArgumentException.class, () -> new DeviceAddress("", 1));
    assertThrows(IllegalArgumentException.class, () -> new DeviceAddress("h", 0));
    assertThrows(NullPointerException.class, () -> new DeviceAddress(null, 1));
    assertThrows(NullPointerException.class, () -> DeviceAddress.unix(null));
    IllegalArgumentException relative = assertThrows(IllegalArgumentException.class,
        () -> DeviceAddress.unix(Path.of("device.sock")));
    assertTrue(relative.getMessage().contains("'device.sock' is not absolute"), relative.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new DeviceAddress("h", 1, Path.of("/d.sock")));
    assertThrows(IllegalArgumentException.class, () -> new DeviceAddress(null, 1, Path.of("/d.sock")));
  }

  @Test
  void tcpAndUnixAddressesAreNeverEqual() {
    assertFalse(DeviceAddress.unix(Path.of("/localhost")).equals(new DeviceAddress("localhost", 7070)));
    assertEquals(DeviceAddress.unix(Path.of("/d.sock")).hashCode(), DeviceAddress.parse("unix:/d.sock").hashCode());
  }
}
