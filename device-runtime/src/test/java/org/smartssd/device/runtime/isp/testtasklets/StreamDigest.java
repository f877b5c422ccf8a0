package org.smartssd.device.runtime.isp.testtasklets;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Takes each input as a stream: checks that its chunks come in offset order without a gap, and at
 * the end reports per input "lane|path|first offset|bytes|hash", the hash one that changes with the
 * bytes' order (h = 31h + b). Fails the execution on a chunk out of order. Merged on the device, the
 * lanes' lines go out as they are.
 */
public class StreamDigest implements MergingTasklet {
  private int lane;
  private final Map<String, long[]> streams = new TreeMap<>(); // path -> first, next, hash

  @Override
  public void onCreate(TaskletContext context) {
    lane = context.lane();
  }

  @Override
  public RecordFormat recordFormat() {
    return RecordFormat.stream();
  }

  @Override
  public void onExecute(ExecutionInfo execution) {}

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    long[] s = streams.computeIfAbsent(chunk.path(), p -> new long[] {chunk.offset(), chunk.offset(), 0});
    if (chunk.offset() != s[1]) {
      throw new IllegalStateException(chunk.path() + ": chunk at " + chunk.offset() + " where " + s[1] + " was next");
    }
    long h = s[2];
    for (int i = chunk.data().position(); i < chunk.data().limit(); i++) {
      h = 31 * h + (chunk.data().get(i) & 0xFF);
    }
    s[2] = h;
    s[1] += chunk.data().remaining();
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (!last) {
      return;
    }
    for (Map.Entry<String, long[]> e : streams.entrySet()) {
      long[] s = e.getValue();
      String line = lane + "|" + e.getKey() + "|" + s[0] + "|" + (s[1] - s[0]) + "|" + s[2];
      results.emit(line.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws InterruptedException {
    for (TaskletResult r : laneResults) {
      byte[] line = new byte[r.data().remaining()];
      r.data().duplicate().get(line);
      results.emit(line);
    }
  }

  /** The hash the tasklet computes over {@code [from, to)} of {@code data}. */
  public static long hash(byte[] data, int from, int to) {
    long h = 0;
    for (int i = from; i < to; i++) {
      h = 31 * h + (data[i] & 0xFF);
    }
    return h;
  }
}
