package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.util.List;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Counts records: fixed-length ({@code record-length}) or delimited ({@code delimiter}, a byte
 * value, 10 for lines). Each lane emits its count (a u64) when asked for results, then starts from
 * zero; the host (or the controller's merge) adds the counts up.
 */
public final class RecordCounter implements MergingTasklet {
  private RecordFormat format;
  private long count;

  @Override
  public void onCreate(TaskletContext context) {
    Parameters p = new Parameters("RecordCounter", context.parameters());
    if (p.has("record-length")) {
      format = RecordFormat.fixedLength((int) p.number("record-length", 1, Integer.MAX_VALUE));
    } else if (p.has("delimiter")) {
      format = RecordFormat.delimited((byte) p.number("delimiter", 0, 255));
    } else {
      throw new IllegalArgumentException("RecordCounter needs parameter record-length or delimiter");
    }
  }

  @Override
  public RecordFormat recordFormat() {
    return format;
  }

  @Override
  public void onExecute(ExecutionInfo execution) {
    count = 0;
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    ByteBuffer data = chunk.data();
    if (format.kind() == RecordFormat.Kind.FIXED_LENGTH) {
      count += data.remaining() / format.recordLength();
      return;
    }
    if (chunk.boundaries() != null) { // the engine counted them while cutting
      count += chunk.boundaries().count();
      return;
    }
    byte delimiter = format.delimiter();
    int n = 0;
    for (int i = data.position(); i < data.limit(); i++) {
      if (data.get(i) == delimiter) {
        n++;
      }
    }
    // A chunk holds whole records; only the object's last record may lack its delimiter.
    if (data.hasRemaining() && data.get(data.limit() - 1) != delimiter) {
      n++;
    }
    count += n;
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (count > 0 || last) {
      results.emit(ByteBuffer.allocate(8).putLong(0, count));
      count = 0;
    }
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws InterruptedException {
    results.emit(ByteBuffer.allocate(8).putLong(0, total(laneResults)));
  }

  /** The number of records the results count. */
  public static long total(List<TaskletResult> results) {
    long total = 0;
    for (TaskletResult r : results) {
      total += r.data().getLong(r.data().position());
    }
    return total;
  }
}
