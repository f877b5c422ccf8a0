package org.smartssd.device.runtime.host;

/**
 * What the host interface lets its clients hold, so that no client can stall or exhaust the device
 * (the README's "What the device promises").
 *
 * @param maxConnections connections served at once
 * @param workerThreads threads carrying commands out, shared by all connections
 * @param maxFrameBytes the largest request payload accepted
 * @param frameMemoryBytes request bytes held at once over all connections (at least {@code maxFrameBytes})
 * @param ioTimeoutMs how long an answer may stay unread, or a started frame unfinished, before the
 *     connection is closed
 * @param idleTimeoutMs how long a connection holding nothing may stay silent; 0 for ever
 */
public record HostLimits(int maxConnections, int workerThreads, int maxFrameBytes, int frameMemoryBytes,
    long ioTimeoutMs, long idleTimeoutMs) {

  public HostLimits {
    if (maxConnections < 1 || workerThreads < 1 || maxFrameBytes < 1 || frameMemoryBytes < maxFrameBytes
        || ioTimeoutMs < 1 || idleTimeoutMs < 0) {
      throw new IllegalArgumentException("inconsistent host limits: connections " + maxConnections + ", workers "
          + workerThreads + ", frame " + maxFrameBytes + " of " + frameMemoryBytes + " bytes, timeouts "
          + ioTimeoutMs + " and " + idleTimeoutMs + " ms");
    }
  }
}
