package org.smartssd.device.runtime.objects;

import java.io.IOException;

/**
 * Garbage collection the device runs in its idle time (Active Flash's), one block at a time so that a
 * host command arriving is never kept waiting for more than one. {@link ObjectStore} implements it.
 */
public interface IdleCollector {

  /**
   * A block reclaimed: its valid pages moved, it erased.
   *
   * @param pagesMoved valid pages moved out of it
   * @param doneNanos when the work ends on the modelled clock
   */
  record Step(int pagesMoved, long doneNanos) {}

  /**
   * Reclaims the block with the fewest valid pages if the free pages (erased ones that writes can take
   * before garbage collection must run in the foreground, above the free blocks every way keeps) are
   * fewer than {@code threshold} of the reserved (over-provisioned) pages, and some block has a dead page.
   *
   * @return what was done, or null when nothing was to do
   */
  Step collectBelow(double threshold) throws IOException;
}
