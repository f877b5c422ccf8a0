package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.ZipException;

/**
 * A gzip and zlib decompressor in pure Java, fed the compressed bytes in pieces of any size: it runs
 * inside the device, where every bytecode of this package is counted as the device's CPU time (the
 * JDK's {@code Inflater} is native and would not be). Only the checksums are the JDK's ({@link
 * CRC32}, {@link Adler32}). The host decompresses with it too ({@code JavaGzipCodec}), so that both
 * sides count the same work.
 *
 * <p>Two wrappers of the deflate data, chosen when it is made. {@link #GzipInflater(Output)} reads
 * gzip members (RFC 1952) one after another, as {@code gzip -c a b} writes them and as Hadoop reads
 * them, into one output, each with its header checked (magic, method 8, no reserved flag, the header
 * CRC-16 when FHCRC is set; the extra field, file name and comment skipped) and its trailer (CRC-32
 * and ISIZE). {@link #zlib(Output)} reads zlib streams (RFC 1950, what Hadoop's {@code DefaultCodec}
 * writes) one after another likewise, as Hadoop's {@code DecompressorStream} reads them, each with
 * its 2-byte header checked (method 8, a window of at most 32 KiB, the FCHECK multiple of 31, no
 * preset dictionary) and its Adler-32 trailer. In both, a back-reference cannot reach before the
 * start of its own member's or stream's output, and no input at all is no output. The deflate data
 * (RFC 1951) is decoded with two-level tables: a primary table indexed by the next 10 bits (8 for
 * distances) and subtables for longer codes.
 *
 * <p>Resuming: every state waits for whole things (a byte of a header, a block's 3 header bits, a
 * literal, a length with its distance and their extra bits) and consumes nothing until all of their
 * bits are in the bit buffer, a {@code long} that holds up to 64 bits. When a feed runs out, what
 * was read of the unfinished thing stays in the bit buffer; the input array is never kept.
 *
 * <p>Decompressed bytes go to a 256 KiB buffer that is also the 32 KiB window: the output gets them
 * in pieces of at most 32 KiB, and all of them before a feed returns; when the buffer is full its
 * last 32 KiB move to its start. Nothing is allocated after the constructor but exceptions.
 *
 * <p>{@link #reset()} makes the same instance, with the tables and buffers it has, read a new and
 * independent input from its start (a zlib stream per record, say): it forgets the input so far,
 * the window and the counters, and a failure or a {@link #finish()}; it allocates nothing.
 *
 * <p>Errors are {@link ZipException}s naming what was wrong and the compressed byte where, starting
 * "gzip: " or "zlib: " and counting "member N" or "stream N"; after one, every call throws again
 * until {@link #reset()}.
 */
public final class GzipInflater {

  /** Receives decompressed bytes, in order. The array is the inflater's: valid only during the call. */
  public interface Output {
    void write(byte[] bytes, int offset, int length) throws IOException;
  }

  // States: what the inflater waits for next.
  /** The first magic byte of a member, or the end of the input. */
  private static final int MEMBER = 0;
  /** The second magic byte. */
  private static final int MAGIC2 = 1;
  /** The compression method, 8. */
  private static final int METHOD = 2;
  /** The flags byte. */
  private static final int FLAGS = 3;
  /** MTIME, XFL and OS: six bytes, skipped. */
  private static final int TIME_OS = 4;
  /** XLEN, two bytes (FEXTRA). */
  private static final int XLEN = 5;
  /** The extra field's XLEN bytes, skipped. */
  private static final int EXTRA = 6;
  /** The file name up to its zero byte (FNAME), skipped. */
  private static final int NAME = 7;
  /** The comment up to its zero byte (FCOMMENT), skipped. */
  private static final int COMMENT = 8;
  /** The header's CRC-16, two bytes (FHCRC). */
  private static final int HEADER_CRC = 9;
  /** A deflate block's 3 header bits: BFINAL and BTYPE. */
  private static final int BLOCK = 10;
  /** A stored block's LEN and NLEN, four bytes after the byte boundary. */
  private static final int STORED_LENGTHS = 11;
  /** A stored block's LEN bytes. */
  private static final int STORED = 12;
  /** A dynamic block's HLIT, HDIST and HCLEN: 14 bits. */
  private static final int TABLE_SIZES = 13;
  /** The code-length code's lengths: 3 bits each, HCLEN of them. */
  private static final int CODE_LENGTH_LENGTHS = 14;
  /** The literal/length and distance codes' lengths, coded with the code-length code. */
  private static final int CODE_LENGTHS = 15;
  /** Literals and length/distance pairs, up to the end-of-block code. */
  private static final int CODES = 16;
  /** The member's trailer: CRC-32 and ISIZE, eight bytes after the byte boundary. */
  private static final int TRAILER = 17;
  /** zlib: a stream's first header byte, CMF (method and window size), or the end of the input. */
  private static final int STREAM = 18;
  /** zlib: the second header byte, FLG (FCHECK, FDICT, FLEVEL). */
  private static final int ZLIB_FLAGS = 19;
  /** zlib: the stream's trailer, its Adler-32 big-endian, four bytes after the byte boundary. */
  private static final int ADLER = 20;

