package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device closes connections idle past {@code smartssd.device.host.idle-timeout-ms}; a file
 * system kept open longer than that (as Hadoop's cache keeps them) must not fail its next request,
 * even one that is not safe to send twice, nor lose a file it is writing slowly.
 */
class IdleConnectionTest {
  @TempDir Path dir;

  @Test
  @Timeout(60)
  void aFileSystemIdlePastTheDevicesTimeoutGoesOnAsIfNothingHappened() throws Exception {
    try (LocalDevice device = LocalDevice.start(dir, Map.of("smartssd.device.host.idle-timeout-ms", "300"))) {
      Configuration conf = LocalDevice.conf();
      conf.setInt(ObjfsConfigKeys.CONNECTION_POOL_SIZE, 2);
      try (FileSystem fs = device.newFileSystem(conf)) {
        org.apache.hadoop.fs.Path slow = new org.apache.hadoop.fs.Path("/slow");
        try (FSDataOutputStream out = fs.create(slow)) {
          out.write(new byte[] {1, 2, 3});
          out.hflush();
          fs.mkdirs(new org.apache.hadoop.fs.Path("/a"));
          fs.mkdirs(new org.apache.hadoop.fs.Path("/b"));
          Thread.sleep(2000); // several idle timeouts: the connections holding nothing are closed
          // Not safe to send twice, so not retried: it must go out on a live connection.
          assertThat(fs.rename(new org.apache.hadoop.fs.Path("/a"), new org.apache.hadoop.fs.Path("/c"))).isTrue();
          assertThat(fs.delete(new org.apache.hadoop.fs.Path("/b"), false)).isTrue();
          out.write(new byte[] {4, 5});
        }
        assertThat(fs.getFileStatus(slow).getLen()).as("the slow writer kept its file open").isEqualTo(5);
        assertThat(fs.exists(new org.apache.hadoop.fs.Path("/c"))).isTrue();
      }
    }
  }
}
