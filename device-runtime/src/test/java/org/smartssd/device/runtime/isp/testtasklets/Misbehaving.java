package org.smartssd.device.runtime.isp.testtasklets;

import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/**
 * Misbehaves as parameter "how" says, on its first data: throw, loop (forever), hog (allocate far
 * past any memory budget, in small pieces it keeps), flood (emit results without end); or, with
 * slow, behaves but spends about a millisecond of CPU on every chunk.
 */
public class Misbehaving implements Tasklet {
  private String how;
  private Object kept;

  @Override
  public void onCreate(TaskletContext context) {
    how = context.parameters().getOrDefault("how", "throw");
  }

  @Override
  public void onExecute(ExecutionInfo execution) {}

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) throws InterruptedException {
    switch (how) {
      case "throw":
        throw new IllegalStateException("boom at offset " + chunk.offset());
      case "loop":
        long spin = 0;
        while (spin >= 0) {
          spin++;
          if (spin == Long.MAX_VALUE) {
            spin = 0;
          }
        }
        break;
      case "hog":
        java.util.List<byte[]> pieces = new java.util.ArrayList<>();
        for (int i = 0; i < 64; i++) {
          pieces.add(new byte[1 << 20]);
        }
        kept = pieces;
        break;
      case "slow":
        long until = System.nanoTime() + 1_000_000;
        while (System.nanoTime() < until) {
          kept = chunk;
        }
        break;
      case "flood":
        while (true) {
          results.emit(new byte[4096]);
        }
      default:
        throw new IllegalArgumentException(how);
    }
  }

  @Override
  public void onRead(ResultSink results, boolean last) {}
}
