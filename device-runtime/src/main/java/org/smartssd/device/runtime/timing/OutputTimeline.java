package org.smartssd.device.runtime.timing;

import java.util.ArrayList;
import java.util.List;

/**
 * The modelled time of an execution's output object (the XSD's DRAM-to-flash stage). The store
 * programs its pages as they fill, under its lock, whenever a lane writes; the model books those
 * operations later, when the event that wrote them has computed ({@link #book}): until then the data
 * is not in the device's buffer. Operations are kept per writer (a lane, or the merge), so that each
 * is booked at its own writer's time.
 *
 * <p>Programs go on the channels and dies as a host's writes do (they take the bus, then the die's
 * cells); garbage collection's reads and erases on the way too. An output object is durable when its
 * last program has ended ({@link #doneNanos}), not when every die of the device is idle: only its own
 * programs are waited for.
 */
public final class OutputTimeline implements FlashTimeline {
  private static final int READ = 0;
  private static final int PROGRAM = 1;
  private static final int ERASE = 2;

  private record Op(int kind, int channel, int way) {}

  private final TimingModel model;
  /** Per writer (index: lane + 1; 0 is the merge and the commit), operations not booked yet. */
  private final List<List<Op>> pending;
  /** The writer whose operations the store is recording now (set under the output's lock). */
  private int writer;
  private long doneNanos;
  private long pagesProgrammed;
  private long pagesRead;
  private long blocksErased;
  private final long[] delay = new long[1];

  public OutputTimeline(TimingModel model, int lanes, long startNanos) {
    this.model = model;
    this.pending = new ArrayList<>(lanes + 1);
    for (int i = 0; i <= lanes; i++) {
      pending.add(new ArrayList<>());
    }
    this.doneNanos = startNanos;
  }

  /** Operations the store performs from now on are {@code lane}'s (-1: the merge, or the commit). */
  public synchronized void writer(int lane) {
    this.writer = lane + 1;
  }

  @Override
  public TimingModel model() {
    return model;
  }

  @Override
  public synchronized void readPage(int channel, int way) {
    pending.get(writer).add(new Op(READ, channel, way));
  }

  @Override
  public synchronized void programPage(int channel, int way) {
    pending.get(writer).add(new Op(PROGRAM, channel, way));
  }

  @Override
  public synchronized void eraseBlock(int channel, int way) {
    pending.get(writer).add(new Op(ERASE, channel, way));
  }

  /**
   * Books {@code lane}'s operations with their data ready at {@code readyNanos} (its event's compute
   * end) and returns when the output's programs so far end.
   */
  public synchronized long book(int lane, long readyNanos) {
    List<Op> ops = pending.get(lane + 1);
    for (Op op : ops) {
      long end = switch (op.kind) {
        case READ -> {
          pagesRead++;
          yield model.readPage(readyNanos, op.channel, op.way, delay);
        }
        case PROGRAM -> {
          pagesProgrammed++;
          yield model.programPage(readyNanos, op.channel, op.way, delay);
        }
        default -> {
          blocksErased++;
          yield model.eraseBlock(readyNanos, op.channel, op.way);
        }
      };
      doneNanos = Math.max(doneNanos, end);
    }
    ops.clear();
    return doneNanos;
  }

  /** Books every writer's operations not booked yet at {@code readyNanos} (the processing's end). */
  public synchronized long bookAll(long readyNanos) {
    for (int i = 0; i < pending.size(); i++) {
      book(i - 1, readyNanos);
    }
    return doneNanos;
  }

  /** When the output's last booked program ends. */
  public synchronized long doneNanos() {
    return doneNanos;
  }

  public synchronized long pagesProgrammed() {
    return pagesProgrammed;
  }

  /** Pages garbage collection read to move them, making room for the output. */
  public synchronized long pagesRead() {
    return pagesRead;
  }

  public synchronized long blocksErased() {
    return blocksErased;
  }
}
