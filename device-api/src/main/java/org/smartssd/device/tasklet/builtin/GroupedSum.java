package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
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
  private final LongSums sums = new LongSums();
  /**
   * Sums by a one-byte key (a region, a type, a status: 0 to 255 after the shift), counted in place
   * and moved into {@link #sums} when results are asked for: a record's work is then one byte read
   * and one add, no call (on the device's cores, whose time is the code they run, that is the cost).
   */
  private final long[] byteKeys = new long[256];
  private boolean byteKeysUsed;

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
    java.util.Arrays.fill(byteKeys, 0);
    byteKeysUsed = false;
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    ByteBuffer data = chunk.data();
    Field key = this.key;
    Field value = this.value;
    LongSums sums = this.sums;
    int end = data.limit() - recordLength;
    if (key.length() == 1 && value == null) {
      long[] counts = byteKeys;
      int shift = key.shift();
      int mask = (int) Math.min(key.mask(), 0xFF);
      int step = recordLength;
      int last = end + key.offset();
      for (int at = data.position() + key.offset(); at <= last; at += step) {
        counts[((data.get(at) & 0xFF) >>> shift) & mask]++;
      }
      byteKeysUsed = true;
    } else if (value == null) {
      for (int base = data.position(); base <= end; base += recordLength) {
        sums.add(key.get(data, base), 1);
      }
    } else {
      for (int base = data.position(); base <= end; base += recordLength) {
        sums.add(key.get(data, base), value.get(data, base));
      }
    }
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (byteKeysUsed) {
      for (int k = 0; k < byteKeys.length; k++) {
        if (byteKeys[k] != 0) {
          sums.add(k, byteKeys[k]);
          byteKeys[k] = 0;
        }
      }
      byteKeysUsed = false;
    }
    if (!sums.isEmpty()) {
      results.emit(sums.encode());
      sums.clear();
    }
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws InterruptedException {
    LongSums merged = new LongSums();
    sums(laneResults).forEach(merged::add);
    if (!merged.isEmpty()) {
      results.emit(merged.encode());
    }
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
