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
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.objectfs.ObjfsConfigKeys;

/**
 * Vectored reads on objfs: the same scattered ranges read with one vectored-read thread (Hadoop's
 * default: each range a positioned read, in turn) and with the default threads (the ranges at once),
 * alternately in the same run, on an unpaced device and on a paced one (answers held until their
 * modelled completion). Prints a Markdown table of medians.
 *
 * <p>Arguments: {@code [work-dir] [ranges] [range-KiB] [rounds]} (defaults: a temporary directory, 64, 64, 9).
 */
public final class ObjfsVectoredReadBenchmark {
  private static final long FILE_BYTES = 256L << 20;

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    int ranges = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int rangeBytes = (args.length > 2 ? Integer.parseInt(args[2]) : 64) << 10;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 9;
    System.out.printf("| device | %d ranges of %d KiB, median of %d | one thread (Hadoop's default), ms | %d threads, ms | "
        + "ratio |%n| --- | --- | ---: | ---: | ---: |%n", ranges, rangeBytes >> 10, rounds,
        ObjfsConfigKeys.VECTORED_READ_THREADS_DEFAULT);
    for (boolean paced : new boolean[] {false, true}) {
      Map<String, String> config = new HashMap<>();
      config.put("smartssd.device.data-dir", work.resolve(paced ? "paced" : "unpaced").toString());
      config.put("smartssd.device.host.port", "0");
      config.put("smartssd.device.pace", Boolean.toString(paced));
      Configuration inTurn = new Configuration();
      inTurn.setInt(ObjfsConfigKeys.VECTORED_READ_THREADS, 1);
      try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config));
          FileSystem one = FileSystem.newInstance(URI.create("objfs://" + device.address() + "/"), inTurn);
          FileSystem many = FileSystem.newInstance(URI.create("objfs://" + device.address() + "/"), new Configuration())) {
        byte[] chunk = new byte[1 << 20];
        new Random(1).nextBytes(chunk);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/bench/vectored");
        try (FSDataOutputStream out = one.create(file, true)) {
          for (long w = 0; w < FILE_BYTES; w += chunk.length) {
            out.write(chunk);
          }
        }
        Random random = new Random(7);
        List<Double> inTurnMs = new ArrayList<>();
        List<Double> atOnceMs = new ArrayList<>();
        for (int r = 0; r < rounds + 1; r++) { // the first round warms up, not counted
          List<long[]> picked = pick(random, ranges, rangeBytes);
          double a = read(one, file, picked);
          double b = read(many, file, picked);
          if (r > 0) {
            inTurnMs.add(a);
            atOnceMs.add(b);
          }
        }
        double a = median(inTurnMs);
        double b = median(atOnceMs);
        System.out.printf("| %s | | %.1f | %.1f | %.2f |%n", paced ? "paced" : "unpaced", a, b, b / a);
      }
    }
  }

  /** Distinct, aligned offsets: the ranges never overlap. */
  private static List<long[]> pick(Random random, int ranges, int rangeBytes) {
    TreeMap<Long, long[]> byOffset = new TreeMap<>();
    long slots = FILE_BYTES / rangeBytes;
    while (byOffset.size() < ranges) {
      long offset = (long) (random.nextDouble() * slots) * rangeBytes;
      byOffset.put(offset, new long[] {offset, rangeBytes});
    }
    List<long[]> out = new ArrayList<>(byOffset.values());
    java.util.Collections.shuffle(out, random);
    return out;
  }

  /** One vectored read of the ranges, to the last byte: milliseconds. */
  private static double read(FileSystem fs, org.apache.hadoop.fs.Path file, List<long[]> picked) throws Exception {
    List<FileRange> ranges = new ArrayList<>();
    for (long[] p : picked) {
      ranges.add(FileRange.createFileRange(p[0], (int) p[1]));
    }
    try (FSDataInputStream in = fs.open(file)) {
      long t0 = System.nanoTime();
      in.readVectored(ranges, ByteBuffer::allocate);
      long bytes = 0;
      for (FileRange range : ranges) {
        bytes += range.getData().get().remaining();
      }
      double ms = (System.nanoTime() - t0) / 1e6;
      if (bytes != (long) ranges.size() * ranges.get(0).getLength()) {
        throw new IllegalStateException("read " + bytes + " bytes");
      }
      return ms;
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