  private static final int FHCRC = 0x02;
  private static final int FEXTRA = 0x04;
  private static final int FNAME = 0x08;
  private static final int FCOMMENT = 0x10;
  private static final int RESERVED_FLAGS = 0xE0;
  /** zlib's FLG: a preset dictionary's Adler-32 follows the header. */
  private static final int FDICT = 0x20;

  /*
   * A table entry is an int: bits 0-3 the code's length in bits, 4-7 the number of extra bits
   * (for SUB: the subtable's index bits), 8-10 the kind, 16-31 the value (the literal byte, the base
   * length or distance, the code-length symbol, the subtable's offset, the invalid symbol).
   */
  private static final int KIND = 0x700;
  private static final int LITERAL = 0x000;
  private static final int BASE = 0x100;
  private static final int END = 0x200;
  private static final int SUB = 0x300;
  private static final int INVALID = 0x400;
  /** An invalid entry's value when no code of the set has those bits. */
  private static final int NO_CODE = 0xFFFF;

  private static final int LIT_ROOT = 10;
  private static final int DIST_ROOT = 8;
  private static final int CLEN_ROOT = 7;
  private static final int MAX_BITS = 15;
  /** Subtables: at most one for each code longer than the root, of at most 2^(15 - root) entries. */
  private static final int LIT_TABLE_SIZE = (1 << LIT_ROOT) + 286 * (1 << (MAX_BITS - LIT_ROOT));
  private static final int DIST_TABLE_SIZE = (1 << DIST_ROOT) + 30 * (1 << (MAX_BITS - DIST_ROOT));

  /** The order of the code-length code's lengths in a dynamic block's header. */
  private static final int[] CLEN_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  /** Each symbol's entry without its code length. */
  private static final int[] LIT_SYMBOLS = new int[288];
  private static final int[] DIST_SYMBOLS = new int[32];
  private static final int[] CLEN_SYMBOLS = new int[19];
  /** The fixed Huffman codes' tables (BTYPE 01). */
  private static final int[] FIXED_LIT = new int[1 << LIT_ROOT];
  private static final int[] FIXED_DIST = new int[1 << DIST_ROOT];

  // Results of build().
  private static final int BUILT = 0;
  private static final int OVERSUBSCRIBED = 1;
  private static final int INCOMPLETE = 2;

  static {
    for (int s = 0; s < 256; s++) {
      LIT_SYMBOLS[s] = LITERAL | s << 16;
    }
    LIT_SYMBOLS[256] = END;
    for (int i = 0, base = 3; i < 28; i++) { // 257..284: 8 with no extra bits, then 4 each of 1..5
      int extra = i < 8 ? 0 : (i - 4) / 4;
      LIT_SYMBOLS[257 + i] = BASE | extra << 4 | base << 16;
      base += 1 << extra;
    }
    LIT_SYMBOLS[285] = BASE | 258 << 16;
    LIT_SYMBOLS[286] = INVALID | 286 << 16;
    LIT_SYMBOLS[287] = INVALID | 287 << 16;
    for (int i = 0, base = 1; i < 30; i++) { // 4 with no extra bits, then 2 each of 1..13
      int extra = i < 4 ? 0 : i / 2 - 1;
      DIST_SYMBOLS[i] = BASE | extra << 4 | base << 16;
      base += 1 << extra;
    }
    DIST_SYMBOLS[30] = INVALID | 30 << 16;
    DIST_SYMBOLS[31] = INVALID | 31 << 16;
    for (int s = 0; s < 19; s++) {
      CLEN_SYMBOLS[s] = LITERAL | s << 16;
    }
    int[] lengths = new int[288];
    for (int s = 0; s < 288; s++) {
      lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    }
    int[] count = new int[MAX_BITS + 1];
    int[] next = new int[MAX_BITS + 1];
    int[] subBits = new int[1 << LIT_ROOT];
    build(lengths, 0, 288, LIT_SYMBOLS, FIXED_LIT, LIT_ROOT, false, count, next, subBits);
    Arrays.fill(lengths, 0, 32, 5);
    build(lengths, 0, 32, DIST_SYMBOLS, FIXED_DIST, DIST_ROOT, false, count, next, subBits);
  }

