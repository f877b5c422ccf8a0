package org.smartssd.examples.calibration;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.AccessProbe;

/**
 * The Smart SSD's own tasklet experiments on the modelled device ({@code smartssd calibrate
 * tasklets}): a scan whose tasklet reads k integers from the device's memory and compares each
 * (k = 1 to 256 per record), and the filtering experiment (1 GB, 60% of records with a match, 256
 * accesses a record: stop at the first match against search everything). It prints the modelled
 * throughput against the device's internal read bandwidth and its host link, to set beside the
 * source's shape: with one access the device keeps up with its internal reads (1.6 times the link);
 * throughput falls as accesses grow; filtering is 40% faster than searching. Nothing here is fitted:
 * the curve follows from the profile and the counted work.
 */
public final class TaskletCalibration {
  /** The integer every probe compares with, and the filter's match. */
  static final int KEY = 0x5EED_5EED;

  /**
   * One point of the curve.
   *
   * @param accesses accesses (and comparisons) per record
   * @param stats the execution's statistics
   */
  public record Point(int accesses, long bytes, ExecutionStatistics stats) {
    /** Modelled throughput, decimal MB/s. */
    public double modelledMbPerS() {
      return bytes / (stats.modelledNanos() / 1e9) / 1e6;
    }

    /** Whether the cores, not the flash, set the pace: the busiest core's compute exceeds the reads. */
    public boolean computeBound(int cores) {
      return stats.modelledComputeNanos() / (double) cores > stats.modelledReadNanos();
    }
  }

  /** The curve, the filtering experiment, and the device's bandwidths. */
  public record Outcome(List<Point> curve, Point searching, Point filtering, double linkMbPerS,
      double internalMbPerS, int cores, int recordBytes) {
    /** How much faster filtering is than searching (the source: 40%). */
    public double filteringSpeedup() {
      return searching.stats().modelledNanos() / (double) filtering.stats().modelledNanos() - 1;
    }
  }

  private TaskletCalibration() {}

  /**
   * Runs both experiments on a device of its own.
   *
   * @param deviceKeys the device's configuration ({@code smartssd.device.*}); a data directory of its
   *     own is added
   * @param curveMegabytes data scanned at each point of the curve
   * @param filterMegabytes data of the filtering experiment (the source: 1 GB)
   * @param recordBytes record length (the source counts accesses a page: the page size, 0)
   */
  public static Outcome run(Map<String, String> deviceKeys, int curveMegabytes, int filterMegabytes, int recordBytes,
      PrintWriter log) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("smartssd-calibrate-");
    try {
      Map<String, String> keys = new HashMap<>(deviceKeys);
      keys.put("smartssd.device.data-dir", dir.toString());
      keys.put("smartssd.device.host.port", "0");
      keys.putIfAbsent("smartssd.device.name", "calibration");
      DeviceConfig config = DeviceConfig.load(keys);
      int page = config.geometry().pageSizeBytes();
      int record = recordBytes > 0 ? recordBytes : page;
      try (SimulatedDevice device = SimulatedDevice.start(config);
          SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(device.address()),
              ClientOptions.defaults())) {
        int cores = config.isp().cores();
        long curveBytes = (long) curveMegabytes * 1_000_000 / record * record;
        log.printf(Locale.ROOT, "calibrate: writing %,d bytes of %d-byte records%n", curveBytes, record);
        log.flush();
        write(c, "/curve", curveBytes, record, 0, 1);
        List<Point> curve = new ArrayList<>();
        for (int k = 1; k <= 256; k *= 2) {
          Point p = probe(c, "/curve", curveBytes, record, k, false);
          curve.add(p);
          log.printf(Locale.ROOT, "calibrate: %3d accesses a record: %,.1f MB/s (modelled)%n", k, p.modelledMbPerS());
          log.flush();
        }
        long filterBytes = (long) filterMegabytes * 1_000_000 / record * record;
        log.printf(Locale.ROOT, "calibrate: writing %,d bytes for filtering, 60%% of records with a match%n",
            filterBytes);
        log.flush();
        c.delete("/curve", false);
        write(c, "/filter", filterBytes, record, 0.6, 256);
        Point searching = probe(c, "/filter", filterBytes, record, 256, false);
        Point filtering = probe(c, "/filter", filterBytes, record, 256, true);
        double internal = config.geometry().channels() * config.timing().channelBytesPerSecond() / 1e6;
        return new Outcome(curve, searching, filtering, config.timing().linkBytesPerSecond() / 1e6, internal, cores,
            record);
      }
    } finally {
      org.smartssd.examples.loganalysis.WorkDirectory.delete(dir);
    }
  }

  /**
   * Writes records of random integers none of which is the key, except that a share of them hold it
   * once, at a random one of the positions a probe of {@code accesses} reads.
   */
  private static void write(SocketDeviceClient c, String path, long bytes, int record, double matching, int accesses)
      throws IOException {
    Random random = new Random(1998);
    int ints = record / 4;
    int stride = Math.max(1, ints / accesses);
    long handle = c.create(path, true, true).handle();
    ByteBuffer chunk = ByteBuffer.allocate(Math.max(record, (1 << 20) / record * record));
    for (long written = 0; written < bytes; ) {
      chunk.clear();
      while (chunk.remaining() >= record && written + chunk.position() < bytes) {
        int base = chunk.position();
        for (int i = 0; i < ints; i++) {
          int v = random.nextInt();
          chunk.putInt(v == KEY ? v + 1 : v);
        }
        if (random.nextDouble() < matching) {
          int at = random.nextInt(Math.min(accesses, ints)) * stride % ints;
          chunk.putInt(base + 4 * at, KEY);
        }
      }
      chunk.flip();
      c.write(handle, chunk.array(), 0, chunk.limit());
      written += chunk.limit();
    }
    c.closeHandle(handle);
  }

  private static Point probe(SocketDeviceClient c, String path, long bytes, int record, int accesses, boolean stop)
      throws IOException {
    long tasklet = c.createObject(ByteBuffer.allocate(0), AccessProbe.class.getName(), Map.of("record-length",
        Integer.toString(record), "accesses", Integer.toString(accesses), "key", Integer.toString(KEY),
        "stop-at-first-match", Boolean.toString(stop)));
    try {
      long execution = c.executeObject(tasklet, List.of(InputRange.whole(path)), Map.of("merge", "device"));
      List<TaskletResult> results = new ArrayList<>();
      Response.ExecutionProgress last = ExecutionPoller.drain(c, execution, results::add);
      if (last.state() != org.smartssd.device.tasklet.ExecutionState.DONE) {
        throw new IOException("the probe with " + accesses + " accesses failed: " + last.message());
      }
      long[] totals = AccessProbe.totals(results);
      if (totals[0] != bytes / record) {
        throw new IOException("the probe saw " + totals[0] + " records, not " + bytes / record);
      }
      return new Point(accesses, bytes, last.statistics());
    } finally {
      c.removeObject(tasklet);
    }
  }
}
