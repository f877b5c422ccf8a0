package org.smartssd.device.runtime.isp;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.smartssd.device.tasklet.FlashOutput;

/** A lane's (or the merge's) handle on its execution's output object, as the tasklet API gives it. */
final class ExecutionFlash implements FlashOutput {
  private final Execution exec;
  private final int lane;

  ExecutionFlash(Execution exec, int lane) {
    this.exec = exec;
    this.lane = lane;
  }

  @Override
  public String path() {
    return exec.outputPath();
  }

  @Override
  public void write(ByteBuffer data) throws IOException, InterruptedException {
    exec.writeOutput(lane, data);
  }
}
