package org.smartssd.device.tasklet.builtin;

import org.smartssd.device.tasklet.TaskletContext;

/**
 * Active Flash's heartbeat detection: each file is an electrocardiogram of signed 16-bit little-endian
 * samples, and its beats ({@link BeatScan}) come back as {@link FileResults}, whose payload is the beats'
 * sample indices (u64 each) and whose count is the samples read.
 *
 * <p>Parameter: {@code rate}, samples a second (default {@value #DEFAULT_RATE}, the MIT-BIH Arrhythmia
 * Database's rate).
 */
public final class HeartbeatDetection extends FileScanTasklet {
  public static final String RATE = "rate";
  public static final int DEFAULT_RATE = 360;

  private int rate;

  @Override
  protected void configure(TaskletContext context) {
    Parameters p = new Parameters("HeartbeatDetection", context.parameters());
    rate = p.has(RATE) ? (int) p.number(RATE, 20, 1 << 20) : DEFAULT_RATE;
  }

  @Override
  protected SeriesScan newScan(String path, TaskletContext context) {
    return new BeatScan(rate);
  }

  @Override
  protected long stateBytes() {
    return 8L * (rate * 150 / 1000);
  }
}
