package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.util.Objects;
import java.util.zip.ZipException;

/**
 * A bzip2 decompressor in pure Java, fed the compressed bytes in pieces of any size: it runs inside
 * the device, where every bytecode of this package is counted as the device's CPU time, so all of
 * the work is here, even the block CRC (bzip2's is the big-endian CRC-32, which the JDK does not
 * have). The format is the one bzip2 writes and Hadoop's {@code BZip2Codec} reads; what Hadoop
 * 3.5.0 does is the behaviour it matches.
 *
 * <p>A stream is "BZh" and a level digit '1'..'9' (blocks of at most level × 100 000 bytes before
 * the Burrows-Wheeler transform), blocks, and the end-of-stream marker 0x177245385090 with the
 * combined CRC, padded to a byte. A block is the magic 0x314159265359, its CRC, the randomised bit,
 * the 24-bit origPtr, the map of the byte values used, 2 to 6 Huffman tables with their selectors
 * (move-to-front coded, one per 50 symbols), and the move-to-front/run-length symbols up to the
 * end-of-block symbol. Each block's symbols are decoded into one int array, the inverse transform is
 * threaded through the same array, and the initial run-length coding (four equal bytes then a count)
 * is undone on the way out. Streams follow one another, as {@code cat a.bz2 b.bz2} writes them, into
 * one output; a stream of no blocks is no output. Every block's CRC and every stream's combined CRC
 * is checked; a mismatch is an error naming the block (the stream). What is checked beyond that, as
 * bzip2 1.0.8 does: 2 to 6 tables, at least one selector and none beyond the tables, code lengths of
 * 1 to 20 bits, at least one byte value used, a block no longer than its level allows, origPtr inside
 * the block; and a Huffman code that is over-subscribed (bits that would be two codes) is rejected.
 * More than 18 002 selectors are read but only the first 18 002 kept (bzip2 1.0.8 reads such files;
 * a block needs at most 18 001). An incomplete code is accepted, its missing bit patterns decoding as
 * an error. A block that ends after four equal bytes, without the count that must follow them, is an
 * error, as bzip2 1.0.8 finds it (no encoder writes one; Hadoop's decoder takes the block's first
 * byte, read past its end, for the count). Anything after a stream but another stream is an error
 * ("trailing garbage"), where Hadoop's block-by-block reader would skip it looking for a block magic.
 *
 * <p>Randomised blocks (the bit that bzip2 before 0.9.5 set for repetitive blocks) are decoded: the
 * transform's output is XORed with 1 at the places that bzip2's fixed table of 512 numbers gives, as
 * Hadoop's and bzip2's decoders do.
 *
 * <h2>Two modes</h2>
 *
 * {@link #Bzip2Decoder(Output, int)} reads whole streams from the first byte of a file.
 * {@link #split(Output, long, int)} reads as Hadoop reads a split of a bzip2 file
 * ({@code BZip2Codec.createInputStream(in, decompressor, start, end, READ_MODE.BYBLOCK)}), the first
 * byte fed being the file's byte {@code start}. At start 0 that is the whole-stream reading (the
 * header read and checked). At any other start the decoder looks, bit by bit, for the first block
 * magic whose first bit is in a byte at or after {@code start} and decodes from that block on,
 * ignoring everything before it; at a start of 1 to 4, as Hadoop does (it skips to byte 5 so as not
 * to read again the block that the split at 0 reads), the first block's magic, at byte 4, is not
 * taken either. The combined CRC of the stream it started in cannot be checked (its first blocks were
 * not read); later streams', begun with their header, are. The level of the stream it starts in is
 * not known there: the caller gives it (the file's header says it, in byte 3) as {@code maxLevel};
 * {@link #split(Output, long)} assumes 9, as Hadoop's reader does. A block longer than that level
 * allows is an error.
 *
 * <h2>Block positions, and Hadoop's {@code getPos()}</h2>
 *
 * Before the first decompressed byte of each block the output is told the block's position,
 * {@link Output#block(long)}: the file offset of the byte that holds the first bit of the block's
 * magic ({@code start} plus the bytes fed before it; bit-exact: {@link #blockBitPosition()}). At that
 * moment {@link #decompressedBytes()} is the decompressed offset of the block's first byte; the
 * output's pieces never hold bytes of two blocks. This is the number that Hadoop's
 * {@code CBZip2InputStream} finds in BYBLOCK mode when it scans for a block magic
 * ({@code skipToNextMarker} sets {@code reportedBytesReadFromCompressedStream} to "the byte
 * containing the starting bit of the marker", and {@code BZip2CompressionInputStream} adds the split
 * start and the header bytes it stripped or skipped, so it is a file offset too). Reading the same
 * file from the same start with Hadoop 3.5.0's {@code BZip2CompressionInputStream} to its end, with
 * the k-th block decoded at position p(k) and its first byte at decompressed offset d(k):
 *
 * <ul>
 *   <li>it returns the same bytes, and no {@code read} returns bytes of two blocks (between blocks
 *       the inner stream returns {@code END_OF_BLOCK}, -2, which the outer one turns into a read of
 *       exactly one byte, the next block's first);
 *   <li>{@code getPos()} is p(k) + 1 from the read that returns byte d(k) (that one byte) until the
 *       read that returns the next block's first byte ({@code updatePos(true)}: the marker's byte plus
 *       one, so that a split ending right after a marker still reads the line that crosses it);
 *   <li>except for the first block: when start is 0, {@code getPos()} is 0 until the second block
 *       (nothing is advertised for the first); when start is not 0, it is p(1) once the stream is
 *       made and p(1) + 1 from the first read (Hadoop 3.5.0's first read in BYBLOCK mode is an
 *       "end of block" that advertises, {@code didInitialRead});
 *   <li>after the last block's last byte, the read that returns -1 makes {@code getPos()} the offset
 *       just past the last byte it read, plus one: the file's length + 1 when the file was read to
 *       its end.
 * </ul>
 *
 * So {@code LineRecordReader}'s test {@code getPos() <= end} over a split [start, end) (and
 * {@code CompressedSplitLineReader}'s {@code getPos() > getAdjustedEnd()}, the end being the split's)
 * is, while it reads block k's bytes (k > 1, or start > 0), {@code p(k) < end}; and while it reads
 * block 1 of a split at 0, true. Those readers decide from {@code getPos()} alone, and from reads
 * never spanning blocks, so the positions and offsets are all a caller needs to cut the same records:
 * it feeds the split's bytes and whatever follows until a block with p(k) >= end has started and it
 * has the records it reads past the end (or the file ends), and then may {@link #stop()}.
 * {@link #compressedBytes()} and {@link #bitPosition()} say how far the decoder has got.
 *
 * <h2>Resuming, memory</h2>
 *
 * Every state waits for whole things (a header, a block's 57 header bits, 16 bits of the map, a
 * selector, a code-length step, a Huffman symbol) and consumes nothing until all of their bits are in
 * the bit buffer, a {@code long} that holds up to 64 bits, the next bit highest (bzip2 packs bits most
 * significant first). Inside a block the decoder waits for 20 bits before a symbol, 7 before a
 * selector: a valid block is always followed by at least 80 bits (a magic and a CRC), so it never
 * waits for bits that a valid stream lacks. When a feed runs out, what was read of the unfinished
 * thing stays in the bit buffer; the input array is never kept. A block is output, through the
 * 32 KiB output buffer and in pieces of at most 32 KiB, as soon as its end-of-block symbol is read,
 * all of it before the feed returns; its CRC is checked after its bytes are out (so a corrupt block's
 * bytes are output before its error, as Hadoop's reader returns them).
 *
 * <p>The block array takes 4 bytes per byte of the largest block the level allows (3.6 MB at level
 * 9), allocated by the constructor with everything else (tables of 6 × 1024 entries, the selectors,
 * the output buffer). Nothing is allocated after the constructor but exceptions.
 *
 * <p>{@link #reset()} makes the same instance, with its arrays, read a new and independent input from
 * its start (in split mode, from the same start); it forgets the input so far, the counters, and a
 * failure, a {@link #finish()} or a {@link #stop()}; it allocates nothing.
 *
 * <p>Errors are {@link ZipException}s, "bzip2: stream N block M at compressed bit X (byte Y): what"
 * ("stream N after block M" between blocks, "stream N" in its header or at its end, "after stream N"
 * for what follows it), naming the stream (counted from 1 where the decoder started), the block in it
 * (in split mode the first stream's blocks are counted from the first one found), and the bit (the
 * file's, from its first bit) of the thing that was wrong (for a CRC mismatch, the block's magic);
 * after one, every call throws again until {@link #reset()}.
 */
