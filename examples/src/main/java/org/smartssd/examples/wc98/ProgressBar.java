package org.smartssd.examples.wc98;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar redrawn in place with a carriage return, at most every 200 ms:
 * {@code [############..................] 43% 3,000,000/7,000,000 records}.
 */
final class ProgressBar implements LongConsumer {
  static final long MIN_REDRAW_NANOS = 200_000_000L;
  private static final int WIDTH = 30;

  private final PrintWriter out;
  private final long total;
  private final String unit;
  private final LongSupplier nanoClock;
  private long lastDraw;
  private boolean drawn;

  ProgressBar(PrintWriter out, long total, String unit, LongSupplier nanoClock) {
    this.out = out;
    this.total = total;
    this.unit = unit;
    this.nanoClock = nanoClock;
  }

  ProgressBar(PrintWriter out, long total, String unit) {
    this(out, total, unit, System::nanoTime);
  }

  @Override
  public void accept(long done) {
    long now = nanoClock.getAsLong();
    if (drawn && done < total && now - lastDraw < MIN_REDRAW_NANOS) {
      return;
    }
    lastDraw = now;
    drawn = true;
    out.print('\r');
    out.print(line(done, total, unit));
    out.flush();
  }

  /** Ends the line, if a bar was drawn. */
  void finish() {
    if (drawn) {
      out.println();
      out.flush();
    }
  }

  /**
   * Whether standard error is a terminal. Java 17 cannot ask directly; on Linux the answer is where
   * {@code /proc/self/fd/2} points, elsewhere whether the JVM has a console (standard input and output
   * are terminals).
   */
  static boolean standardErrorIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  static String line(long done, long total, String unit) {
    double fraction = total <= 0 ? 1.0 : Math.min(1.0, (double) done / total);
    int filled = (int) (fraction * WIDTH);
    int percent = (int) Math.round(fraction * 100);
    if (percent == 100 && done < total) {
      percent = 99;
    }
    return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] "
        + String.format(Locale.ROOT, "%3d%% %,d/%,d %s", percent, done, total, unit);
  }
}
