package org.smartssd.device.runtime.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.DiskUse;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;

/**
 * Disk use against live data after a write and delete load (issue 15's finding 8): the same load on a
 * device with space reclaim switched off (as before it existed) and on. Clients write files of 1 to 8
 * MiB in 1 MiB WRITEs, close them, and delete their oldest files to hold the live data near its
 * target, until the bytes written reach theirs. Then the data directory's disk use is measured with
 * du(1) (flash and metadata), the flash files' with the device's own report, against the live data.
 * Last, the device switched off is started again with reclaim on: what its start gives back, and how
 * long the start takes. Prints Markdown tables.
 *
 * <p>Arguments: {@code [work-dir] [live-MiB] [written-MiB] [clients] [key=value ...]} (defaults: a
 * temporary directory, 1024, 8192, 4; the keys are more device keys). The device is the
 * {@code msst13-sata} profile's (32 GiB of raw flash), embedded, unpaced.
 */
public final class DiskUseBenchmark {
  private static final int MIB = 1 << 20;

  record Result(String reclaim, long writtenBytes, long fileBytes, DiskUse diskUse, long dataDirBytes,
      long blocksErased, long gcPagesMoved, double loadSeconds) {}

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    long liveMiB = args.length > 1 ? Long.parseLong(args[1]) : 1024;
    long writtenMiB = args.length > 2 ? Long.parseLong(args[2]) : 8192;
    int clients = args.length > 3 ? Integer.parseInt(args[3]) : 4;
    Map<String, String> keys = new HashMap<>();
    for (int i = 4; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      keys.put(kv[0], kv[1]);
    }
    System.out.printf(Locale.ROOT, "work dir %s (%s), live target %d MiB, %d MiB written, %d clients%n", work,
        fileSystem(work), liveMiB, writtenMiB, clients);
    List<Result> results = new ArrayList<>();
    for (boolean reclaim : new boolean[] {false, true}) {
      Path data = work.resolve(reclaim ? "reclaim-on" : "reclaim-off");
      results.add(run(data, config(data, reclaim, keys), liveMiB * MIB, writtenMiB * MIB, clients));
    }
    System.out.println();
    System.out.println("| space reclaim | written | live (files) | live flash pages | flash files on disk "
        + "| data dir on disk (du) | disk per live byte | punched | holes | blocks erased | GC pages moved "
        + "| load wall time |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Result r : results) {
      DiskUse d = r.diskUse();
      System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %.2f | %s | %,d | %d | %d | %.1f s |%n",
          r.reclaim(), mib(r.writtenBytes()), mib(r.fileBytes()), mib(d.liveBytes()), mib(d.allocatedBytes()),
          mib(r.dataDirBytes()), (double) r.dataDirBytes() / r.fileBytes(), mib(d.punchedBytes()),
          d.holesPunched(), r.blocksErased(), r.gcPagesMoved(), r.loadSeconds());
    }

    // The directory written without reclaim, started again with it on: the start gives the space back.
    Path old = work.resolve("reclaim-off");
    long before = du(old);
    long t0 = System.nanoTime();
    try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config(old, true, keys)))) {
      double startSeconds = (System.nanoTime() - t0) / 1e9;
      DiskUse d = device.diskUse();
      System.out.println();
      System.out.println("| data dir written without reclaim, started with it on | before | after | live flash pages "
          + "| start wall time |");
      System.out.println("| --- | ---: | ---: | ---: | ---: |");
      System.out.printf(Locale.ROOT, "| du of the data dir | %s | %s | %s | %.2f s |%n", mib(before), mib(du(old)),
          mib(d.liveBytes()), startSeconds);
    }
  }

  private static Map<String, String> config(Path data, boolean reclaim, Map<String, String> keys) {
    Map<String, String> config = new HashMap<>();
    config.put("smartssd.device.data-dir", data.toString());
    config.put("smartssd.device.host.port", "0");
    config.put("smartssd.device.profile", "msst13-sata");
    config.put("smartssd.device.flash.reclaim-space", Boolean.toString(reclaim));
    config.putAll(keys);
    return config;
  }

  private static Result run(Path data, Map<String, String> config, long liveBytes, long writtenBytes, int clients)
      throws Exception {
    try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config))) {
      DeviceAddress address = DeviceAddress.parse(device.address());
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      long t0 = System.nanoTime();
      List<Future<Long>> written = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        written.add(pool.submit(() -> load(address, client, liveBytes / clients, writtenBytes / clients)));
      }
      long total = 0;
      for (Future<Long> f : written) {
        total += f.get();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      pool.shutdown();
      long files = 0;
      DeviceStatistics s;
      try (SocketDeviceClient c = SocketDeviceClient.connect(address, ClientOptions.defaults())) {
        for (ObjectStatus st : c.listAll("/load")) {
          for (ObjectStatus f : c.listAll(st.path())) {
            files += f.length();
          }
        }
        s = c.statistics();
      }
      long erased = s.channels().stream().mapToLong(ChannelStatistics::blocksErased).sum();
      return new Result(config.get("smartssd.device.flash.reclaim-space").equals("true") ? "on" : "off (before)",
          total, files, s.diskUse(), du(data), erased, s.gcPagesMoved(), seconds);
    }
  }

  /** One client: writes files of 1 to 8 MiB, deleting its oldest past its share of the live data. */
  private static long load(DeviceAddress address, int client, long liveShare, long writeShare) throws IOException {
    Random random = new Random(15_000 + client);
    byte[] chunk = new byte[MIB];
    Deque<ObjectStatus> files = new ArrayDeque<>();
    long live = 0;
    long written = 0;
    try (SocketDeviceClient c = SocketDeviceClient.connect(address, ClientOptions.defaults())) {
      for (int n = 0; written < writeShare; n++) {
        String path = "/load/client-" + client + "/file-" + n;
        long size = (1 + random.nextInt(8)) * (long) MIB - random.nextInt(MIB / 2);
        long h = c.create(path, false, true).handle();
        for (long off = 0; off < size; off += MIB) {
          random.nextBytes(chunk);
          c.write(h, ByteBuffer.wrap(chunk, 0, (int) Math.min(MIB, size - off)));
        }
        c.closeHandle(h);
        written += size;
        live += size;
        files.add(c.status(path));
        while (live > liveShare) {
          ObjectStatus oldest = files.poll();
          c.delete(oldest.path(), false);
          live -= oldest.length();
        }
      }
    }
    return written;
  }

  /** The directory's disk use, as du(1) counts it (allocated blocks). */
  private static long du(Path dir) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("du", "-s", "--block-size=1", dir.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (p.waitFor() != 0) {
      throw new IOException("du " + dir + ": " + out);
    }
    return Long.parseLong(out.split("\\s+")[0]);
  }

  private static String fileSystem(Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Process p = new ProcessBuilder("df", "--output=fstype", dir.toString()).redirectErrorStream(true).start();
    String[] lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim().split("\n");
    p.waitFor();
    return lines[lines.length - 1].trim();
  }

  private static String mib(long bytes) {
    return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%,.0f MiB", bytes / (double) MIB);
  }
}