public final class Bzip2Decoder {

  /** Receives decompressed bytes, in order. The array is the decoder's: valid only during the call. */
  public interface Output {
    void write(byte[] bytes, int offset, int length) throws IOException;

    /**
     * A block starts: its magic's first bit is in the file's byte {@code position}; the next bytes
     * written are its. Hadoop's BYBLOCK {@code getPos()} is {@code position + 1} from this block's
     * first byte on (see the class comment for the exceptions of the first block).
     */
    default void block(long position) throws IOException {
    }
  }

  /** The largest block size level, 9: blocks of up to 900 000 bytes. */
  public static final int MAX_LEVEL = 9;
  private static final int LEVEL_BYTES = 100_000;

  // States: what the decoder waits for next.
  /** Split mode at a start of 1 to 4: the bytes before byte 5, skipped as Hadoop skips them. */
  private static final int SKIP = 0;
  /** Split mode: bits up to and including the first block magic. */
  private static final int SCAN = 1;
  /** The 'B' of a stream's header, or the end of the input. */
  private static final int STREAM = 2;
  /** The rest of the header: "Zh" and the level digit. */
  private static final int STREAM_HEADER = 3;
  /** A block's magic or the end-of-stream marker: 48 bits. */
  private static final int MAGIC = 4;
  /** The block's CRC, randomised bit and origPtr: 57 bits. */
  private static final int BLOCK_HEADER = 5;
  /** The map's first 16 bits: which ranges of 16 byte values are used. */
  private static final int MAP_RANGES = 6;
  /** 16 bits for each range used. */
  private static final int MAP = 7;
  /** The number of Huffman tables (3 bits) and of selectors (15 bits). */
  private static final int TABLE_COUNTS = 8;
  /** The selectors, each a unary move-to-front index. */
  private static final int SELECTORS = 9;
  /** Each table's code lengths: a 5-bit start, then deltas. */
  private static final int LENGTHS = 10;
  /** Huffman symbols up to the end of the block. */
  private static final int SYMBOLS = 11;
  /** The stream's combined CRC, after the end-of-stream marker. */
  private static final int STREAM_CRC = 12;

  private static final long BLOCK_MAGIC = 0x314159265359L;
  private static final long END_MAGIC = 0x177245385090L;
  private static final long MAGIC_MASK = (1L << 48) - 1;

  private static final int MAX_GROUPS = 6;
  private static final int MIN_GROUPS = 2;
  private static final int GROUP_SIZE = 50;
  private static final int MAX_ALPHA = 258;
  private static final int MAX_CODE = 20;
  private static final int MAX_SELECTORS = 18_002;
  /** The primary decoding table's index bits; longer codes are found from their lengths' limits. */
  private static final int ROOT = 10;
  /** The move-to-front list: 16 segments of 16 that slide down an array of this size. */
  private static final int MTF_SIZE = 4096;
  private static final int PIECE = 1 << 15;

  /** bzip2's CRC-32: polynomial 0x04C11DB7, most significant bit first. */
  private static final int[] CRC_TABLE = new int[256];

