package org.smartssd.model;

import java.util.EnumMap;
import java.util.Map;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.device.runtime.config.TimingParameters;
import org.smartssd.opcount.CoreCost;

/**
 * The closed-form model beside the simulator: the time of a job in each mode from a device's
 * parameters and the job's counted work, with no device and no Hadoop. Pure functions.
 *
 * <p>Its parts are the sources':
 * <ul>
 *   <li>Flash to channel (the iSSD's Eq. 1): reading {@code d} bytes on a channel takes
 *       ceil(d / (page x ways)) cell reads and ceil(d / page) bus transfers. Published, the two add
 *       up; the ways interleave, though, and the sweeps against the simulator showed Eq. 1 up to 8%
 *       high where the bus bounds a channel, so the model overlaps them
 *       ({@link #cellToChannelNanos}); the published form gives {@code issd_execution_s}.
 *   <li>Processing (Eq. 6, 7 and 13): counted work priced on a core ({@link Counts#nanos}); a
 *       device's lanes work in parallel, each on the channels it serves (channel c on core c mod
 *       cores), the host on its cores.
 *   <li>Swap (Eq. 8 and 9): each time a function's memory exceeds its core's, its data is read
 *       again.
 *   <li>Global merge (Eq. 10): the lanes' results, merged on the controller core or sent to the host;
 *       a lane's results are the keys among the records it read ({@link ResultCurve}), and the merge's
 *       work follows their bytes.
 *   <li>Streaming (the XSD's Perf = min(flash to DRAM, execute)): a lane reads and computes at once,
 *       so an execution takes the longer of its reads and its compute, plus the first request's read
 *       or the last one's compute, then what the lane computes once its input ended (the combine of
 *       the records still in its buffer, {@link Workload#laneTail}); the iSSD's Eq. 12 (access plus
 *       processing) is given beside it.
 *   <li>Host modes: each read command streams its pages from the flash over the link (its time the
 *       longer of the two), then the host computes (Eq. 11: access plus processing).
 * </ul>
 */
public final class AnalyticModel {
  private AnalyticModel() {}

  /** Every mode the workload runs in ({@link Workload#modes}). */
  public static Map<Mode, Prediction> predict(Workload w, DeviceConfig device, Job job) {
    Map<Mode, Prediction> m = new EnumMap<>(Mode.class);
    for (Mode mode : w.modes()) {
      m.put(mode, predict(w, device, job, mode));
    }
    return m;
  }

  /** @throws IllegalArgumentException for a mode the workload does not run in */
  public static Prediction predict(Workload w, DeviceConfig device, Job job, Mode mode) {
    if (!w.host().containsKey(mode)) {
      throw new IllegalArgumentException(w.name() + " does not run in mode " + mode.optionName() + " (it runs in "
          + String.join(", ", w.modes().stream().map(Mode::optionName).toList()) + ")");
    }
    return mode == Mode.DEVICE ? device(w, device, job) : host(w, device, job, mode);
  }

  // ---- the device's flash ----

  /** The time of one page on a channel's bus. */
  static double busNanos(DeviceConfig d) {
    return d.geometry().pageSizeBytes() * 1e9 / d.timing().channelBytesPerSecond();
  }

  /**
   * The iSSD's Eq. 1 as published: {@code pages} pages read on one channel of {@code ways} ways take
   * ceil(pages / ways) cell reads and {@code pages} bus loads, one after the other.
   */
  static double issdCellToChannelNanos(DeviceConfig d, long pages) {
    if (pages <= 0) {
      return 0;
    }
    long waves = (pages + d.geometry().waysPerChannel() - 1) / d.geometry().waysPerChannel();
    return waves * (double) d.timing().cellReadNanos() + pages * busNanos(d);
  }

