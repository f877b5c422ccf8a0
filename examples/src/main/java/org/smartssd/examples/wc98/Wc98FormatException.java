package org.smartssd.examples.wc98;

import java.io.IOException;

/**
 * A trace file that is not a valid sequence of records: an invalid record (region 4 or more, an unknown
 * method, type or status index), a truncated tail, or corrupt gzip data. Names the file and the byte
 * offset, counted in the uncompressed records (for a {@code .gz} file, the offset in its content).
 */
public final class Wc98FormatException extends IOException {
  private final String file;
  private final long offset;

  public Wc98FormatException(String file, long offset, String problem) {
    this(file, offset, problem, null);
  }

  public Wc98FormatException(String file, long offset, String problem, Throwable cause) {
    super(file + ": byte offset " + offset + ": " + problem, cause);
    this.file = file;
    this.offset = offset;
  }

  /** The file (or stream) as named to the reader. */
  public String file() {
    return file;
  }

  /** Where the bad record starts, in the uncompressed content. */
  public long offset() {
    return offset;
  }
}
