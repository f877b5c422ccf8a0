package org.smartssd.device.runtime.ftl;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.IntPredicate;
import java.util.zip.CRC32C;

/**
 * Reads a journal ({@code u32 length, u32 crc32c, u8 type, payload} records, length and crc
 * covering type and payload) and tells a torn tail from damage.
 *
 * <p>A crash (the process killed in the middle of an append) leaves a prefix of the bytes being
 * appended: the last record is incomplete, and nothing valid follows it. That tail is cut. Anything
 * else is damage and stops the scan: a complete record whose checksum fails, an impossible length,
 * a record that cannot be applied, and an incomplete-looking record that is followed by a valid one
 * (found by trying every later offset: a crash cannot leave a whole record after a partial one) or
 * whose bytes to the end of the file match its checksum (its length field is what was damaged).
 */
final class JournalScanner {
  static final int HEADER_BYTES = 9;
  static final int MAX_RECORD_BYTES = 64 << 20;
  private static final int WINDOW_BYTES = 1 << 20;

  /** What a scan found; {@code damage} null and {@code tornAt} -1 for a clean journal. */
  record Result(long records, long goodBytes, long tornAt, DamagedMetadataException damage,
      long recordsAfterDamage) {}

  /** One record at an offset: complete and valid, or why not. */
  private record Probe(int length, boolean incomplete, String problem) {
    boolean valid() {
      return problem == null;
    }
  }

  private final Path file;
  private final Path dataDir;
  private final FileChannel channel;
  private final IntPredicate knownType;
  private final long size;
  private final byte[] window = new byte[WINDOW_BYTES];
  private final ByteBuffer scratch = ByteBuffer.allocate(1 << 16);
  private long windowStart;
  private int windowLength;

  /**
   * @param knownType the record types the journal's writers use; resynchronisation only takes a
   *     record of one of them (a cheap filter before the checksum, and fewer false finds)
   */
  JournalScanner(Path file, Path dataDir, FileChannel channel, IntPredicate knownType) throws IOException {
    this.file = file;
    this.dataDir = dataDir;
    this.channel = channel;
    this.knownType = knownType;
    this.size = channel.size();
  }

  /**
   * Applies every record with {@code records} until the end or the first damage; records found
   * after the damage go to {@code afterDamage} (they are not applied, only described).
   */
  Result scan(MetadataLog.RecordHandler records, MetadataLog.RecordHandler afterDamage) throws IOException {
    long pos = 0;
    long count = 0;
    while (pos < size) {
      Probe probe = probe(pos);
      if (probe.valid()) {
        String failure = apply(records, pos, probe.length);
        if (failure != null) {
          return damaged(pos, count, "record " + (count + 1) + " cannot be applied: " + failure, afterDamage,
              resync(pos + 8 + probe.length));
        }
        count++;
        pos += 8 + probe.length;
        continue;
      }
      long next = resync(pos + 1);
      if (probe.incomplete && next < 0) {
        return new Result(count, pos, pos, null, 0);
      }
      return damaged(pos, count, "record " + (count + 1) + ": " + probe.problem
          + (probe.incomplete ? ", yet a valid record follows at offset " + next + " (a crash leaves no record"
              + " after a torn one)" : ""), afterDamage, next);
    }
    return new Result(count, pos, -1, null, 0);
  }

  /** The damage at {@code pos}; {@code next} is the first valid record after it, or -1. */
  private Result damaged(long pos, long count, String what, MetadataLog.RecordHandler afterDamage, long next)
      throws IOException {
    long after = 0;
    long firstAfter = -1;
    long p = next;
    while (p >= 0 && p < size) {
      Probe probe = probe(p);
      if (probe.valid()) {
        if (firstAfter < 0) {
          firstAfter = p;
        }
        after++;
        if (afterDamage != null) {
          apply(afterDamage, p, probe.length);
        }
        p += 8 + probe.length;
      } else {
        p = resync(p + 1);
      }
    }
    String affected = (size - pos) + " bytes from there to the end of the file (of " + size + ") hold "
        + (after == 0 ? "no intact record" : after + " intact record" + (after == 1 ? "" : "s") + " (the first at offset "
            + firstAfter + ")")
        + ", which recovery would lose by cutting the journal there; the " + count + " record" + (count == 1 ? "" : "s")
        + " before it " + (count == 1 ? "is" : "are") + " intact";
    DamagedMetadataException damage = new DamagedMetadataException(DamagedMetadataException.Kind.JOURNAL_RECORD,
        file, pos, "metadata journal " + file + " is damaged at byte offset " + pos + " (" + what + "): " + affected,
        dataDir);
    return new Result(count, pos, -1, damage, after);
  }

