package org.smartssd.device.tasklet;

import java.util.List;

/**
 * A tasklet whose lanes' partial results can be merged on the device's controller core before they
 * go to the host (the iSSD's global merge placement). Without it, an execution can only send each
 * lane's partial results to the host, which merges them (the Smart SSD's placement, the default).
 */
public interface MergingTasklet extends Tasklet {

  /**
   * Merges every lane's results (in lane order, each lane's in the order emitted) into the
   * execution's results. Runs on a fresh instance that got {@link #onCreate} with lane -1.
   */
  void onMerge(List<TaskletResult> laneResults, ResultSink results) throws Exception;
}