  /** The decompressed bytes' buffer, whose last 32 KiB before {@link #pos} are the window. */
  private static final int BUFFER = 1 << 18;
  private static final int WINDOW = 1 << 15;
  private static final int PIECE = 1 << 15;
  private static final int MAX_MATCH = 258;

  private final Output output;
  /** zlib streams (RFC 1950) rather than gzip members. */
  private final boolean zlib;
  /** Where a member or stream starts: MEMBER or STREAM. */
  private final int start;
  private final CRC32 crc = new CRC32();
  private final Adler32 adler = new Adler32();
  private final CRC32 headerCrc = new CRC32();
  private final byte[] buf = new byte[BUFFER + MAX_MATCH];
  private final int[] litTable = new int[LIT_TABLE_SIZE];
  private final int[] distTable = new int[DIST_TABLE_SIZE];
  private final int[] clenTable = new int[1 << CLEN_ROOT];
  private final int[] lengths = new int[286 + 30];
  private final int[] clenLengths = new int[19];
  private final int[] lengthCounts = new int[MAX_BITS + 1];
  private final int[] next = new int[MAX_BITS + 1];
  private final int[] subBits = new int[1 << LIT_ROOT];

  private int state;
  /** The current block's tables: the fixed ones or litTable and distTable. */
  private int[] lit;
  private int[] dist;
  private boolean lastBlock;
  /** gzip: the header's FLG; zlib: the stream's CMF. */
  private int flags;
  /** A little-endian field being read, and how many of its bytes are in. */
  private long acc;
  private int accBytes;
  /** Bytes left to skip (the extra field) or to copy (a stored block). */
  private int remaining;
  private int hlit;
  private int hdist;
  private int hclen;
  /** The next code length (or code-length code length) to read. */
  private int index;
  /** Where the member (zlib: stream) and its trailer start, for messages. */
  private long memberAt;
  private long trailerAt;

  /** The current feed's input; input[in, end) is unread. {@code base + i} is input[i]'s offset. */
  private byte[] input;
  private int in;
  private int end;
  private long base;
  /** Unconsumed input bits, the next one lowest, and how many there are (at most 64). */
  private long bits;
  private int count;

  /** buf[flushed, pos) is written but not output; a symbol may be decoded while pos < limit. */
  private int pos;
  private int flushed;
  private int limit = PIECE;
  /** Where the member's (stream's) output starts in buf, or 0 when that is more than a window back. */
  private int memberFloor;
  private long written;
  private long memberStart;
  private int members;
  private long compressed;
  private String failure;
  private boolean finished;

  /** An inflater of gzip members (RFC 1952). */
  public GzipInflater(Output output) {
    this(output, false);
  }

  /** An inflater of zlib streams (RFC 1950), one after another into the same output. */
  public static GzipInflater zlib(Output output) {
    return new GzipInflater(output, true);
  }

  private GzipInflater(Output output, boolean zlib) {
    this.output = Objects.requireNonNull(output, "output");
    this.zlib = zlib;
    this.start = zlib ? STREAM : MEMBER;
    this.state = start;
  }

  /** The compressed bytes fed since the start or the last {@link #reset()}. */
  public long compressedBytes() {
    return compressed;
  }

  /** The decompressed bytes output since the start or the last {@link #reset()}. */
  public long decompressedBytes() {
    return written;
  }

  /** The members (zlib: streams) read to their trailer's end. */
  int members() {
    return members;
  }

  /**
   * Forgets everything about the input so far, so that the next feed is the start of a new and
   * independent one (of the same wrapper): the state, the bit buffer, the checksums, the window (no
   * back-reference reaches the output before the reset), the counters, a failure or a finish().
   * Bytes decompressed but not yet output (only after a failure) are dropped. Allocates nothing.
   * Not to be called from the output during a feed.
   */
  public void reset() {
    if (input != null) {
      throw new IllegalStateException(name() + ": reset() during a feed");
    }
    state = start;
    lit = null;
    dist = null;
    lastBlock = false;
    flags = 0;
    acc = 0;
    accBytes = 0;
    remaining = 0;
    hlit = 0;
    hdist = 0;
    hclen = 0;
    index = 0;
    memberAt = 0;
    trailerAt = 0;
    in = 0;
    end = 0;
    base = 0;
    bits = 0;
    count = 0;
    pos = 0;
    flushed = 0;
    limit = PIECE;
    memberFloor = 0;
    written = 0;
    memberStart = 0;
    members = 0;
    compressed = 0;
    failure = null;
    finished = false;
    crc.reset();
    adler.reset();
    headerCrc.reset();
  }

