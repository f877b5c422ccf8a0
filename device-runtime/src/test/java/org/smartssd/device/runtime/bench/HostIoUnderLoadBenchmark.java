package org.smartssd.device.runtime.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/**
 * Host I/O under in-storage load, as the Cognitive SSD measured it (its Table 2: fio, 128 KB, while
 * its accelerator occupies every channel): the host's sequential and random reads and writes on an
 * idle device, then while {@code RecordCounter} executions over a large object, re-launched back to
 * back, keep every channel busy; once with internal reads at low priority (they yield to the host:
 * the Smart SSD's design, like the source's polling Method B) and once at equal priority (first come,
 * first served, like its blocking Method A). Prints the fraction of idle bandwidth each workload keeps,
 * modelled and measured, and the channels' modelled busy fraction during the loaded workloads (the
 * check that the load saturates them; the figures mean nothing otherwise).
 *
 * <p>Bandwidth is modelled: bytes over the summed modelled durations of the workload's commands (each
 * answer's modelled nanos, {@link SocketDeviceClient#modelledNanosTotal()}), issued one after
 * another from one connection. The wall-clock bandwidth over the same commands is printed beside it,
 * labelled measured.
 *
 * <p>The device is paced ({@code smartssd.device.pace=true}): its lanes issue each internal read
 * request when the modelled clock reaches the time it may start, and each answer is held until its
 * modelled completion. Unpaced, the lanes book internal reads as fast as this machine runs them, far
 * ahead of the modelled clock (a 1 GiB scan books its 2.8 modelled seconds in about 0.5 s of wall
 * time): at equal priority a host command would then wait behind everything the simulator happened
 * to book before it, a figure set by this machine's speed, and back-to-back host commands would
 * overlap on the modelled clock (the next arrives before the model has finished the last), so their
 * summed durations would count queueing twice. Paced, the model sees the load a real device would:
 * one request a channel in flight, the host's next command after its last one's answer.
 *
 * <p>Workloads, each of {@code host-MiB} in {@code io-KiB} commands: sequential read (consecutive
 * READs of one object); random read (READs at aligned random offsets of the same object); sequential
 * write (WRITEs to a new object, each followed by a SYNC so that its pages' programs count: a write is
 * otherwise acknowledged from the device's buffer and never meets the channels); random write. The
 * protocol has no positional write (objects are written once, appended to, or replaced, as HDFS's
 * are), so a random write replaces a whole object of {@code io-KiB} chosen at random among
 * {@code host-MiB / io-KiB} existing ones: CREATE with overwrite, WRITE, CLOSE (which waits for the
 * programs); the old pages become garbage, as an overwrite's do in a page-mapped FTL.
 *
 * <p>Arguments: {@code [work-dir] [profile] [io-KiB] [host-MiB] [scan-MiB] [key=value ...]} (defaults:
 * a temporary directory, {@code msst13-sata}, 128 (the source's I/O size), 32, 256; the keys are more
 * device keys, such as {@code smartssd.device.link.mb-per-s=1000}).
 */
public final class HostIoUnderLoadBenchmark {
  private static final int MIB = 1 << 20;
  private static final int RECORD = 20;
  private static final List<String> WORKLOADS = List.of("sequential read", "random read", "sequential write",
      "random write");
  /** The Cognitive SSD's Table 2 (MB/s, 128 KB): Method A (blocking), Method B (polling), peak, per workload. */
  private static final Map<String, double[]> SOURCE = Map.of(
      "sequential read", new double[] {72.30, 654.31, 903.79},
      "random read", new double[] {81.13, 698.98, 901.41},
      "sequential write", new double[] {79.79, 524.86, 886.58},
      "random write", new double[] {76.19, 421.23, 761.90});

  private final SocketDeviceClient host;
  private final int io;
  private final long bytes;
  private final Random random = new Random(19);
  private int objects;

  private HostIoUnderLoadBenchmark(SocketDeviceClient host, int io, long bytes) {
    this.host = host;
    this.io = io;
    this.bytes = bytes;
  }

