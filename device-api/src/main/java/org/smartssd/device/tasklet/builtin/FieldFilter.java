package org.smartssd.device.tasklet.builtin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Returns the fixed-length records whose field satisfies a comparison. Parameters:
 * {@code record-length}; the field {@code field-offset}, {@code field-length} (1 to 8 bytes,
 * unsigned big-endian, default 4), {@code field-shift}, {@code field-mask}; {@code op} (eq, ne, lt,
 * le, gt, ge) and {@code value}. Matching records of one chunk go out as one result.
 *
 * <p>When the execution names an output object, the matching records go there instead (a selection
 * kept in the device, the host getting only how many: one u64 count a lane when its input ends,
 * {@link #matched} adds them up).
 */
public final class FieldFilter implements Tasklet {
  private int recordLength;
  private Field field;
  private String op;
  private long value;
  private final ByteArrayOutputStream matches = new ByteArrayOutputStream();
  /** Whether the matches go to the execution's output object (and only their count to the host). */
  private boolean toFlash;
  private long matched;

  @Override
  public void onCreate(TaskletContext context) {
    Parameters p = new Parameters("FieldFilter", context.parameters());
    recordLength = (int) p.number("record-length", 1, Integer.MAX_VALUE);
    field = Field.read(p, "field", recordLength);
    op = p.text("op", "eq");
    if (!List.of("eq", "ne", "lt", "le", "gt", "ge").contains(op)) {
      throw new IllegalArgumentException("FieldFilter: op='" + op + "' must be one of eq, ne, lt, le, gt, ge");
    }
    value = p.number("value", Long.MIN_VALUE, Long.MAX_VALUE);
  }

  @Override
  public RecordFormat recordFormat() {
    return RecordFormat.fixedLength(recordLength);
  }

  @Override
  public void onExecute(ExecutionInfo execution) {
    matches.reset();
    toFlash = execution.hasOutput();
    matched = 0;
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) throws InterruptedException, IOException {
    ByteBuffer data = chunk.data();
    byte[] record = new byte[recordLength];
    for (int base = data.position(); base + recordLength <= data.limit(); base += recordLength) {
      if (matches(Long.compareUnsigned(field.get(data, base), value))) {
        data.duplicate().position(base).get(record);
        matches.write(record, 0, recordLength);
      }
    }
    if (matches.size() > 0) {
      matched += matches.size() / recordLength;
      if (toFlash) {
        results.flash().write(matches.toByteArray());
      } else {
        results.emit(matches.toByteArray());
      }
      matches.reset();
    }
  }

  private boolean matches(int cmp) {
    switch (op) {
      case "eq": return cmp == 0;
      case "ne": return cmp != 0;
      case "lt": return cmp < 0;
      case "le": return cmp <= 0;
      case "gt": return cmp > 0;
      default: return cmp >= 0;
    }
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    // Matches go out with each chunk; nothing is held back. Written to flash, the host gets their count.
    if (toFlash && last) {
      results.emit(ByteBuffer.allocate(Long.BYTES).putLong(0, matched));
    }
  }

  /** The records that matched, as the lanes counted them when the matches went to an output object. */
  public static long matched(List<TaskletResult> results) {
    long total = 0;
    for (TaskletResult r : results) {
      total += r.data().getLong(r.data().position());
    }
    return total;
  }

  /** The matching records, each {@code recordLength} bytes, in no particular order across lanes. */
  public static List<ByteBuffer> records(List<TaskletResult> results, int recordLength) {
    List<ByteBuffer> out = new ArrayList<>();
    for (TaskletResult r : results) {
      ByteBuffer data = r.data();
      for (int base = data.position(); base + recordLength <= data.limit(); base += recordLength) {
        out.add(data.duplicate().position(base).limit(base + recordLength).slice());
      }
    }
    return out;
  }
}
