package org.smartssd.objectfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.DeviceTransport;
import org.smartssd.device.protocol.Response;

/**
 * The adapter over {@link DeviceClient} connections from a {@link ConnectionPool}. Only {@link
 * #connect} knows the transport (Java or native, TCP or Unix socket); everything else speaks to the {@code DeviceClient}
 * interface, so that the JNI transport can replace it.
 */
public final class DeviceClientAdapter implements ObjectStoreAdapter {
  private final String address;
  private final ConnectionPool pool;

  DeviceClientAdapter(String address, ConnectionPool.Connector connector, int poolSize) throws IOException {
    this.address = address;
    this.pool = new ConnectionPool(connector, address, poolSize);
  }

  /** Connects to the device through the transport, with {@code poolSize} pooled connections (the first at once). */
  public static DeviceClientAdapter connect(DeviceTransport transport, DeviceAddress address, ClientOptions options,
      int poolSize) throws IOException {
    return new DeviceClientAdapter(address.toString(), () -> transport.connect(address, options), poolSize);
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public DeviceInfo deviceInfo() throws IOException {
    return retrying(DeviceClient::info);
  }

  @Override
  public void mkdirs(String path, int permission) throws IOException {
    call(c -> {
      c.mkdirs(path, permission);
      return null;
    });
  }

  @Override
  public ObjectStatus status(String path) throws IOException {
    return retrying(c -> c.status(path));
  }

  @Override
  public ObjectStatus open(String path) throws IOException {
    return retrying(c -> c.open(path));
  }

  @Override
  public int read(long objectId, long offset, ByteBuffer dst) throws IOException {
    int position = dst.position();
    return retrying(c -> {
      dst.position(position); // a read cut off by a lost connection may have filled part of dst
      return c.read(objectId, offset, dst);
    });
  }

  @Override
  public ObjectWriter create(String path, boolean overwrite, boolean createParents, int permission)
      throws IOException {
    DeviceClient client = pool.acquire();
    return new Writer(client, guard(client, () -> client.create(path, overwrite, createParents, permission)));
  }

  @Override
  public ObjectWriter append(String path) throws IOException {
    DeviceClient client = pool.acquire();
    return new Writer(client, guard(client, () -> client.append(path)));
  }

  @Override
  public ListPage list(String path, String startAfter, int limit) throws IOException {
    Response.Listing page = retrying(c -> c.list(path, startAfter, limit));
    return new ListPage(page.entries(), page.more());
  }

  @Override
  public void rename(String source, String destination) throws IOException {
    call(c -> {
      c.rename(source, destination);
      return null;
    });
  }

  @Override
  public void delete(String path, boolean recursive) throws IOException {
    call(c -> {
      c.delete(path, recursive);
      return null;
    });
  }

  @Override
  public void setPermission(String path, int permission) throws IOException {
    call(c -> {
      c.setPermission(path, permission);
      return null;
    });
  }

  @Override
  public void setOwner(String path, String owner, String group) throws IOException {
    call(c -> {
      c.setOwner(path, owner, group);
      return null;
    });
  }

  @Override
  public void setTimes(String path, long modificationTimeMillis, long accessTimeMillis) throws IOException {
    call(c -> {
      c.setTimes(path, modificationTimeMillis, accessTimeMillis);
      return null;
    });
  }

  @Override
  public void close() {
    pool.close();
  }

  @Override
  public String toString() {
    return "DeviceClientAdapter[" + address + "]";
  }

  private interface ClientCall<T> {
    T apply(DeviceClient client) throws IOException;
  }

  private interface Action<T> {
    T run() throws IOException;
  }

  private <T> T call(ClientCall<T> call) throws IOException {
    DeviceClient client = pool.acquire();
    return guard(client, () -> call.apply(client));
  }

  /**
   * As {@link #call}, for a request that changes nothing on the device (safe to send twice): when
   * its connection turns out to be lost, which is what the first request after a device restart
   * finds, it is sent once more on a fresh connection, so that a file system outlives a restart of
   * its device without its callers seeing the old connection's end.
   */
  private <T> T retrying(ClientCall<T> call) throws IOException {
    IOException first = null;
    // Every pooled connection may date from before the restart: each lost one is dropped, so that
    // at worst the last try connects afresh.
    for (int tries = pool.size() + 1; ; tries--) {
      DeviceClient client = pool.acquire();
      try {
        return guard(client, () -> call.apply(client));
      } catch (IOException e) {
        if (first != null && first != e) {
          e.addSuppressed(first);
        }
        if (!isConnectionLost(e) || tries <= 1) {
          throw e;
        }
        first = first == null ? e : first;
      }
    }
  }

  /** Runs a request on {@code client}, dropping the connection from the pool when it was lost. */
  private <T> T guard(DeviceClient client, Action<T> action) throws IOException {
    try {
      return action.run();
    } catch (IOException e) {
      if (isConnectionLost(e)) {
        pool.discard(client);
      }
      throw e;
    }
  }

  /**
   * The client raises a status' own exception type for every device answer, and a timeout or an
   * interrupt as {@link java.io.InterruptedIOException} (the connection stays usable); a lost
   * connection is the one failure it raises as a plain {@link IOException}.
   */
  static boolean isConnectionLost(IOException e) {
    return e.getClass() == IOException.class;
  }

  /** A write handle kept on the connection that opened it, as the device requires. */
  private final class Writer implements ObjectWriter {
    private final DeviceClient client;
    private final Response.Opened opened;

    Writer(DeviceClient client, Response.Opened opened) {
      this.client = client;
      this.opened = opened;
    }

    @Override
    public long objectId() {
      return opened.objectId();
    }

    @Override
    public long initialLength() {
      return opened.length();
    }

    @Override
    public long write(ByteBuffer data) throws IOException {
      return guard(client, () -> client.write(opened.handle(), data));
    }

    @Override
    public long flush() throws IOException {
      return guard(client, () -> client.flush(opened.handle()));
    }

    @Override
    public long sync() throws IOException {
      return guard(client, () -> client.sync(opened.handle()));
    }

    @Override
    public long close() throws IOException {
      return guard(client, () -> client.closeHandle(opened.handle()));
    }
  }
}