  /**
   * Decompresses as much of these compressed bytes as it can, keeping any state (partial header,
   * bits, a code half-read, the window) for the next call. Never retains {@code input}.
   */
  public void feed(byte[] input, int offset, int length) throws IOException {
    Objects.checkFromIndexSize(offset, length, input.length);
    usable();
    if (finished) {
      throw new IllegalStateException(name() + ": fed after finish()");
    }
    this.input = input;
    this.in = offset;
    this.end = offset + length;
    this.base = compressed - offset;
    try {
      while (step()) {
        // each step reads one thing; false: it needs more input
      }
      flush(pos);
    } catch (IOException | RuntimeException | Error e) {
      if (failure == null) {
        failure = name() + ": failed: " + e;
      }
      throw e;
    } finally {
      this.input = null;
      compressed += length;
      this.base = compressed;
      this.in = 0;
      this.end = 0;
    }
  }

  /**
   * The input has ended. Throws if it ended inside a member or stream (truncated header, block or
   * trailer). After it, only {@link #reset()} makes the inflater take input again.
   */
  public void finish() throws IOException {
    usable();
    if (state != start) {
      String where = state < BLOCK || state == ZLIB_FLAGS ? "the " + name() + " header"
          : state < TRAILER ? "the deflate data" : "the " + name() + " trailer";
      throw error("truncated input: the stream ended inside " + where + " of " + unit() + " " + (members + 1),
          compressed);
    }
    finished = true;
  }

  /** The wrapper's name, for messages. */
  private String name() {
    return zlib ? "zlib" : "gzip";
  }

  /** What the input is a sequence of, for messages. */
  private String unit() {
    return zlib ? "stream" : "member";
  }

  private void usable() throws IOException {
    if (failure != null) {
      throw new ZipException(failure + " (failed earlier)");
    }
  }

  private ZipException error(String what, long at) {
    failure = name() + ": " + what + " at compressed byte " + at;
    return new ZipException(failure);
  }

  /** The offset of the compressed byte that holds the next unread bit. */
  private long position(int in, int count) {
    return base + in - ((count + 7) >>> 3);
  }

  private long position() {
    return position(in, count);
  }

