package org.smartssd.device;

import java.util.Objects;

/**
 * What a device's flash takes on its host's disk, against the data it holds (protocol version 2 on).
 * The flash lives in sparse backing files: disk use follows live data only while the device gives the
 * space of erased and dead pages back (space reclaim, by punching holes in the files).
 *
 * @param reclaiming whether erased flash, and pages whose data was deleted or rewritten, give their disk
 *     space back now
 * @param reclaimNote why not, when not (empty while reclaiming): switched off, no native library, not
 *     Linux, a file system that cannot punch holes, a failed punch
 * @param allocatedBytes bytes the flash backing files take on disk ({@code st_blocks x 512}, summed);
 *     {@link #UNKNOWN} when the device cannot tell (without its native library)
 * @param fileBytes the backing files' size: the raw flash capacity, which sparse files do not take
 * @param liveBytes bytes of the flash pages that hold live data (mapped pages, whole pages)
 * @param punchedBytes bytes handed back to the file system since the device started (a range punched
 *     twice counts twice)
 * @param holesPunched holes punched since the device started (each a run of neighbouring pages or blocks)
 */
public record DiskUse(boolean reclaiming, String reclaimNote, long allocatedBytes, long fileBytes, long liveBytes,
    long punchedBytes, long holesPunched) {

  /** {@link #allocatedBytes} of a device that cannot tell (all ones on the wire). */
  public static final long UNKNOWN = -1;

  public DiskUse {
    Objects.requireNonNull(reclaimNote, "reclaimNote");
    if (reclaiming && !reclaimNote.isEmpty()) {
      throw new IllegalArgumentException("a device that reclaims space has no reason not to: " + reclaimNote);
    }
  }

  /** Whether {@link #allocatedBytes} is known. */
  public boolean allocatedKnown() {
    return allocatedBytes != UNKNOWN;
  }
}
