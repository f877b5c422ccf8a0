package org.smartssd.device.tasklet;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The object on the device's flash that an execution writes, when {@code EXECUTE_OBJECT} named one
 * (the XSD's DRAM-to-flash stage): {@link ResultSink#flash()}. What a lane writes goes to the device's
 * buffer and is programmed on flash page by page as pages fill, on the channels the object's pages are
 * striped over, each program on the modelled clock once the event that wrote it has computed.
 *
 * <p>The bytes of one {@link #write} call stay together in the object; the writes of different lanes
 * (and of the merge on the controller core, after them) interleave at call boundaries, in the order
 * the device takes them, as their results reach the host. So write whole records a call. The object
 * appears under its name, complete and durable, only when the execution is done; an execution that
 * fails or is cancelled leaves nothing under the name.
 */
public interface FlashOutput {

  /** The object's path, as {@code EXECUTE_OBJECT} named it. */
  String path();

  /**
   * Appends the remaining bytes of {@code data} to the object.
   *
   * @throws IOException when the device cannot store them (it is full: the execution then fails)
   * @throws InterruptedException when the execution has ended meanwhile
   */
  void write(ByteBuffer data) throws IOException, InterruptedException;

  default void write(byte[] data, int offset, int length) throws IOException, InterruptedException {
    write(ByteBuffer.wrap(data, offset, length));
  }

  default void write(byte[] data) throws IOException, InterruptedException {
    write(ByteBuffer.wrap(data));
  }
}
