package org.smartssd.device.runtime.isp.testtasklets;

import java.nio.ByteBuffer;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/**
 * Counts, in a static field, the executions its class has seen, and emits the count from lane 0 at
 * the end: 1 when its classes were loaded anew for the install, more when they were kept from an
 * earlier one. With parameter "fail" true it throws on its first data, after counting.
 */
public class StaticCounter implements Tasklet {
  private static long executions; // guarded by StaticCounter.class
  private int lane;
  private boolean fail;

  @Override
  public void onCreate(TaskletContext context) {
    lane = context.lane();
    fail = Boolean.parseBoolean(context.parameters().getOrDefault("fail", "false"));
  }

  @Override
  public RecordFormat recordFormat() {
    return RecordFormat.raw();
  }

  @Override
  public void onExecute(ExecutionInfo execution) {
    if (lane == 0) {
      synchronized (StaticCounter.class) {
        executions++;
      }
    }
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    if (fail) {
      throw new IllegalStateException("asked to fail");
    }
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (last && lane == 0) {
      long n;
      synchronized (StaticCounter.class) {
        n = executions;
      }
      results.emit(ByteBuffer.allocate(8).putLong(0, n));
    }
  }
}
