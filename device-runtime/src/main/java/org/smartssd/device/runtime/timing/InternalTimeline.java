package org.smartssd.device.runtime.timing;

/**
 * The modelled time of one internal read request of an execution: its page reads run at low
 * priority (see {@link TimingModel#internalReadPage}). Internal reads never program or erase.
 */
public final class InternalTimeline implements FlashTimeline {
  private final TimingModel model;
  private final long readyNanos;
  private long doneNanos;
  private int pages;

  InternalTimeline(TimingModel model, long readyNanos) {
    this.model = model;
    this.readyNanos = readyNanos;
    this.doneNanos = readyNanos;
  }

  @Override
  public TimingModel model() {
    return model;
  }

  @Override
  public void readPage(int channel, int way) {
    doneNanos = Math.max(doneNanos, model.internalReadPage(readyNanos, channel, way));
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

  public int pages() {
    return pages;
  }
}
