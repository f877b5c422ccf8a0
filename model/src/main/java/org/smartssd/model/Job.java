package org.smartssd.model;

import org.smartssd.device.runtime.config.DeviceConfig;

/**
 * How a job meets its devices: how much input, over how many devices (equal parts, one file each),
 * and the host side's settings that shape its requests.
 *
 * @param records input records, in all
 * @param devices devices holding equal parts of the input
 * @param readaheadBytes bytes a host-mode read asks a device for at once (objfs's read-ahead)
 * @param splitBytes bytes of a split (a device execution covers one; objfs's block size)
 * @param mergeOnDevice whether lanes' results are merged on the device's controller core
 * @param laneMemoryBytes memory a lane's function may use before it swaps (the iSSD's M_ch): a
 *     device's {@code smartssd.device.isp.lane-memory-bytes} ({@link #onDevice}); {@link Long#MAX_VALUE}
 *     for unbounded. The simulator bounds no lane's memory, whatever this says
 * @param bufferRecords records a lane buffers before it combines them (the device mapper's
 *     {@code smartssd.mapper.buffer-records}; a map output a record)
 */
public record Job(long records, int devices, long readaheadBytes, long splitBytes, boolean mergeOnDevice,
    long laneMemoryBytes, long bufferRecords) {
  /** objfs's defaults: read-ahead of at least 1 MiB, 128 MiB blocks. */
  public static final long READAHEAD_BYTES = 1 << 20;
  public static final long SPLIT_BYTES = 128L << 20;
  /** The device mapper's default {@code smartssd.mapper.buffer-records}. */
  public static final long BUFFER_RECORDS = 10_000;

  public Job {
    if (records < 0 || devices < 1 || readaheadBytes < 1 || splitBytes < 1 || laneMemoryBytes < 1
        || bufferRecords < 1) {
      throw new IllegalArgumentException("records >= 0; devices, read-ahead, split size, lane memory and buffer "
          + "records >= 1: " + records + ", " + devices + ", " + readaheadBytes + ", " + splitBytes + ", "
          + laneMemoryBytes + ", " + bufferRecords);
    }
  }

  /** A job over one device with objfs's and the device mapper's defaults. */
  public static Job of(long records, boolean mergeOnDevice) {
    return new Job(records, 1, READAHEAD_BYTES, SPLIT_BYTES, mergeOnDevice, Long.MAX_VALUE, BUFFER_RECORDS);
  }

  /**
   * A job on devices of {@code device}'s configuration: its lanes have the device's memory
   * ({@link org.smartssd.device.runtime.config.IspParameters#laneMemoryBytes}).
   */
  public static Job onDevice(DeviceConfig device, long records, int devices, long readaheadBytes, long splitBytes,
      boolean mergeOnDevice, long bufferRecords) {
    return new Job(records, devices, readaheadBytes, splitBytes, mergeOnDevice, device.isp().laneMemoryBytes(),
        bufferRecords);
  }

  /** The same job over another number of records. */
  public Job withRecords(long otherRecords) {
    return new Job(otherRecords, devices, readaheadBytes, splitBytes, mergeOnDevice, laneMemoryBytes, bufferRecords);
  }

  /** The same job over another number of devices. */
  public Job withDevices(int otherDevices) {
    return new Job(records, otherDevices, readaheadBytes, splitBytes, mergeOnDevice, laneMemoryBytes, bufferRecords);
  }

  /**
   * Records a lane still holds when told its input ended, of {@code laneRecords} it read: it combined
   * its buffer each time it filled.
   */
  public double lastBufferRecords(double laneRecords) {
    if (laneRecords <= 0) {
      return 0;
    }
    double full = Math.floor(laneRecords / bufferRecords);
    return laneRecords - full * bufferRecords;
  }
}