  /**
   * Eq. 1 with the ways interleaved, as the simulator and the flash do: while one die's page crosses
   * the bus, the other dies read their cells. A die holds its page until the bus has carried it, so
   * it reads a page every t_read + t_bus; the bus carries one page at a time. Pages go round the
   * ways; the last of {@code pages} ends at the later of the bus's bound, t_read + pages x t_bus, and
   * the dies' bound, ceil(pages / ways) x (t_read + t_bus) plus the wait of the last page's die for
   * the bus in its wave. Never more than Eq. 1 as published: that one counts no overlap at all.
   */
  static double cellToChannelNanos(DeviceConfig d, long pages) {
    if (pages <= 0) {
      return 0;
    }
    int ways = d.geometry().waysPerChannel();
    double read = d.timing().cellReadNanos();
    double bus = busNanos(d);
    long waves = (pages + ways - 1) / ways;
    double busBound = read + pages * bus;
    double dieBound = waves * (read + bus) + ((pages - 1) % ways) * bus;
    return Math.max(busBound, dieBound);
  }

  private static double linkNanos(DeviceConfig d, double bytes) {
    return bytes * 1e9 / d.timing().linkBytesPerSecond();
  }

  // ---- device mode ----

  private static Prediction device(Workload w, DeviceConfig d, Job job) {
    IspParameters isp = d.isp();
    double recordsPerDevice = (double) job.records() / job.devices();
    double bytesPerDevice = recordsPerDevice * w.recordBytes();
    // Splits are whole blocks and a last, shorter one (as objfs cuts an object); a device runs them one
    // after the other.
    long fullSplits = (long) Math.floor(bytesPerDevice / job.splitBytes());
    double lastSplitBytes = bytesPerDevice - fullSplits * (double) job.splitBytes();
    long splits = fullSplits + (lastSplitBytes > 0 || fullSplits == 0 ? 1 : 0);
    Execution full = fullSplits == 0 ? Execution.NONE
        : execution(w, d, job, (double) job.splitBytes() / w.recordBytes());
    Execution last = lastSplitBytes > 0 || fullSplits == 0 ? execution(w, d, job, lastSplitBytes / w.recordBytes())
        : Execution.NONE;
    Execution all = full.times(fullSplits).plus(last);
    // The host reads and reduces every device's partial results: work per record, per split, per result byte.
    double host = w.host().get(Mode.DEVICE).of(job.records())
        .plus(w.hostPerSplit(Mode.DEVICE).times(splits * (double) job.devices()))
        .plus(w.hostPerResultByte().times(all.resultBytes() * job.devices()))
        .nanos(isp.host()) / isp.hostCores();
    return new Prediction(Mode.DEVICE, all.read, all.compute, all.swap, all.merge, all.link, host, all.total,
        all.issd, all.total + host);
  }

  /** One execution's parts, or their sums over several. */
  private record Execution(double read, double compute, double swap, double merge, double link, double total,
      double issd, double resultBytes) {
    static final Execution NONE = new Execution(0, 0, 0, 0, 0, 0, 0, 0);

    Execution times(double n) {
      return new Execution(read * n, compute * n, swap * n, merge * n, link * n, total * n, issd * n,
          resultBytes * n);
    }

    Execution plus(Execution o) {
      return new Execution(read + o.read, compute + o.compute, swap + o.swap, merge + o.merge, link + o.link,
          total + o.total, issd + o.issd, resultBytes + o.resultBytes);
    }
  }