  /** The randomisation table of bzip2 (its randtable.c): the gaps between the bytes XORed with 1. */
  private static final int[] RANDOM = {
      619, 720, 127, 481, 931, 816, 813, 233, 566, 247, 985, 724, 205, 454, 863, 491,
      741, 242, 949, 214, 733, 859, 335, 708, 621, 574, 73, 654, 730, 472, 419, 436,
      278, 496, 867, 210, 399, 680, 480, 51, 878, 465, 811, 169, 869, 675, 611, 697,
      867, 561, 862, 687, 507, 283, 482, 129, 807, 591, 733, 623, 150, 238, 59, 379,
      684, 877, 625, 169, 643, 105, 170, 607, 520, 932, 727, 476, 693, 425, 174, 647,
      73, 122, 335, 530, 442, 853, 695, 249, 445, 515, 909, 545, 703, 919, 874, 474,
      882, 500, 594, 612, 641, 801, 220, 162, 819, 984, 589, 513, 495, 799, 161, 604,
      958, 533, 221, 400, 386, 867, 600, 782, 382, 596, 414, 171, 516, 375, 682, 485,
      911, 276, 98, 553, 163, 354, 666, 933, 424, 341, 533, 870, 227, 730, 475, 186,
      263, 647, 537, 686, 600, 224, 469, 68, 770, 919, 190, 373, 294, 822, 808, 206,
      184, 943, 795, 384, 383, 461, 404, 758, 839, 887, 715, 67, 618, 276, 204, 918,
      873, 777, 604, 560, 951, 160, 578, 722, 79, 804, 96, 409, 713, 940, 652, 934,
      970, 447, 318, 353, 859, 672, 112, 785, 645, 863, 803, 350, 139, 93, 354, 99,
      820, 908, 609, 772, 154, 274, 580, 184, 79, 626, 630, 742, 653, 282, 762, 623,
      680, 81, 927, 626, 789, 125, 411, 521, 938, 300, 821, 78, 343, 175, 128, 250,
      170, 774, 972, 275, 999, 639, 495, 78, 352, 126, 857, 956, 358, 619, 580, 124,
      737, 594, 701, 612, 669, 112, 134, 694, 363, 992, 809, 743, 168, 974, 944, 375,
      748, 52, 600, 747, 642, 182, 862, 81, 344, 805, 988, 739, 511, 655, 814, 334,
      249, 515, 897, 955, 664, 981, 649, 113, 974, 459, 893, 228, 433, 837, 553, 268,
      926, 240, 102, 654, 459, 51, 686, 754, 806, 760, 493, 403, 415, 394, 687, 700,
      946, 670, 656, 610, 738, 392, 760, 799, 887, 653, 978, 321, 576, 617, 626, 502,
      894, 679, 243, 440, 680, 879, 194, 572, 640, 724, 926, 56, 204, 700, 707, 151,
      457, 449, 797, 195, 791, 558, 945, 679, 297, 59, 87, 824, 713, 663, 412, 693,
      342, 606, 134, 108, 571, 364, 631, 212, 174, 643, 304, 329, 343, 97, 430, 751,
      497, 314, 983, 374, 822, 928, 140, 206, 73, 263, 980, 736, 876, 478, 430, 305,
      170, 514, 364, 692, 829, 82, 855, 953, 676, 246, 369, 970, 294, 750, 807, 827,
      150, 790, 288, 923, 804, 378, 215, 828, 592, 281, 565, 555, 710, 82, 896, 831,
      547, 261, 524, 462, 293, 465, 502, 56, 661, 821, 976, 991, 658, 869, 905, 758,
      745, 193, 768, 550, 608, 933, 378, 286, 215, 979, 792, 961, 61, 688, 793, 644,
      986, 403, 106, 366, 905, 644, 372, 567, 466, 434, 645, 210, 389, 550, 919, 135,
      780, 773, 635, 389, 707, 100, 626, 958, 165, 504, 920, 176, 193, 713, 857, 265,
      203, 50, 668, 108, 645, 990, 626, 197, 510, 357, 358, 850, 858, 364, 936, 638};

  static {
    for (int i = 0; i < 256; i++) {
      int c = i << 24;
      for (int k = 0; k < 8; k++) {
        c = (c & 0x80000000) != 0 ? c << 1 ^ 0x04C11DB7 : c << 1;
      }
      CRC_TABLE[i] = c;
    }
  }

  private final Output output;
  /** Split mode (Hadoop's BYBLOCK reading from a byte of the file) rather than whole streams. */
  private final boolean split;
  /** The file offset of the first byte fed (0 but in split mode). */
  private final long start;
  /** The largest level whose blocks fit the block array. */
  private final int maxLevel;
  /** The block: each symbol's byte in bits 0-7, and after the transform's setup the next index in bits 8-31. */
  private final int[] tt;
  private final byte[] buf = new byte[PIECE];
  /** The used byte values, in order: the map from move-to-front positions to bytes. */
  private final byte[] seqToUnseq = new byte[256];
  private final byte[] mtf = new byte[MTF_SIZE];
  private final int[] mtfBase = new int[16];
  /** How many of each byte value the block has; then where each value's run of the sorted block starts. */
  private final int[] byteCounts = new int[256];
  private final byte[] selectors = new byte[MAX_SELECTORS];
  private final byte[] selectorMtf = new byte[MAX_GROUPS];
  private final byte[] lengths = new byte[MAX_GROUPS * MAX_ALPHA];
  /**
   * Per table, 2^ROOT entries indexed by the next ROOT bits: (symbol << 5 | length) for a code of at
   * most ROOT bits, 0 where the code is longer (or there is none).
   */
  private final int[] table = new int[MAX_GROUPS << ROOT];
  /** Per table and length: the first code that is longer than the length (canonical codes). */
  private final int[] limit = new int[MAX_GROUPS * (MAX_CODE + 1)];
  /** Per table and length: what turns a code of that length into its index in {@link #perm}. */
  private final int[] offset = new int[MAX_GROUPS * (MAX_CODE + 1)];
  /** Per table: the symbols in the order of their codes. */
  private final int[] perm = new int[MAX_GROUPS * MAX_ALPHA];
  private final int[] lengthCounts = new int[MAX_CODE + 1];
  private final int[] nextIndex = new int[MAX_CODE + 1];

