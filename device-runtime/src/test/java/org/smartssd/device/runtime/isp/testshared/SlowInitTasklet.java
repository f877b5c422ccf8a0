package org.smartssd.device.runtime.isp.testshared;

import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/** A tasklet of a shared package that uses a shared class slow to initialize: one byte a chunk, 1 once it is. */
public class SlowInitTasklet implements Tasklet {
  @Override
  public void onCreate(TaskletContext context) {}

  @Override
  public void onExecute(ExecutionInfo execution) {}

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) throws InterruptedException {
    results.emit(new byte[] {(byte) SlowToInitialize.ready()});
  }

  @Override
  public void onRead(ResultSink results, boolean last) {}
}
