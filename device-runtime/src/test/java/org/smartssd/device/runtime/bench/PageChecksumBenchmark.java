package org.smartssd.device.runtime.bench;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * What checking a page costs on a read: the CRC-32C of an 8 KiB page (what every flash read now
 * computes, over its data and owner) against the whole checked read of a page from a warm backing
 * file ({@link FlashArray#readPage}), over the same pages. Prints a Markdown table.
 *
 * <p>Arguments: {@code [work-dir] [MiB] [rounds]} (defaults: a temporary directory, 1024, 9).
 */
public final class PageChecksumBenchmark {
  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    int mib = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 9;
    int page = 8192;
    int pages = mib * (1 << 20) / page;
    // msst13-sata, with as many blocks as the pages need.
    DeviceConfig config = DeviceConfig.load(Map.of("smartssd.device.profile", "msst13-sata",
        "smartssd.device.flash.blocks-per-way", Integer.toString(Math.max(2, pages / (8 * 4 * 128) + 1))));
    DeviceGeometry g = config.geometry();
    TimingModel timing = new TimingModel(g, config.timing(), System::nanoTime);
    try (FlashArray flash = FlashArray.open(work, g, timing)) {
      byte[] content = new byte[page];
      Random random = new Random(1);
      for (int ppa = 0; ppa < pages; ppa++) {
        random.nextBytes(content);
        flash.programPage(ppa, ByteBuffer.wrap(content), ppa, null);
      }
      flash.force();
      ByteBuffer dst = ByteBuffer.allocate(page);
      double[] reads = new double[rounds];
      double[] crcs = new double[rounds];
      long sink = 0;
      for (int r = -2; r < rounds; r++) {
        long t0 = System.nanoTime();
        for (int ppa = 0; ppa < pages; ppa++) {
          dst.clear();
          flash.readPage(ppa, dst, ppa, null);
        }
        long t1 = System.nanoTime();
        for (int ppa = 0; ppa < pages; ppa++) {
          CRC32C crc = new CRC32C();
          crc.update(dst.duplicate().clear());
          crc.update(ppa >>> 24);
          crc.update(ppa >>> 16);
          crc.update(ppa >>> 8);
          crc.update(ppa);
          sink += crc.getValue();
        }
        long t2 = System.nanoTime();
        if (r >= 0) {
          reads[r] = (t1 - t0) / 1e9;
          crcs[r] = (t2 - t1) / 1e9;
        }
      }
      Arrays.sort(reads);
      Arrays.sort(crcs);
      double read = reads[rounds / 2];
      double crc = crcs[rounds / 2];
      System.out.printf("| what (%d MiB, %d pages of %d bytes, warm) | median of %d | MB/s | µs a page |%n", mib, pages,
          page, rounds);
      System.out.println("| --- | --- | --- | --- |");
      System.out.printf("| FlashArray.readPage: positioned read and check (baseline) | %.3f s | %.0f | %.2f |%n", read,
          (double) pages * page / read / 1e6, read / pages * 1e6);
      System.out.printf("| CRC-32C of the page and its owner alone | %.3f s | %.0f | %.2f |%n", crc,
          (double) pages * page / crc / 1e6, crc / pages * 1e6);
      System.out.printf("%nThe check is %.1f%% of a checked page read (%d)%n", 100 * crc / read, sink & 1);
    }
  }
}
