package org.smartssd.device.runtime.isp;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.smartssd.device.tasklet.DataChunk;

/**
 * One input of a {@code STREAM} execution on its way to the lane that takes it apart (its owner, the
 * lane of the channel holding its first byte): every lane that reads one of its pages hands the page
 * here, and its assembler's chunks go, in offset order, to the owner's {@link Inbox}.
 *
 * <p>A chunk arrives, on the modelled clock, when the last of its bytes and of every byte before it
 * has been read: the stream is taken apart from its start, so a page read early waits for the pages
 * before it. These times, and so the owner's, depend only on the model, not on which thread ran
 * first; and since they never decrease along the stream, the inbox (ordered by arrival, then offset)
 * keeps the stream's order. Emitting and routing happen under one lock, so that a chunk never
 * overtakes the one before it on its way into the inbox.
 *
 * <p>Reading lanes stay within {@link #window} bytes of what the owner has taken ({@link #ahead}), so
 * that a stream whose owner lags is never held in the device's memory whole.
 */
final class StreamRoute {
  private final int input;
  private final int ownerLane;
  private final RecordAssembler assembler;
  private final Inbox owner;
  private final long window;
  /** When each segment not yet routed was read (modelled), by offset; guarded by this. */
  private final Map<Long, Long> arrivals = new HashMap<>();
  private long latest = Long.MIN_VALUE; // guarded by this
  /** Where the owner has taken the stream to. */
  private volatile long taken;

  StreamRoute(int input, int ownerLane, RecordAssembler assembler, Inbox owner, long window) {
    this.input = input;
    this.ownerLane = ownerLane;
    this.assembler = assembler;
    this.owner = owner;
    this.window = window;
    this.taken = assembler.readStart();
  }

  int ownerLane() {
    return ownerLane;
  }

  /** A segment read by any lane, whose read was done at {@code arrivalNanos} (modelled). */
  synchronized void accept(long offset, ByteBuffer segment, long arrivalNanos) throws RecordException {
    arrivals.put(offset, arrivalNanos);
    route(assembler.accept(offset, segment));
  }

  /** After the input's last segment was accepted. */
  synchronized void finish() throws RecordException {
    route(assembler.finish());
  }

  private void route(List<DataChunk> chunks) {
    for (int i = 0, n = chunks.size(); i < n; i++) {
      DataChunk chunk = chunks.get(i);
      Long read = arrivals.remove(chunk.offset());
      if (read != null) {
        latest = Math.max(latest, read);
      }
      owner.add(new Execution.Routed(input, chunk, latest));
    }
  }

  /** Whether a segment at {@code offset} lies too far ahead of what the owner has taken to be read now. */
  boolean ahead(long offset) {
    return offset - taken > window;
  }

  /** The owner has taken the stream up to {@code end}. */
  void taken(long end) {
    taken = end;
  }
}