  /** One execution over a split of {@code records} records: the busiest channel's reads, the busiest lane's work. */
  private static Execution execution(Workload w, DeviceConfig d, Job job, double records) {
    IspParameters isp = d.isp();
    int channels = d.geometry().channels();
    int cores = isp.cores();
    int page = d.geometry().pageSizeBytes();
    long pages = (long) Math.ceil(records * w.recordBytes() / page);
    // An object's stripes go round the channels from one the object's id picks: the busiest has the ceiling.
    int stripePages = d.geometry().stripeUnitPages();
    long pagesPerChannel = busiestChannelPages(pages, stripePages, channels);
    int requestPages = isp.readRequestPages();
    long requests = (pagesPerChannel + requestPages - 1) / requestPages;
    long lastRequestPages = pagesPerChannel - (requests - 1) * requestPages;
    double fullRequest = cellToChannelNanos(d, Math.min(requestPages, pagesPerChannel));
    double read = requests == 0 ? 0 : (requests - 1) * fullRequest + cellToChannelNanos(d, lastRequestPages);

    // Its records: those that start on its channels' pages.
    double recordsPerLane = Math.min(records,
        busiestLaneBytes(records * w.recordBytes(), page, stripePages, channels, Math.min(cores, channels)) / w.recordBytes());
    CoreCost core = isp.core();
    double compute = w.deviceLane().of(recordsPerLane).nanos(core);
    // What the lane computes once told its input ended (its last buffer's combine): after its last read.
    double tail = Math.min(compute, w.laneTail().of(job.lastBufferRecords(recordsPerLane)).nanos(core));
    double streamed = compute - tail;
    double swap = swapNanos((long) Math.ceil(w.laneState().bytes(recordsPerLane)), job.laneMemoryBytes(), read);
    double lastCompute = streamed / Math.max(1, requests);
    double streaming = Math.max(read + lastCompute, fullRequest + streamed);
    // The lane combines its buffer each time it fills: its work comes in bursts, not evenly. Reads run
    // ahead of the core, so a burst's work waits only for the core; but between bursts, mapping alone
    // may be faster than the reads, and the core then waits for data, time no later burst gives back.
    // The lane ends no sooner than when the data of a combine's last record arrives plus all the work
    // from there on. Linear in the combine's number, so the first and the last bound it.
    long combines = (long) Math.floor(recordsPerLane / job.bufferRecords());
    if (combines > 0 && recordsPerLane > 0) {
      double combine = w.laneTail().perRecord().times(job.bufferRecords()).nanos(core);
      double mapping = Math.max(0, streamed - combines * combine) / recordsPerLane;
      for (long j : new long[] {1, combines}) {
        double upTo = j * (double) job.bufferRecords();
        streaming = Math.max(streaming,
            read * upTo / recordsPerLane + (recordsPerLane - upTo) * mapping + (combines - j + 1) * combine);
      }
    }
    streaming += tail;
    double issdRead = requests == 0 ? 0
        : (requests - 1) * issdCellToChannelNanos(d, Math.min(requestPages, pagesPerChannel))
            + issdCellToChannelNanos(d, lastRequestPages);

    int lanes = activeLanes(d, records * w.recordBytes());
    double merge = 0;
    // Each lane's results: the keys among the records it read.
    double resultBytes = lanes * w.laneResults().bytes(records / lanes);
    if (job.mergeOnDevice()) {
      // The controller merges every lane's results; what it sends are the keys among all the records.
      merge = w.merge().of(resultBytes).nanos(isp.controller());
      resultBytes = w.laneResults().bytes(records);
    }
    double link = linkNanos(d, resultBytes) + d.timing().linkCommandNanos();
    return new Execution(read, compute, swap, merge, link, streaming + swap + merge + link,
        issdRead + compute + swap + merge + link, resultBytes);
  }

  /**
   * The lanes that get data of an object of {@code bytes} bytes: its stripes go round the channels, and
   * lane {@code l} serves the channels {@code c} with {@code c mod cores == l}; a small object reaches
   * only the channels its stripes do.
   */
  public static int activeLanes(DeviceConfig d, double bytes) {
    long pages = (long) Math.ceil(Math.max(0, bytes) / d.geometry().pageSizeBytes());
    long stripes = (pages + d.geometry().stripeUnitPages() - 1) / d.geometry().stripeUnitPages();
    return (int) Math.max(1, Math.min(d.isp().cores(), Math.min(d.geometry().channels(), stripes)));
  }

