package org.smartssd.device.runtime.timing;

/**
 * The modelled time of one internal read request of an execution: its page reads run at low
 * priority (see {@link TimingModel#internalReadPage}). Internal reads never program or erase.
 */
public final class InternalTimeline implements FlashTimeline {
  private final TimingModel model;
  private final long readyNanos;
  private long doneNanos;
  private long shadowDoneNanos;
  private int pages;
  private final long[] shadow = new long[1];

  InternalTimeline(TimingModel model, long readyNanos) {
    this.model = model;
    this.readyNanos = readyNanos;
    this.doneNanos = readyNanos;
    this.shadowDoneNanos = readyNanos;
  }

  @Override
  public TimingModel model() {
    return model;
  }

  @Override
  public void readPage(int channel, int way) {
    doneNanos = Math.max(doneNanos, model.internalReadPage(readyNanos, channel, way, shadow));
    shadowDoneNanos = Math.max(shadowDoneNanos, shadow[0]);
    pages++;
  }

  @Override
  public void programPage(int channel, int way) {
    throw new IllegalStateException("an internal read request programmed a page");
  }

  @Override
  public void eraseBlock(int channel, int way) {
    throw new IllegalStateException("an internal read request erased a block");
  }

  /** When the last page read so far reached the device's buffer, on the modelled clock. */
  public long doneNanos() {
    return doneNanos;
  }

  /**
   * How much later this request's pages were in than they would have been without host operations on
   * the device: the delay host traffic caused it.
   */
  public long hostDelayNanos() {
    return Math.max(0, doneNanos - shadowDoneNanos);
  }

  public int pages() {
    return pages;
  }
}
