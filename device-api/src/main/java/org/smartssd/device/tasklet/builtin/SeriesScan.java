package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;

/** A scan of one file's bytes in order that finds records of interest as it goes ({@link FileScanTasklet}). */
public interface SeriesScan {
  /** Takes the next bytes. */
  void accept(ByteBuffer data);

  /** The file ended. */
  void finish();

  /** Samples (or whatever units the scan counts) read so far. */
  long samples();

  /** Bytes of records found and not yet taken. */
  int pendingBytes();

  /** The records found since the last call, and forgets them. */
  byte[] take();
}