  /**
   * The bytes of an object of {@code bytes} bytes on its busiest lane's channels, lane {@code l} serving
   * the channels {@code c} with {@code c mod lanes == l}. Its stripes of {@code stripePages} pages go
   * round the channels from the one the object's id picks, so the channels after it hold a stripe
   * more, and one of them the last, partial stripe: averaged over where the object starts (the model
   * does not know its id).
   */
  static double busiestLaneBytes(double bytes, int page, int stripePages, int channels, int lanes) {
    if (bytes <= 0) {
      return 0;
    }
    long pages = (long) Math.ceil(bytes / page);
    double lastPageMissing = pages * (double) page - bytes;
    long stripes = (pages + stripePages - 1) / stripePages;
    long lastStripeMissing = stripes * stripePages - pages;
    long each = stripes / channels;
    long more = stripes % channels;
    double sum = 0;
    double[] lane = new double[lanes];
    for (int start = 0; start < channels; start++) {
      java.util.Arrays.fill(lane, 0);
      int lastChannel = (int) ((start + stripes - 1) % channels);
      for (int c = 0; c < channels; c++) {
        long held = (each + (Math.floorMod(c - start, channels) < more ? 1 : 0)) * stripePages;
        double missing = c == lastChannel ? lastStripeMissing * (double) page + lastPageMissing : 0;
        lane[c % lanes] += held * (double) page - missing;
      }
      double most = 0;
      for (double b : lane) {
        most = Math.max(most, b);
      }
      sum += most;
    }
    return sum / channels;
  }

  /** The pages of an object of {@code pages} pages on its busiest channel, in stripes of {@code stripePages}. */
  static long busiestChannelPages(long pages, int stripePages, int channels) {
    long stripes = (pages + stripePages - 1) / stripePages;
    long most = (stripes + channels - 1) / channels * stripePages;
    // The last stripe may be partial; when every channel holds as many stripes, its channel holds less,
    // but another holds the full count.
    if (stripes % channels == 1 || channels == 1) {
      most -= stripes * stripePages - pages;
    }
    return Math.max(0, most);
  }

  /**
   * The iSSD's Eq. 9: a function whose memory M(f) exceeds its core's M reads its data ceil(M(f) / M)
   * times. Written here as the reads beyond the first, which Eq. 5 already counts (taken literally,
   * Eq. 9 charges one more read even when M(f) fits), after the lane's work, as the simulator reads
   * them. A job on a device takes M from the device's {@code isp.lane-memory-bytes} (bounded in the
   * iSSD profiles only); M(f) is the workload's lane state at the busiest lane's records, as the
   * device reported it on the samples.
   */
  static double swapNanos(long functionBytes, long memoryBytes, double readNanos) {
    if (functionBytes <= memoryBytes) {
      return 0;
    }
    return (Math.ceil((double) functionBytes / memoryBytes) - 1) * readNanos;
  }

  // ---- host modes ----

  private static Prediction host(Workload w, DeviceConfig d, Job job, Mode mode) {
    TimingParameters t = d.timing();
    int channels = d.geometry().channels();
    int page = d.geometry().pageSizeBytes();
    double bytesPerDevice = (double) job.records() / job.devices() * w.recordBytes();
    long chunk = Math.max(job.readaheadBytes(), page);
    long commands = (long) Math.ceil(bytesPerDevice / chunk);
    double lastChunk = bytesPerDevice - (commands - 1) * (double) chunk;
    double access = (commands - 1) * commandNanos(d, chunk, channels) + commandNanos(d, (long) lastChunk, channels);
    double link = linkNanos(d, bytesPerDevice);
    long splitsPerDevice = Math.max(1, (long) Math.ceil(bytesPerDevice / job.splitBytes()));
    double processing = w.host().get(mode).of(job.records())
        .plus(w.hostPerSplit(mode).times(splitsPerDevice * (double) job.devices()))
        .nanos(d.isp().host()) / d.isp().hostCores();
    return new Prediction(mode, access, processing, 0, 0, link, 0, 0, 0, access + processing);
  }

  /**
   * One read command of {@code bytes}: its pages are read on every channel at once (Eq. 1 on the
   * busiest) and stream over the link behind them; its fixed cost comes first.
   */
  private static double commandNanos(DeviceConfig d, long bytes, int channels) {
    if (bytes <= 0) {
      return 0;
    }
    int page = d.geometry().pageSizeBytes();
    long pages = (bytes + page - 1) / page;
    double flash = cellToChannelNanos(d, (pages + channels - 1) / channels);
    double link = linkNanos(d, bytes);
    return d.timing().linkCommandNanos() + Math.max(link, flash + linkNanos(d, Math.min(bytes, page)));
  }
}
