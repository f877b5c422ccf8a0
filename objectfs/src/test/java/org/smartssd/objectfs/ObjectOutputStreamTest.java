package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes: buffering, hflush/hsync, close, and one writer per file. */
class ObjectOutputStreamTest {
  @TempDir static java.nio.file.Path dataDir;
  private static LocalDevice device;
  private static FileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    device = LocalDevice.start(dataDir);
    Configuration conf = LocalDevice.conf();
    conf.set(ObjfsConfigKeys.WRITE_BUFFER_BYTES, "16");
    fs = device.newFileSystem(conf);
  }

  @AfterAll
  static void stop() throws IOException {
    fs.close();
    device.close();
  }

  @Test
  @SuppressWarnings("deprecation") // StreamCapabilities.HFLUSH, as the contract suites probe it
  void buffersUntilFullThenHflushAndHsyncMakeBytesVisible() throws IOException {
    Path file = new Path("/out/visible");
    try (FSDataOutputStream out = fs.create(file)) {
      assertThat(out.hasCapability(StreamCapabilities.HFLUSH)).isTrue();
      assertThat(out.hasCapability(StreamCapabilities.HSYNC)).isTrue();
      out.write(bytes("0123456789"));
      assertThat(fs.getFileStatus(file).getLen()).isZero(); // still in the 16-byte buffer
      out.write(bytes("abcdefghij")); // overflows: the first ten go out, the rest waits
      out.hflush();
      assertThat(contents(file)).isEqualTo("0123456789abcdefghij");
      out.write(bytes("XYZ"));
      out.hsync();
      assertThat(fs.getFileStatus(file).getLen()).isEqualTo(23);
      out.write(bytes("a write larger than the whole buffer"));
      out.hflush();
      assertThat(fs.getFileStatus(file).getLen()).isEqualTo(59);
      assertThat(((IOStatisticsSource) out.getWrappedStream()).getIOStatistics().counters())
          .containsEntry(StreamStatisticNames.STREAM_WRITE_BYTES, 59L)
          .containsEntry(ObjectOutputStream.STREAM_WRITE_DEVICE_REQUESTS, 4L);
    }
    assertThat(contents(file)).endsWith("XYZa write larger than the whole buffer");
  }

  @Test
  void closeIsIdempotentAndWritesAfterItFail() throws IOException {
    FSDataOutputStream out = fs.create(new Path("/out/closed"));
    out.write(1);
    out.close();
    out.close();
    assertThatThrownBy(() -> out.write(2))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(device.uri + "/out/closed");
    assertThatThrownBy(out::hflush).isInstanceOf(IOException.class);
    assertThat(fs.getFileStatus(new Path("/out/closed")).getLen()).isEqualTo(1);
  }

  @Test
  void aSecondWriterIsRefusedNamingTheFile() throws IOException {
    Path file = new Path("/out/leased");
    try (FSDataOutputStream first = fs.create(file)) {
      first.write(1);
      assertThatThrownBy(() -> fs.create(file, true))
          .isInstanceOf(IOException.class)
          .hasMessageContaining(device.uri + "/out/leased")
          .hasMessageContaining("being written");
      assertThatThrownBy(() -> fs.append(file))
          .hasMessageContaining("being written");
      assertThatThrownBy(() -> fs.create(file, false))
          .isInstanceOf(org.apache.hadoop.fs.FileAlreadyExistsException.class);
    }
    fs.append(file).close(); // the lease went with the close
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String contents(Path file) throws IOException {
    try (FSDataInputStream in = fs.open(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
