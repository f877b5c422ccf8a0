package org.smartssd.examples.activeflash;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.FileResults;
import org.smartssd.device.tasklet.builtin.SeriesScan;
import org.smartssd.examples.loganalysis.CommandDevices;
import org.smartssd.examples.loganalysis.HostCounting;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.loganalysis.WorkDirectory;
import org.smartssd.objectfs.DeviceClients;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.OpMeter;

/**
 * One of Active Flash's experiments ({@code smartssd activeflash}; Boboila et al.): a producer (a
 * simulation writing checkpoints) writes a checkpoint of a given size every period onto a paced device,
 * while an analysis attached to its directory runs on the device's cores on the fly, in idle time, or in
 * idle time with garbage collection there too; on a device that is free (fresh) or full (filled, then half
 * its files rewritten, so that its blocks hold live and dead pages alike and writes need intensive garbage
 * collection). It measures what fraction of the analysis was done while the producer ran, on the paced
 * device's clock (the modelled one); the device's compute against the host's for the same analysis of the
 * same bytes (the slowdown S and the energy saving ΔE, from counted work priced on either side); write
 * amplification; and checks every file's results against the host's.
 *
 * <p>It starts its own device (a child JVM, paced, with the experiment's capacity and settings): the
 * fraction depends on the device's clock being the producer's.
 */
public final class ActiveFlashRun {
  /** Where the producer writes, and the analysis is attached. */
  static final String DIRECTORY = "/activeflash";
  /** Where a full device's old data lie. */
  static final String FILL_DIRECTORY = "/fill";
  /**
   * Files an ageing batch writes side by side (a choice: 15, prime to the ways and channels of every profile,
   * so that each block gets pages of many files whichever way the writes rotate over).
   */
  static final int FILL_FILES = 15;
  /** The most an ageing file holds (a choice: a batch of 60 MiB); a small device's hold a 64th of it. */
  static final int FILL_FILE_BYTES = 4 << 20;
  /** What an ageing write carries, to each file in turn (a choice: small, so that the files' pages share blocks). */
  static final int FILL_WRITE_BYTES = 64 << 10;
  /** What a producer's write carries (a choice: as objfs's writes do). */
  static final int WRITE_BYTES = 1 << 20;
  /** A full device keeps this share of its capacity free besides the production's (a choice: room to work). */
  public static final double FULL_MARGIN = 0.05;

  /** How the analysis is scheduled (the source's three). */
  public enum Schedule {
    ON_THE_FLY("on-the-fly"), IDLE("idle"), IDLE_GC("idle-gc");

    private final String optionName;

    Schedule(String optionName) {
      this.optionName = optionName;
    }

    public String optionName() {
      return optionName;
    }

    public static Schedule parse(String s) {
      for (Schedule v : values()) {
        if (v.optionName.equals(s.trim())) {
          return v;
        }
      }
      throw new IllegalArgumentException("'" + s + "' is not a schedule: on-the-fly, idle or idle-gc");
    }

    @Override
    public String toString() {
      return optionName;
    }
  }

  /** The device's condition (the source's two). */
  public enum Condition {
    FREE("free"), FULL("full");

    private final String optionName;

    Condition(String optionName) {
      this.optionName = optionName;
    }

    public static Condition parse(String s) {
      for (Condition v : values()) {
        if (v.optionName.equals(s.trim())) {
          return v;
        }
      }
      throw new IllegalArgumentException("'" + s + "' is not a condition: free or full");
    }

    @Override
    public String toString() {
      return optionName;
    }
  }

  /**
   * What to run.
   *
   * @param rateBytesPerSecond the producer's mean rate: a checkpoint every checkpointBytes / rate seconds
   * @param overflow on the fly, what a full buffer does: defer (pages left for idle time) or wait
   * @param capacityBytes the device's capacity (its blocks per way are set to give about this)
   */
  public record Options(Analysis analysis, Schedule schedule, Condition condition, double rateBytesPerSecond,
      int checkpointBytes, int checkpoints, String overflow, long capacityBytes, String profile, long seed,
      Map<String, String> hadoopProperties, Map<String, String> deviceProperties) {
    /** Seconds between checkpoints. */
    public double periodSeconds() {
      return checkpointBytes / rateBytesPerSecond;
    }
  }