  private int state;
  /** SKIP: bytes left to skip. */
  private int skip;
  /** SCAN: the last 48 bits seen, and how many bits have been seen (up to 48). */
  private long window;
  private int windowBits;
  /** The stream being read, counted from 1, and the blocks started in it. */
  private int stream;
  private int blocks;
  /** Blocks output in all, and streams ended. */
  private long allBlocks;
  private int streamsEnded;
  /** The decompressed offset of the current block's first byte. */
  private long blockStart;
  /** The stream was entered at a block found by the scan, so its combined CRC cannot be checked. */
  private boolean partial;
  /** The largest number of bytes a block of the stream may have before its final run-length decoding. */
  private int blockLimit;
  /** Where the current block's magic (or the end-of-stream marker) starts: the file's bit. */
  private long magicBit;
  private int storedCrc;
  private boolean randomised;
  private int origPtr;
  private int usedRanges;
  private int range;
  private int inUse;
  private int alphaSize;
  private int groups;
  private int selectorCount;
  /** SELECTORS: the next selector to read; LENGTHS: the table; SYMBOLS: the selector in use. */
  private int index;
  /** LENGTHS: the next symbol whose length is read, or -1 before the table's 5-bit start; the length. */
  private int symbol;
  private int length;
  /** SYMBOLS: the bytes decoded so far, the symbols left for this selector, the table in use. */
  private int n;
  private int groupLeft;
  private int group;
  /** A run (RUNA and RUNB symbols) being read: its length so far and the next digit's weight's shift. */
  private int runLength;
  private int runShift;
  private int blockCrc;
  private int combinedCrc;

  /** The current feed's input; input[in, end) is unread. {@code base + i} is input[i]'s offset in what was fed. */
  private byte[] input;
  private int in;
  private int end;
  private long base;
  /** Unconsumed input bits, the next one highest of the lowest {@code count} bits (at most 64). */
  private long bits;
  private int count;

  /** buf[0, pos) is decompressed but not output. */
  private int pos;
  private long written;
  private long compressed;
  private String failure;
  private boolean finished;

  /** A decoder of whole bzip2 streams of any level (it allocates for level 9). */
  public Bzip2Decoder(Output output) {
    this(output, MAX_LEVEL);
  }

  /**
   * A decoder of whole bzip2 streams of at most {@code maxLevel} (1 to 9): a stream whose header
   * declares a larger level is an error. It allocates 400 000 × maxLevel bytes for the block.
   */
  public Bzip2Decoder(Output output, int maxLevel) {
    this(output, false, 0, maxLevel);
  }

  /**
   * A decoder of the file from its byte {@code start} on, as Hadoop reads a split, for blocks of at
   * most level 9 (see the class comment).
   */
  public static Bzip2Decoder split(Output output, long start) {
    return split(output, start, MAX_LEVEL);
  }

  /**
   * A decoder of the file from its byte {@code start} on, as Hadoop reads a split (see the class
   * comment). {@code maxLevel} is the level of the stream it starts in (the file's header says it),
   * and the largest it takes for later ones.
   */
  public static Bzip2Decoder split(Output output, long start, int maxLevel) {
    if (start < 0) {
      throw new IllegalArgumentException("bzip2: split start " + start + " < 0");
    }
    return new Bzip2Decoder(output, true, start, maxLevel);
  }

  private Bzip2Decoder(Output output, boolean split, long start, int maxLevel) {
    if (maxLevel < 1 || maxLevel > MAX_LEVEL) {
      throw new IllegalArgumentException("bzip2: block size level " + maxLevel + " is not 1 to 9");
    }
    this.output = Objects.requireNonNull(output, "output");
    this.split = split;
    this.start = start;
    this.maxLevel = maxLevel;
    this.tt = new int[maxLevel * LEVEL_BYTES];
    reset();
  }

  /** The compressed bytes fed since the start or the last {@link #reset()}. */
  public long compressedBytes() {
    return compressed;
  }

  /** The decompressed bytes output since the start or the last {@link #reset()}. */
  public long decompressedBytes() {
    return written;
  }

  /**
   * The file's bit (from its first bit, {@code start * 8} being the first bit fed) that the decoder
   * reads next: bits before it are consumed, bits after it fed but not yet read are in the bit
   * buffer. Its byte is {@code bitPosition() >>> 3}, its bit in that byte (from the most significant)
   * {@code bitPosition() & 7}. Asked from the output during a feed, it is the bit after the
   * end-of-block symbol of the block being output.
   */
  public long bitPosition() {
    return (start + base + in) * 8 - count;
  }

  /**
   * The file's bit where the magic of the block last started (the one being output, during {@link
   * Output#block(long)} and its bytes), or -1 before the first.
   */
  public long blockBitPosition() {
    return allBlocks == 0 ? -1 : magicBit;
  }

  /** The blocks output (begun) since the start or the last {@link #reset()}. */
  long blocks() {
    return allBlocks;
  }

  /** The streams whose end-of-stream marker and CRC have been read. */
  int streams() {
    return streamsEnded;
  }

