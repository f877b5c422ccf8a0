package org.smartssd.objectfs;

import static org.smartssd.objectfs.ObjfsConfigKeys.*;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.smartssd.device.client.ClientIdentity;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceTransport;
import org.smartssd.device.client.DeviceTransports;
import org.smartssd.device.protocol.HostSecret;

/**
 * The objfs settings of one file system instance: every {@code fs.objfs.*} key read once, here,
 * and checked, so that a bad value fails {@code initialize} with the key's name.
 *
 * @param readaheadBytes 0: whole stripes of the device, at least 1 MiB, known only once connected
 * @param host "": the device's own name
 * @param transport the Java client, or another transport when it can be used here
 * @param secret the devices' secret, or null for none
 */
record ObjfsSettings(
    Duration connectTimeout,
    Duration requestTimeout,
    int connectionPoolSize,
    int maxFrameBytes,
    long blockSize,
    long readaheadBytes,
    int writeBufferBytes,
    String host,
    int listPageSize,
    int vectoredReadThreads,
    DeviceTransport transport,
    HostSecret secret) {

  static ObjfsSettings from(Configuration conf) {
    return new ObjfsSettings(
        duration(conf, CONNECT_TIMEOUT, CONNECT_TIMEOUT_DEFAULT),
        duration(conf, REQUEST_TIMEOUT, REQUEST_TIMEOUT_DEFAULT),
        (int) atLeast(CONNECTION_POOL_SIZE, conf.getInt(CONNECTION_POOL_SIZE, CONNECTION_POOL_SIZE_DEFAULT), 1),
        (int) atMostInt(MAX_FRAME_BYTES, atLeast(MAX_FRAME_BYTES,
            conf.getLongBytes(MAX_FRAME_BYTES, MAX_FRAME_BYTES_DEFAULT), ClientOptions.MAX_FRAME_BYTES_MIN)),
        atLeast(BLOCK_SIZE, conf.getLongBytes(BLOCK_SIZE, BLOCK_SIZE_DEFAULT), 1),
        atMostInt(READAHEAD_BYTES, atLeast(READAHEAD_BYTES,
            conf.getLongBytes(READAHEAD_BYTES, READAHEAD_BYTES_DEFAULT), 0)),
        (int) atMostInt(WRITE_BUFFER_BYTES, atLeast(WRITE_BUFFER_BYTES,
            conf.getLongBytes(WRITE_BUFFER_BYTES, WRITE_BUFFER_BYTES_DEFAULT), 1)),
        conf.getTrimmed(HOST, HOST_DEFAULT),
        (int) atLeast(LIST_PAGE_SIZE, conf.getInt(LIST_PAGE_SIZE, LIST_PAGE_SIZE_DEFAULT), 1),
        (int) atLeast(VECTORED_READ_THREADS, conf.getInt(VECTORED_READ_THREADS, VECTORED_READ_THREADS_DEFAULT), 1),
        transport(conf.getTrimmed(TRANSPORT, TRANSPORT_DEFAULT)),
        secret(conf.getTrimmed(SECRET_FILE, SECRET_FILE_DEFAULT)));
  }

  private static HostSecret secret(String file) {
    if (file.isEmpty()) {
      return null;
    }
    try {
      return HostSecret.read(java.nio.file.Path.of(file));
    } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
      throw new IllegalArgumentException(SECRET_FILE + ": " + HostSecret.reason(e), e);
    }
  }

  private static DeviceTransport transport(String name) {
    try {
      return DeviceTransports.select(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(TRANSPORT + ": " + e.getMessage(), e);
    }
  }

  /**
   * The client settings, with the identity of the current Hadoop user (its short name and groups),
   * which the device checks permissions against, as HDFS does the user a client names.
   */
  ClientOptions clientOptions() throws IOException {
    return new ClientOptions(connectTimeout, requestTimeout, maxFrameBytes, secret, currentIdentity());
  }

  /** The current {@code UserGroupInformation}'s short name and groups (none when its groups cannot be found). */
  static ClientIdentity currentIdentity() throws IOException {
    UserGroupInformation user = UserGroupInformation.getCurrentUser();
    return new ClientIdentity(user.getShortUserName(), List.of(user.getGroupNames()));
  }

  private static Duration duration(Configuration conf, String key, String defaultValue) {
    long millis = conf.getTimeDuration(key, defaultValue, TimeUnit.MILLISECONDS);
    if (millis <= 0) {
      throw new IllegalArgumentException(key + " must be positive, was " + conf.get(key));
    }
    return Duration.ofMillis(millis);
  }

  private static long atLeast(String key, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(key + " must be at least " + min + ", was " + value);
    }
    return value;
  }

  private static long atMostInt(String key, long value) {
    if (value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(key + " must be at most " + Integer.MAX_VALUE + ", was " + value);
    }
    return value;
  }
}
