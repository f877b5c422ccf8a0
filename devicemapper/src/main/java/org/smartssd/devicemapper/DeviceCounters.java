package org.smartssd.devicemapper;

/**
 * The Hadoop counters of jobs run through {@link DeviceJobClient}, kept by the record reader of
 * each split (group {@code org.smartssd.devicemapper.DeviceCounters}).
 */
public enum DeviceCounters {
  /** Splits whose map (and combiner) ran to completion inside a device. */
  DEVICE_EXECUTIONS,
  /** Of those, the executions whose profile was written ({@code smartssd.mapper.profile-dir}). */
  DEVICE_PROFILES,
  /** Input bytes the devices handed to the tasklet (read next to the flash, not over the host interface). */
  DEVICE_BYTES_SCANNED,
  /**
   * Bytes that crossed the host interface for the data of the map phase: in device mode the frames
   * of EXECUTE_OBJECT, every READ_OBJECT (request and answer, results included), CANCEL and
   * REMOVE_OBJECT, as the client's transport counted them going out and coming in; for a split run
   * on the host, the raw bytes it read through objfs. The tasklet's installation is counted apart,
   * in {@link #TASKLET_INSTALL_BYTES}.
   */
  HOST_INTERFACE_BYTES,
  /** The devices' modelled duration of the executions (start to the last modelled completion). */
  MODELLED_DEVICE_NANOS,
  /** Modelled time the devices' cores computed in the executions, summed over the cores (the cores' busy time). */
  MODELLED_DEVICE_COMPUTE_NANOS,
  /** Counted bytecode instructions of the executions' work (the devices' counted compute model). */
  DEVICE_COUNTED_OPS,
  /** Counted heap accesses of that work. */
  DEVICE_COUNTED_MEMORY_ACCESSES,
  /** Counted library calls of that work. */
  DEVICE_COUNTED_LIBRARY_CALLS,
  /** Counted bulk bytes of that work. */
  DEVICE_COUNTED_BULK_BYTES,
  /** Data reads inside that work's library calls, by each callee's calibrated reads a call. */
  DEVICE_COUNTED_LIBRARY_READS,
  /** Of the counted ops, those the lanes did after their last read (their last combine and emission). */
  DEVICE_COUNTED_TAIL_OPS,
  /** Of the counted heap accesses, those after the lanes' last read. */
  DEVICE_COUNTED_TAIL_MEMORY_ACCESSES,
  /** Of the counted library calls, those after the lanes' last read. */
  DEVICE_COUNTED_TAIL_LIBRARY_CALLS,
  /** Of the counted bulk bytes, those after the lanes' last read. */
  DEVICE_COUNTED_TAIL_BULK_BYTES,
  /** Of the library reads, those after the lanes' last read. */
  DEVICE_COUNTED_TAIL_LIBRARY_READS,
  /** Result bytes the executions' tasklets produced (before they crossed the host interface). */
  DEVICE_RESULT_BYTES,
  /**
   * Bytes the devices wrote to map-only jobs' output files themselves ({@link DeviceOutputFormat}): output
   * that never crossed the host interface.
   */
  DEVICE_OUTPUT_BYTES,
  /** Flash pages the devices programmed for those files. */
  DEVICE_OUTPUT_PAGES,
  /**
   * The most a lane's function held in each execution (the combiner's pairs: the iSSD's M(f)), summed over
   * the executions: over {@link #DEVICE_EXECUTIONS}, their mean.
   */
  DEVICE_LANE_STATE_BYTES,
  /**
   * Flash pages lanes read again because their function held more than a lane's memory
   * ({@code smartssd.device.isp.lane-memory-bytes}): the iSSD's swap.
   */
  DEVICE_SWAP_PAGES_READ,
  /** Lanes of the executions, summed (a device's cores, once for each execution). */
  DEVICE_LANES,
  /** Modelled time host operations on the devices delayed the executions' internal reads. */
  MODELLED_HOST_DELAY_NANOS,
  /** On paced devices, how much later than their modelled end the executions really ended, summed. */
  BEHIND_MODEL_NANOS,
  /** Splits whose map ran on the host: refused or failed by the device, or fallback=always. */
  FALLBACK_SPLITS,
  /** Splits whose map ran on the host because the job was placed there (placement host, or auto's choice). */
  HOST_PLACED_SPLITS,
  /** 1 when the map phase was placed in the devices (reported once, by map task 0). */
  PLACEMENT_DEVICE,
  /** 1 when the map phase was placed on the host (reported once, by map task 0). */
  PLACEMENT_HOST,
  /** With placement auto, the predicted (modelled) time in the devices, in nanoseconds (once, by map task 0). */
  PREDICTED_DEVICE_NANOS,
  /** With placement auto, the predicted (modelled) time on the host, in nanoseconds (once, by map task 0). */
  PREDICTED_HOST_NANOS,
  /**
   * Bytes of the CREATE_OBJECT frames that installed the tasklet (its jar and parameters) and of
   * their answers, per split, as the client's transport counted them.
   */
  TASKLET_INSTALL_BYTES
}
