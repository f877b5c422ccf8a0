package org.smartssd.objectfs;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.smartssd.device.client.DeviceClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A few device connections shared round-robin. Each connection pipelines any number of requests,
 * so callers share them rather than take one exclusively. A connection reported lost, or found
 * closed (the device closes connections idle past {@code smartssd.device.host.idle-timeout-ms}), is
 * dropped and its slot reconnects on next use, so that a file system outlives a device restart.
 */
final class ConnectionPool implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionPool.class);

  /** Opens one connection; the only place the transport is chosen. */
  interface Connector {
    DeviceClient connect() throws IOException;
  }

  private final Connector connector;
  private final String address;
  private final DeviceClient[] slots;
  private final AtomicInteger next = new AtomicInteger();
  private volatile boolean closed;

  /** Connects the first slot at once, so that an unreachable device fails here; the others on first use. */
  ConnectionPool(Connector connector, String address, int size) throws IOException {
    this.connector = connector;
    this.address = address;
    this.slots = new DeviceClient[size];
    slots[0] = connector.connect();
  }

  /** A connection to send on. */
  DeviceClient acquire() throws IOException {
    int slot = Math.floorMod(next.getAndIncrement(), slots.length);
    synchronized (slots) {
      if (closed) {
        throw new IOException("the objfs connection pool to device " + address + " is closed");
      }
      DeviceClient client = slots[slot];
      if (client != null && !client.isOpen()) {
        closeQuietly(client);
        client = null;
      }
      if (client == null) {
        client = connector.connect();
        slots[slot] = client;
      }
      return client;
    }
  }

  /** The connections it keeps at most. */
  int size() {
    return slots.length;
  }

  /** Drops a connection that was lost; its slot connects afresh on next use. */
  void discard(DeviceClient client) {
    synchronized (slots) {
      for (int i = 0; i < slots.length; i++) {
        if (slots[i] == client) {
          slots[i] = null;
        }
      }
    }
    closeQuietly(client);
  }

  @Override
  public void close() {
    synchronized (slots) {
      if (closed) {
        return;
      }
      closed = true;
      for (int i = 0; i < slots.length; i++) {
        if (slots[i] != null) {
          closeQuietly(slots[i]);
          slots[i] = null;
        }
      }
    }
  }

  private static void closeQuietly(DeviceClient client) {
    try {
      client.close();
    } catch (IOException | RuntimeException e) {
      // Closing a connection only frees it: nothing a caller could act on.
      LOG.debug("closing {}: {}", client, e.toString());
    }
  }
}
