package org.smartssd.examples.wc98;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * The real number of requests per minute over the whole trace ({@code wc98/invocation_count.csv} on the
 * class path, a copy of the file beside docs/WC98.md: header {@code period,count}, GMT times). Minutes the
 * file does not list (seven) had no requests. Loaded once and shared; immutable.
 */
public final class InvocationCounts {
  /** Requests in the whole trace (docs/WC98.md); the file's counts must add up to it. */
  public static final long TRACE_REQUESTS = 1_352_804_107L;
  /** The first minute of the trace, 1998-04-30 21:30 GMT. */
  public static final Instant TRACE_START = Instant.parse("1998-04-30T21:30:00Z");
  /** The end of the trace (exclusive): midnight in Paris after 26 July, 1998-07-26 22:00 GMT. */
  public static final Instant TRACE_END = Instant.parse("1998-07-26T22:00:00Z");

  static final String RESOURCE = "/wc98/invocation_count.csv";

  private static final class Holder {
    static final InvocationCounts STANDARD = load();
  }

  /** Epoch second of each listed minute, ascending. */
  private final long[] minuteStarts;
  private final int[] counts;
  private final long total;

  private InvocationCounts(long[] minuteStarts, int[] counts) {
    this.minuteStarts = minuteStarts;
    this.counts = counts;
    long sum = 0;
    for (int c : counts) {
      sum += c;
    }
    this.total = sum;
  }

  /** The trace's counts, read from the class path the first time. */
  public static InvocationCounts standard() {
    return Holder.STANDARD;
  }

  /** Minutes listed. */
  public int minutes() {
    return counts.length;
  }

  /** The epoch second at which listed minute {@code i} starts. */
  public long minuteStart(int i) {
    return minuteStarts[i];
  }

  /** Requests in listed minute {@code i}. */
  public int count(int i) {
    return counts[i];
  }

  /** Requests in all listed minutes. */
  public long total() {
    return total;
  }

  /** The index of the first listed minute starting at or after {@code epochSecond}. */
  public int firstMinuteAtOrAfter(long epochSecond) {
    int i = Arrays.binarySearch(minuteStarts, epochSecond);
    return i >= 0 ? i : -i - 1;
  }

  /** Requests in the minutes that start in {@code [from, to)}. */
  public long total(Instant from, Instant to) {
    long sum = 0;
    for (int i = firstMinuteAtOrAfter(from.getEpochSecond()); i < counts.length
        && minuteStarts[i] < to.getEpochSecond(); i++) {
      sum += counts[i];
    }
    return sum;
  }

  private static InvocationCounts load() {
    try (InputStream in = InvocationCounts.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the class path");
      }
      InvocationCounts counts = parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII)));
      if (counts.total() != TRACE_REQUESTS) {
        throw new IllegalStateException(RESOURCE + " adds up to " + counts.total() + " requests, not the trace's "
            + TRACE_REQUESTS);
      }
      return counts;
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + RESOURCE, e);
    }
  }

  /** Parses {@code yyyy-MM-dd HH:mm:ss,count} lines after a header, in ascending time order. */
  static InvocationCounts parse(BufferedReader reader) throws IOException {
    String header = reader.readLine();
    if (!"period,count".equals(header)) {
      throw new IOException("expected the header period,count, found " + header);
    }
    long[] starts = new long[1 << 17];
    int[] counts = new int[starts.length];
    int n = 0;
    int lineNumber = 1;
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      lineNumber++;
      if (line.isEmpty()) {
        continue;
      }
      if (line.length() < 21 || line.charAt(19) != ',') {
        throw new IOException("line " + lineNumber + ": expected yyyy-MM-dd HH:mm:ss,count, found " + line);
      }
      if (n == starts.length) {
        starts = Arrays.copyOf(starts, n * 2);
        counts = Arrays.copyOf(counts, n * 2);
      }
      try {
        LocalDate date = LocalDate.of(number(line, 0, 4), number(line, 5, 7), number(line, 8, 10));
        starts[n] = date.toEpochDay() * 86_400L + number(line, 11, 13) * 3600L + number(line, 14, 16) * 60L
            + number(line, 17, 19);
        counts[n] = Integer.parseInt(line, 20, line.length(), 10);
      } catch (RuntimeException e) {
        throw new IOException("line " + lineNumber + ": " + e.getMessage() + ": " + line, e);
      }
      if (counts[n] < 0 || (n > 0 && starts[n] <= starts[n - 1])) {
        throw new IOException("line " + lineNumber + ": negative count or time out of order: " + line);
      }
      n++;
    }
    return new InvocationCounts(Arrays.copyOf(starts, n), Arrays.copyOf(counts, n));
  }

  private static int number(String s, int from, int to) {
    return Integer.parseInt(s, from, to, 10);
  }
}
