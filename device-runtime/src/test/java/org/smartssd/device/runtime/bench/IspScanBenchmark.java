package org.smartssd.device.runtime.bench;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.GroupedSum;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/**
 * Scans one large object of 20-byte records with built-in tasklets inside an embedded device
 * (unpaced) and the same bytes with a bare Java loop over a local file, in the same run; then
 * measures host-read bandwidth while an execution scans, against idle. Prints Markdown tables.
 *
 * <p>Arguments: {@code [work-dir] [size-MiB] [rounds] [warm-up-rounds]} (defaults: a temporary
 * directory, 1024, 3, 3). The warm-up rounds run all three scans first and are printed but not counted
 * in the medians: the device is a long-lived process, and its first executions run while the JIT
 * still compiles the scan path (on two cores it took about four rounds of both tasklets over
 * 512 MiB), where the bare loop is compiled within its first pages. System properties named
 * {@code smartssd.device.*} are passed to the embedded device's configuration.
 */
public final class IspScanBenchmark {
  private static final int RECORD = 20;
  private static final int CHUNK = 1 << 20;

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    long sizeMiB = args.length > 1 ? Long.parseLong(args[1]) : 1024;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    long size = sizeMiB << 20;
    size -= size % RECORD;
    Files.createDirectories(work);
    Path local = work.resolve("records.bin");
    Map<String, String> config = new HashMap<>();
    config.put("smartssd.device.data-dir", work.resolve("device").toString());
    config.put("smartssd.device.host.port", "0");
    config.put("smartssd.device.profile", "msst13-sata");
    for (String key : System.getProperties().stringPropertyNames()) {
      if (key.startsWith("smartssd.device.")) {
        config.put(key, System.getProperty(key));
      }
    }