  /** Reads one thing; false when the input ran out first (then all of it is in the bit buffer). */
  private boolean step() throws IOException {
    switch (state) {
      case MEMBER: {
        long at = position();
        int b = nextByte();
        if (b < 0) {
          return false;
        }
        if (b != 0x1f) {
          throw members == 0
              ? error(String.format("bad header magic: first byte 0x%02x, not 0x1f", b), at)
              : error(String.format("trailing garbage after member %d: byte 0x%02x does not start a gzip member",
                  members, b), at);
        }
        startMember(at);
        flags = 0;
        state = MAGIC2;
        return true;
      }
      case MAGIC2: {
        int b = nextByte();
        if (b < 0) {
          return false;
        }
        if (b != 0x8b) {
          throw members == 0
              ? error(String.format("bad header magic 0x1f%02x, not 0x1f8b", b), memberAt)
              : error(String.format("trailing garbage after member %d: 0x1f%02x does not start a gzip member",
                  members, b), memberAt);
        }
        state = METHOD;
        return true;
      }
      case METHOD: {
        long at = position();
        int b = nextByte();
        if (b < 0) {
          return false;
        }
        if (b != 8) {
          throw error("unsupported compression method " + b + " (only 8, deflate)", at);
        }
        state = FLAGS;
        return true;
      }
      case FLAGS: {
        long at = position();
        int b = nextByte();
        if (b < 0) {
          return false;
        }
        if ((b & RESERVED_FLAGS) != 0) {
          throw error(String.format("reserved header flags set: 0x%02x", b), at);
        }
        flags = b;
        if ((flags & FHCRC) != 0) {
          headerCrc.reset();
          headerCrc.update(0x1f);
          headerCrc.update(0x8b);
          headerCrc.update(8);
          headerCrc.update(b);
        }
        remaining = 6;
        state = TIME_OS;
        return true;
      }
      case TIME_OS:
        for (; remaining > 0; remaining--) {
          if (headerByte() < 0) {
            return false;
          }
        }
        state = headerAfter(TIME_OS);
        return true;
      case XLEN:
        if (!readLittleEndian(2, true)) {
          return false;
        }
        remaining = (int) takeField();
        state = EXTRA;
        return true;
      case EXTRA:
        for (; remaining > 0; remaining--) {
          if (headerByte() < 0) {
            return false;
          }
        }
        state = headerAfter(EXTRA);
        return true;
      case NAME:
      case COMMENT: {
        int b;
        while ((b = headerByte()) > 0) {
          // skipped up to its zero byte
        }
        if (b < 0) {
          return false;
        }
        state = headerAfter(state);
        return true;
      }
      case HEADER_CRC: {
        if (!readLittleEndian(2, false)) {
          return false;
        }
        long at = position() - 2;
        int stored = (int) takeField();
        int computed = (int) headerCrc.getValue() & 0xFFFF;
        if (stored != computed) {
          throw error(String.format("header CRC-16 mismatch in member %d: stored 0x%04x, computed 0x%04x",
              members + 1, stored, computed), at);
        }
        state = BLOCK;
        return true;
      }
      case BLOCK:
        return blockHeader();
      case STORED_LENGTHS: {
        if (!readLittleEndian(4, false)) {
          return false;
        }
        long at = position() - 4;
        int field = (int) takeField();
        int len = field & 0xFFFF;
        int nlen = field >>> 16;
        if ((len ^ 0xFFFF) != nlen) {
          throw error(String.format("stored block LEN 0x%04x does not match NLEN 0x%04x", len, nlen), at);
        }
        remaining = len;
        state = STORED;
        return true;
      }
      case STORED:
        return copyStored();
      case TABLE_SIZES:
        return tableSizes();
      case CODE_LENGTH_LENGTHS:
        return codeLengthLengths();
      case CODE_LENGTHS:
        return codeLengths();
      case CODES:
        if (!inflateCodes()) {
          return false;
        }
        endBlock();
        return true;
      case TRAILER:
        return trailer();
      case STREAM: {
        long at = position();
        int cmf = nextByte();
        if (cmf < 0) {
          return false;
        }
        int method = cmf & 0x0F;
        int cinfo = cmf >>> 4;
        if (method != 8 || cinfo > 7) {
          if (members > 0) {
            throw error(String.format("trailing garbage after stream %d: byte 0x%02x does not start a zlib stream",
                members, cmf), at);
          }
          throw method != 8
              ? error(String.format("unsupported compression method %d in CMF 0x%02x (only 8, deflate)", method, cmf),
                  at)
              : error(String.format("window size CINFO %d in CMF 0x%02x: more than 7 (a 32 KiB window)", cinfo, cmf),
                  at);
        }
        startMember(at);
        flags = cmf;
        state = ZLIB_FLAGS;
        return true;
      }
      case ZLIB_FLAGS: {
        long at = position();
        int flg = nextByte();
        if (flg < 0) {
          return false;
        }
        int header = flags << 8 | flg;
        if (header % 31 != 0) {
          throw members > 0
              ? error(String.format("trailing garbage after stream %d: 0x%04x does not start a zlib stream",
                  members, header), memberAt)
              : error(String.format("bad zlib header check: CMF and FLG 0x%04x are not a multiple of 31", header),
                  memberAt);
        }
        if ((flg & FDICT) != 0) {
          throw error(String.format("a preset dictionary is not supported (FDICT set in FLG 0x%02x of stream %d)",
              flg, members + 1), at);
        }
        state = BLOCK;
        return true;
      }
      case ADLER:
        return adlerTrailer();
      default:
        throw new IllegalStateException(name() + ": state " + state);
    }
  }

  /** A member or stream starts at this compressed byte: its checksum, its output's start. */
  private void startMember(long at) {
    memberAt = at;
    if (zlib) {
      adler.reset();
    } else {
      crc.reset();
    }
    memberStart = written + (pos - flushed);
    memberFloor = pos;
  }

  /** The header field after {@code field}, from the flags; BLOCK when the header is done. */
  private int headerAfter(int field) {
    if (field < XLEN && (flags & FEXTRA) != 0) {
      return XLEN;
    }
    if (field < NAME && (flags & FNAME) != 0) {
      return NAME;
    }
    if (field < COMMENT && (flags & FCOMMENT) != 0) {
      return COMMENT;
    }
    if (field < HEADER_CRC && (flags & FHCRC) != 0) {
      return HEADER_CRC;
    }
    return BLOCK;
  }

  private boolean blockHeader() throws IOException {
    if (!need(3)) {
      return false;
    }
    long at = position();
    lastBlock = (bits & 1) != 0;
    int type = (int) (bits >>> 1) & 3;
    drop(3);
    switch (type) {
      case 0:
        drop(count & 7);
        state = STORED_LENGTHS;
        break;
      case 1:
        lit = FIXED_LIT;
        dist = FIXED_DIST;
        state = CODES;
        break;
      case 2:
        state = TABLE_SIZES;
        break;
      default:
        throw error("deflate block of the reserved type 3", at);
    }
    return true;
  }

  /** Copies the stored block's bytes: first those already in the bit buffer, then from the input. */
  private boolean copyStored() throws IOException {
    while (remaining > 0) {
      if (count >= 8) {
        buf[pos++] = (byte) bits;
        drop(8);
        remaining--;
      } else {
        int n = Math.min(Math.min(remaining, limit - pos), end - in);
        if (n == 0) {
          return false;
        }
        System.arraycopy(input, in, buf, pos, n);
        in += n;
        pos += n;
        remaining -= n;
      }
      if (pos >= limit) {
        makeRoom();
      }
    }
    endBlock();
    return true;
  }

