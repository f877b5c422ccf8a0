package org.smartssd.device.tasklet.builtin;

import org.smartssd.device.tasklet.TaskletContext;

/**
 * Active Flash's data compression: each file is compressed in blocks of 64 KiB ({@link LzScan}, LZ77 in
 * the manner of LZO), and its blocks come back as {@link FileResults}, whose payload is the blocks' records
 * and whose count is the bytes read; {@link LzScan#decompress} gives the file back. No parameters.
 */
public final class Compression extends FileScanTasklet {
  @Override
  protected void configure(TaskletContext context) {
    // No parameters.
  }

  @Override
  protected SeriesScan newScan(String path, TaskletContext context) {
    return new LzScan();
  }

  @Override
  protected long stateBytes() {
    return 2L * LzScan.BLOCK_BYTES + 4L * (1 << 14);
  }
}
