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

/** URIs that name no device, and devices that cannot be reached: a clear IOException, never a hang. */
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
}