  private void endBlock() throws IOException {
    if (!lastBlock) {
      state = BLOCK;
      return;
    }
    drop(count & 7);
    flush(pos);
    trailerAt = position();
    state = zlib ? ADLER : TRAILER;
  }

  private boolean adlerTrailer() throws IOException {
    if (!readLittleEndian(4, false)) {
      return false;
    }
    long stored = Integer.reverseBytes((int) takeField()) & 0xFFFFFFFFL; // big-endian
    long computed = adler.getValue();
    if (stored != computed) {
      throw error(String.format("Adler-32 mismatch at the end of stream %d: stored 0x%08x, computed 0x%08x",
          members + 1, stored, computed), trailerAt);
    }
    members++;
    state = STREAM;
    return true;
  }

  private boolean trailer() throws IOException {
    if (!readLittleEndian(8, false)) {
      return false;
    }
    long field = takeField();
    long stored = field & 0xFFFFFFFFL;
    long computed = crc.getValue();
    int member = members + 1;
    if (stored != computed) {
      throw error(String.format("CRC-32 mismatch at the end of member %d: stored 0x%08x, computed 0x%08x",
          member, stored, computed), trailerAt);
    }
    long size = field >>> 32;
    long actual = (written - memberStart) & 0xFFFFFFFFL;
    if (size != actual) {
      throw error(String.format("ISIZE mismatch at the end of member %d: stored %d, decompressed %d (mod 2^32)",
          member, size, actual), trailerAt + 4);
    }
    members = member;
    state = MEMBER;
    return true;
  }

  private boolean tableSizes() throws IOException {
    if (!need(14)) {
      return false;
    }
    long at = position();
    hlit = 257 + ((int) bits & 31);
    hdist = 1 + ((int) (bits >>> 5) & 31);
    hclen = 4 + ((int) (bits >>> 10) & 15);
    drop(14);
    if (hlit > 286) {
      throw error("dynamic block with " + hlit + " literal/length codes (at most 286)", at);
    }
    if (hdist > 30) {
      throw error("dynamic block with " + hdist + " distance codes (at most 30)", at);
    }
    Arrays.fill(clenLengths, 0);
    index = 0;
    state = CODE_LENGTH_LENGTHS;
    return true;
  }

  private boolean codeLengthLengths() throws IOException {
    for (; index < hclen; index++) {
      if (!need(3)) {
        return false;
      }
      clenLengths[CLEN_ORDER[index]] = (int) bits & 7;
      drop(3);
    }
    int result = build(clenLengths, 0, 19, CLEN_SYMBOLS, clenTable, CLEN_ROOT, false, lengthCounts, next, subBits);
    if (result != BUILT) {
      throw error(result == OVERSUBSCRIBED ? "over-subscribed code-length code" : "incomplete code-length code",
          position());
    }
    index = 0;
    state = CODE_LENGTHS;
    return true;
  }

  private boolean codeLengths() throws IOException {
    int total = hlit + hdist;
    while (index < total) {
      refill();
      int e = clenTable[(int) bits & ((1 << CLEN_ROOT) - 1)];
      int n = e & 15;
      if (n > count) {
        return false;
      }
      int symbol = e >>> 16;
      if (symbol < 16) {
        drop(n);
        lengths[index++] = symbol;
        continue;
      }
      int extra = symbol == 16 ? 2 : symbol == 17 ? 3 : 7;
      if (n + extra > count) {
        return false;
      }
      long at = position();
      int repeat = ((int) (bits >>> n) & ((1 << extra) - 1)) + (symbol == 18 ? 11 : 3);
      drop(n + extra);
      int value = 0;
      if (symbol == 16) {
        if (index == 0) {
          throw error("code length repeat (16) with no length before it", at);
        }
        value = lengths[index - 1];
      }
      if (index + repeat > total) {
        throw error("code lengths repeated past the " + total + " codes", at);
      }
      for (int stop = index + repeat; index < stop; index++) {
        lengths[index] = value;
      }
    }
    long at = position();
    if (lengths[256] == 0) {
      throw error("dynamic block without an end-of-block code", at);
    }
    int result = build(lengths, 0, hlit, LIT_SYMBOLS, litTable, LIT_ROOT, true, lengthCounts, next, subBits);
    if (result != BUILT) {
      throw error((result == OVERSUBSCRIBED ? "over-subscribed" : "incomplete") + " literal/length code", at);
    }
    result = build(lengths, hlit, hdist, DIST_SYMBOLS, distTable, DIST_ROOT, true, lengthCounts, next, subBits);
    if (result != BUILT) {
      throw error((result == OVERSUBSCRIBED ? "over-subscribed" : "incomplete") + " distance code", at);
    }
    lit = litTable;
    dist = distTable;
    state = CODES;
    return true;
  }