  /**
   * Forgets everything about the input so far, so that the next feed is the start of a new and
   * independent one (from the same start in split mode): the state, the bit buffer, the CRCs, the
   * counters, a failure, a finish() or a stop(). Bytes decompressed but not yet output (only after a
   * failure) are dropped. Allocates nothing. Not to be called from the output during a feed.
   */
  public void reset() {
    if (input != null) {
      throw new IllegalStateException("bzip2: reset() during a feed");
    }
    if (!split || start == 0) {
      state = STREAM;
      stream = 0;
      partial = false;
      blockLimit = 0;
    } else {
      state = start <= 4 ? SKIP : SCAN;
      skip = start <= 4 ? (int) (5 - start) : 0;
      stream = 1;
      partial = true;
      blockLimit = maxLevel * LEVEL_BYTES;
    }
    window = 0;
    windowBits = 0;
    blocks = 0;
    allBlocks = 0;
    streamsEnded = 0;
    blockStart = 0;
    magicBit = 0;
    storedCrc = 0;
    randomised = false;
    origPtr = 0;
    usedRanges = 0;
    range = 0;
    inUse = 0;
    alphaSize = 0;
    groups = 0;
    selectorCount = 0;
    index = 0;
    symbol = 0;
    length = 0;
    n = 0;
    groupLeft = 0;
    group = 0;
    runLength = 0;
    runShift = 0;
    blockCrc = 0;
    combinedCrc = 0;
    in = 0;
    end = 0;
    base = 0;
    bits = 0;
    count = 0;
    pos = 0;
    written = 0;
    compressed = 0;
    failure = null;
    finished = false;
  }

