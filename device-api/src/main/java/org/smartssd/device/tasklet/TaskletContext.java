package org.smartssd.device.tasklet;

import java.util.Map;

/** What a tasklet instance knows when it is installed. */
public interface TaskletContext {

  /** The parameters given at {@code create_object}. */
  Map<String, String> parameters();

  /** The class name it was installed under. */
  String taskletName();

  /** This instance's lane (device core), 0 to {@code lanes() - 1}; -1 for the merging instance. */
  int lane();

  /** How many lanes the device runs. */
  int lanes();

  /**
   * The longest record the device lets a tasklet hold ({@code smartssd.device.isp.max-record-bytes}):
   * the engine fails an execution over a longer delimited record, and a tasklet that cuts records
   * itself (from a {@link RecordFormat.Kind#STREAM STREAM}) should too.
   */
  int maxRecordBytes();

  /**
   * Reads a whole object of this device, for the user whose execution this is (who must be able to
   * read it, as to open it): a side input, such as a table, a model, or an earlier iteration's output
   * object, read next to the flash rather than sent by the host. Its pages are read as the inputs' are
   * (internal reads, on the channels that hold them, modelled), and this lane's core waits for them.
   * The bytes are the lane's memory: an object larger than the device's memory budget of one event
   * ({@code smartssd.device.isp.memory-budget-bytes}) is refused. Only during an execution's events.
   *
   * @return the object's bytes, read-only
   * @throws java.io.FileNotFoundException when there is no such file
   * @throws java.nio.file.AccessDeniedException when the execution's user may not read it
   * @throws IOException when it is too large, damaged ({@code CORRUPT}), or cannot be read
   */
  default java.nio.ByteBuffer readObject(String path) throws java.io.IOException, InterruptedException {
    throw new UnsupportedOperationException("this context reads no objects");
  }

  /**
   * Tells the device how many bytes the lane's function now holds as its intermediate result (the
   * iSSD's M(f): partial sums, counts, a combiner's pairs), as it changes; the largest is what counts.
   * The device does not measure a lane's memory itself, so a tasklet that never says holds nothing.
   * On a device whose lanes have a bounded memory ({@code smartssd.device.isp.lane-memory-bytes}, the
   * iSSD's channel memory M_ch), a lane that held more than fits swaps to flash as the iSSD's Eq. 9 has
   * it: its data is read again from flash {@code ceil(M(f) / M_ch) - 1} more times, modelled as
   * internal reads after its last work. The merging instance's (lane -1) memory is the controller's
   * and is not bounded.
   *
   * @throws IllegalArgumentException if {@code bytes} is negative
   */
  default void holding(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("a lane holds no negative bytes: " + bytes);
    }
  }
}
