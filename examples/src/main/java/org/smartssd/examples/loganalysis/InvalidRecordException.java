package org.smartssd.examples.loganalysis;

import java.io.IOException;

/** A record the analysis cannot count: region 4 or more, or an unknown type. Fails the task, and so the job. */
public final class InvalidRecordException extends IOException {
  private final long offset;

  InvalidRecordException(String file, long offset, String problem) {
    super("invalid World Cup 1998 record at byte offset " + offset + (file == null ? "" : " of " + file) + ": "
        + problem);
    this.offset = offset;
  }

  /** Where the record starts in its file, or -1 if unknown. */
  public long offset() {
    return offset;
  }
}
