package org.smartssd.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.cli.Cli;

/** {@code smartssd fs} runs Hadoop's FsShell against a device, as a Hadoop user expects. */
class FsCommandTest {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  /**
   * Runs a command in this JVM as {@code bin/smartssd} runs it in its own: afterwards Hadoop's cached file
   * systems are closed, as they end with a command's JVM. Kept, an {@code objfs://127.0.0.1:PORT} instance
   * made for one test's device would be handed to a later command whose device the system gave the same
   * port, with the earlier one's client (its secret, or none).
   */
  static synchronized Run smartssd(String... args) {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Cli.execute(new SmartSsd(), args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
      try {
        org.apache.hadoop.fs.FileSystem.closeAll();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("closing the command's file systems", e);
      }
    }
  }

  @Test
  void theUsualShellCommandsWorkAgainstADevice() throws Exception {
    Path local = dir.resolve("day1.txt");
    Files.writeString(local, "GET /index.html\nGET /images/logo.gif\n");
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir.resolve("device")))) {
      String root = "objfs://" + device.address();
      assertEquals(0, smartssd("fs", "-mkdir", "-p", root + "/logs/1998").code());
      assertEquals(0, smartssd("fs", "-put", local.toString(), root + "/logs/1998/").code());
      Run ls = smartssd("fs", "-ls", "-R", root + "/");
      assertEquals(0, ls.code(), ls.err());
      assertTrue(ls.out().contains(root + "/logs/1998/day1.txt"), ls.out());
      assertEquals(0, smartssd("fs", "-mv", root + "/logs/1998", root + "/logs/wc98").code());
      Run cat = smartssd("fs", "-cat", root + "/logs/wc98/day1.txt");
      assertEquals("GET /index.html\nGET /images/logo.gif\n", cat.out());
      assertEquals(0, smartssd("fs", "-rm", "-r", root + "/logs").code());
      Run missing = smartssd("fs", "-ls", root + "/logs");
      assertNotEquals(0, missing.code());
      assertTrue(missing.err().contains("No such file or directory"), missing.err());
    }
  }

  @Test
  void anUnreachableDeviceIsAClearError() {
    Run run = smartssd("fs", "-ls", "objfs://127.0.0.1:1/");
    assertNotEquals(0, run.code());
    assertTrue(run.err().contains("cannot connect to device 127.0.0.1:1"), run.err());
  }
}
