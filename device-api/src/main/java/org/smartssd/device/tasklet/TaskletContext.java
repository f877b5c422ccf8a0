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
}
