package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.cli.Cli;
import org.smartssd.examples.cli.SmartSsd;

/** {@code smartssd wc98 ...} through the real entry point and exit codes. */
class Wc98CommandTest {
  @TempDir
  Path dir;

  record Run(int exitCode, String out, String err) {}

  @Test
  void generateThenValidate() throws IOException {
    Path trace = dir.resolve("wc_day46_1");
    Run generate = smartssd("wc98", "generate", "--records", "10000", "--seed", "7", "--out", trace.toString());
    assertEquals(0, generate.exitCode(), generate.err());
    assertTrue(generate.out().startsWith("generated 10,000 records (200,000 bytes, binary) in "), generate.out());
    assertEquals(200_000, Files.size(trace));
    assertEquals(List.of(trace), listing()); // no temporary file left

    Run validate = smartssd("wc98", "validate", trace.toString());
    assertEquals(0, validate.exitCode(), validate.err());
    assertTrue(validate.out().contains("records      10,000"), validate.out());
    for (Region r : Region.values()) {
      assertTrue(validate.out().contains(r.displayName()), validate.out());
    }
    assertTrue(validate.out().contains("in time order"), validate.out());
    assertTrue(validate.out().contains("IMAGE"), validate.out());

    Path again = dir.resolve("again.gz");
    assertEquals(0, smartssd("wc98", "generate", "--records=10000", "--seed=7", "--out", again.toString()).exitCode());
    assertArrayEquals(Files.readAllBytes(trace), Wc98Fixtures.bytes(Wc98Fixtures.readAll(again)));
  }

  @Test
  void generatesTextInAWindow() throws IOException {
    Path log = dir.resolve("access.log");
    Run run = smartssd("wc98", "generate", "--records", "500", "--out", log.toString(), "--format", "clf",
        "--start", "1998-06-10", "--end", "1998-06-10", "--zipf", "1.0");
    assertEquals(0, run.exitCode(), run.err());
    List<String> lines = Files.readAllLines(log, StandardCharsets.US_ASCII);
    assertEquals(500, lines.size());
    for (String line : lines) {
      assertTrue(line.matches("\\d+ - - \\[(09|10)/Jun/1998:\\d\\d:\\d\\d:\\d\\d \\+0000\\] \"[A-Z]+ /\\S* HTTP/1\\.[01]\" "
          + "\\d{3} (\\d+|-)"), line);
    }
  }

  @Test
  void aBadFileFailsWithItsOffset() throws IOException {
    byte[] bytes = Wc98Fixtures.bytes(Wc98Fixtures.sample(10));
    bytes[2 * 20 + 19] = (byte) 0x80;
    Path bad = Files.write(dir.resolve("bad"), bytes);
    Run run = smartssd("wc98", "validate", bad.toString());
    assertEquals(Cli.EXIT_FAILED, run.exitCode());
    assertTrue(run.err().startsWith("smartssd: " + bad + ": byte offset 40: region 4"), run.err());
    assertEquals("", run.out());

    Path truncated = Files.write(dir.resolve("truncated"), java.util.Arrays.copyOf(bytes, 30));
    run = smartssd("wc98", "validate", truncated.toString());
    assertEquals(Cli.EXIT_FAILED, run.exitCode());
    assertTrue(run.err().contains("byte offset 20: truncated record"), run.err());

    run = smartssd("wc98", "validate", dir.resolve("missing").toString());
    assertEquals(Cli.EXIT_FAILED, run.exitCode());
    assertTrue(run.err().contains("no such file"), run.err());
  }

  @Test
  void badOptionsAreUsageErrorsAndLeaveNoFile() throws IOException {
    String out = dir.resolve("t.bin").toString();
    assertUsageError("--records", "wc98", "generate", "--records", "-5", "--out", out);
    assertUsageError("--records", "wc98", "generate", "--records", "many", "--out", out);
    assertUsageError("--records", "wc98", "generate", "--out", out);
    assertUsageError("--out", "wc98", "generate", "--records", "5");
    assertUsageError("--format", "wc98", "generate", "--records", "5", "--out", out, "--format", "xml");
    assertUsageError("--zipf", "wc98", "generate", "--records", "5", "--out", out, "--zipf", "-1");
    assertUsageError("--end", "wc98", "generate", "--records", "5", "--out", out, "--start", "1998-07-01",
        "--end", "1998-06-01");
    assertUsageError("--start", "wc98", "generate", "--records", "5", "--out", out, "--start", "1999-01-01");
    assertUsageError("--start", "wc98", "generate", "--records", "5", "--out", out, "--start", "1998-13-01");
    assertUsageError("subcommand", "wc98");
    assertEquals(List.of(), listing());
  }

  @Test
  void anUnwritableOutputFailsAndLeavesNoFile() throws IOException {
    Run run = smartssd("wc98", "generate", "--records", "5", "--out", dir.resolve("no/such/dir/t.bin").toString());
    assertEquals(Cli.EXIT_FAILED, run.exitCode());
    assertTrue(run.err().startsWith("smartssd: cannot write"), run.err());
    Files.createDirectory(dir.resolve("sub"));
    run = smartssd("wc98", "generate", "--records", "5", "--out", dir.resolve("sub").toString());
    assertEquals(Cli.EXIT_FAILED, run.exitCode());
    assertEquals(List.of(dir.resolve("sub")), listing());
  }

  @Test
  void everyCommandHasHelp() {
    for (String[] args : new String[][] {{"wc98", "--help"}, {"wc98", "generate", "--help"},
        {"wc98", "validate", "--help"}}) {
      Run run = smartssd(args);
      assertEquals(0, run.exitCode());
      assertTrue(run.out().startsWith("Usage: smartssd wc98"), run.out());
    }
    assertTrue(smartssd("--help").out().contains("wc98"));
  }

  private void assertUsageError(String mentioned, String... args) {
    Run run = smartssd(args);
    assertEquals(Cli.EXIT_USAGE, run.exitCode(), String.join(" ", args) + ": " + run.err());
    assertTrue(run.err().contains(mentioned), run.err());
  }

  private List<Path> listing() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }

  /** Runs the command line with standard output and error captured. */
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
    }
  }
}
