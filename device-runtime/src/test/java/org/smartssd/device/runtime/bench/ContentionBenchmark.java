package org.smartssd.device.runtime.bench;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/**
 * The Cognitive SSD's Table 2 question on the model: how much of its read and write bandwidth does the
 * host keep while an execution saturates the channels, with internal reads at low priority (they yield
 * to host operations) and at equal priority (first come, first served)? A paced device (its modelled
 * clock follows the wall clock, and its lanes issue internal reads on it), the {@code msst13-sata}
 * profile; the execution counts 20-byte records (its compute is light, so the flash sets its pace).
 * Host bandwidth is modelled: bytes over the summed modelled durations of 1 MiB READs, and of 1 MiB
 * WRITEs each followed by a SYNC (so that the pages' programs count), issued one after another, on an
 * idle device and while the execution runs. Prints a Markdown table.
 *
 * <p>Arguments: {@code [work-dir] [scan-MiB] [host-MiB] [key=value ...]} (defaults: a temporary
 * directory, 512, 32; the keys are more device keys, such as {@code smartssd.device.link.mb-per-s=1000}
 * for a link faster than the flash, where the host's reads are bound by the channels it shares).
 */
public final class ContentionBenchmark {
  private static final int MIB = 1 << 20;

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    long scanMiB = args.length > 1 ? Long.parseLong(args[1]) : 512;
    int hostMiB = args.length > 2 ? Integer.parseInt(args[2]) : 32;
    Map<String, String> keys = new HashMap<>();
    for (int i = 3; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      keys.put(kv[0], kv[1]);
    }
    System.out.println("| internal reads | host reads idle, MB/s | under the execution | kept | host writes idle, MB/s "
        + "| under the execution | kept | execution delayed by host | host commands delayed (total) |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (String priority : List.of("low", "equal")) {
      Map<String, String> config = new HashMap<>();
      config.put("smartssd.device.data-dir", work.resolve("device-" + priority).toString());
      config.put("smartssd.device.host.port", "0");
      config.put("smartssd.device.profile", "msst13-sata");
      config.put("smartssd.device.pace", "true");
      config.put("smartssd.device.isp.internal-read-priority", priority);
      config.putAll(keys);
      try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config));
          SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(device.address()),
              ClientOptions.defaults());
          SocketDeviceClient host = SocketDeviceClient.connect(DeviceAddress.parse(device.address()),
              ClientOptions.defaults())) {
        fill(c, "/scan", scanMiB * MIB);
        fill(c, "/read", (long) hostMiB * MIB);
        double readIdle = readMbPerS(host, "/read", hostMiB);
        double writeIdle = writeMbPerS(host, "/write-idle", hostMiB);
        long tasklet = c.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
            Map.of("record-length", "20"));
        DeviceStatistics before = c.statistics();
        long execution = c.executeObject(tasklet, List.of(InputRange.whole("/scan")), Map.of("merge", "device"));
        CompletableFuture<ExecutionStatistics> scan = CompletableFuture.supplyAsync(() -> {
          try {
            return ExecutionPoller.drain(c, execution, r -> { }).statistics();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
        Thread.sleep(200); // the execution's lanes are reading every channel
        double readLoaded = readMbPerS(host, "/read", hostMiB);
        double writeLoaded = writeMbPerS(host, "/write-loaded", hostMiB);
        boolean overlapped = !scan.isDone();
        ExecutionStatistics st = scan.get();
        DeviceStatistics after = c.statistics();
        if (!overlapped) {
          System.err.println("the execution ended before the host's commands did: give a larger scan (argument 2)");
        }
        System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f%% | %.0f | %.0f | %.0f%% | %.1f ms | %d commands, %.1f ms |%n",
            priority, readIdle, readLoaded, 100 * readLoaded / readIdle, writeIdle, writeLoaded,
            100 * writeLoaded / writeIdle, st.modelledHostDelayNanos() / 1e6,
            after.commandsDelayedByInternal() - before.commandsDelayedByInternal(),
            (after.modelledInternalDelayNanos() - before.modelledInternalDelayNanos()) / 1e6);
      }
    }
  }

  private static void fill(SocketDeviceClient c, String path, long bytes) throws Exception {
    byte[] chunk = new byte[MIB];
    new java.util.Random(7).nextBytes(chunk);
    long h = c.create(path, true, true).handle();
    for (long w = 0; w < bytes; w += MIB) {
      c.write(h, chunk, 0, (int) Math.min(MIB, bytes - w));
    }
    c.closeHandle(h);
  }

  /** Host reads of 1 MiB, one after another: bytes over their summed modelled durations. */
  private static double readMbPerS(SocketDeviceClient c, String path, int mib) throws Exception {
    ObjectStatus st = c.open(path);
    ByteBuffer buf = ByteBuffer.allocate(MIB);
    long modelled = c.modelledNanosTotal();
    for (int i = 0; i < mib; i++) {
      buf.clear();
      c.read(st.objectId(), (long) i * MIB, buf);
    }
    return (double) mib * MIB / ((c.modelledNanosTotal() - modelled) / 1e9) / 1e6;
  }

  /** Host writes of 1 MiB, each made durable: bytes over their summed modelled durations. */
  private static double writeMbPerS(SocketDeviceClient c, String path, int mib) throws Exception {
    byte[] chunk = new byte[MIB];
    long h = c.create(path, true, true).handle();
    long modelled = c.modelledNanosTotal();
    for (int i = 0; i < mib; i++) {
      c.write(h, chunk, 0, MIB);
      c.sync(h);
    }
    double mbPerS = (double) mib * MIB / ((c.modelledNanosTotal() - modelled) / 1e9) / 1e6;
    c.closeHandle(h);
    return mbPerS;
  }
}