  /**
   * What a run found. Times in seconds from the production's start, on the paced device's clock (modelled;
   * the device holds each answer until then).
   *
   * @param analysedDuringProduction bytes whose analysis had ended by the production's end
   * @param productionSeconds the producer's run: its last period's end, or its last write's if later
   * @param analysisEndSeconds when the last byte's analysis ended
   * @param deviceComputeNanos the device's cores' compute for the analysis (modelled, summed over cores)
   * @param hostComputeNanos the same analysis of the same bytes on one host core (its counted work priced on the
   *     modelled host; 0 when this JVM does not count)
   * @param disagreements files whose device results differ from the host's
   * @param deviceProfile the analysis's counted work by call path on the device, when the command was asked for
   *     it ({@code --work-profile}); else null
   * @param deviceCounted the analysis's counted work on the device (its statistics)
   * @param deviceCore how the device prices a core's counted work
   */
  public record Outcome(Options options, String profile, int pageBytes, long capacityBytes, long writtenBytes,
      long analysedDuringProduction, long analysedBytes, double plannedSeconds, double productionSeconds,
      double analysisEndSeconds, long pagesReadBack, long deviceComputeNanos, long hostComputeNanos,
      double deviceCoreWatts, double hostCoreWatts, long programmedPages, long gcPagesMoved, long blocksErased,
      long fillBytes, long resultRecords, long resultBytes, List<String> disagreements, double totalSeconds,
      org.smartssd.device.WorkProfile deviceProfile, org.smartssd.device.WorkProfile.Work deviceCounted,
      org.smartssd.opcount.CoreCost deviceCore) {

    public double fractionDuringProduction() {
      return writtenBytes == 0 ? 0 : (double) analysedDuringProduction / writtenBytes;
    }

    /** Active Flash's S = t_ssd / t_host; NaN when the host's work was not counted. */
    public double slowdown() {
      return hostComputeNanos == 0 ? Double.NaN : (double) deviceComputeNanos / hostComputeNanos;
    }

    /** Active Flash's ΔE = 1 - S (ΔP_ssd / ΔP_host), a core's power above idle on either side. */
    public double energySaving() {
      return 1 - slowdown() * deviceCoreWatts / hostCoreWatts;
    }

    /** Flash pages programmed over those the producer wrote: garbage collection's moves added. */
    public double writeAmplification() {
      long host = programmedPages - gcPagesMoved;
      return host <= 0 ? Double.NaN : (double) programmedPages / host;
    }

    public boolean exact() {
      return disagreements.isEmpty();
    }

    /** The results' bytes (the analysis's records) over the bytes written: what the analysis reduces the data to. */
    public double dataReduction() {
      return writtenBytes == 0 ? 0 : (double) resultBytes / writtenBytes;
    }
  }

  private final Options options;
  private final PrintWriter log;

  public ActiveFlashRun(Options options, PrintWriter log) {
    this.options = options;
    this.log = log;
  }

