package org.smartssd.device.runtime.flash;

import java.io.Closeable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * The out-of-band (spare) area of one channel's pages, as a NAND page carries beside its data: one
 * 8-byte entry a page in {@code channel-NNN.oob} next to the channel's backing file, at
 * {@code pageInChannel x 8}. An entry is {@code u32 crc32c, u32 tag}, big-endian:
 *
 * <ul>
 *   <li>tag 0 (and crc 0): the page is erased or was never programmed: no checksum to check, and
 *       none that could false-alarm on the erased (or punched-out) bytes;
 *   <li>tag {@code owner + 1}: the page was programmed for {@code owner} (the flash translation
 *       layer's logical page), and crc is the CRC-32C of the page's data followed by the owner as a
 *       big-endian u32. Binding the owner into the checksum means that a flipped tag fails the check
 *       like flipped data does, and that a mapping pointing at a page programmed for another logical
 *       page (a stale or misdirected mapping) is caught, as a real SSD's spare-area LBA catches it.
 * </ul>
 *
 * <p>Why a file of its own and not a field of the mapping: it is written with the page (a program
 * is one place, as on a real SSD), it survives garbage collection's moves with no journal traffic,
 * and it leaves the journal's record format unchanged. It is memory-mapped: a check costs no system
 * call, and the whole area is 8 / page size of the flash (0.1% for 8 KiB pages).
 */
final class OobFile implements Closeable {
  static final int ENTRY_BYTES = 8;

  private final Path path;
  private final MappedByteBuffer map;
  private final boolean writable;

  private OobFile(Path path, MappedByteBuffer map, boolean writable) {
    this.path = path;
    this.map = map;
    this.writable = writable;
  }

  /** The file name beside {@code channel-NNN.flash}. */
  static String fileName(int channel) {
    return String.format(java.util.Locale.ROOT, "channel-%03d.oob", channel);
  }

  /** Opens (creating it sparse, all entries erased, when {@code create} and it is missing) and maps the area. */
  static OobFile open(Path path, int pages, boolean writable, String geometry) throws IOException {
    long size = (long) pages * ENTRY_BYTES;
    if (size > Integer.MAX_VALUE) {
      throw new IOException("the out-of-band area of " + pages + " pages does not fit one mapping: " + path);
    }
    if (!Files.exists(path)) {
      if (!writable) {
        throw new java.nio.file.NoSuchFileException(path.toString());
      }
      try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
        file.setLength(size);
      }
    }
    long existing = Files.size(path);
    if (existing != size) {
      throw new IOException("flash geometry changed? " + path + " is " + existing + " bytes, but the configured "
          + geometry + " needs " + size + " bytes of out-of-band entries a channel; use the geometry it was created"
          + " with, or another data directory");
    }
    try (FileChannel ch = writable ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
        : FileChannel.open(path, StandardOpenOption.READ)) {
      MappedByteBuffer map = ch.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, 0, size);
      return new OobFile(path, map, writable);
    }
  }

  Path path() {
    return path;
  }

  /** The CRC-32C the entry of a page programmed with {@code page} for {@code owner} holds. */
  static int checksum(ByteBuffer page, int owner) {
    CRC32C crc = new CRC32C();
    crc.update(page.duplicate());
    crc.update(owner >>> 24);
    crc.update(owner >>> 16);
    crc.update(owner >>> 8);
    crc.update(owner);
    return (int) crc.getValue();
  }

  /** Records that page {@code index} now holds {@code page} (its remaining bytes), programmed for {@code owner}. */
  void program(int index, ByteBuffer page, int owner) {
    put(index, checksum(page, owner), owner + 1);
  }

  /** Writes an entry as it is: garbage collection moves a page that fails its check with its entry. */
  void put(int index, int crc, int tag) {
    checkWritable();
    map.putLong(index * ENTRY_BYTES, ((long) crc << 32) | (tag & 0xFFFF_FFFFL));
  }

  int crc(int index) {
    return map.getInt(index * ENTRY_BYTES);
  }

  int tag(int index) {
    return map.getInt(index * ENTRY_BYTES + 4);
  }

  /** Marks {@code count} entries from {@code first} erased. */
  void erase(int first, int count) {
    checkWritable();
    for (int i = first; i < first + count; i++) {
      map.putLong(i * ENTRY_BYTES, 0L);
    }
  }

  /**
   * Why page {@code index}, read as {@code page}, is not what {@code owner} programmed; null when
   * it is.
   */
  String problem(int index, ByteBuffer page, int owner) {
    int storedCrc = crc(index);
    int tag = tag(index);
    int computed = checksum(page, owner);
    if (tag == owner + 1 && storedCrc == computed) {
      return null;
    }
    if (tag == 0 && storedCrc == 0) {
      return "its out-of-band entry says it is erased: no data was programmed there for logical page " + owner;
    }
    if (tag != owner + 1 && tag != 0 && storedCrc == checksum(page, tag - 1)) {
      return "it holds logical page " + (tag - 1) + ", not " + owner + " (the mapping points at a page"
          + " programmed for another)";
    }
    return String.format("checksum mismatch: the out-of-band entry holds CRC-32C 0x%08x for %s, the data and"
        + " logical page %d give 0x%08x", storedCrc, tag == 0 ? "no logical page" : "logical page "
        + Integer.toUnsignedString(tag - 1), owner, computed);
  }

  void force() {
    if (writable) {
      map.force();
    }
  }

  private void checkWritable() {
    if (!writable) {
      throw new IllegalStateException(path + " is open for checking only");
    }
  }

  /** Nothing to release but the mapping, which goes with the buffer. */
  @Override
  public void close() {
    force();
  }
}
