package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.smartssd.device.client.DeviceTransports;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.DeviceProcess;
import org.smartssd.device.runtime.TestDevices;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A device process that dies (SIGKILL) or freezes (SIGSTOP) under a reader or a writer: the next
 * device request fails with an IOException naming the device and the path, within the request
 * timeout; never a hang, never a short read passed off as the end of the file. A device that comes
 * back on its address finds its file systems and their open streams going on as before.
 */
class DeviceFailureIT {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceFailureIT.class);
  private static final long REQUEST_TIMEOUT_MILLIS = 2000;
  private static final int FILE_BYTES = 4 << 20;

  @TempDir java.nio.file.Path dataDir;

  private static Configuration conf() {
    Configuration conf = new Configuration();
    conf.set(ObjfsConfigKeys.CONNECT_TIMEOUT, "1s");
    conf.set(ObjfsConfigKeys.REQUEST_TIMEOUT, REQUEST_TIMEOUT_MILLIS + "ms");
    conf.set(ObjfsConfigKeys.READAHEAD_BYTES, "64k");
    conf.set(ObjfsConfigKeys.WRITE_BUFFER_BYTES, "64k");
    return conf;
  }

  private static URI uri(DeviceProcess device) {
    return URI.create(ObjectFileSystem.SCHEME + "://" + device.address());
  }

  @Test
  @Timeout(120)
  void aDeviceKilledMidReadFailsTheReadNamingDeviceAndPath() throws Exception {
    byte[] data = TestDevices.bytes(FILE_BYTES, 1);
    Path file = new Path("/killed/read");
    DeviceProcess device = DeviceProcess.start(dataDir, TestDevices.small(dataDir));
    try (FileSystem fs = FileSystem.newInstance(uri(device), conf())) {
      try (FSDataOutputStream out = fs.create(file)) {
        out.write(data);
      }
      FSDataInputStream in = fs.open(file);
      byte[] buf = new byte[8192];
      long pos = 0;
      while (pos < 200_000) {
        pos += readAndCheck(in, buf, data, pos);
      }
      device.kill();
      long start = System.nanoTime();
      final long at = pos;
      IOException e = assertThrows(IOException.class, () -> {
        long p = at;
        while (true) {
          p += readAndCheck(in, buf, data, p); // fails on EOF before the end: no silent truncation
        }
      });
      assertWithinRequestTimeout(start);
      assertNamesDeviceAndPath(e, device, file);
      IOException positioned = assertThrows(IOException.class, () -> in.readFully(1_000_000, new byte[100]));
      assertNamesDeviceAndPath(positioned, device, file);
    } finally {
      device.close();
    }
  }

  @Test
  @Timeout(120)
  void aDeviceKilledMidWriteFailsTheWriteAndKeepsWhatWasSynced() throws Exception {
    byte[] data = TestDevices.bytes(FILE_BYTES, 2);
    Path file = new Path("/killed/write");
    DeviceProcess device = DeviceProcess.start(dataDir, TestDevices.small(dataDir));
    try (FileSystem fs = FileSystem.newInstance(uri(device), conf())) {
      FSDataOutputStream out = fs.create(file);
      out.write(data, 0, 1_000_000);
      out.hsync();
      device.kill();
      long start = System.nanoTime();
      IOException e = assertThrows(IOException.class, () -> {
        for (int off = 1_000_000; off < FILE_BYTES; off += 10_000) {
          out.write(data, off, 10_000);
        }
        out.hflush();
      });
      assertWithinRequestTimeout(start);
      assertNamesDeviceAndPath(e, device, file);
      assertThrows(IOException.class, out::close);
    } finally {
      device.close();
    }
    DeviceProcess again = DeviceProcess.start(dataDir, TestDevices.small(dataDir));
    try (FileSystem fs = FileSystem.newInstance(uri(again), conf())) {
      long length = fs.getFileStatus(file).getLen();
      assertThat(length).isGreaterThanOrEqualTo(1_000_000);
      byte[] back = new byte[(int) length];
      try (FSDataInputStream in = fs.open(file)) {
        in.readFully(back);
      }
      assertArrayEquals(Arrays.copyOf(data, back.length), back);
    } finally {
      again.close();
    }
  }

  @ParameterizedTest(name = "{0} transport")
  @ValueSource(strings = {DeviceTransports.JAVA, DeviceTransports.NATIVE})
  @Timeout(120)
  void aFileSystemOutlivesARestartOfItsDevice(String transport) throws Exception {
    Optional<String> unavailable = DeviceTransports.find(transport).map(t -> t.unavailable())
        .orElse(Optional.of("no transport " + transport + " on the class path"));
    Assumptions.assumeTrue(unavailable.isEmpty(), () -> transport + " transport: " + unavailable.orElse(""));
    Configuration conf = conf();
    conf.set(ObjfsConfigKeys.TRANSPORT, transport);
    byte[] data = TestDevices.bytes(FILE_BYTES, 3);
    Path file = new Path("/restarted/file");
    java.util.Map<String, String> settings = new java.util.HashMap<>(TestDevices.small(dataDir));
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      settings.put("smartssd.device.host.port", Integer.toString(free.getLocalPort()));
    }
    DeviceProcess device = DeviceProcess.start(dataDir, settings);
    DeviceProcess again = null;
    try (FileSystem fs = FileSystem.newInstance(uri(device), conf)) {
      try (FSDataOutputStream out = fs.create(file)) {
        out.write(data);
      }
      FSDataInputStream in = fs.open(file);
      byte[] head = new byte[100_000];
      in.readFully(head);
      device.kill();
      again = DeviceProcess.start(dataDir, settings); // the same port and data: the device is back
      assertThat(again.address()).isEqualTo(device.address());

      // The same file system instance and the stream opened before: no error from the old connections.
      assertThat(fs.getFileStatus(file).getLen()).isEqualTo(FILE_BYTES);
      byte[] rest = new byte[FILE_BYTES - head.length];
      in.readFully(rest);
      in.close();
      assertArrayEquals(Arrays.copyOfRange(data, head.length, FILE_BYTES), rest);
      assertThat(fs.listStatus(file.getParent())).hasSize(1);
      byte[] all = new byte[FILE_BYTES];
      try (FSDataInputStream reopened = fs.open(file)) {
        reopened.readFully(all);
      }
      assertArrayEquals(data, all);
    } finally {
      device.close();
      if (again != null) {
        again.close();
      }
    }
  }

  @Test
  @Timeout(120)
  void aFrozenDeviceTimesOutReadsAndWrites() throws Exception {
    byte[] data = TestDevices.bytes(FILE_BYTES, 3);
    Path file = new Path("/frozen/file");
    Set<Long> before = childPids();
    DeviceProcess device = DeviceProcess.start(dataDir, TestDevices.small(dataDir));
    try (FileSystem fs = FileSystem.newInstance(uri(device), conf())) {
      Set<Long> started = childPids();
      started.removeAll(before);
      assertThat(started).as("the device process, a child of this JVM").hasSize(1);
      long pid = started.iterator().next();
      try (FSDataOutputStream out = fs.create(file)) {
        out.write(data);
      }
      FSDataInputStream in = fs.open(file);
      FSDataOutputStream writer = fs.create(new Path("/frozen/writer"));
      signal("STOP", pid);
      try {
        long start = System.nanoTime();
        // Not an InterruptedIOException (Hadoop's shell takes those for Ctrl-C): an error saying it timed out.
        DeviceTimeoutException read = assertThrows(DeviceTimeoutException.class,
            () -> in.readFully(2_000_000, new byte[1000]));
        assertThat(read).hasMessageContaining("timed out").hasMessageContaining("ms");
        assertWithinRequestTimeout(start);
        assertNamesDeviceAndPath(read, device, file);
        start = System.nanoTime();
        writer.write(1);
        DeviceTimeoutException flush = assertThrows(DeviceTimeoutException.class, writer::hflush);
        assertWithinRequestTimeout(start);
        assertNamesDeviceAndPath(flush, device, new Path("/frozen/writer"));
      } finally {
        signal("CONT", pid);
      }
    } finally {
      device.close();
    }
  }

  /** Reads once at {@code pos} and checks the bytes; the end of the file before its length fails. */
  private static int readAndCheck(FSDataInputStream in, byte[] buf, byte[] data, long pos) throws IOException {
    int n = in.read(buf);
    if (n < 0) {
      fail("the stream ended at " + pos + " of " + data.length + " bytes");
    }
    assertArrayEquals(Arrays.copyOfRange(data, (int) pos, (int) pos + n), Arrays.copyOf(buf, n));
    return n;
  }

  private static void assertWithinRequestTimeout(long startNanos) {
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    assertThat(millis).isLessThan(REQUEST_TIMEOUT_MILLIS + 3000);
  }

  private static void assertNamesDeviceAndPath(IOException e, DeviceProcess device, Path file) {
    LOG.info("as the user sees it: {}", e.toString());
    assertThat(e.getMessage()).contains(device.address()).contains(file.toUri().getPath());
  }

  private static Set<Long> childPids() {
    return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
  }

  private static void signal(String signal, long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor()).isZero();
  }
}