    try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config));
        SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(device.address()), ClientOptions.defaults());
        FileChannel file = FileChannel.open(local, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      writeRecords(c, file, size);
      byte[] other = new byte[CHUNK];
      long hostBytes = 256L << 20;
      long h = c.create("/bench/host", true, true).handle();
      for (long w = 0; w < hostBytes; w += CHUNK) {
        c.write(h, other, 0, CHUNK);
      }
      c.closeHandle(h);

      long counter = c.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
          Map.of("record-length", "" + RECORD));
      long regions = c.createObject(ByteBuffer.allocate(0), GroupedSum.class.getName(),
          Map.of("record-length", "" + RECORD, "key-offset", "19", "key-length", "1", "key-shift", "5"));

      List<Double> bare = new ArrayList<>();
      List<Double> counting = new ArrayList<>();
      List<Double> grouping = new ArrayList<>();
      ExecutionStatistics countStats = null;
      ExecutionStatistics groupStats = null;
      for (int r = -warmUp; r < rounds; r++) {
        String round = r < 0 ? "warm-up " + (r + warmUp + 1) : "round " + (r + 1);
        long t0 = System.nanoTime();
        long[] expected = bareLoop(file, size);
        double bareSeconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("%s: bare loop %.3f s%n", round, bareSeconds);

        t0 = System.nanoTime();
        Run count = execute(c, counter);
        double countSeconds = (System.nanoTime() - t0) / 1e9;
        check(RecordCounter.total(count.results) == size / RECORD, "the counter's total");
        countStats = count.last.statistics();
        printRound(round, "RecordCounter", countSeconds, countStats);

        t0 = System.nanoTime();
        Run group = execute(c, regions);
        double groupSeconds = (System.nanoTime() - t0) / 1e9;
        Map<Long, Long> sums = GroupedSum.sums(group.results);
        for (int region = 0; region < 4; region++) {
          check(sums.getOrDefault((long) region, 0L) == expected[region], "region " + region + "'s count");
        }
        groupStats = group.last.statistics();
        printRound(round, "GroupedSum", groupSeconds, groupStats);
        if (r >= 0) {
          bare.add(bareSeconds);
          counting.add(countSeconds);
          grouping.add(groupSeconds);
        }
      }
      double base = median(bare);
      System.out.printf("| what (%d MiB of 20-byte records) | median of %d rounds after %d warm-up | MB/s | time vs bare loop |%n",
          sizeMiB, rounds, warmUp);
      System.out.println("| --- | --- | --- | --- |");
      row("bare Java loop over a local file: count records per region (baseline), measured", base, size, base);
      row("RecordCounter tasklet in the device, measured", median(counting), size, base);
      row("GroupedSum tasklet (accesses per region) in the device, measured", median(grouping), size, base);
      row("RecordCounter, modelled (msst13-sata)", countStats.modelledNanos() / 1e9, size, base);
      row("GroupedSum, modelled (msst13-sata)", groupStats.modelledNanos() / 1e9, size, base);
      System.out.printf("%nGroupedSum: %d lanes, lane CPU %.3f s measured, modelled compute %.3f s over all cores, "
          + "modelled device energy %.2f J, host waiting %.2f J%n", groupStats.lanes(), groupStats.laneCpuNanos() / 1e9,
          groupStats.modelledComputeNanos() / 1e9, groupStats.modelledDeviceMicrojoules() / 1e6,
          groupStats.modelledHostMicrojoules() / 1e6);

      long objectId = c.open("/bench/host").objectId();
      hostReadMbPerS(c, objectId, hostBytes, null); // warm-up
      double idleBefore = hostReadMbPerS(c, objectId, hostBytes, null);
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong busyExecutions = new AtomicLong();
      Thread scanner = new Thread(() -> {
        try (SocketDeviceClient sc = SocketDeviceClient.connect(DeviceAddress.parse(device.address()),
            ClientOptions.defaults())) {
          while (running.get()) {
            execute(sc, regions);
            busyExecutions.incrementAndGet();
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      scanner.start();
      Thread.sleep(200);
      double busy = hostReadMbPerS(c, objectId, hostBytes, busyExecutions);
      running.set(false);
      scanner.join();
      double idle = (idleBefore + hostReadMbPerS(c, objectId, hostBytes, null)) / 2;
      System.out.printf("%n| host reads, 1 MiB READs of a 256 MiB object | MB/s, measured | vs idle |%n");
      System.out.println("| --- | --- | --- |");
      System.out.printf("| idle device, before and after (baseline) | %.0f | 1.00 |%n", idle);
      System.out.printf("| while GroupedSum executions scan the channels (%d ran) | %.0f | %.2f |%n",
          busyExecutions.get(), busy, busy / idle);
    } finally {
      Files.deleteIfExists(local);
    }
  }

  /** World Cup-like records: byte 19 holds the region (0 to 3) in its top three bits. */
  private static void writeRecords(SocketDeviceClient c, FileChannel file, long size) throws Exception {
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK - CHUNK % RECORD);
    long h = c.create("/bench/records", true, true).handle();
    long record = 0;
    for (long written = 0; written < size; ) {
      chunk.clear();
      int n = (int) Math.min(chunk.capacity(), size - written);
      for (int off = 0; off < n; off += RECORD, record++) {
        chunk.putInt(off, (int) record);
        chunk.put(off + 19, (byte) ((((record * 2654435761L) >>> 7) & 3) << 5 | (record & 31)));
      }
      c.write(h, chunk.array(), 0, n);
      file.write(ByteBuffer.wrap(chunk.array(), 0, n), written);
      written += n;
    }
    c.closeHandle(h);
    file.force(true);
  }

  /** One pass over the file: accesses per region, as the tasklet computes them. */
  private static long[] bareLoop(FileChannel file, long size) throws Exception {
    long[] regions = new long[8];
    ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK - CHUNK % RECORD);
    for (long pos = 0; pos < size; ) {
      buf.clear();
      while (buf.hasRemaining() && pos + buf.position() < size) {
        if (file.read(buf, pos + buf.position()) < 0) {
          break;
        }
      }
      int n = buf.position();
      for (int off = 0; off + RECORD <= n; off += RECORD) {
        regions[(buf.get(off + 19) & 0xFF) >>> 5]++;
      }
      pos += n;
    }
    return regions;
  }

  private record Run(List<TaskletResult> results, Response.ExecutionProgress last) {}

  private static Run execute(SocketDeviceClient c, long tasklet) throws Exception {
    long exec = c.executeObject(tasklet, List.of(InputRange.whole("/bench/records")), Map.of());
    List<TaskletResult> results = new ArrayList<>();
    Response.ExecutionProgress last = ExecutionPoller.drain(c, exec, results::add);
    check(last.state() == ExecutionState.DONE, "execution failed: " + last.message());
    return new Run(results, last);
  }

  /** Sequential 1 MiB reads of the object; with {@code whileRunning}, only until it has counted one more execution. */
  private static double hostReadMbPerS(SocketDeviceClient c, long objectId, long bytes, AtomicLong whileRunning)
      throws Exception {
    ByteBuffer buf = ByteBuffer.allocate(CHUNK);
    long read = 0;
    long start = System.nanoTime();
    long until = whileRunning == null ? Long.MAX_VALUE : whileRunning.get() + 1;
    for (int pass = 0; pass < 3 || (whileRunning != null && whileRunning.get() < until); pass++) {
      for (long pos = 0; pos < bytes; pos += CHUNK) {
        buf.clear();
        read += c.read(objectId, pos, buf);
      }
      if (whileRunning == null && pass >= 2) {
        break;
      }
    }
    return read / ((System.nanoTime() - start) / 1e9) / 1e6;
  }

  /** One round's measured time on the host against the execution's own wall and lanes' CPU time in the device. */
  private static void printRound(String round, String tasklet, double seconds, ExecutionStatistics stats) {
    System.out.printf("%s: %s %.3f s on the host; in the device %.3f s wall, lanes' CPU %.3f s, modelled %.3f s%n", round,
        tasklet, seconds, stats.wallNanos() / 1e9, stats.laneCpuNanos() / 1e9, stats.modelledNanos() / 1e9);
  }

  private static void row(String what, double seconds, long size, double baseline) {
    System.out.printf("| %s | %.3f s | %.0f | %.2f |%n", what, seconds, size / seconds / 1e6, seconds / baseline);
  }

  private static void check(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("wrong result: " + what);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