  public Outcome run() throws IOException, InterruptedException {
    long started = System.nanoTime();
    Configuration conf = LogAnalysis.configuration(options.hadoopProperties());
    boolean counting = HostCounting.start();
    Map<String, String> props = new TreeMap<>(options.deviceProperties());
    props.put(DeviceConfigKeys.FLASH_BLOCKS_PER_WAY, Long.toString(blocksPerWay()));
    props.put(DeviceConfigKeys.ACTIVE_IDLE_GC, Boolean.toString(options.schedule() == Schedule.IDLE_GC));
    List<byte[]> checkpoints = new ArrayList<>();
    for (int k = 0; k < options.checkpoints(); k++) {
      checkpoints.add(options.analysis().checkpoint(k, options.checkpointBytes(), options.seed()));
    }
    long written = checkpoints.stream().mapToLong(c -> c.length).sum();
    say("generated %d checkpoints of %s: %,d bytes", checkpoints.size(), options.analysis().data(), written);
    try (WorkDirectory work = WorkDirectory.create("smartssd-activeflash-");
        CommandDevices devices = CommandDevices.start(conf, work.path(), options.profile(), 1, true, props);
        SocketDeviceClient client = SocketDeviceClient.connect(DeviceAddress.parse(devices.addresses().get(0)),
            DeviceClients.clientOptions(conf))) {
      say("%s", devices.description());
      DeviceInfo info = client.info();
      DeviceConfig config = DeviceConfig.load(info.parameters());
      if (written > info.capacityBytes() * (1 - FULL_MARGIN)) {
        throw new IllegalArgumentException(String.format(Locale.ROOT, "the production (%,d bytes) does not fit the "
            + "device's capacity of %,d bytes with room to work: a larger --capacity, or fewer or smaller checkpoints",
            written, info.capacityBytes()));
      }
      client.mkdirs(DIRECTORY);
      long fill = options.condition() == Condition.FULL ? fill(client, info.capacityBytes(), written) : 0;
      long tasklet = client.createObject(ByteBuffer.allocate(0), options.analysis().tasklet(), Map.of());
      Map<String, String> attach = new TreeMap<>();
      attach.put("attach", "write");
      if (options.schedule() == Schedule.ON_THE_FLY) {
        attach.put("overflow", options.overflow());
      } else {
        attach.put("schedule", "idle");
      }
      if (org.smartssd.examples.loganalysis.WorkProfiling.enabled()) {
        attach.put("profile", "true");
      }
      Thread.sleep(200); // the filling's last writes settle: the production starts on an idle device
      DeviceStatistics before = client.statistics();
      long exec = client.executeObject(tasklet, List.of(InputRange.whole(DIRECTORY)), attach);
      Collected collected = new Collected();
      long start = System.nanoTime();
      double period = options.periodSeconds();
      say("producing: %d checkpoints of %,d bytes, one every %.2f s (%.1f MB/s), analysis %s %s, device %s",
          checkpoints.size(), options.checkpointBytes(), period, options.rateBytesPerSecond() / 1e6,
          options.analysis(), options.schedule(), options.condition());
      for (int k = 0; k < checkpoints.size(); k++) {
        sleepUntil(start + (long) (k * period * 1e9));
        byte[] data = checkpoints.get(k);
        long h = client.create(path(k), true, false).handle();
        for (int off = 0; off < data.length; off += WRITE_BYTES) {
          client.write(h, data, off, Math.min(WRITE_BYTES, data.length - off));
        }
        client.closeHandle(h);
      }
      long plannedEnd = start + (long) (checkpoints.size() * period * 1e9);
      sleepUntil(plannedEnd);
      double production = (System.nanoTime() - start) / 1e9;
      Response.ExecutionProgress atEnd = collected.add(client.readObject(exec, maxBytes()));
      long during = atEnd.statistics().bytesScanned();
      say("production ended after %.2f s (planned %.2f s): %,d of %,d bytes analysed by then (%.1f%%)", production,
          checkpoints.size() * period, during, written, 100.0 * during / written);
      client.cancel(exec);
      Response.ExecutionProgress last = atEnd;
      long lastSaid = System.nanoTime();
      while (!last.finished()) {
        Thread.sleep(100);
        last = collected.add(client.readObject(exec, maxBytes()));
        if (System.nanoTime() - lastSaid > 5_000_000_000L) {
          say("analysing: %,d of %,d bytes so far", last.statistics().bytesScanned(), written);
          lastSaid = System.nanoTime();
        }
      }
      if (last.state() != org.smartssd.device.tasklet.ExecutionState.DONE) {
        throw new IOException("the analysis ended " + last.state() + ": " + last.message());
      }
      ExecutionStatistics s = last.statistics();
      // The attachment's modelled span: from the attach (just before the production's start) to its last work.
      double analysisEnd = s.modelledNanos() / 1e9;
      DeviceStatistics after = client.statistics();
      say("analysis done after %.2f s: %,d bytes, %,d pages read back from flash", analysisEnd, s.bytesScanned(),
          s.pagesRead());
      // The host's reference: the same scan over the same bytes, on this thread, counted.
      List<String> disagreements = new ArrayList<>();
      OpMeter meter = OpMeter.current();
      OpCounts hostCounted = OpCounts.ZERO;
      long records = 0;
      long resultBytes = 0;
      for (int k = 0; k < checkpoints.size(); k++) {
        OpCounts c0 = meter.counts();
        SeriesScan scan = options.analysis().scan(path(k));
        scan.accept(ByteBuffer.wrap(checkpoints.get(k)));
        scan.finish();
        byte[] expected = scan.take();
        hostCounted = hostCounted.plus(meter.counts().minus(c0));
        byte[] found = collected.payload(path(k));
        records += options.analysis().records(found);
        resultBytes += found.length;
        String wrong = options.analysis().check(checkpoints.get(k), found);
        if (!java.util.Arrays.equals(expected, found)) {
          disagreements.add(String.format(Locale.ROOT, "%s: the device found %d records (%,d bytes), the host %d"
              + " (%,d bytes)%s", path(k), options.analysis().records(found), found.length,
              options.analysis().records(expected), expected.length, expected.length == found.length
                  ? " (different ones)" : ""));
        } else if (wrong != null) {
          disagreements.add(path(k) + ": " + wrong);
        } else if (collected.samples(path(k)) != scan.samples()) {
          disagreements.add(path(k) + ": the device read " + collected.samples(path(k)) + " samples, the host "
              + scan.samples());
        }
      }
      long hostNanos = counting ? config.isp().host().nanos(hostCounted) : 0;
      if (!counting) {
        say("this JVM does not count its work (run it through bin/smartssd): no host time, so no S or ΔE");
      }
      long programmed = pages(after) - pages(before);
      return new Outcome(options, config.profile(), info.geometry().pageSizeBytes(), info.capacityBytes(), written,
          during, s.bytesScanned(), checkpoints.size() * period, production, analysisEnd, s.pagesRead(),
          s.modelledComputeNanos(), hostNanos, config.energy().deviceCoreWatts(), config.energy().hostCoreWatts(),
          programmed, after.gcPagesMoved() - before.gcPagesMoved(), erased(after) - erased(before), fill, records,
          resultBytes, disagreements, (System.nanoTime() - started) / 1e9, last.profile(),
          new org.smartssd.device.WorkProfile.Work(s.countedOps(), s.countedMemoryAccesses(), s.countedLibraryCalls(),
              s.countedBulkBytes(), s.countedLibraryReads()), config.isp().core());
    }
  }

