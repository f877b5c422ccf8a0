package org.smartssd.device.client;

/**
 * Bytes a {@link DeviceClient} has put on its connection and taken off it since it connected:
 * whole frames, 32-byte headers included, the connect's handshake too. The difference of two
 * snapshots ({@link #since}) is what crossed in between.
 */
public record TransferCounts(long bytesSent, long bytesReceived) {
  public static final TransferCounts ZERO = new TransferCounts(0, 0);

  /** What crossed since {@code earlier}, a snapshot of the same client. */
  public TransferCounts since(TransferCounts earlier) {
    return new TransferCounts(bytesSent - earlier.bytesSent, bytesReceived - earlier.bytesReceived);
  }

  /** Both ways. */
  public long total() {
    return bytesSent + bytesReceived;
  }
}
