package org.smartssd.device.runtime.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;

/**
 * Reads one large object from a device over loopback (unpaced) and the same bytes from a local
 * file, in the same run, and times a small command's round trip. Prints a Markdown table.
 *
 * <p>Arguments: {@code [work-dir] [size-MiB] [rounds]} (defaults: a temporary directory, 1024, 3).
 */
public final class DeviceReadBenchmark {
  private static final int CHUNK = 1 << 20;

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    long sizeMiB = args.length > 1 ? Long.parseLong(args[1]) : 1024;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    long size = sizeMiB << 20;
    Files.createDirectories(work);
    Path local = work.resolve("local-copy.bin");
    Map<String, String> config = new HashMap<>();
    config.put("smartssd.device.data-dir", work.resolve("device").toString());
    config.put("smartssd.device.host.port", "0");
    config.put("smartssd.device.profile", "msst13-sata");

    try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config));
        SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(device.address()), ClientOptions.defaults());
        FileChannel file = FileChannel.open(local, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      // The same pseudo-random bytes go to the device and to the local file.
      byte[] chunk = new byte[CHUNK];
      new Random(42).nextBytes(chunk);
      long h = c.create("/bench/object", true, true).handle();
      for (long written = 0; written < size; written += CHUNK) {
        chunk[0] = (byte) (written >>> 20);
        c.write(h, chunk, 0, CHUNK);
        file.write(ByteBuffer.wrap(chunk), written);
      }
      c.closeHandle(h);
      file.force(true);
      ObjectStatus object = c.open("/bench/object");

      List<Double> deviceSeconds = new ArrayList<>();
      List<Double> pipelinedSeconds = new ArrayList<>();
      List<Double> localSeconds = new ArrayList<>();
      List<Double> modelledSeconds = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        long t0 = System.nanoTime();
        long sumLocal = readLocal(file, size);
        localSeconds.add((System.nanoTime() - t0) / 1e9);

        DeviceStatistics before = c.statistics();
        t0 = System.nanoTime();
        long sum = readDevice(c, object.objectId(), size, 1);
        deviceSeconds.add((System.nanoTime() - t0) / 1e9);
        DeviceStatistics after = c.statistics();
        check(sum == sumLocal, "the device returned other bytes than the local file");
        check(after.totalPagesRead() - before.totalPagesRead() >= size / device.config().geometry().pageSizeBytes(),
            "the device did not read every page from flash");
        // The model's time for this scan: from when the device was free (or the scan began) to its
        // last completion. Unpaced, the client runs ahead of the model, so the horizon moves out.
        long start = Math.max(before.modelledHorizonNanos(), before.uptimeNanos());
        modelledSeconds.add((after.modelledHorizonNanos() - start) / 1e9);

        t0 = System.nanoTime();
        sum = readDevice(c, object.objectId(), size, 4);
        pipelinedSeconds.add((System.nanoTime() - t0) / 1e9);
        check(sum == sumLocal, "the pipelined scan returned other bytes than the local file");
      }
      double[] rtt = roundTrips(c, 20_000);

      double loc = median(localSeconds);
      System.out.printf("| what | median of %d | MB/s | time vs local file |%n", rounds);
      System.out.println("| --- | --- | --- | --- |");
      row("local file, FileChannel, 1 MiB reads (baseline), measured", loc, size, loc);
      row("device over loopback, READ of 1 MiB, one at a time, measured", median(deviceSeconds), size, loc);
      row("device over loopback, READ of 1 MiB, 4 in flight, measured", median(pipelinedSeconds), size, loc);
      row("device, modelled (" + device.config().profile() + ")", median(modelledSeconds), size, loc);
      System.out.printf("%nSTATUS round trip over loopback, %d calls: median %.1f us, p99 %.1f us%n", 20_000, rtt[0], rtt[1]);
    } finally {
      Files.deleteIfExists(local);
    }
  }

  private static long readLocal(FileChannel file, long size) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(CHUNK);
    long sum = 0;
    for (long pos = 0; pos < size; ) {
      buf.clear();
      int n = file.read(buf, pos);
      sum += checksum(buf.array(), n);
      pos += n;
    }
    return sum;
  }

  /** Reads the object with {@code window} READs in flight; returns a checksum of the bytes. */
  private static long readDevice(SocketDeviceClient c, long objectId, long size, int window) throws Exception {
    java.util.ArrayDeque<java.util.concurrent.CompletableFuture<DeviceClient.Reply>> inFlight = new java.util.ArrayDeque<>();
    byte[] bytes = new byte[CHUNK];
    long sum = 0;
    long next = 0;
    while (next < size || !inFlight.isEmpty()) {
      while (next < size && inFlight.size() < window) {
        inFlight.add(c.submit(new Request.Read(objectId, next, CHUNK)));
        next += CHUNK;
      }
      ByteBuffer data = ((Response.Data) inFlight.poll().get().response()).data();
      int n = data.remaining();
      data.get(bytes, 0, n);
      sum += checksum(bytes, n);
    }
    return sum;
  }

  private static void row(String what, double seconds, long size, double baseline) {
    System.out.printf("| %s | %.3f s | %.0f | %.2f |%n", what, seconds, size / seconds / 1e6, seconds / baseline);
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }

  private static long checksum(byte[] b, int n) {
    long s = 0;
    for (int i = 0; i < n; i += 64) {
      s += b[i];
    }
    return s;
  }

  private static double[] roundTrips(SocketDeviceClient c, int count) throws IOException {
    long[] nanos = new long[count];
    for (int i = 0; i < count; i++) {
      long t0 = System.nanoTime();
      c.status("/bench/object");
      nanos[i] = System.nanoTime() - t0;
    }
    Arrays.sort(nanos);
    return new double[] {nanos[count / 2] / 1e3, nanos[(int) (count * 0.99)] / 1e3};
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
