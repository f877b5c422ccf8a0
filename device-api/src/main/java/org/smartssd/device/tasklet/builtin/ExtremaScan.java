package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Local extrema of a series of numbers written as text, one sample a line (Active Flash's local extrema
 * detection on medical data): sample i is a local maximum when it is greater than each of the
 * {@code window} samples before it and after it, a local minimum when it is less than each of them. The
 * first and last {@code window} samples of a series, which lack a full neighbourhood, are neither.
 *
 * <p>A line holds fields separated by spaces, tabs or commas; the sample is field {@code column}
 * (from 0), or the last field when {@code column} is -1. Numbers are decimals with an optional sign,
 * fraction and exponent ({@code -12.5}, {@code 3e-2}); empty lines are skipped; anything else fails the
 * scan, naming the line. Bytes come in any pieces ({@link #accept}), a line may straddle them.
 *
 * <p>Each extremum found is {@value #RECORD_BYTES} bytes, little-endian: the sample's index in the
 * series (u64, from 0, counting samples, not lines), its value (f64) and its kind (u8: 1 a maximum,
 * 0 a minimum). The same class runs in the device's lanes and on the host, so both find the same.
 */
public final class ExtremaScan extends SeriesScan {
  public static final int RECORD_BYTES = 17;
  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = p;
      p *= 10;
    }
  }

  private final int window;
  private final int column;
  private final int maxLineBytes;
  private final String name;
  private final double[] ring;
  private long lines;
  private byte[] line = new byte[128];
  private int lineLength;

  /**
   * @param window neighbours on each side (at least 1)
   * @param column the field holding the sample, from 0; -1 for the last
   * @param maxLineBytes the longest line accepted
   * @param name what the series is, for errors (a file's path)
   */
  public ExtremaScan(int window, int column, int maxLineBytes, String name) {
    if (window < 1) {
      throw new IllegalArgumentException("the window must be at least 1 sample on each side, not " + window);
    }
    if (column < -1) {
      throw new IllegalArgumentException("column must be a field index from 0, or -1 for the last, not " + column);
    }
    this.window = window;
    this.column = column;
    this.maxLineBytes = maxLineBytes;
    this.name = name;
    this.ring = new double[2 * window + 1];
  }

  /** Takes the next bytes of the series. */
  @Override
  public void accept(ByteBuffer data) {
    for (int i = data.position(), end = data.limit(); i < end; i++) {
      byte b = data.get(i);
      if (b == '\n') {
        endLine();
      } else {
        if (lineLength >= maxLineBytes) {
          throw new IllegalArgumentException(name + ": line " + (lines + 1) + " is longer than " + maxLineBytes
              + " bytes");
        }
        if (lineLength == line.length) {
          line = java.util.Arrays.copyOf(line, Math.min(maxLineBytes, line.length * 2));
        }
        line[lineLength++] = b;
      }
    }
  }

  /** The series ended: its last line need not end with a newline. */
  @Override
  public void finish() {
    if (lineLength > 0) {
      endLine();
    }
  }

  private void endLine() {
    lines++;
    int length = lineLength;
    lineLength = 0;
    if (length > 0 && line[length - 1] == '\r') {
      length--;
    }
    int start = 0;
    int end = 0;
    int field = -1;
    int i = 0;
    // Find the field: runs of bytes between separators.
    while (i < length) {
      while (i < length && separator(line[i])) {
        i++;
      }
      if (i == length) {
        break;
      }
      int s = i;
      while (i < length && !separator(line[i])) {
        i++;
      }
      field++;
      start = s;
      end = i;
      if (field == column) {
        break;
      }
    }
    if (field < 0) {
      return; // an empty line
    }
    if (column >= 0 && field != column) {
      throw new IllegalArgumentException(name + ": line " + lines + " has " + (field + 1) + " fields, no field "
          + column);
    }
    sample(parse(start, end));
  }

  private static boolean separator(byte b) {
    return b == ' ' || b == '\t' || b == ',';
  }

  private double parse(int start, int end) {
    int i = start;
    boolean negative = false;
    if (i < end && (line[i] == '-' || line[i] == '+')) {
      negative = line[i] == '-';
      i++;
    }
    long mantissa = 0;
    int digits = 0;
    int scale = 0;
    boolean any = false;
    while (i < end && line[i] >= '0' && line[i] <= '9') {
      if (digits < 18) {
        mantissa = mantissa * 10 + (line[i] - '0');
        if (mantissa != 0) {
          digits++;
        }
      } else {
        scale++;
      }
      any = true;
      i++;
    }
    if (i < end && line[i] == '.') {
      i++;
      while (i < end && line[i] >= '0' && line[i] <= '9') {
        if (digits < 18) {
          mantissa = mantissa * 10 + (line[i] - '0');
          if (mantissa != 0) {
            digits++;
          }
          scale--;
        }
        any = true;
        i++;
      }
    }
    if (i < end && (line[i] == 'e' || line[i] == 'E')) {
      i++;
      boolean negativeExponent = false;
      if (i < end && (line[i] == '-' || line[i] == '+')) {
        negativeExponent = line[i] == '-';
        i++;
      }
      int exponent = 0;
      boolean exponentDigits = false;
      while (i < end && line[i] >= '0' && line[i] <= '9' && exponent < 10000) {
        exponent = exponent * 10 + (line[i] - '0');
        exponentDigits = true;
        i++;
      }
      any &= exponentDigits;
      scale += negativeExponent ? -exponent : exponent;
    }
    if (!any || i != end) {
      throw new IllegalArgumentException(name + ": line " + lines + ": '"
          + new String(line, start, Math.min(end - start, 64), StandardCharsets.UTF_8) + "' is not a number");
    }
    double value = mantissa;
    if (scale > 0) {
      value = scale < POWERS_OF_TEN.length ? value * POWERS_OF_TEN[scale] : value * Math.pow(10, scale);
    } else if (scale < 0) {
      value = -scale < POWERS_OF_TEN.length ? value / POWERS_OF_TEN[-scale] : value / Math.pow(10, -scale);
    }
    return negative ? -value : value;
  }

  private void sample(double value) {
    int size = ring.length;
    ring[(int) (samples % size)] = value;
    samples++;
    // The sample with a full neighbourhood now: window before it, window after it (the newest).
    long candidate = samples - 1 - window;
    if (candidate < window) {
      return;
    }
    double v = ring[(int) (candidate % size)];
    boolean max = true;
    boolean min = true;
    for (long j = candidate - window; j <= candidate + window && (max || min); j++) {
      if (j == candidate) {
        continue;
      }
      double u = ring[(int) (j % size)];
      max &= v > u;
      min &= v < u;
    }
    if (max || min) {
      record(candidate, v, max);
    }
  }

  private void record(long index, double value, boolean max) {
    record(RECORD_BYTES).putLong(index).putDouble(value).put((byte) (max ? 1 : 0));
  }

  /** One extremum, decoded. */
  public record Extremum(long index, double value, boolean maximum) {}

  /** Decodes extrema records. */
  public static java.util.List<Extremum> decode(ByteBuffer records) {
    ByteBuffer b = records.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    if (b.remaining() % RECORD_BYTES != 0) {
      throw new IllegalArgumentException("extrema records come in " + RECORD_BYTES + " bytes, not " + b.remaining());
    }
    java.util.List<Extremum> list = new java.util.ArrayList<>(b.remaining() / RECORD_BYTES);
    while (b.hasRemaining()) {
      list.add(new Extremum(b.getLong(), b.getDouble(), b.get() == 1));
    }
    return list;
  }
}
