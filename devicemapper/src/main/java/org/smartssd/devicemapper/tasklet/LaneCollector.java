package org.smartssd.devicemapper.tasklet;

import java.io.IOException;

/**
 * A lane's map output buffer inside the device: it takes what the mapper writes (checked as Hadoop's map
 * output buffer checks it), runs the job's combiner over it when it fills and at the end, and hands the
 * pairs on to the lane's result batcher. {@link GroupingCollector} groups by key as the pairs come, when
 * the job sets no comparator (or has no combiner); {@link MapOutputCollector} sorts with the job's
 * comparators.
 */
interface LaneCollector {
  /** The mapper's {@code context.write}. */
  void collect(Object key, Object value) throws IOException, InterruptedException;

  /** A pair already serialized (a lane's partial result, merged on the controller core). */
  void collectRaw(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength)
      throws IOException, InterruptedException;

  /** The end of the lane: combines what is buffered and hands everything to the batcher. */
  void finish() throws IOException, InterruptedException;
}
