package org.smartssd.model;

import java.util.Map;
import java.util.Objects;

/**
 * A job as the analytic model sees it: its input and the counted work of its functions, measured on
 * a sample (the work per record does not depend on the device, the host or the size of the input).
 *
 * @param name what the job is
 * @param recordBytes bytes a record
 * @param deviceLane the device's work in one lane: the map and the combiner, per record, and a fixed
 *     part per lane and execution (the last combine and emission)
 * @param merge the controller core's merge of one lane's results (merge on the device)
 * @param resultBytesPerLane the bytes one lane's results take, per execution
 * @param host the host's work in each mode, per input record and fixed per job
 * @param laneMemoryBytes memory one lane's function needs (the iSSD's M(f), for its swap cost)
 */
public record Workload(String name, int recordBytes, Work deviceLane, Counts merge, double resultBytesPerLane,
    Map<Mode, Work> host, long laneMemoryBytes) {

  public Workload {
    Objects.requireNonNull(name, "name");
    if (recordBytes < 1) {
      throw new IllegalArgumentException("a record has at least one byte, not " + recordBytes);
    }
    host = Map.copyOf(host);
    for (Mode m : Mode.values()) {
      if (!host.containsKey(m)) {
        throw new IllegalArgumentException("the host's work in mode " + m.optionName() + " is missing");
      }
    }
  }
}