  /**
   * Decodes literals and length/distance pairs until the end-of-block code (true) or until the bit
   * buffer lacks the bits of the next whole literal or pair and the input is spent (false).
   */
  private boolean inflateCodes() throws IOException {
    final byte[] input = this.input;
    final byte[] out = this.buf;
    final int[] lit = this.lit;
    final int[] dist = this.dist;
    final int end = this.end;
    long bits = this.bits;
    int count = this.count;
    int in = this.in;
    int pos = this.pos;
    int limit = this.limit;
    try {
      while (true) {
        if (count < 48) { // a length, a distance and their extra bits take at most 48
          while (count <= 56 && in < end) {
            bits |= (input[in++] & 0xFFL) << count;
            count += 8;
          }
        }
        int e = lit[(int) bits & ((1 << LIT_ROOT) - 1)];
        if ((e & KIND) == SUB) {
          e = lit[(e >>> 16) + ((int) (bits >>> LIT_ROOT) & ((1 << ((e >>> 4) & 15)) - 1))];
        }
        int n = e & 15;
        if (n > count) {
          return false;
        }
        int kind = e & KIND;
        if (kind == LITERAL) {
          bits >>>= n;
          count -= n;
          out[pos++] = (byte) (e >>> 16);
        } else if (kind == BASE) {
          int extra = (e >>> 4) & 15;
          int used = n + extra;
          if (used > count) {
            return false;
          }
          int length = (e >>> 16) + ((int) (bits >>> n) & ((1 << extra) - 1));
          long rest = bits >>> used;
          int d = dist[(int) rest & ((1 << DIST_ROOT) - 1)];
          if ((d & KIND) == SUB) {
            d = dist[(d >>> 16) + ((int) (rest >>> DIST_ROOT) & ((1 << ((d >>> 4) & 15)) - 1))];
          }
          int dn = d & 15;
          if (used + dn > count) {
            return false;
          }
          if ((d & KIND) != BASE) {
            throw error(invalid("distance", d >>> 16), position(in, count - used));
          }
          int dextra = (d >>> 4) & 15;
          int all = used + dn + dextra;
          if (all > count) {
            return false;
          }
          int distance = (d >>> 16) + ((int) (rest >>> dn) & ((1 << dextra) - 1));
          if (distance > pos - memberFloor) {
            throw error("distance " + distance + " too far back: only " + (pos - memberFloor)
                + " bytes decompressed in this " + unit(), position(in, count - used));
          }
          bits >>>= all;
          count -= all;
          int from = pos - distance;
          if (distance >= length) {
            System.arraycopy(out, from, out, pos, length);
            pos += length;
          } else { // overlapping: copy the period, then ever longer runs of it
            int stop = pos + length;
            while (pos < stop) {
              int c = Math.min(pos - from, stop - pos);
              System.arraycopy(out, from, out, pos, c);
              pos += c;
            }
          }
        } else if (kind == END) {
          bits >>>= n;
          count -= n;
          return true;
        } else {
          throw error(invalid("literal/length", e >>> 16), position(in, count));
        }
        if (pos >= limit) {
          this.pos = pos;
          makeRoom();
          pos = this.pos;
          limit = this.limit;
        }
      }
    } finally {
      this.bits = bits;
      this.count = count;
      this.in = in;
      this.pos = pos;
    }
  }

  private static String invalid(String code, int symbol) {
    return symbol == NO_CODE
        ? "bits that are no " + code + " code of the block"
        : "invalid " + code + " symbol " + symbol;
  }

  /** Outputs whole pieces; when the buffer is nearly full, outputs all and moves the window to its start. */
  private void makeRoom() throws IOException {
    if (pos >= BUFFER) {
      flush(pos);
      int shift = pos - WINDOW;
      System.arraycopy(buf, shift, buf, 0, WINDOW);
      pos = WINDOW;
      flushed = WINDOW;
      memberFloor = Math.max(memberFloor - shift, 0);
      limit = WINDOW + PIECE;
    } else {
      flush(pos - (pos - flushed) % PIECE);
    }
  }

  /** Outputs buf[flushed, upTo) in pieces of at most PIECE, adding them to the CRC-32 (zlib: Adler-32). */
  private void flush(int upTo) throws IOException {
    while (flushed < upTo) {
      int n = Math.min(PIECE, upTo - flushed);
      if (zlib) {
        adler.update(buf, flushed, n);
      } else {
        crc.update(buf, flushed, n);
      }
      output.write(buf, flushed, n);
      flushed += n;
      written += n;
    }
    limit = Math.min(flushed + PIECE, BUFFER);
  }

