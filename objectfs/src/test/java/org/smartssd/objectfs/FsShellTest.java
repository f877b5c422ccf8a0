package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hadoop's own shell (what {@code hadoop fs} runs) against objfs. */
class FsShellTest {
  @TempDir static java.nio.file.Path dir;
  private static LocalDevice device;

  @BeforeAll
  static void start() throws IOException {
    device = LocalDevice.start(dir.resolve("device"));
  }

  @AfterAll
  static void stop() throws IOException {
    device.close();
  }

  /** Runs one shell command; returns its exit code and what it printed. */
  private static Result shell(String... args) throws Exception {
    return shellOn(device.uri.toString(), args);
  }

  private static Result shellOn(String fs, String... args) throws Exception {
    Configuration conf = LocalDevice.conf();
    conf.set("fs.defaultFS", fs);
    conf.set(ObjfsConfigKeys.CONNECT_TIMEOUT, "1s");
    conf.set(ObjfsConfigKeys.REQUEST_TIMEOUT, "1s");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      FsShell shell = new FsShell(conf);
      int code = shell.run(args);
      shell.close();
      return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  private record Result(int code, String out, String err) {}

  @Test
  void putCatLsMvRm() throws Exception {
    java.nio.file.Path local = dir.resolve("local.txt");
    Files.writeString(local, "one line\n");
    assertThat(shell("-mkdir", "-p", "/shell/in").code()).isZero();
    assertThat(shell("-put", local.toString(), "/shell/in/file.txt").code()).isZero();
    assertThat(shell("-cat", "/shell/in/file.txt").out()).isEqualTo("one line\n");
    assertThat(shell("-mv", "/shell/in/file.txt", "/shell/moved.txt").code()).isZero();
    Result ls = shell("-ls", "/shell");
    assertThat(ls.code()).isZero();
    assertThat(ls.out()).contains("Found 2 items").contains(" /shell/in\n").contains(" /shell/moved.txt\n")
        .contains("-rw-r--r--").contains("drwxr-xr-x");
    assertThat(shell("-rm", "-r", "/shell").code()).isZero();
    Result gone = shell("-ls", "/shell");
    assertThat(gone.code()).isNotZero();
    assertThat(gone.err()).contains("No such file or directory");
  }

  /**
   * Issue 15, finding 7: a device that accepts but never answers made {@code -ls} exit 130 saying
   * "Interrupted" and {@code -put} print a 17-line trace: the shell took the client's timeout for
   * Ctrl-C. It is an error like any other, that says it timed out, where, and after how long.
   */
  @Test
  void aDeviceThatNeverAnswersIsReportedAsTimedOut() throws Exception {
    try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      java.util.List<java.net.Socket> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            accepted.add(silent.accept()); // and never a byte back
          }
        } catch (IOException closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      String fs = ObjectFileSystem.SCHEME + "://127.0.0.1:" + silent.getLocalPort();
      java.nio.file.Path local = dir.resolve("put.txt");
      Files.writeString(local, "x\n");
      for (String[] command : new String[][] {{"-ls", "/"}, {"-put", local.toString(), "/put.txt"}}) {
        Result r = shellOn(fs, command);
        assertThat(r.code()).as(String.join(" ", command)).isEqualTo(1);
        assertThat(r.err()).as(String.join(" ", command)).contains("timed out").contains("127.0.0.1:"
            + silent.getLocalPort()).contains("ms").doesNotContain("Interrupted").doesNotContain("\tat ");
      }
      for (java.net.Socket s : accepted) {
        s.close();
      }
    }
  }
}
