package org.smartssd.device.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Damages a stopped device's data directory the way a bad disk or a careless hand would: byte by byte. */
public final class Damage {
  private Damage() {}

  /** Flips the bits of one byte (XOR 0x40). */
  public static void flipByte(Path file, long offset) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      if (ch.read(b, offset) != 1) {
        throw new IOException(file + " has no byte at " + offset);
      }
      b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
      ch.write(b, offset);
    }
  }

  public static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }

  /** The current journal of a data directory (the newest). */
  public static Path journal(Path dataDir) throws IOException {
    return newest(dataDir, "journal-");
  }

  public static Path checkpoint(Path dataDir) throws IOException {
    return newest(dataDir, "checkpoint-");
  }

  private static Path newest(Path dataDir, String prefix) throws IOException {
    try (Stream<Path> files = Files.list(dataDir.resolve("meta"))) {
      return files.filter(f -> f.getFileName().toString().startsWith(prefix)).sorted()
          .reduce((a, b) -> b).orElseThrow(() -> new IOException("no " + prefix + " file in " + dataDir));
    }
  }

  /** The offset of every record of a journal, then its size. */
  public static List<Long> recordOffsets(Path journal) throws IOException {
    byte[] bytes = Files.readAllBytes(journal);
    List<Long> offsets = new ArrayList<>();
    long pos = 0;
    while (pos < bytes.length) {
      offsets.add(pos);
      pos += 8 + ByteBuffer.wrap(bytes, (int) pos, 4).getInt();
    }
    offsets.add(pos);
    return offsets;
  }

  /** Every file under {@code meta/} (recursively), with its bytes: to show that nothing was changed. */
  public static Map<String, byte[]> metadata(Path dataDir) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    Path meta = dataDir.resolve("meta");
    try (Stream<Path> walk = Files.walk(meta)) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        files.put(meta.relativize(f).toString(), Files.readAllBytes(f));
      }
    }
    return files;
  }

  public static boolean same(Map<String, byte[]> a, Map<String, byte[]> b) {
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    return a.entrySet().stream().allMatch(e -> Arrays.equals(e.getValue(), b.get(e.getKey())));
  }

  /** Where a page of a file sits in the flash: its channel, and the byte offset of the page in the channel's file. */
  public record Page(int channel, long offset, int pageSize) {
    public Path file(Path dataDir) {
      return dataDir.resolve("flash").resolve(String.format("channel-%03d.flash", channel));
    }

    public Path oob(Path dataDir) {
      return dataDir.resolve("flash").resolve(String.format("channel-%03d.oob", channel));
    }

    /** The byte offset of the page's out-of-band entry in {@link #oob}. */
    public long oobOffset() {
      return offset / pageSize * 8;
    }
  }

  /**
   * Finds page {@code index} of a file whose content is {@code content} (random bytes, so its pages
   * are unique) by searching the channel files for the page's first bytes.
   */
  public static Page locate(Path dataDir, byte[] content, int index, int pageSize) throws IOException {
    int from = index * pageSize;
    byte[] needle = Arrays.copyOfRange(content, from, Math.min(content.length, from + 64));
    for (int c = 0; ; c++) {
      Path file = dataDir.resolve("flash").resolve(String.format("channel-%03d.flash", c));
      if (!Files.exists(file)) {
        throw new IOException("page " + index + " is on no channel of " + dataDir);
      }
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        ByteBuffer page = ByteBuffer.allocate(needle.length);
        for (long off = 0; off < ch.size(); off += pageSize) {
          page.clear();
          ch.read(page, off);
          if (Arrays.equals(page.array(), needle)) {
            return new Page(c, off, pageSize);
          }
        }
      }
    }
  }
}
