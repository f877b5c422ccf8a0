package org.smartssd.device.runtime.isp.testtasklets;

import java.io.File;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/** Reaches for the device's files: the device must refuse to install it. */
public class UsesFiles implements Tasklet {
  @Override
  public void onCreate(TaskletContext context) {}

  @Override
  public void onExecute(ExecutionInfo execution) {}

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) throws InterruptedException {
    results.emit(new File("/etc/passwd").getPath().getBytes());
  }

  @Override
  public void onRead(ResultSink results, boolean last) {}
}
