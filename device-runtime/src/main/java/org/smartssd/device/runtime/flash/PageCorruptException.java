package org.smartssd.device.runtime.flash;

import java.io.IOException;

/**
 * A page read back from flash is not what was programmed there: its data or its out-of-band entry
 * fails the page's CRC-32C, or the entry says the page is erased or holds another logical page. The
 * device keeps one copy of every page, so the bytes are lost; the reader gets this instead of them.
 */
public final class PageCorruptException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int ppa;
  private final String reason;

  PageCorruptException(int ppa, String where, String reason) {
    super("physical page " + ppa + " (" + where + ") failed its check: " + reason);
    this.ppa = ppa;
    this.reason = reason;
  }

  public int ppa() {
    return ppa;
  }

  /** What is wrong, without the page's address. */
  public String reason() {
    return reason;
  }
}