  /**
   * Ages the device until garbage collection begins: batches of {@link #FILL_FILES} files written side by side
   * ({@link #FILL_WRITE_BYTES} to each in turn, so that their pages share blocks), of which a random half is
   * then deleted. When writes start to move pages, the flash is full of blocks half live and half dead, as a
   * device long in use is (the source's "full": every write needs intensive garbage collection), while the
   * live data leave room for the production.
   *
   * @return the bytes live after it
   */
  private long fill(SocketDeviceClient client, long capacity, long production) throws IOException {
    long most = (long) (capacity * (1 - FULL_MARGIN)) - production;
    int fileBytes = (int) Math.max(FILL_WRITE_BYTES, Math.min(FILL_FILE_BYTES, capacity / 64 / FILL_WRITE_BYTES
        * FILL_WRITE_BYTES));
    long batch = (long) FILL_FILES * fileBytes;
    say("ageing the device: batches of %d files of %,d bytes written side by side, a random half deleted, until"
        + " writes need garbage collection", FILL_FILES, fileBytes);
    client.mkdirs(FILL_DIRECTORY);
    byte[] data = new byte[FILL_WRITE_BYTES];
    Random r = new Random(options.seed());
    long live = 0;
    int next = 0;
    while (client.statistics().gcPagesMoved() == 0) {

      if (live + batch / 2 > most) {
        throw new IllegalArgumentException(String.format(Locale.ROOT, "the device filled up (%,d bytes live) before "
            + "its writes needed garbage collection: a smaller production or a larger --capacity", live));
      }
      long[] handles = new long[FILL_FILES];
      for (int f = 0; f < FILL_FILES; f++) {
        handles[f] = client.create(FILL_DIRECTORY + "/part-" + (next + f), true, false).handle();
      }
      for (int off = 0; off < fileBytes; off += FILL_WRITE_BYTES) {
        for (long h : handles) {
          r.nextBytes(data);
          client.write(h, data, 0, data.length);
        }
      }
      for (long h : handles) {
        client.closeHandle(h);
      }
      List<Integer> order = new ArrayList<>();
      for (int f = 0; f < FILL_FILES; f++) {
        order.add(f);
      }
      java.util.Collections.shuffle(order, r);
      for (int f : order.subList(0, FILL_FILES / 2)) {
        client.delete(FILL_DIRECTORY + "/part-" + (next + f), false);
      }
      next += FILL_FILES;
      live += (long) (FILL_FILES - FILL_FILES / 2) * fileBytes;
      DeviceStatistics st = client.statistics();
      say("  %,d bytes live; %,d blocks erased, %,d pages moved so far", live, erased(st), st.gcPagesMoved());
    }
    say("aged: %,d bytes live in %,d files", live, next / 2);
    return live;
  }

