package org.smartssd.examples.wc98;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Summary statistics of a trace, gathered one record at a time: counts per region, per type and per
 * region and type, the share of 304 responses, distinct objects and clients and how concentrated
 * requests are on the most popular objects, the time span and requests per local hour. Used by
 * {@code smartssd wc98 validate} and to check the generator against docs/WC98.md. Not thread-safe.
 */
public final class TraceStatistics implements RecordSink {
  private static final int REGIONS = Region.values().length;
  private static final int TYPES = FileType.values().length;
  private static final int NOT_MODIFIED_INDEX = StatusCodes.index(304);

  private long records;
  private long bytes;
  private long notModified;
  private final long[] byRegion = new long[REGIONS];
  private final long[] byType = new long[TYPES];
  private final long[] byRegionAndType = new long[REGIONS * TYPES];
  private final long[] byLocalHour = new long[24];
  private final IdCounts objects = new IdCounts();
  private final IdCounts clients = new IdCounts();
  private long firstTimestamp = -1;
  private long lastTimestamp = -1;
  private boolean inTimeOrder = true;

  /** Reads files in order and gathers their statistics. */
  public static TraceStatistics of(Path... files) throws IOException {
    TraceStatistics statistics = new TraceStatistics();
    for (Path file : files) {
      try (Wc98Reader reader = Wc98Reader.open(file)) {
        reader.forEach(statistics);
      }
    }
    return statistics;
  }

  @Override
  public void accept(Wc98Record r) {
    records++;
    if (r.hasSize()) {
      bytes += r.size();
    }
    if (r.statusIndex() == NOT_MODIFIED_INDEX) {
      notModified++;
    }
    int region = r.server() >>> 5;
    int type = r.type().code();
    byRegion[region]++;
    byType[type]++;
    byRegionAndType[region * TYPES + type]++;
    byLocalHour[(int) ((r.timestamp() + GeneratorParameters.SITE_TIME.getTotalSeconds()) / 3600 % 24)]++;
    objects.add(r.objectId());
    clients.add(r.clientId());
    if (firstTimestamp < 0) {
      firstTimestamp = r.timestamp();
    } else if (r.timestamp() < lastTimestamp) {
      inTimeOrder = false;
    }
    lastTimestamp = r.timestamp();
  }

  public long records() {
    return records;
  }

  /** Bytes in the responses, the sizes of the records that have one. */
  public long bytes() {
    return bytes;
  }

  public long count(Region region) {
    return byRegion[region.code()];
  }

  public long count(FileType type) {
    return byType[type.code()];
  }

  public long count(Region region, FileType type) {
    return byRegionAndType[region.code() * TYPES + type.code()];
  }

  /** The share of requests for a type, 0 for an empty trace. */
  public double share(FileType type) {
    return share(count(type));
  }

  /** The share of requests a region served. */
  public double share(Region region) {
    return share(count(region));
  }

  /** Responses 304 Not Modified. */
  public long notModified() {
    return notModified;
  }

  public double notModifiedShare() {
    return share(notModified);
  }

  public int distinctObjects() {
    return objects.size();
  }

  public int distinctClients() {
    return clients.size();
  }

  /**
   * The share of requests that went to the most requested {@code fraction} of the distinct objects
   * seen (at least one object), e.g. {@code topObjectShare(0.01)} for the top 1%.
   */
  public double topObjectShare(double fraction) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction must be in (0, 1], not " + fraction);
    }
    long[] counts = objects.countsDescending();
    int top = Math.max(1, (int) Math.ceil(fraction * counts.length));
    long sum = 0;
    for (int i = 0; i < Math.min(top, counts.length); i++) {
      sum += counts[i];
    }
    return share(sum);
  }

  /** Requests by hour of the site's local time (GMT+2), 0h to 23h. */
  public long[] requestsByLocalHour() {
    return byLocalHour.clone();
  }

  /** The first record's time, or null for an empty trace. */
  public Instant firstTime() {
    return firstTimestamp < 0 ? null : Instant.ofEpochSecond(firstTimestamp);
  }

  /** The last record's time, or null for an empty trace. */
  public Instant lastTime() {
    return lastTimestamp < 0 ? null : Instant.ofEpochSecond(lastTimestamp);
  }

  /** Whether no record is earlier than the one before it (the trace's files are in time order). */
  public boolean inTimeOrder() {
    return inTimeOrder;
  }

  private double share(long count) {
    return records == 0 ? 0 : (double) count / records;
  }
}