  /**
   * Decompresses as much of these compressed bytes as it can, keeping any state (a header or a block
   * half-read, bits) for the next call; every block whose end is in them is output before it returns.
   * Never retains {@code input}.
   */
  public void feed(byte[] input, int offset, int length) throws IOException {
    Objects.checkFromIndexSize(offset, length, input.length);
    usable();
    if (finished) {
      throw new IllegalStateException("bzip2: fed after finish() or stop()");
    }
    this.input = input;
    this.in = offset;
    this.end = offset + length;
    this.base = compressed - offset;
    try {
      while (step()) {
        // each step reads one thing; false: it needs more input
      }
    } catch (IOException | RuntimeException | Error e) {
      if (failure == null) {
        failure = "bzip2: failed: " + e;
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
   * The input has ended. Throws if it ended inside a stream (a header, a block, before the
   * end-of-stream marker or inside the CRC after it). In split mode it is fine too if it ended before
   * any block magic was found. After it, only {@link #reset()} makes the decoder take input again.
   */
  public void finish() throws IOException {
    usable();
    if (state != STREAM && state != SKIP && state != SCAN) {
      String what;
      if (state == STREAM_HEADER) {
        what = "inside its header";
      } else if (state == MAGIC) {
        what = blocks == 0 ? "before its first block or its end-of-stream marker"
            : "after block " + blocks + ", before another block or the end-of-stream marker";
      } else if (state == STREAM_CRC) {
        what = "inside the combined CRC after its end-of-stream marker";
      } else {
        what = "inside block " + blocks;
      }
      throw error("truncated input: the input ended " + what, bitPosition());
    }
    finished = true;
  }

  /**
   * The caller stops feeding, wherever the decoder is (a split read as far as the caller needs):
   * no check that the input ended at a stream's end. After it, only {@link #reset()} makes the
   * decoder take input again. Throws only if the decoder had failed.
   */
  public void stop() throws IOException {
    usable();
    finished = true;
  }

  private void usable() throws IOException {
    if (failure != null) {
      throw new ZipException(failure + " (failed earlier)");
    }
  }

  /** Where the decoder is, for messages: the stream, and the block in it if there is one. */
  private String where() {
    if (state == MAGIC) {
      return blocks == 0 ? "stream " + stream : "stream " + stream + " after block " + blocks;
    }
    if (state >= BLOCK_HEADER && state <= SYMBOLS) {
      return "stream " + stream + " block " + blocks;
    }
    return "stream " + Math.max(stream, 1);
  }

  private ZipException error(String what, long bit) {
    return error(where(), what, bit);
  }

  private ZipException error(String where, String what, long bit) {
    failure = "bzip2: " + where + " at compressed bit " + bit + " (byte " + (bit >>> 3) + "): " + what;
    return new ZipException(failure);
  }

  /** The file's bit of the next unread bit when the feed's unread input starts at {@code in}. */
  private long bitAt(int in, int count) {
    return (start + base + in) * 8 - count;
  }

  /** Reads one thing; false when the input ran out first (then all of it is in the bit buffer). */
  private boolean step() throws IOException {
    switch (state) {
      case SKIP: {
        int skipped = Math.min(skip, end - in);
        in += skipped;
        skip -= skipped;
        if (skip > 0) {
          return false;
        }
        state = SCAN;
        return true;
      }
      case SCAN:
        return scan();
      case STREAM: {
        if (!need(8)) {
          return false;
        }
        long at = bitPosition();
        int b = (int) peek(8);
        if (b != 'B') {
          throw stream == 0
              ? error("stream 1", String.format("bad header: first byte 0x%02x, not 'B' of \"BZh\"", b), at)
              : error("after stream " + stream,
                  String.format("trailing garbage: byte 0x%02x does not start a bzip2 stream", b), at);
        }
        drop(8);
        stream++;
        state = STREAM_HEADER;
        return true;
      }
      case STREAM_HEADER: {
        if (!need(24)) {
          return false;
        }
        long at = bitPosition() - 8;
        int header = (int) peek(24);
        drop(24);
        int level = (header & 0xFF) - '0';
        if ((header >>> 8) != ('Z' << 8 | 'h')) {
          throw error(String.format("bad header 0x42%06x: not \"BZh\" and a level", header), at);
        }
        if (level < 1 || level > 9) {
          throw error(String.format("bad header: block size level byte 0x%02x is not '1' to '9'", header & 0xFF), at);
        }
        if (level > maxLevel) {
          throw error("block size level " + level + " in the header: the decoder was made for at most level "
              + maxLevel, at);
        }
        blockLimit = level * LEVEL_BYTES;
        blocks = 0;
        partial = false;
        combinedCrc = 0;
        state = MAGIC;
        return true;
      }
      case MAGIC: {
        if (!need(48)) {
          return false;
        }
        long at = bitPosition();
        long magic = peek(48);
        if (magic == BLOCK_MAGIC) {
          drop(48);
          startBlock(at);
        } else if (magic == END_MAGIC) {
          drop(48);
          magicBit = at;
          state = STREAM_CRC;
        } else {
          throw error(String.format("bad magic 0x%012x where block %d (magic 0x%012x) or the end-of-stream marker"
              + " (0x%012x) should start", magic, blocks + 1, BLOCK_MAGIC, END_MAGIC), at);
        }
        return true;
      }
      case BLOCK_HEADER: {
        if (!need(57)) {
          return false;
        }
        long fields = peek(57);
        drop(57);
        storedCrc = (int) (fields >>> 25);
        randomised = ((fields >>> 24) & 1) != 0;
        origPtr = (int) fields & 0xFFFFFF;
        state = MAP_RANGES;
        return true;
      }
      case MAP_RANGES:
        if (!need(16)) {
          return false;
        }
        usedRanges = (int) peek(16);
        drop(16);
        range = 0;
        inUse = 0;
        state = MAP;
        return true;
      case MAP:
        return map();
      case TABLE_COUNTS: {
        if (!need(18)) {
          return false;
        }
        long at = bitPosition();
        int fields = (int) peek(18);
        drop(18);
        groups = fields >>> 15;
        selectorCount = fields & 0x7FFF;
        if (groups < MIN_GROUPS || groups > MAX_GROUPS) {
          throw error(groups + " Huffman tables: not 2 to 6", at);
        }
        if (selectorCount == 0) {
          throw error("no selectors", at + 3);
        }
        for (int i = 0; i < MAX_GROUPS; i++) {
          selectorMtf[i] = (byte) i;
        }
        index = 0;
        state = SELECTORS;
        return true;
      }
      case SELECTORS:
        return selectors();
      case LENGTHS:
        return lengths();
      case SYMBOLS:
        if (!symbols()) {
          return false;
        }
        endBlock();
        return true;
      case STREAM_CRC: {
        if (!need(32)) {
          return false;
        }
        long at = bitPosition();
        int stored = (int) peek(32);
        drop(32);
        if (!partial && stored != combinedCrc) {
          throw error(String.format("combined CRC mismatch at the end of the stream: stored 0x%08x, computed 0x%08x"
              + " from its %d blocks", stored, combinedCrc, blocks), at);
        }
        drop(count & 7);
        streamsEnded++;
        state = STREAM;
        return true;
      }
      default:
        throw new IllegalStateException("bzip2: state " + state);
    }
  }

  /** Split mode: slides a 48-bit window over the input, one bit at a time, up to a block magic. */
  private boolean scan() throws IOException {
    final byte[] input = this.input;
    final int end = this.end;
    long bits = this.bits;
    int count = this.count;
    int in = this.in;
    long w = window;
    int seen = windowBits;
    try {
      while (true) {
        if (count == 0) {
          if (in == end) {
            return false;
          }
          bits = input[in++] & 0xFF;
          count = 8;
        }
        count--;
        w = (w << 1 | (bits >>> count) & 1) & MAGIC_MASK;
        if (seen < 48) {
          seen++;
        }
        if (seen == 48 && w == BLOCK_MAGIC) {
          this.in = in;
          this.count = count;
          startBlock(bitAt(in, count) - 48);
          return true;
        }
      }
    } finally {
      this.bits = bits;
      this.count = count;
      this.in = in;
      this.window = w;
      this.windowBits = seen;
    }
  }

  private void startBlock(long at) {
    magicBit = at;
    blocks++;
    state = BLOCK_HEADER;
  }

  private boolean map() throws IOException {
    for (; range < 16; range++) {
      if ((usedRanges & (0x8000 >>> range)) == 0) {
        continue;
      }
      if (!need(16)) {
        return false;
      }
      int used = (int) peek(16);
      drop(16);
      for (int j = 0; j < 16; j++) {
        if ((used & (0x8000 >>> j)) != 0) {
          seqToUnseq[inUse++] = (byte) (range << 4 | j);
        }
      }
    }
    if (inUse == 0) {
      throw error("no byte values in use in the block's map", bitPosition());
    }
    alphaSize = inUse + 2;
    state = TABLE_COUNTS;
    return true;
  }

  private boolean selectors() throws IOException {
    while (index < selectorCount) {
      if (!need(7)) {
        return false;
      }
      int seven = (int) peek(7);
      int j = 0;
      while (j < 7 && (seven & (0x40 >>> j)) != 0) {
        j++;
      }
      if (j >= groups) {
        throw error("selector " + (index + 1) + " of " + selectorCount + " is move-to-front index " + j
            + " (unary) of only " + groups + " tables", bitPosition());
      }
      drop(j + 1);
      byte g = selectorMtf[j];
      for (; j > 0; j--) {
        selectorMtf[j] = selectorMtf[j - 1];
      }
      selectorMtf[0] = g;
      if (index < MAX_SELECTORS) {
        selectors[index] = g;
      }
      index++;
    }
    index = 0;
    symbol = -1;
    state = LENGTHS;
    return true;
  }

  /** Each table's code lengths: a 5-bit start, then for each symbol "1x" steps (x: 0 up, 1 down) and a 0. */
  private boolean lengths() throws IOException {
    while (index < groups) {
      if (symbol < 0) {
        if (!need(5)) {
          return false;
        }
        long at = bitPosition();
        length = (int) peek(5);
        drop(5);
        checkLength(at);
        symbol = 0;
      }
      int lengthsAt = index * MAX_ALPHA;
      while (symbol < alphaSize) {
        if (!need(2)) {
          return false;
        }
        int two = (int) peek(2);
        if (two < 2) {
          drop(1);
          lengths[lengthsAt + symbol++] = (byte) length;
        } else {
          long bit = bitPosition();
          drop(2);
          length += two == 2 ? 1 : -1;
          checkLength(bit);
        }
      }
      index++;
      symbol = -1;
    }
    for (int g = 0; g < groups; g++) {
      buildTable(g);
    }
    for (int i = 0; i < 256; i++) {
      byteCounts[i] = 0;
    }
    int k = MTF_SIZE;
    for (int segment = 15; segment >= 0; segment--) {
      for (int j = 15; j >= 0; j--) {
        mtf[--k] = seqToUnseq[segment << 4 | j];
      }
      mtfBase[segment] = k;
    }
    n = 0;
    index = -1;
    groupLeft = 0;
    runLength = 0;
    runShift = 0;
    state = SYMBOLS;
    return true;
  }

  private void checkLength(long at) throws ZipException {
    if (length < 1 || length > MAX_CODE) {
      throw error("code length " + length + " (not 1 to 20) for symbol " + Math.max(symbol, 0) + " of Huffman table "
          + (index + 1), at);
    }
  }

  /**
   * Table g's canonical code, as bzip2 assigns it: codes in order of length, and of symbol within a
   * length. Fills the primary table, the limits and offsets of each length, and the symbols in code
   * order; an over-subscribed code is an error.
   */
  private void buildTable(int g) throws ZipException {
    int lengthsAt = g * MAX_ALPHA;
    int lengthAt = g * (MAX_CODE + 1);
    for (int len = 0; len <= MAX_CODE; len++) {
      lengthCounts[len] = 0;
    }
    for (int s = 0; s < alphaSize; s++) {
      lengthCounts[lengths[lengthsAt + s]]++;
    }
    int code = 0;
    int next = 0;
    for (int len = 1; len <= MAX_CODE; len++) {
      int c = lengthCounts[len];
      if (code + c > 1 << len) {
        throw error("over-subscribed Huffman code in table " + (g + 1) + " of " + groups
            + " (its code lengths are more than a binary tree holds)", bitPosition());
      }
      limit[lengthAt + len] = code + c;
      offset[lengthAt + len] = next - code;
      nextIndex[len] = next;
      next += c;
      code = (code + c) << 1;
    }
    for (int s = 0; s < alphaSize; s++) {
      perm[lengthsAt + nextIndex[lengths[lengthsAt + s]]++] = s;
    }
    int tableAt = g << ROOT;
    for (int i = 0; i < 1 << ROOT; i++) {
      table[tableAt + i] = 0;
    }
    for (int len = 1, k = 0; len <= ROOT; len++) {
      for (int stop = k + lengthCounts[len]; k < stop; k++) {
        int first = (k - offset[lengthAt + len]) << (ROOT - len);
        int entry = perm[lengthsAt + k] << 5 | len;
        for (int i = first, last = first + (1 << (ROOT - len)); i < last; i++) {
          table[tableAt + i] = entry;
        }
      }
    }
  }

  /**
   * Decodes Huffman symbols into the block until its end-of-block symbol (true) or until fewer than 20
   * bits are left and the input is spent (false): RUNA and RUNB digits of a run of the byte at the
   * front of the move-to-front list, or a move-to-front index + 1.
   */
  private boolean symbols() throws IOException {
    final byte[] input = this.input;
    final int end = this.end;
    final int[] table = this.table;
    final int[] limit = this.limit;
    final int[] offset = this.offset;
    final int[] perm = this.perm;
    final int[] tt = this.tt;
    final int[] byteCounts = this.byteCounts;
    final byte[] mtf = this.mtf;
    final int[] mtfBase = this.mtfBase;
    final int endOfBlock = inUse + 1;
    final int blockLimit = this.blockLimit;
    final int kept = Math.min(selectorCount, MAX_SELECTORS);
    long bits = this.bits;
    int count = this.count;
    int in = this.in;
    int n = this.n;
    int groupLeft = this.groupLeft;
    int index = this.index;
    int group = this.group;
    int runLength = this.runLength;
    int runShift = this.runShift;
    try {
      while (true) {
        if (count < MAX_CODE) {
          while (count <= 56 && in < end) {
            bits = bits << 8 | (input[in++] & 0xFFL);
            count += 8;
          }
          if (count < MAX_CODE) {
            return false;
          }
        }
        if (groupLeft == 0) {
          if (++index >= kept) {
            index--;
            throw error("more symbols than its " + selectorCount + " selectors cover", bitAt(in, count));
          }
          group = selectors[index];
          groupLeft = GROUP_SIZE;
        }
        int e = table[group << ROOT | (int) (bits >>> (count - ROOT)) & ((1 << ROOT) - 1)];
        int len = e & 31;
        int sym;
        if (len != 0) {
          sym = e >>> 5;
        } else {
          int v = (int) (bits >>> (count - MAX_CODE)) & ((1 << MAX_CODE) - 1);
          int lengthAt = group * (MAX_CODE + 1);
          len = ROOT + 1;
          int c = v >>> (MAX_CODE - len);
          while (c >= limit[lengthAt + len]) {
            if (++len > MAX_CODE) {
              throw error("bits that are no code of Huffman table " + (group + 1), bitAt(in, count));
            }
            c = v >>> (MAX_CODE - len);
          }
          sym = perm[group * MAX_ALPHA + c + offset[lengthAt + len]];
        }
        if (sym < 2) { // RUNA (1) or RUNB (2) times the digit's weight
          runLength += (sym + 1) << runShift;
          runShift++;
          if (runLength > blockLimit - n) {
            throw error("a run that makes the block longer than the " + blockLimit + " bytes its level allows",
                bitAt(in, count));
          }
          count -= len;
          groupLeft--;
          continue;
        }
        if (runShift > 0) {
          int b = mtf[mtfBase[0]] & 0xFF;
          byteCounts[b] += runLength;
          for (int stop = n + runLength; n < stop; n++) {
            tt[n] = b;
          }
          runLength = 0;
          runShift = 0;
        }
        if (sym == endOfBlock) {
          count -= len;
          groupLeft--;
          return true;
        }
        if (n >= blockLimit) {
          throw error("more bytes than the " + blockLimit + " its level allows", bitAt(in, count));
        }
        count -= len;
        groupLeft--;
        int b = moveToFront(sym - 1);
        byteCounts[b]++;
        tt[n++] = b;
      }
    } finally {
      this.bits = bits;
      this.count = count;
      this.in = in;
      this.n = n;
      this.groupLeft = groupLeft;
      this.index = index;
      this.group = group;
      this.runLength = runLength;
      this.runShift = runShift;
    }
  }

  /**
   * Moves the byte at position i of the move-to-front list to its front and returns it. The list is
   * 16 segments of 16 whose starts slide down the array (bzip2's own decoder's arrangement): a byte
   * in segment s moves up within its segment, and each segment before it passes its last byte to the
   * next, so a move costs at most 16 + 16 steps; when the first segment reaches the array's start,
   * the segments are packed again at its end.
   */
  private int moveToFront(int i) {
    final byte[] mtf = this.mtf;
    final int[] mtfBase = this.mtfBase;
    if (i < 16) {
      int p = mtfBase[0];
      byte b = mtf[p + i];
      for (int q = p + i; q > p; q--) {
        mtf[q] = mtf[q - 1];
      }
      mtf[p] = b;
      return b & 0xFF;
    }
    int segment = i >>> 4;
    int first = mtfBase[segment];
    int p = first + (i & 15);
    byte b = mtf[p];
    for (; p > first; p--) {
      mtf[p] = mtf[p - 1];
    }
    mtfBase[segment] = first + 1;
    for (; segment > 0; segment--) {
      int s = --mtfBase[segment];
      mtf[s] = mtf[mtfBase[segment - 1] + 15];
    }
    int front = --mtfBase[0];
    mtf[front] = b;
    if (front == 0) {
      int k = MTF_SIZE;
      for (int seg = 15; seg >= 0; seg--) {
        int from = mtfBase[seg];
        for (int j = 15; j >= 0; j--) {
          mtf[--k] = mtf[from + j];
        }
        mtfBase[seg] = k;
      }
    }
    return b & 0xFF;
  }

  /**
   * The block's symbols are in: threads the inverse transform through the block array, outputs the
   * block (undoing the randomisation and the initial run-length coding), checks its CRC.
   */
  private void endBlock() throws IOException {
    final int[] tt = this.tt;
    final int n = this.n;
    if (origPtr >= n) {
      throw error("origPtr " + origPtr + " is outside the block's " + n + " bytes", magicBit + 48 + 33);
    }
    int sum = 0;
    for (int b = 0; b < 256; b++) {
      int c = byteCounts[b];
      byteCounts[b] = sum;
      sum += c;
    }
    for (int i = 0; i < n; i++) {
      tt[byteCounts[tt[i] & 0xFF]++] |= i << 8;
    }
    allBlocks++;
    blockStart = written;
    output.block(magicBit >>> 3);
    blockCrc = -1;
    final byte[] buf = this.buf;
    final boolean randomised = this.randomised;
    int tPos = tt[origPtr] >>> 8;
    int left = n;
    int pos = 0;
    int previous = -1;
    int run = 0;
    int toGo = 0;
    int next = 0;
    while (left > 0) {
      if (pos > PIECE - 256) {
        this.pos = pos;
        flush();
        pos = 0;
      }
      int e = tt[tPos];
      tPos = e >>> 8;
      int b = e & 0xFF;
      left--;
      if (randomised) {
        if (toGo == 0) {
          toGo = RANDOM[next];
          next = (next + 1) & 511;
        }
        if (--toGo == 1) {
          b ^= 1;
        }
      }
      if (run == 4) { // four equal bytes, then how many more
        for (int stop = pos + b; pos < stop; pos++) {
          buf[pos] = (byte) previous;
        }
        run = 0;
        previous = -1;
      } else {
        buf[pos++] = (byte) b;
        if (b == previous) {
          run++;
        } else {
          previous = b;
          run = 1;
        }
      }
    }
    this.pos = pos;
    flush();
    if (run == 4) {
      throw error("the block ends with four equal bytes and not the count of more that must follow them", magicBit);
    }
    int computed = ~blockCrc;
    if (computed != storedCrc) {
      throw error(String.format("block CRC mismatch: stored 0x%08x, computed 0x%08x over its %d decompressed bytes",
          storedCrc, computed, written - blockStart), magicBit);
    }
    combinedCrc = (combinedCrc << 1 | combinedCrc >>> 31) ^ computed;
    state = MAGIC;
  }

  /** Outputs buf[0, pos), adding it to the block's CRC. */
  private void flush() throws IOException {
    final byte[] buf = this.buf;
    int crc = blockCrc;
    for (int i = 0; i < pos; i++) {
      crc = crc << 8 ^ CRC_TABLE[(crc >>> 24) ^ (buf[i] & 0xFF)];
    }
    blockCrc = crc;
    if (pos > 0) {
      output.write(buf, 0, pos);
      written += pos;
    }
    pos = 0;
  }

  // Bits of the input, most significant first.

  /** Moves input bytes into the bit buffer while it has room for a whole byte. */
  private void refill() {
    while (count <= 56 && in < end) {
      bits = bits << 8 | (input[in++] & 0xFFL);
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

  /** The next n bits (at most 63), the first one highest, without consuming them. */
  private long peek(int n) {
    return (bits >>> (count - n)) & ((1L << n) - 1);
  }

  private void drop(int n) {
    count -= n;
  }
}