  /** Blocks a way so that the device holds about the capacity asked for. */
  private long blocksPerWay() {
    Map<String, String> p = new TreeMap<>(options.deviceProperties());
    p.put(DeviceConfigKeys.PROFILE, options.profile());
    DeviceConfig config = DeviceConfig.load(p);
    org.smartssd.device.DeviceGeometry g = config.geometry();
    double block = (double) g.pagesPerBlock() * g.pageSizeBytes() * g.channels() * g.waysPerChannel()
        * (100 - config.overprovisioningPercent()) / 100.0;
    return Math.max(config.gcMinFreeBlocksPerWay() + 2, (long) Math.ceil(options.capacityBytes() / block));
  }

  static String path(int k) {
    return String.format(Locale.ROOT, "%s/checkpoint-%04d", DIRECTORY, k);
  }

  private static int maxBytes() {
    return ExecutionPoller.PollingPolicy.defaults().maxBytes();
  }

  private static long pages(DeviceStatistics s) {
    return s.channels().stream().mapToLong(c -> c.pagesProgrammed()).sum();
  }

  private static long erased(DeviceStatistics s) {
    return s.channels().stream().mapToLong(c -> c.blocksErased()).sum();
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
      Thread.sleep(Math.max(1, left / 1_000_000), 0);
    }
  }

  /** The attachment's results, by file. */
  private static final class Collected {
    private final Map<String, ByteArrayOutputStream> payloads = new LinkedHashMap<>();
    private final Map<String, Long> samples = new TreeMap<>();

    Response.ExecutionProgress add(Response.ExecutionProgress p) {
      for (TaskletResult r : p.results()) {
        FileResults.Part part = FileResults.decode(r.data());
        byte[] payload = new byte[part.payload().remaining()];
        part.payload().get(payload);
        payloads.computeIfAbsent(part.path(), k -> new ByteArrayOutputStream()).writeBytes(payload);
        if (part.last()) {
          samples.put(part.path(), part.analysed());
        }
      }
      return p;
    }

    byte[] payload(String path) {
      ByteArrayOutputStream b = payloads.get(path);
      return b == null ? new byte[0] : b.toByteArray();
    }

    long samples(String path) {
      return samples.getOrDefault(path, -1L);
    }
  }

  private void say(String format, Object... args) {
    log.printf(Locale.ROOT, "activeflash: " + format + "%n", args);
    log.flush();
  }
}
