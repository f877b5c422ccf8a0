package org.smartssd.model;

/**
 * How a job meets its devices: how much input, over how many devices (equal parts, one file each),
 * and the host side's settings that shape its requests.
 *
 * @param records input records, in all
 * @param devices devices holding equal parts of the input
 * @param readaheadBytes bytes a host-mode read asks a device for at once (objfs's read-ahead)
 * @param splitBytes bytes of a split (a device execution covers one; objfs's block size)
 * @param mergeOnDevice whether lanes' results are merged on the device's controller core
 * @param laneMemoryBytes memory a lane's function may use before it swaps (the iSSD's M_ch);
 *     {@link Long#MAX_VALUE} for none, as the simulator has none
 */
public record Job(long records, int devices, long readaheadBytes, long splitBytes, boolean mergeOnDevice,
    long laneMemoryBytes) {
  /** objfs's defaults: read-ahead of at least 1 MiB, 128 MiB blocks. */
  public static final long READAHEAD_BYTES = 1 << 20;
  public static final long SPLIT_BYTES = 128L << 20;

  public Job {
    if (records < 0 || devices < 1 || readaheadBytes < 1 || splitBytes < 1 || laneMemoryBytes < 1) {
      throw new IllegalArgumentException("records >= 0, devices, read-ahead and split size >= 1: " + records + ", "
          + devices + ", " + readaheadBytes + ", " + splitBytes);
    }
  }

  /** A job over one device with objfs's defaults. */
  public static Job of(long records, boolean mergeOnDevice) {
    return new Job(records, 1, READAHEAD_BYTES, SPLIT_BYTES, mergeOnDevice, Long.MAX_VALUE);
  }
}