  /** Applies the record at {@code pos}; returns why it could not be, or null. */
  private String apply(MetadataLog.RecordHandler handler, long pos, int length) throws IOException {
    byte[] body = bytes(pos + 8, length);
    int type = body[0] & 0xFF;
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(body, 1, length - 1))) {
      handler.apply(type, in);
      return null;
    } catch (EOFException e) {
      return "its payload is too short for a record of type " + type;
    } catch (IOException | RuntimeException e) {
      return "type " + type + ": " + e.getMessage();
    }
  }

  /** The first offset from {@code from} where a valid record starts, or -1. */
  private long resync(long from) throws IOException {
    for (long q = from; q + HEADER_BYTES <= size; q++) {
      int length = intAt(q);
      if (length < 1 || length > MAX_RECORD_BYTES || q + 8 + length > size || !knownType.test(byteAt(q + 8))) {
        continue;
      }
      int stored = intAt(q + 4);
      if (crc(q + 8, length) == stored) {
        return q;
      }
    }
    return -1;
  }

  private Probe probe(long pos) throws IOException {
    long remaining = size - pos;
    if (remaining < HEADER_BYTES) {
      return new Probe(0, true, "an incomplete header of " + remaining + " bytes");
    }
    int length = intAt(pos);
    int stored = intAt(pos + 4);
    if (length < 1 || length > MAX_RECORD_BYTES) {
      return new Probe(length, false, "impossible length " + Integer.toUnsignedString(length)
          + " (a record is 1 to " + MAX_RECORD_BYTES + " bytes)");
    }
    if (pos + 8 + length > size) {
      long there = size - pos - 8;
      if (crc(pos + 8, (int) there) == stored) {
        return new Probe(length, false, "its length field says " + length + " bytes, but the " + there
            + " bytes to the end of the file match its checksum: the length is damaged");
      }
      return new Probe(length, true, "it announces " + length + " bytes and " + there + " are there");
    }
    int computed = crc(pos + 8, length);
    if (computed != stored) {
      return new Probe(length, false, String.format("checksum mismatch (stored 0x%08x, computed 0x%08x over its %d"
          + " bytes)", stored, computed, length));
    }
    return new Probe(length, false, null);
  }

  /** The CRC-32C of {@code length} bytes at {@code pos}; bytes outside the window are read without moving it. */
  private int crc(long pos, int length) throws IOException {
    CRC32C crc = new CRC32C();
    long p = pos;
    long end = pos + length;
    while (p < end) {
      if (p >= windowStart && p < windowStart + windowLength) {
        int from = (int) (p - windowStart);
        int n = (int) Math.min(end - p, windowLength - from);
        crc.update(window, from, n);
        p += n;
      } else {
        scratch.clear().limit((int) Math.min(scratch.capacity(), end - p));
        readFully(scratch, p);
        scratch.flip();
        p += scratch.remaining();
        crc.update(scratch);
      }
    }
    return (int) crc.getValue();
  }

  private int byteAt(long pos) throws IOException {
    fill(pos, 1);
    return window[(int) (pos - windowStart)] & 0xFF;
  }

  private int intAt(long pos) throws IOException {
    fill(pos, 4);
    int i = (int) (pos - windowStart);
    return ((window[i] & 0xFF) << 24) | ((window[i + 1] & 0xFF) << 16) | ((window[i + 2] & 0xFF) << 8)
        | (window[i + 3] & 0xFF);
  }

  private byte[] bytes(long pos, int length) throws IOException {
    byte[] out = new byte[length];
    if (pos >= windowStart && pos + length <= windowStart + windowLength) {
      System.arraycopy(window, (int) (pos - windowStart), out, 0, length);
      return out;
    }
    ByteBuffer dst = ByteBuffer.wrap(out);
    readFully(dst, pos);
    return out;
  }

  /** Makes the window hold at least {@code n} bytes from {@code pos} (which are in the file). */
  private void fill(long pos, int n) throws IOException {
    if (pos >= windowStart && pos + n <= windowStart + windowLength) {
      return;
    }
    windowStart = pos;
    int want = (int) Math.min(WINDOW_BYTES, size - pos);
    ByteBuffer dst = ByteBuffer.wrap(window, 0, want);
    readFully(dst, pos);
    windowLength = want;
  }

  private void readFully(ByteBuffer dst, long position) throws IOException {
    long p = position;
    while (dst.hasRemaining()) {
      int n = channel.read(dst, p);
      if (n < 0) {
        throw new EOFException(file + " ended at " + p + " while it was being read");
      }
      p += n;
    }
  }
}
