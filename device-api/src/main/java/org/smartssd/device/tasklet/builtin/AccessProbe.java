package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * The Smart SSD's tasklet experiment (Kang et al., MSST 2013): for each record of
 * {@code record-length} bytes, {@code accesses} times, read one 4-byte integer from the device's
 * memory and compare it with {@code key}; the integers read are {@code stride} bytes apart (by
 * default the record's length over the accesses, at least 4). With {@code stop-at-first-match} true,
 * a record's search ends at its first match (the source's filtering); otherwise every integer is
 * compared (searching). Each lane emits two u64: the records seen and the records with a match.
 *
 * <p>The chunk's integers are copied into an {@code int[]} (big-endian), as the device's DMA puts a
 * page in its DRAM, so that each access is one array load and one comparison.
 */
public final class AccessProbe implements MergingTasklet {
  private int recordLength;
  private int accesses;
  private int strideInts;
  private int key;
  private boolean stopAtFirstMatch;
  private int[] words = new int[0];
  private long records;
  private long matches;

  @Override
  public void onCreate(TaskletContext context) {
    Parameters p = new Parameters("AccessProbe", context.parameters());
    recordLength = (int) p.number("record-length", 4, Integer.MAX_VALUE);
    if (recordLength % 4 != 0) {
      throw new IllegalArgumentException("AccessProbe: parameter record-length=" + recordLength
          + " must be a multiple of 4 (records of whole integers)");
    }
    accesses = (int) p.number("accesses", 1, 1 << 20);
    int stride = (int) p.number("stride", 4, recordLength, Math.max(4, recordLength / accesses / 4 * 4));
    if (stride % 4 != 0) {
      throw new IllegalArgumentException("AccessProbe: parameter stride=" + stride + " must be a multiple of 4");
    }
    strideInts = stride / 4;
    key = (int) p.number("key", Integer.MIN_VALUE, Integer.MAX_VALUE, 0);
    String stop = p.text("stop-at-first-match", "false");
    if (!stop.equals("true") && !stop.equals("false")) {
      throw new IllegalArgumentException("AccessProbe: parameter stop-at-first-match='" + stop + "' must be true or false");
    }
    stopAtFirstMatch = stop.equals("true");
  }

  @Override
  public RecordFormat recordFormat() {
    return RecordFormat.fixedLength(recordLength);
  }

  @Override
  public void onExecute(ExecutionInfo execution) {
    records = 0;
    matches = 0;
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    ByteBuffer data = chunk.data();
    int n = data.remaining() / 4;
    if (words.length < n) {
      words = new int[n];
    }
    data.duplicate().order(ByteOrder.BIG_ENDIAN).asIntBuffer().get(words, 0, n);
    int perRecord = recordLength / 4;
    int[] w = words;
    for (int base = 0; base + perRecord <= n; base += perRecord) {
      boolean found = false;
      for (int i = 0, at = base; i < accesses; i++, at += strideInts) {
        if (at >= base + perRecord) {
          at = base + (at - base) % perRecord; // more accesses than integers: wrap around the record
        }
        if (w[at] == key) {
          found = true;
          if (stopAtFirstMatch) {
            break;
          }
        }
      }
      records++;
      if (found) {
        matches++;
      }
    }
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (records > 0 || last) {
      results.emit(ByteBuffer.allocate(16).putLong(0, records).putLong(8, matches));
      records = 0;
      matches = 0;
    }
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws InterruptedException {
    long[] t = totals(laneResults);
    results.emit(ByteBuffer.allocate(16).putLong(0, t[0]).putLong(8, t[1]));
  }

  /** The records seen and the records with a match, added up from the results. */
  public static long[] totals(List<TaskletResult> results) {
    long[] t = new long[2];
    for (TaskletResult r : results) {
      ByteBuffer b = r.data();
      t[0] += b.getLong(b.position());
      t[1] += b.getLong(b.position() + 8);
    }
    return t;
  }
}