  // Bits and bytes of the input.

  /** Moves input bytes into the bit buffer while it has room for a whole byte. */
  private void refill() {
    while (count <= 56 && in < end) {
      bits |= (input[in++] & 0xFFL) << count;
      count += 8;
    }
  }

  /** Whether n bits (at most 57) are there, after a refill. */
  private boolean need(int n) {
    if (count < n) {
      refill();
    }
    return count >= n;
  }

  private void drop(int n) {
    bits >>>= n;
    count -= n;
  }

  /** The next byte (at a byte boundary: from the bit buffer first), or -1 when there is none. */
  private int nextByte() {
    if (count >= 8) {
      int b = (int) bits & 0xFF;
      drop(8);
      return b;
    }
    return in < end ? input[in++] & 0xFF : -1;
  }

  /** The next byte of the header, added to the header's CRC when FHCRC is set. */
  private int headerByte() {
    int b = nextByte();
    if (b >= 0 && (flags & FHCRC) != 0) {
      headerCrc.update(b);
    }
    return b;
  }

  /** Reads an n-byte little-endian field into acc across feeds; true when all of it is in. */
  private boolean readLittleEndian(int n, boolean header) {
    while (accBytes < n) {
      int b = header ? headerByte() : nextByte();
      if (b < 0) {
        return false;
      }
      acc |= (long) b << (8 * accBytes);
      accBytes++;
    }
    return true;
  }

  private long takeField() {
    long field = acc;
    acc = 0;
    accBytes = 0;
    return field;
  }

  /**
   * Builds the decoding table of the code with these lengths (of symbols 0..n-1), canonical as RFC
   * 1951 3.2.2 assigns it: entry symbols[s] with the code's length for each code of up to root bits,
   * replicated over the bits after it; for longer codes a subtable per root-bit prefix. Only a code
   * of no symbols or of one symbol of one bit may be incomplete (as zlib allows), and only when
   * {@code allowIncomplete}; the missing bit patterns decode as invalid.
   */
  private static int build(int[] lengths, int first, int n, int[] symbols, int[] table, int root,
      boolean allowIncomplete, int[] count, int[] next, int[] subBits) {
    Arrays.fill(count, 0);
    for (int s = 0; s < n; s++) {
      count[lengths[first + s]]++;
    }
    count[0] = 0;
    int left = 1;
    int max = 0;
    for (int len = 1; len <= MAX_BITS; len++) {
      left = (left << 1) - count[len];
      if (left < 0) {
        return OVERSUBSCRIBED;
      }
      if (count[len] != 0) {
        max = len;
      }
    }
    if (left > 0 && (max > 1 || !allowIncomplete)) {
      return INCOMPLETE;
    }
    int code = 0;
    for (int len = 1; len <= MAX_BITS; len++) {
      code = (code + count[len - 1]) << 1;
      next[len] = code;
    }
    int size = 1 << root;
    Arrays.fill(table, 0, size, INVALID | NO_CODE << 16 | 1);
    if (max > root) { // each long code's prefix: the longest code after it
      for (int s = 0; s < n; s++) {
        int len = lengths[first + s];
        if (len > root) {
          int prefix = reverse(next[len]++, len) & (size - 1);
          subBits[prefix] = Math.max(subBits[prefix], len - root);
        }
      }
      code = 0;
      for (int len = 1; len <= MAX_BITS; len++) {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
      }
    }
    int used = size;
    for (int s = 0; s < n; s++) {
      int len = lengths[first + s];
      if (len == 0) {
        continue;
      }
      int reversed = reverse(next[len]++, len);
      int entry = symbols[s] | len;
      if (len <= root) {
        for (int i = reversed; i < size; i += 1 << len) {
          table[i] = entry;
        }
        continue;
      }
      int prefix = reversed & (size - 1);
      if ((table[prefix] & KIND) != SUB) { // the prefix's first long code: its subtable
        int sub = subBits[prefix];
        subBits[prefix] = 0;
        table[prefix] = SUB | sub << 4 | used << 16;
        Arrays.fill(table, used, used + (1 << sub), INVALID | NO_CODE << 16 | 1);
        used += 1 << sub;
      }
      int offset = table[prefix] >>> 16;
      int sub = (table[prefix] >>> 4) & 15;
      for (int i = reversed >>> root; i < 1 << sub; i += 1 << (len - root)) {
        table[offset + i] = entry;
      }
    }
    return BUILT;
  }

  /** The code's len bits in reverse order: deflate packs Huffman codes first bit first. */
  private static int reverse(int code, int len) {
    return Integer.reverse(code) >>> (32 - len);
  }
}
