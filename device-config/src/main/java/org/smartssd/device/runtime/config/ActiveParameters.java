package org.smartssd.device.runtime.config;

/**
 * Active Flash's part of a device: analysis attached to data as it is written, the device's idle time,
 * and garbage collection in it (Boboila et al.).
 *
 * @param bufferBytes the DRAM holding written pages until an attached analysis has taken them
 * @param idleAfterNanos how long without host commands, on the modelled clock, makes the device idle
 * @param idleGc whether garbage collection runs in idle time
 * @param idleGcThreshold it runs while the erased pages are fewer than this fraction of the reserved ones
 */
public record ActiveParameters(long bufferBytes, long idleAfterNanos, boolean idleGc, double idleGcThreshold) {
  public ActiveParameters {
    if (bufferBytes < 1) {
      throw new IllegalArgumentException("the buffer must hold a byte at least, not " + bufferBytes);
    }
    if (idleAfterNanos < 0) {
      throw new IllegalArgumentException("negative idle time " + idleAfterNanos);
    }
    if (!(idleGcThreshold >= 0 && idleGcThreshold <= 1)) {
      throw new IllegalArgumentException("the idle GC threshold is a fraction from 0 to 1, not " + idleGcThreshold);
    }
  }
}
