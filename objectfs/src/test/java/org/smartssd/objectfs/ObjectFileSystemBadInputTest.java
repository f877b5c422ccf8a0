package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.apache.hadoop.security.AccessControlException;

/**
 * URIs that name no device, devices that cannot be reached, and devices that require a secret the
 * file system does not hold: a clear IOException, never a hang.
 */
class ObjectFileSystemBadInputTest {

  private static Configuration conf() {
    Configuration conf = LocalDevice.conf();
    conf.set(ObjfsConfigKeys.CONNECT_TIMEOUT, "1s");
    return conf;
  }

  @Test
  void aUriWithoutPortOrHostIsRefused() {
    for (String uri : new String[] {"objfs://localhost/data", "objfs:///data", "objfs://localhost:0/"}) {
      assertThatThrownBy(() -> FileSystem.newInstance(URI.create(uri), conf()))
          .as(uri)
          .isInstanceOf(IOException.class)
          .hasMessageContaining(uri)
          .hasMessageContaining("objfs://HOST:PORT/path");
    }
  }

  @Test
  @Timeout(30)
  void aPortNobodyListensOnFailsAtOnce() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI uri = URI.create("objfs://127.0.0.1:" + port + "/");
    assertThatThrownBy(() -> FileSystem.newInstance(uri, conf()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("127.0.0.1:" + port)
        .hasMessageContaining("cannot connect");
  }

  @Test
  @Timeout(30)
  void aListenerThatNeverAnswersTimesOut() throws IOException {
    // Accepts connections (the kernel's backlog does) but never answers the version handshake.
    try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
      URI uri = URI.create("objfs://127.0.0.1:" + silent.getLocalPort() + "/");
      long start = System.nanoTime();
      assertThatThrownBy(() -> FileSystem.newInstance(uri, conf()))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("127.0.0.1:" + silent.getLocalPort());
      assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000);
    }
  }

  @Test
  @Timeout(60)
  void aDeviceThatRequiresASecretRefusesAFileSystemWithoutItOrWithAnother(@TempDir java.nio.file.Path dir)
      throws IOException {
    java.nio.file.Path secret = dir.resolve("secret");
    org.smartssd.device.protocol.HostSecret.generate(secret);
    java.util.Map<String, String> o = org.smartssd.device.runtime.TestDevices.small(dir.resolve("device"));
    o.put("smartssd.device.host.secret-file", secret.toString());
    try (org.smartssd.device.runtime.SimulatedDevice device = org.smartssd.device.runtime.TestDevices.start(o)) {
      URI uri = URI.create("objfs://" + device.address() + "/");
      assertThatThrownBy(() -> FileSystem.newInstance(uri, conf()))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining(device.address())
          .hasMessageContaining("requires hosts to authenticate")
          .hasMessageContaining(ObjfsConfigKeys.SECRET_FILE);
      java.nio.file.Path other = dir.resolve("other");
      org.smartssd.device.protocol.HostSecret.generate(other);
      Configuration wrong = conf();
      wrong.set(ObjfsConfigKeys.SECRET_FILE, other.toString());
      assertThatThrownBy(() -> FileSystem.newInstance(uri, wrong))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("refused the proof");
      Configuration right = conf();
      right.set(ObjfsConfigKeys.SECRET_FILE, secret.toString());
      try (FileSystem fs = FileSystem.newInstance(uri, right)) {
        fs.mkdirs(new org.apache.hadoop.fs.Path("/with-the-secret"));
        assertThat(fs.getFileStatus(new org.apache.hadoop.fs.Path("/with-the-secret")).isDirectory()).isTrue();
      }
    }
  }
}
