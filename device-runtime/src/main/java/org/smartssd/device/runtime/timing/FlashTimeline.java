package org.smartssd.device.runtime.timing;

/**
 * Where flash operations account their modelled time: a host command ({@link Command}), or an
 * execution's internal reads ({@link InternalTimeline}), which yield to host commands.
 */
public interface FlashTimeline {

  /** The model this timeline accounts into. */
  TimingModel model();

  void readPage(int channel, int way);

  void programPage(int channel, int way);

  void eraseBlock(int channel, int way);
}