  /** One workload's bandwidth, modelled and measured (MB/s). */
  private record Bandwidth(double modelled, double measured) {}

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    String profile = args.length > 1 ? args[1] : "msst13-sata";
    int io = (args.length > 2 ? Integer.parseInt(args[2]) : 128) << 10;
    long hostBytes = (args.length > 3 ? Long.parseLong(args[3]) : 32) * MIB;
    long scanBytes = (args.length > 4 ? Long.parseLong(args[4]) : 256) * MIB;
    scanBytes -= scanBytes % RECORD;
    Map<String, String> keys = new HashMap<>();
    for (int i = 5; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      keys.put(kv[0], kv[1]);
    }
    StringBuilder table = new StringBuilder();
    table.append("| workload | internal reads | idle MB/s, modelled | loaded MB/s, modelled | kept, modelled "
        + "| idle MB/s, measured | loaded MB/s, measured | kept, measured | channels busy while loaded, modelled "
        + "| Cognitive SSD kept: Method B (polling) | Method A (blocking) |\n");
    table.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (String priority : List.of("low", "equal")) {
      Map<String, String> config = new HashMap<>();
      config.put("smartssd.device.data-dir", work.resolve("device-" + priority).toString());
      config.put("smartssd.device.host.port", "0");
      config.put("smartssd.device.profile", profile);
      config.put("smartssd.device.pace", "true");
      config.put("smartssd.device.isp.internal-read-priority", priority);
      config.putAll(keys);
      try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config));
          SocketDeviceClient c = connect(device)) {
        HostIoUnderLoadBenchmark bench = new HostIoUnderLoadBenchmark(c, io, hostBytes);
        bench.fill("/scan", scanBytes);
        bench.fill("/host", hostBytes);
        for (long i = 0; i < hostBytes / io; i++) {
          bench.fill("/random/" + i, io);
        }
        long tasklet = c.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
            Map.of("record-length", "" + RECORD));
        // Warm-up, for the JIT: one execution, then the host's workloads once.
        relaunch(device, tasklet, new AtomicBoolean(true), new AtomicLong(), 1);
        bench.runAll();
        Map<String, Bandwidth> idle = bench.runAll();

        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicLong executions = new AtomicLong();
        AtomicReference<Exception> failed = new AtomicReference<>();
        Thread load = new Thread(() -> {
          try {
            relaunch(device, tasklet, loading, executions, Long.MAX_VALUE);
          } catch (Exception e) {
            failed.set(e);
          }
        }, "in-storage load");
        load.start();
        Thread.sleep(300); // every channel's lane is reading by now
        Map<String, Bandwidth> loaded = new LinkedHashMap<>();
        Map<String, Double> busy = new LinkedHashMap<>();
        long behind = c.statistics().answersBehindModelNanos();
        for (String workload : WORKLOADS) {
          DeviceStatistics before = c.statistics();
          loaded.put(workload, bench.run(workload));
          DeviceStatistics after = c.statistics();
          busy.put(workload, channelsBusy(before, after));
          System.err.printf(Locale.ROOT, "%s, %s: %d executions done so far, channels busy %.0f%% (modelled)%n",
              priority, workload, executions.get(), 100 * busy.get(workload));
        }
        behind = c.statistics().answersBehindModelNanos() - behind;
        loading.set(false);
        load.join();
        if (failed.get() != null) {
          throw failed.get();
        }
        DeviceStatistics stats = c.statistics();
        System.err.printf(Locale.ROOT, "%s: %d executions ran; host commands delayed by internal reads: %d, %.1f ms "
            + "(modelled, since the start); answers behind the model while loaded: %.1f ms%n", priority,
            executions.get(), stats.commandsDelayedByInternal(), stats.modelledInternalDelayNanos() / 1e6,
            behind / 1e6);
        for (String workload : WORKLOADS) {
          Bandwidth i = idle.get(workload);
          Bandwidth l = loaded.get(workload);
          double[] source = SOURCE.get(workload);
          table.append(String.format(Locale.ROOT,
              "| %s | %s | %.0f | %.0f | %.0f%% | %.0f | %.0f | %.0f%% | %.0f%% | %.0f%% | %.0f%% |%n", workload,
              priority.equals("low") ? "low (yield)" : "equal", i.modelled, l.modelled, 100 * l.modelled / i.modelled,
              i.measured, l.measured, 100 * l.measured / i.measured, 100 * busy.get(workload),
              100 * source[1] / source[2], 100 * source[0] / source[2]));
        }
      }
    }
    System.out.printf("%s, %d KiB commands, %d MiB a workload, RecordCounter over %d MiB re-launched, paced%n%n",
        profile, io >> 10, hostBytes / MIB, scanBytes / MIB);
    System.out.print(table);
  }

  private static SocketDeviceClient connect(SimulatedDevice device) throws IOException {
    return SocketDeviceClient.connect(DeviceAddress.parse(device.address()), ClientOptions.defaults());
  }

  /** Runs executions over {@code /scan} back to back, on a connection of its own, until told to stop or {@code most} ran. */
  private static void relaunch(SimulatedDevice device, long tasklet, AtomicBoolean loading, AtomicLong executions,
      long most) throws Exception {
    try (SocketDeviceClient c = connect(device)) {
      while (loading.get() && executions.get() < most) {
        long exec = c.executeObject(tasklet, List.of(InputRange.whole("/scan")), Map.of("merge", "device"));
        Response.ExecutionProgress last = ExecutionPoller.drain(c, exec, r -> { });
        if (last.state() != ExecutionState.DONE) {
          throw new IllegalStateException("the load's execution failed: " + last.message());
        }
        executions.incrementAndGet();
      }
    }
  }

  /** The channels' modelled bus time, host and internal, over the modelled time between two snapshots. */
  private static double channelsBusy(DeviceStatistics before, DeviceStatistics after) {
    long busy = 0;
    for (int ch = 0; ch < after.channels().size(); ch++) {
      busy += after.channels().get(ch).busyNanos() - before.channels().get(ch).busyNanos();
    }
    return (double) busy / after.channels().size() / (after.uptimeNanos() - before.uptimeNanos());
  }

  private Map<String, Bandwidth> runAll() throws IOException {
    Map<String, Bandwidth> out = new LinkedHashMap<>();
    for (String workload : WORKLOADS) {
      out.put(workload, run(workload));
    }
    return out;
  }

  private Bandwidth run(String workload) throws IOException {
    long modelled = host.modelledNanosTotal();
    long wall = System.nanoTime();
    switch (workload) {
      case "sequential read" -> read(false);
      case "random read" -> read(true);
      case "sequential write" -> sequentialWrite();
      case "random write" -> randomWrite();
      default -> throw new IllegalArgumentException(workload);
    }
    wall = System.nanoTime() - wall;
    modelled = host.modelledNanosTotal() - modelled;
    return new Bandwidth(bytes / (modelled / 1e9) / 1e6, bytes / (wall / 1e9) / 1e6);
  }

  private void read(boolean randomly) throws IOException {
    long id = host.open("/host").objectId();
    ByteBuffer buf = ByteBuffer.allocate(io);
    long commands = bytes / io;
    for (long i = 0; i < commands; i++) {
      long offset = (randomly ? random.nextInt((int) commands) : i) * io;
      buf.clear();
      if (host.read(id, offset, buf) != io) {
        throw new IllegalStateException("short read at " + offset);
      }
    }
  }

  private void sequentialWrite() throws IOException {
    byte[] chunk = new byte[io];
    random.nextBytes(chunk);
    long h = host.create("/written/" + objects++, true, true).handle();
    for (long w = 0; w < bytes; w += io) {
      host.write(h, chunk, 0, io);
      host.sync(h);
    }
    host.closeHandle(h);
  }

  private void randomWrite() throws IOException {
    byte[] chunk = new byte[io];
    random.nextBytes(chunk);
    long count = bytes / io;
    for (long i = 0; i < count; i++) {
      long h = host.create("/random/" + random.nextInt((int) count), true, true).handle();
      host.write(h, chunk, 0, io);
      host.closeHandle(h);
    }
  }

  private void fill(String path, long size) throws IOException {
    byte[] chunk = new byte[(int) Math.min(MIB, size)];
    random.nextBytes(chunk);
    long h = host.create(path, true, true).handle();
    for (long w = 0; w < size; w += chunk.length) {
      host.write(h, chunk, 0, (int) Math.min(chunk.length, size - w));
    }
    host.closeHandle(h);
  }
}
