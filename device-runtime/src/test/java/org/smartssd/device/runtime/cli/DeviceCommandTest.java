package org.smartssd.device.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.DeviceProcess;
import org.smartssd.device.runtime.SocketDirectory;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.flash.FlashArray;

/** {@code smartssd device start --unix-socket}, and {@code info} and {@code stats} through the socket. */
class DeviceCommandTest {
  @TempDir Path dir;
  private SocketDirectory sockets;

  record Run(int code, String out, String err) {}

  @BeforeEach
  void socketDirectory() throws IOException {
    sockets = SocketDirectory.in(dir);
  }

  @AfterEach
  void removeSocketDirectory() throws IOException {
    sockets.close();
  }

  static synchronized Run smartssd(String... args) {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Cli.execute(new SmartSsdCommand(), args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
  }

  @Test
  void startListensOnTheUnixSocketTooAndInfoAndStatsReachIt() throws Exception {
    Path socket = sockets.socket("device.sock");
    Path data = dir.resolve("data");
    try (DeviceProcess device = DeviceProcess.start(data, TestDevices.small(data),
        List.of("--unix-socket", socket.toString()))) {
      assertEquals("unix:" + socket, device.unixAddress().orElseThrow(), device.output());
      assertTrue(device.output().contains("smartssd device test-device listening on " + device.address() + " and unix:"
          + socket + " (profile msst13-sata; no authentication: whoever can reach the address is served), data in "),
          device.output());
      assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));

      Run info = smartssd("device", "info", "--device", "unix:" + socket);
      assertEquals(0, info.code(), info.err());
      assertTrue(info.out().contains("device      test-device"), info.out());
      assertTrue(info.out().contains("  smartssd.device.host.unix-socket = " + socket), info.out());

      Run stats = smartssd("device", "stats", "--device", "unix:" + socket);
      assertEquals(0, stats.code(), stats.err());
      assertTrue(stats.out().contains("commands"), stats.out());
      assertTrue(stats.out().contains("live data             0 bytes (flash pages in use)"), stats.out());
      assertTrue(stats.out().contains("write amplification   - (nothing written yet)"), stats.out());
      assertTrue(stats.out().contains("(modelled, above idle power: cores 0.000000 J over 0.000 ms busy"), stats.out());
      if (FlashArray.nativeLibraryUnavailable().isEmpty()) {
        assertTrue(stats.out().contains("space reclaim         on: erased flash gives its disk space back"),
            stats.out());
        assertTrue(stats.out().contains("disk use              0 bytes (what the flash files take on disk"),
            stats.out());
      } else {
        assertTrue(stats.out().contains("space reclaim         off: " + FlashArray.nativeLibraryUnavailable().get()),
            stats.out());
        assertTrue(stats.out().contains("disk use              unknown"), stats.out());
      }

      Run tcp = smartssd("device", "info", "--device", device.address());
      assertEquals(0, tcp.code(), tcp.err());
    }
    // SIGTERM: the shutdown hook stops the device, which removes its socket.
    assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "the device removes its socket when it stops");
  }

  @Test
  void aDeviceOnEveryAddressNeedsASecretAndItsClientsGiveIt() throws Exception {
    Run open = smartssd("device", "start", "--data-dir", dir.resolve("open").toString(), "--port", "0",
        "--bind", "0.0.0.0");
    assertEquals(Cli.EXIT_USAGE, open.code());
    assertTrue(open.err().startsWith("smartssd: smartssd.device.host.secret-file: is required with bind address 0.0.0.0"),
        open.err());

    Path secret = dir.resolve("secret");
    Run made = smartssd("secret", secret.toString());
    assertEquals(0, made.code(), made.err());
    Run again = smartssd("secret", secret.toString());
    assertEquals(Cli.EXIT_USAGE, again.code());
    assertTrue(again.err().contains(secret + " already exists; a secret is never overwritten"), again.err());

    Path data = dir.resolve("data");
    try (DeviceProcess device = DeviceProcess.start(data, TestDevices.small(data),
        List.of("--bind", "0.0.0.0", "--secret-file", secret.toString()))) {
      assertTrue(device.output().contains("listening on 0.0.0.0:" + device.address().split(":")[1]
          + " (profile msst13-sata; hosts must prove they hold the secret from " + secret + ")"), device.output());
      Run refused = smartssd("device", "info", "--device", device.address());
      assertEquals(Cli.EXIT_FAILED, refused.code());
      assertTrue(refused.err().contains("the device requires hosts to authenticate, and this client has no secret"),
          refused.err());
      Run info = smartssd("device", "info", "--device", device.address(), "--secret-file", secret.toString());
      assertEquals(0, info.code(), info.err());
      assertTrue(info.out().contains("  smartssd.device.host.secret-file = " + secret), info.out());
      Run stats = smartssd("device", "stats", "--device", device.address(), "--secret-file", secret.toString());
      assertEquals(0, stats.code(), stats.err());
    }
  }

  @Test
  void aDeviceThatKeepsErasedFlashSaysSoOnceAtStartAndInStats() throws Exception {
    Path data = dir.resolve("data");
    Map<String, String> overrides = TestDevices.small(data);
    overrides.put("smartssd.device.flash.reclaim-space", "false");
    try (DeviceProcess device = DeviceProcess.start(data, overrides)) {
      String why = "space reclaim off: switched off (smartssd.device.flash.reclaim-space=false)";
      List<String> warnings = device.output().lines().filter(l -> l.contains(why)).toList();
      assertEquals(1, warnings.size(), device.output());
      assertTrue(warnings.get(0).contains("WARN"), warnings.get(0));
      Run stats = smartssd("device", "stats", "--device", device.address());
      assertEquals(0, stats.code(), stats.err());
      assertTrue(stats.out().contains("space reclaim         off: switched off"
          + " (smartssd.device.flash.reclaim-space=false)"), stats.out());
    }
  }

  @Test
  void aRelativeUnixSocketIsABadConfiguration() {
    Run run = smartssd("device", "start", "--data-dir", dir.resolve("data").toString(), "--port", "0",
        "--unix-socket", "device.sock");
    assertEquals(Cli.EXIT_USAGE, run.code());
    assertEquals("smartssd: smartssd.device.host.unix-socket: 'device.sock' is not an absolute path", run.err().strip());
  }

  @Test
  void aDeviceAddressThatIsNotAbsoluteIsBadUsage() {
    Run run = smartssd("device", "info", "--device", "unix:device.sock");
    assertEquals(Cli.EXIT_USAGE, run.code());
    assertTrue(run.err().startsWith("smartssd: bad device address 'unix:device.sock': "), run.err());
  }

  @Test
  void infoWhenNoDeviceListensNamesTheSocket() {
    Path socket = sockets.socket("nobody.sock");
    Run run = smartssd("device", "info", "--device", "unix:" + socket);
    assertEquals(Cli.EXIT_FAILED, run.code());
    assertTrue(run.err().startsWith("smartssd: cannot connect to device unix:" + socket + ": "), run.err());
  }

  /**
   * Issue 15, finding 7: a data directory that is a file, or one the device cannot write, was
   * reported as the bare path; a port in use was found only after the flash files were laid out.
   */
  @Test
  @org.junit.jupiter.api.Timeout(120)
  void aDataDirectoryOrPortThatCannotServeSaysWhatIsWrong() throws IOException {
    Path file = Files.writeString(dir.resolve("plain-file"), "not a directory");
    Run onFile = smartssd("device", "start", "--data-dir", file.toString(), "--port", "0");
    assertEquals(Cli.EXIT_FAILED, onFile.code());
    assertTrue(onFile.err().contains("data directory " + file) && onFile.err().contains("is a file, not a directory"),
        onFile.err());

    Run under = smartssd("device", "start", "--data-dir", file.resolve("sub").toString(), "--port", "0");
    assertEquals(Cli.EXIT_FAILED, under.code());
    assertTrue(under.err().contains("cannot create data directory") && under.err().toLowerCase(java.util.Locale.ROOT).contains("not a directory"),
        under.err());

    Path locked = Files.createDirectory(dir.resolve("read-only"));
    Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      if (!Files.isWritable(locked)) { // root may write anywhere: then there is nothing to refuse
        Run readOnly = smartssd("device", "start", "--data-dir", locked.toString(), "--port", "0");
        assertEquals(Cli.EXIT_FAILED, readOnly.code());
        assertTrue(readOnly.err().contains("is not writable by user"), readOnly.err());
      }
    } finally {
      Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Path data = dir.resolve("port-taken");
      Run busy = smartssd("device", "start", "--data-dir", data.toString(), "--port",
          Integer.toString(taken.getLocalPort()));
      assertEquals(Cli.EXIT_FAILED, busy.code());
      assertTrue(busy.err().contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()) && busy.err().contains(
          "--port"), busy.err());
      Path flash = data.resolve("flash"); // where FlashArray lays out its channel files
      if (Files.exists(flash)) {
        try (var files = Files.list(flash)) {
          assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith("channel")),
              "no flash was laid out for a device that cannot listen");
        }
      }
    }
  }
}
