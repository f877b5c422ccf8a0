package org.smartssd.device.tasklet;

import java.nio.ByteBuffer;

/**
 * Where a tasklet puts its results. Each call emits one result record, copied at once. When the
 * lane's output buffer is full, the call waits until the host has read (back-pressure); an
 * execution whose results pass its output budget fails.
 */
public interface ResultSink {

  void emit(ByteBuffer result) throws InterruptedException;

  default void emit(byte[] result) throws InterruptedException {
    emit(ByteBuffer.wrap(result));
  }

  /**
   * The execution's output object on flash, for what should stay in the device rather than go to the
   * host ({@link ExecutionInfo#outputPath()} names it). Results emitted here still go to the host.
   *
   * @throws IllegalStateException when the execution names no output object
   */
  default FlashOutput flash() {
    throw new IllegalStateException("this execution writes no output object: EXECUTE_OBJECT named no output path");
  }
}
