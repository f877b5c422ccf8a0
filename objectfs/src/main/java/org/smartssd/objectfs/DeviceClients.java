package org.smartssd.objectfs;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;

/**
 * Device connections for programs that send a device other commands than a file system's (the
 * device mapper's in-storage processing, the log analysis's statistics), configured by the same
 * {@code fs.objfs.*} and {@code smartssd.transport} keys as objfs, so that {@link ObjectFileSystem}
 * is only a Hadoop {@code FileSystem}.
 */
public final class DeviceClients {
  private DeviceClients() {}

  /**
   * The device address of an objfs URI ({@code objfs://HOST:PORT/path}): for programs that send the
   * device other commands than the file system's, such as in-storage processing.
   *
   * @throws IOException when the URI names no {@code host:port}
   */
  public static DeviceAddress deviceAddress(URI name) throws IOException {
    String host = name.getHost();
    int port = name.getPort();
    if (host == null || host.isEmpty() || port < 1 || port > 65535) {
      throw new IOException("objfs URI '" + name + "' does not name a device: expected " + ObjectFileSystem.SCHEME
          + "://HOST:PORT/path, as in objfs://localhost:7070/data");
    }
    // URI keeps an IPv6 literal's brackets; the address wants the bare host.
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return new DeviceAddress(host, port);
  }

  /**
   * The device client settings the {@code fs.objfs.*} keys of {@code conf} give (connect and request
   * timeouts, frame limit): for programs that open their own connection to a device named by an
   * objfs URI. The identity is the current Hadoop user's, as objfs's own connections say.
   *
   * @throws IllegalArgumentException for a bad {@code fs.objfs.*} value, naming the key
   * @throws IOException when the current user cannot be found
   */
  public static ClientOptions clientOptions(Configuration conf) throws IOException {
    return ObjfsSettings.from(conf).clientOptions();
  }

  /**
   * A connection to the device at {@code address}, through the transport {@code smartssd.transport}
   * selects (the Java one when the native one cannot load, with a logged reason) and with the
   * client settings of {@link #clientOptions}: for programs that talk to a device directly, such as
   * {@code DeviceJobClient}'s proxy map tasks.
   *
   * @throws IllegalArgumentException for a bad {@code fs.objfs.*} or {@code smartssd.transport} value, naming the key
   */
  public static DeviceClient connectClient(Configuration conf, DeviceAddress address) throws IOException {
    ObjfsSettings settings = ObjfsSettings.from(conf);
    return settings.transport().connect(address, settings.clientOptions());
  }
}
