package org.smartssd.device.tasklet.builtin;

import org.smartssd.device.tasklet.TaskletContext;

/**
 * Active Flash's local extrema detection: each file is a series of samples written as text, one a line,
 * and its local maxima and minima ({@link ExtremaScan}) come back as {@link FileResults}, whose payload is
 * {@link ExtremaScan}'s records and whose count is the samples read.
 *
 * <p>Parameters: {@code window} (neighbours on each side, default {@value #DEFAULT_WINDOW}, a choice: the
 * source names no window) and {@code column} (the field holding the sample, from 0; default -1, the last).
 */
public final class LocalExtrema extends FileScanTasklet {
  public static final String WINDOW = "window";
  public static final String COLUMN = "column";
  public static final int DEFAULT_WINDOW = 16;

  private int window;
  private int column;

  @Override
  protected void configure(TaskletContext context) {
    Parameters p = new Parameters("LocalExtrema", context.parameters());
    window = p.has(WINDOW) ? (int) p.number(WINDOW, 1, 1 << 20) : DEFAULT_WINDOW;
    column = p.has(COLUMN) ? (int) p.number(COLUMN, -1, 1 << 20) : -1;
  }

  @Override
  protected SeriesScan newScan(String path, TaskletContext context) {
    return new ExtremaScan(window, column, context.maxRecordBytes(), path);
  }

  @Override
  protected long stateBytes() {
    return 8L * (2 * window + 1);
  }
}
