package org.smartssd.examples.mining;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Writes a data set's records into files (on devices, through objfs) in equal whole-record parts. */
final class DataParts {
  private DataParts() {}

  /** Writes records {@code from} (inclusive) to {@code to} (exclusive) to a stream. */
  @FunctionalInterface
  interface Records {
    void write(OutputStream out, long from, long to) throws IOException;
  }

  /**
   * Cuts {@code records} records into as many parts as there are targets, in order (sizes differing by
   * one record at most, the first parts the larger), and writes part {@code i} to target {@code i},
   * replacing what is there.
   */
  static void write(Configuration conf, List<Path> targets, long records, Records writer) throws IOException {
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("no target to write the data set to");
    }
    for (int i = 0; i < targets.size(); i++) {
      long first = first(records, targets.size(), i);
      long size = first(records, targets.size(), i + 1) - first;
      Path target = targets.get(i);
      FileSystem fs = target.getFileSystem(conf);
      try (OutputStream out = new BufferedOutputStream(fs.create(target, true), 1 << 20)) {
        writer.write(out, first, first + size);
      }
    }
  }

  /**
   * The first record of part {@code part} of {@code parts} (0 for the first; {@code records} for
   * {@code part == parts}): parts' sizes differ by one record at most, the first parts the larger.
   */
  static long first(long records, int parts, int part) {
    return part * (records / parts) + Math.min(part, records % parts);
  }
}
