package org.smartssd.device.runtime.isp.testtasklets;

import java.nio.charset.StandardCharsets;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/**
 * Reports every event it sees as a result line "lane|event|details", so a test can check the order
 * and the data. With parameter record-length it asks for fixed-length records, else raw bytes.
 */
public class EventRecorder implements Tasklet {
  private int lane;
  private String created = "";
  private RecordFormat format = RecordFormat.raw();
  private long sum;

  @Override
  public void onCreate(TaskletContext context) {
    lane = context.lane();
    created = "onCreate|" + context.taskletName() + "|" + context.lanes() + "|" + context.parameters().get("tag");
    String length = context.parameters().get("record-length");
    if (length != null) {
      format = RecordFormat.fixedLength(Integer.parseInt(length));
    }
  }

  @Override
  public RecordFormat recordFormat() {
    return format;
  }

  @Override
  public void onExecute(ExecutionInfo execution) throws InterruptedException {
    // Results may only be emitted from events that get a sink: keep onCreate's line for onExecute's.
    this.execution = "onExecute|" + execution.executionId() + "|" + execution.inputs().size() + "|" + execution.lane();
  }

  private String execution = "";
  private boolean first = true;

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) throws InterruptedException {
    if (first) {
      emit(results, created);
      emit(results, execution);
      first = false;
    }
    long bytes = 0;
    for (int i = chunk.data().position(); i < chunk.data().limit(); i++) {
      bytes += chunk.data().get(i) & 0xFF;
    }
    sum += bytes;
    emit(results, "onDataAvailable|" + chunk.path() + "|" + chunk.offset() + "|" + chunk.data().remaining() + "|" + bytes);
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (first) {
      emit(results, created);
      emit(results, execution);
      first = false;
    }
    emit(results, "onRead|" + last + "|" + sum);
  }

  private void emit(ResultSink results, String line) throws InterruptedException {
    results.emit((lane + "|" + line).getBytes(StandardCharsets.UTF_8));
  }
}
