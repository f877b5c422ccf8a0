package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.util.HashMap;
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
 * Sums a value field per key field over fixed-length records (a count per key when
 * {@code value-length} is 0). Parameters: {@code record-length}; {@code key-offset},
 * {@code key-length} (default 4), {@code key-shift}, {@code key-mask}; {@code value-offset},
 * {@code value-length} (0 to 8, default 0), {@code value-shift}, {@code value-mask}. When asked for
 * results, a lane emits its partial sums as (u64 key, u64 sum) pairs and starts again from zero;
 * the host (or the controller's merge) adds the partial sums up.
 */
public final class GroupedSum implements MergingTasklet {
  private int recordLength;
  private Field key;
  private Field value;
  private final Map<Long, long[]> sums = new HashMap<>();

  @Override
  public void onCreate(TaskletContext context) {
    Parameters p = new Parameters("GroupedSum", context.parameters());
    recordLength = (int) p.number("record-length", 1, Integer.MAX_VALUE);
    key = Field.read(p, "key", recordLength);
    value = p.number("value-length", 0, 8, 0) == 0 ? null : Field.read(p, "value", recordLength);
  }

  @Override
  public RecordFormat recordFormat() {
    return RecordFormat.fixedLength(recordLength);
  }

  @Override
  public void onExecute(ExecutionInfo execution) {
    sums.clear();
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    ByteBuffer data = chunk.data();
    for (int base = data.position(); base + recordLength <= data.limit(); base += recordLength) {
      long k = key.get(data, base);
      long v = value == null ? 1 : value.get(data, base);
      sums.computeIfAbsent(k, x -> new long[1])[0] += v;
    }
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (!sums.isEmpty()) {
      results.emit(encode(sums));
      sums.clear();
    }
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws InterruptedException {
    Map<Long, Long> total = sums(laneResults);
    Map<Long, long[]> merged = new HashMap<>();
    total.forEach((k, v) -> merged.put(k, new long[] {v}));
    if (!merged.isEmpty()) {
      results.emit(encode(merged));
    }
  }

  private static ByteBuffer encode(Map<Long, long[]> sums) {
    ByteBuffer out = ByteBuffer.allocate(sums.size() * 16);
    sums.forEach((k, v) -> out.putLong(k).putLong(v[0]));
    return out.flip();
  }

  /** Adds up (key, sum) pairs from any number of results, sorted by key. */
  public static Map<Long, Long> sums(List<TaskletResult> results) {
    Map<Long, Long> total = new TreeMap<>();
    for (TaskletResult r : results) {
      ByteBuffer data = r.data();
      for (int i = data.position(); i + 16 <= data.limit(); i += 16) {
        total.merge(data.getLong(i), data.getLong(i + 8), Long::sum);
      }
    }
    return total;
  }
}
