package org.smartssd.model;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A job as the analytic model sees it: its input and the counted work of its functions, measured on
 * a sample (the work per record does not depend on the device, the host or the size of the input).
 *
 * @param name what the job is
 * @param recordBytes bytes a record
 * @param deviceLane the device's work in one lane: the map and the combiner, per record, and a fixed
 *     part per lane and execution (the last combine and emission)
 * @param laneTail of that work, what a lane does after its last read, when told its input ended: a
 *     fixed part, and a part per record it still holds in its buffer (records not yet combined)
 * @param merge the controller core's merge (merge on the device): a fixed part an execution (its
 *     set-up, such as reading the job's configuration) and a part for each byte of the lanes' results
 *     it merges (in {@link Work#perRecord}: here a result byte, not an input record)
 * @param laneResults the bytes of one lane's results against the records it read (with a combiner,
 *     about the distinct keys among them)
 * @param host the host's work in each mode the job has, per input record and fixed per job: device mode's
 *     always (the host reads the partial results and reduces), a host mode's where the job runs in it (the
 *     data-mining workloads have no host-optimized mode; the model predicts no mode a workload lacks)
 * @param hostPerSplit the host's work in each mode for each split (a map task's own: Hadoop allocates
 *     and clears each map task's output buffer, for one); a mode left out has none
 * @param hostPerResultByte device mode: the host's work for each byte of partial results it receives
 *     (decoding them, combining and reducing them)
 * @param laneState the most a lane's function holds (the iSSD's M(f), for its swap cost) against the
 *     records the lane read, as the device reports it ({@code TaskletContext.holding}: with a combiner,
 *     the combined pairs, about the distinct keys among the records); {@link ResultCurve#NONE} for a
 *     function that holds nothing
 */
public record Workload(String name, int recordBytes, Work deviceLane, Work laneTail, Work merge,
    ResultCurve laneResults, Map<Mode, Work> host, Map<Mode, Counts> hostPerSplit, Counts hostPerResultByte,
    ResultCurve laneState) {

  /** A workload whose lanes hold {@code laneStateBytes} whatever they read. */
  public Workload(String name, int recordBytes, Work deviceLane, Work laneTail, Work merge, ResultCurve laneResults,
      Map<Mode, Work> host, Map<Mode, Counts> hostPerSplit, Counts hostPerResultByte, long laneStateBytes) {
    this(name, recordBytes, deviceLane, laneTail, merge, laneResults, host, hostPerSplit, hostPerResultByte,
        ResultCurve.constant(laneStateBytes));
  }

  public Workload {
    Objects.requireNonNull(name, "name");
    if (recordBytes < 1) {
      throw new IllegalArgumentException("a record has at least one byte, not " + recordBytes);
    }
    host = Map.copyOf(host);
    hostPerSplit = Map.copyOf(hostPerSplit);
    Objects.requireNonNull(hostPerResultByte, "hostPerResultByte");
    Objects.requireNonNull(merge, "merge");
    Objects.requireNonNull(laneResults, "laneResults");
    Objects.requireNonNull(laneState, "laneState");
    if (!host.containsKey(Mode.DEVICE) || host.size() < 2) {
      throw new IllegalArgumentException("the host's work is needed in device mode and a host mode, not only in "
          + String.join(", ", host.keySet().stream().map(Mode::optionName).toList()));
    }
  }

  /** The modes the job runs in: those the host's work is known in, in the enum's order. */
  public Set<Mode> modes() {
    return Collections.unmodifiableSet(EnumSet.copyOf(host.keySet()));
  }

  /** The host's work for each split in a mode. */
  public Counts hostPerSplit(Mode mode) {
    return hostPerSplit.getOrDefault(mode, Counts.ZERO);
  }
}
