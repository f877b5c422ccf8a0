package org.smartssd.device.runtime.isp.testtasklets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/**
 * Reads the object named by parameter {@code side} whole when an execution begins (a side input), and
 * emits one line a lane when its input ends: "lane|bytes|hash" of that object (h = 31h + b).
 */
public class SideReader implements Tasklet {
  private TaskletContext context;
  private long bytes;
  private long hash;

  @Override
  public void onCreate(TaskletContext context) {
    this.context = context;
  }

  @Override
  public void onExecute(ExecutionInfo execution) throws Exception {
    ByteBuffer side = context.readObject(context.parameters().get("side"));
    bytes = side.remaining();
    long h = 0;
    for (int i = side.position(); i < side.limit(); i++) {
      h = 31 * h + (side.get(i) & 0xFF);
    }
    hash = h;
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {}

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (last) {
      results.emit((context.lane() + "|" + bytes + "|" + hash).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The hash SideReader computes, of {@code data}. */
  public static long hash(byte[] data) {
    long h = 0;
    for (byte b : data) {
      h = 31 * h + (b & 0xFF);
    }
    return h;
  }
}
