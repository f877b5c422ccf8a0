package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.Damage;
import org.smartssd.device.runtime.TestDevices;

/**
 * A byte flipped in a flash page of a stopped device: objfs raises Hadoop's
 * {@link ChecksumException} at the damaged page's offset, hands out every intact byte before it,
 * and other files read as ever.
 */
class CorruptPagesTest {
  private static final int PAGE = 4096;
  private static final byte[] DAMAGED = TestDevices.bytes(5 * PAGE + 10, 21);
  private static final byte[] FINE = TestDevices.bytes(3 * PAGE, 22);

  @TempDir Path dir;

  @Test
  void aDamagedPageIsAChecksumExceptionAtItsOffset() throws Exception {
    Path data = dir.resolve("device");
    try (LocalDevice device = LocalDevice.start(data);
        FileSystem fs = device.newFileSystem(LocalDevice.conf())) {
      write(fs, "/data/damaged.bin", DAMAGED);
      write(fs, "/data/fine.bin", FINE);
    }
    Damage.Page page = Damage.locate(data, DAMAGED, 2, PAGE);
    Damage.flipByte(page.file(data), page.offset() + 123);

    try (LocalDevice device = LocalDevice.start(data);
        FileSystem fs = device.newFileSystem(LocalDevice.conf())) {
      String uri = device.uri + "/data/damaged.bin";
      try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path("/data/damaged.bin"))) {
        byte[] all = new byte[DAMAGED.length];
        ChecksumException e = assertThrows(ChecksumException.class, () -> in.readFully(0, all));
        assertThat(e.getPos()).isEqualTo(2 * PAGE);
        assertThat(e.getMessage()).startsWith("read " + uri + ": '/data/damaged.bin' is corrupt at offset 8192: bytes"
            + " 8192..12287 (page 2 of the file");

        // Sequential reads hand out every byte before the damaged page, then fail at it.
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[1000];
        ChecksumException seq = assertThrows(ChecksumException.class, () -> {
          for (int n; (n = in.read(buf)) > 0; ) {
            got.write(buf, 0, n);
          }
        });
        assertThat(seq.getPos()).isEqualTo(2 * PAGE);
        assertThat(got.toByteArray()).isEqualTo(Arrays.copyOf(DAMAGED, 2 * PAGE));

        // The pages after it are intact and readable.
        byte[] after = new byte[DAMAGED.length - 3 * PAGE];
        in.readFully(3 * PAGE, after);
        assertThat(after).isEqualTo(Arrays.copyOfRange(DAMAGED, 3 * PAGE, DAMAGED.length));
      }
      try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path("/data/fine.bin"))) {
        byte[] all = new byte[FINE.length];
        in.readFully(0, all);
        assertThat(all).isEqualTo(FINE);
      }

      // hadoop fs -cat says so and fails.
      Configuration conf = LocalDevice.conf();
      conf.set("fs.defaultFS", device.uri.toString());
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      PrintStream oldOut = System.out;
      PrintStream oldErr = System.err;
      int code;
      try {
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        FsShell shell = new FsShell(conf);
        try {
          code = shell.run(new String[] {"-cat", "/data/damaged.bin"});
        } finally {
          shell.close();
        }
      } finally {
        System.setOut(oldOut);
        System.setErr(oldErr);
      }
      assertThat(code).isNotZero();
      assertThat(err.toString(StandardCharsets.UTF_8)).contains("'/data/damaged.bin' is corrupt at offset 8192");
    }
  }

  private static void write(FileSystem fs, String path, byte[] content) throws IOException {
    try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(path))) {
      out.write(content);
    }
  }
}
