package org.smartssd.device.tasklet;

/**
 * Code the host installs into the device, driven by the engine through the source's four events.
 * An implementation needs a public no-argument constructor. It must not reach for files, the
 * network, processes or threads: the device refuses such code when it is installed.
 */
public interface Tasklet {

  /** The tasklet is installed in a lane, with the parameters given at {@code create_object}. */
  void onCreate(TaskletContext context) throws Exception;

  /**
   * How the engine cuts the input before {@link #onDataAvailable}: raw bytes, fixed-length records
   * or delimited records. Asked once, after {@link #onCreate}.
   */
  default RecordFormat recordFormat() {
    return RecordFormat.raw();
  }

  /** An execution over {@code execution}'s inputs begins in this lane. */
  void onExecute(ExecutionInfo execution) throws Exception;

  /**
   * An internal read completed. With a record format, {@code chunk} holds whole records only, each
   * delivered exactly once in the whole execution, whichever lanes held its bytes.
   */
  void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception;

  /**
   * The host asks for results: emit what is ready. {@code last} is true once, after the lane's last
   * data: emit the rest then.
   */
  void onRead(ResultSink results, boolean last) throws Exception;
}
