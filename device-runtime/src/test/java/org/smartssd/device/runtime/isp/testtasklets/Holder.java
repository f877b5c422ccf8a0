package org.smartssd.device.runtime.isp.testtasklets;

import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/**
 * Says, on every chunk, that its lane holds parameter {@code holding} bytes (its intermediate result,
 * the iSSD's M(f)), and emits nothing.
 */
public class Holder implements Tasklet {
  private TaskletContext context;
  private long holding;

  @Override
  public void onCreate(TaskletContext context) {
    this.context = context;
    this.holding = Long.parseLong(context.parameters().get("holding"));
  }

  @Override
  public void onExecute(ExecutionInfo execution) {}

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    context.holding(holding);
  }

  @Override
  public void onRead(ResultSink results, boolean last) {}
}
