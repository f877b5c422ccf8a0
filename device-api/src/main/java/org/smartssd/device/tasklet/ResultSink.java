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
}
