package org.smartssd.device.runtime.isp.testtasklets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Copies every fixed-length record ({@code record-length}) of its input to the execution's output
 * object, a chunk a write, and emits to the host one line a lane, "lane|records". With {@code
 * fail-at-end=true} it throws once its input ended; with {@code linger-ms=N} it computes that long
 * (on this machine's clock) once its input ended, so that a test can catch the execution running.
 * Merged on the device, the merge writes "merged|N" (N: the lanes' lines) to the output object too.
 */
public class RecordCopier implements MergingTasklet {
  private int lane;
  private int recordLength;
  private boolean failAtEnd;
  private long lingerNanos;
  private long records;

  @Override
  public void onCreate(TaskletContext context) {
    lane = context.lane();
    recordLength = Integer.parseInt(context.parameters().get("record-length"));
    failAtEnd = Boolean.parseBoolean(context.parameters().getOrDefault("fail-at-end", "false"));
    lingerNanos = Long.parseLong(context.parameters().getOrDefault("linger-ms", "0")) * 1_000_000L;
  }

  @Override
  public RecordFormat recordFormat() {
    return RecordFormat.fixedLength(recordLength);
  }

  @Override
  public void onExecute(ExecutionInfo execution) {
    if (!execution.hasOutput()) {
      throw new IllegalStateException("RecordCopier needs an output object");
    }
    records = 0;
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception {
    records += chunk.data().remaining() / recordLength;
    results.flash().write(chunk.data().duplicate());
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws Exception {
    if (!last) {
      return;
    }
    long until = System.nanoTime() + lingerNanos;
    long spins = 0;
    while (System.nanoTime() < until) {
      spins++;
    }
    if (failAtEnd) {
      throw new IllegalStateException("failing as asked, after " + records + " records and " + spins + " spins");
    }
    results.emit((lane + "|" + records).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws Exception {
    results.flash().write(("merged|" + laneResults.size()).getBytes(StandardCharsets.UTF_8));
    for (TaskletResult r : laneResults) {
      results.emit(r.data().duplicate());
    }
  }

  /** The records each lane said it copied, added up. */
  public static long copied(List<TaskletResult> results) {
    long total = 0;
    for (TaskletResult r : results) {
      ByteBuffer d = r.data().duplicate();
      byte[] b = new byte[d.remaining()];
      d.get(b);
      String line = new String(b, StandardCharsets.UTF_8);
      total += Long.parseLong(line.substring(line.indexOf('|') + 1));
    }
    return total;
  }
}
