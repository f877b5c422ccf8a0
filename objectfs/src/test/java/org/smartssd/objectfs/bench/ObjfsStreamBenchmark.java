package org.smartssd.objectfs.bench;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;

/**
 * Sequential write and read of one large file through {@code FSDataOutputStream} and
 * {@code FSDataInputStream} on objfs, against the raw device client doing the same in the same run:
 * the ratio is the file system adapter's overhead. Prints a Markdown table.
 *
 * <p>Arguments: {@code [work-dir] [size-MiB] [rounds]} (defaults: a temporary directory, 1024, 3).
 */
public final class ObjfsStreamBenchmark {
  private static final int CHUNK = 1 << 20;

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    long sizeMiB = args.length > 1 ? Long.parseLong(args[1]) : 1024;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    long size = sizeMiB << 20;
    Map<String, String> config = new HashMap<>();
    config.put("smartssd.device.data-dir", work.resolve("device").toString());
    config.put("smartssd.device.host.port", "0");
    byte[] chunk = new byte[CHUNK];
    new Random(1).nextBytes(chunk);

    try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config));
        SocketDeviceClient raw = SocketDeviceClient.connect(DeviceAddress.parse(device.address()), ClientOptions.defaults());
        FileSystem fs = FileSystem.newInstance(URI.create("objfs://" + device.address() + "/"), new Configuration())) {
      List<Double> rawWrite = new ArrayList<>();
      List<Double> fsWrite = new ArrayList<>();
      List<Double> rawRead = new ArrayList<>();
      List<Double> fsRead = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        long t0 = System.nanoTime();
        long h = raw.create("/bench/raw", true, true).handle();
        for (long w = 0; w < size; w += CHUNK) {
          raw.write(h, chunk, 0, CHUNK);
        }
        raw.closeHandle(h);
        rawWrite.add(seconds(t0));

        t0 = System.nanoTime();
        try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/bench/fs"), true)) {
          for (long w = 0; w < size; w += CHUNK) {
            out.write(chunk, 0, CHUNK);
          }
        }
        fsWrite.add(seconds(t0));

        t0 = System.nanoTime();
        long id = raw.open("/bench/raw").objectId();
        ByteBuffer buf = ByteBuffer.allocate(CHUNK);
        long got = 0;
        while (got < size) {
          buf.clear();
          got += raw.read(id, got, buf);
        }
        rawRead.add(seconds(t0));

        t0 = System.nanoTime();
        byte[] into = new byte[CHUNK];
        got = 0;
        try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path("/bench/fs"))) {
          int n;
          while ((n = in.read(into, 0, CHUNK)) > 0) {
            got += n;
          }
        }
        if (got != size) {
          throw new IllegalStateException("read " + got + " of " + size + " bytes through objfs");
        }
        fsRead.add(seconds(t0));
      }
      System.out.printf("| what (%d MiB, sequential, 1 MiB calls) | median of %d | MB/s | time vs raw client |%n", sizeMiB, rounds);
      System.out.println("| --- | --- | --- | --- |");
      row("write, raw device client (baseline), measured", median(rawWrite), size, median(rawWrite));
      row("write, FSDataOutputStream on objfs, measured", median(fsWrite), size, median(rawWrite));
      row("read, raw device client (baseline), measured", median(rawRead), size, median(rawRead));
      row("read, FSDataInputStream on objfs, measured", median(fsRead), size, median(rawRead));
    }
  }

  private static double seconds(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private static void row(String what, double seconds, long size, double baseline) {
    System.out.printf("| %s | %.3f s | %.0f | %.2f |%n", what, seconds, size / seconds / 1e6, seconds / baseline);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
