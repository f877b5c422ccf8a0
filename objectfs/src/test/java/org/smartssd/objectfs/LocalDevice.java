package org.smartssd.objectfs;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;

/** A small simulated device in this JVM, for the tests that need no device process of their own. */
final class LocalDevice implements AutoCloseable {
  final SimulatedDevice device;
  final URI uri;

  private LocalDevice(SimulatedDevice device) {
    this.device = device;
    this.uri = URI.create(ObjectFileSystem.SCHEME + "://" + device.address());
  }

  static LocalDevice start(Path dataDir) throws IOException {
    return start(dataDir, java.util.Map.of());
  }

  /** A small device with {@code settings} on top of the test defaults. */
  static LocalDevice start(Path dataDir, java.util.Map<String, String> settings) throws IOException {
    java.util.Map<String, String> o = TestDevices.small(dataDir);
    o.putAll(settings);
    return new LocalDevice(TestDevices.start(o));
  }

  /** Settings for tests: short timeouts, so that a failure shows in seconds. */
  static Configuration conf() {
    Configuration conf = new Configuration();
    conf.set(ObjfsConfigKeys.CONNECT_TIMEOUT, "2s");
    conf.set(ObjfsConfigKeys.REQUEST_TIMEOUT, "10s");
    return conf;
  }

  /** A file system of its own (not the cached one), for the caller to close. */
  FileSystem newFileSystem(Configuration conf) throws IOException {
    return FileSystem.newInstance(uri, conf);
  }

  @Override
  public void close() throws IOException {
    device.close();
  }
}
