package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.IntSupplier;
import java.util.zip.ZipException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.SplitCompressionInputStream;
import org.apache.hadoop.io.compress.SplittableCompressionCodec.READ_MODE;
import org.apache.hadoop.io.compress.bzip2.CBZip2InputStream;
import org.apache.hadoop.io.compress.bzip2.CBZip2OutputStream;
import org.junit.jupiter.api.Test;

/**
 * The device's bzip2 decoder gives exactly what Hadoop's bzip2 compressor was given and what Hadoop's
 * reader gives back, however the compressed bytes are cut into feeds: every level, runs of every
 * length, many blocks, concatenated streams, randomised blocks; in split mode the same bytes as
 * Hadoop's BYBLOCK reader from the same start, with block positions that are Hadoop's getPos() minus
 * one; and an IOException naming the block (the stream) for whatever is corrupt or cut short. The
 * oracles are Hadoop 3.5.0's CBZip2OutputStream and BZip2Codec, and hand-made blocks.
 */
class Bzip2DecoderTest {
  private static final byte[] NOTHING = new byte[0];
  private final Random random = new Random(0x314159265359L);

  // ---- valid streams ----

  @Test
  void roundTripsThroughHadoopsCompressor() throws Exception {
    List<byte[]> inputs = List.of(NOTHING, new byte[] {42}, new byte[] {0},
        "hello, bzip2".getBytes(StandardCharsets.US_ASCII), text(random, 70_000), randomBytes(random, 70_000),
        logLines(random, 120_000));
    for (byte[] data : inputs) {
      byte[] bz = codecCompress(data);
      for (IntSupplier pieces : new IntSupplier[] {() -> bz.length, upTo(1 << 16), () -> 7}) {
        Sink sink = decode(bz, pieces);
        assertThat(sink.bytes()).as("%d bytes", data.length).isEqualTo(data);
        assertThat(sink.blocks.size()).as("blocks of %d bytes", data.length).isEqualTo(data.length == 0 ? 0 : 1);
      }
      assertThat(hadoopRead(bz)).as("Hadoop agrees").isEqualTo(data);
    }
    Bzip2Decoder decoder = new Bzip2Decoder(new Sink());
    byte[] empty = codecCompress(NOTHING);
    decoder.feed(empty, 0, empty.length);
    decoder.finish();
    assertThat(decoder.streams()).isEqualTo(1);
    assertThat(decoder.blocks()).isZero();
    assertThat(decoder.bitPosition()).isEqualTo(empty.length * 8L);
    assertThat(decoder.blockBitPosition()).isEqualTo(-1);
  }

  @Test
  void noInputIsNoOutput() throws Exception {
    Sink sink = new Sink();
    Bzip2Decoder decoder = new Bzip2Decoder(sink);
    decoder.finish();
    decoder.finish(); // again: still fine
    assertThat(sink.bytes.size()).isZero();
    decoder = new Bzip2Decoder(sink);
    decoder.feed(new byte[3], 1, 0);
    decoder.finish();
    assertThat(decoder.compressedBytes()).isZero();
    assertThat(decoder.decompressedBytes()).isZero();
    Bzip2Decoder done = decoder;
    assertThatThrownBy(() -> done.feed(new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new Bzip2Decoder(sink, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Bzip2Decoder(sink, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Bzip2Decoder.split(sink, -1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void runsOfEveryLengthTheFirstRunLengthCodingTreatsSpecially() throws Exception {
    // bzip2 writes four equal bytes then a count 0..255: 4, 5, 255 + 4, 256 + 4 are its edges.
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int[] lengths = {1, 2, 3, 4, 5, 6, 7, 8, 9, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263, 511, 512, 513, 518,
        519, 1000, 1023, 1024, 5000};
    for (int length : lengths) {
      for (int b : new int[] {'a', 0, 255}) {
        data.write(repeat(b, length), 0, length);
        data.write('|');
      }
    }
    for (int length : lengths) { // runs next to runs of another byte
      data.write(repeat('x', length), 0, length);
      data.write(repeat('y', length), 0, length);
    }
    byte[] bytes = data.toByteArray();
    for (int level : new int[] {1, 9}) {
      byte[] bz = compress(bytes, level);
      assertThat(decode(bz, upTo(5000)).bytes()).as("level %d", level).isEqualTo(bytes);
    }
    // A single run of one byte: 4, 5, 255, 256, 1000 of it, and one as long as several blocks.
    for (int length : new int[] {4, 5, 255, 256, 1000, 1_000_000}) {
      byte[] run = repeat('q', length);
      byte[] bz = compress(run, 1);
      assertThat(decode(bz, upTo(1 << 16)).bytes()).as("a run of %d", length).isEqualTo(run);
    }
    // Runs cut by the ends of blocks (level 1: blocks end every 100 000 bytes of run-length code).
    ByteArrayOutputStream runs = new ByteArrayOutputStream();
    while (runs.size() < 700_000) { // mostly short runs, which the run-length coding does not shorten much
      int length = 1 + random.nextInt(random.nextInt(200) == 0 ? 1000 : 7);
      runs.write(repeat(random.nextInt(256), length), 0, length);
    }
    byte[] many = runs.toByteArray();
    byte[] bz = compress(many, 1);
    Sink sink = decode(bz, upTo(1 << 16));
    assertThat(sink.bytes()).isEqualTo(many);
    assertThat(sink.blocks.size()).as("blocks").isGreaterThanOrEqualTo(4);
    assertThat(hadoopRead(bz)).isEqualTo(many);
  }

  @Test
  void everyLevelAndItsBlocks() throws Exception {
    byte[] data = concat(text(random, 200_000), randomBytes(random, 60_000), logLines(random, 200_000));
    for (int level = 1; level <= 9; level++) {
      byte[] bz = compress(data, level);
      assertThat(bz[3]).isEqualTo((byte) ('0' + level));
      Sink sink = decode(bz, upTo(1 << 16));
      assertThat(sink.bytes()).as("level %d", level).isEqualTo(data);
      int capacity = level * 100_000 - 20; // what Hadoop's compressor puts in a block at most
      assertThat(sink.blocks.size()).as("blocks at level %d", level).isEqualTo((data.length + capacity - 1) / capacity);
      assertThat(sink.blocks.get(0).position).isEqualTo(4);
      assertThat(sink.blocks.get(0).bit).isEqualTo(32);
      // Memory for exactly this level is enough; for less, the header is an error.
      Sink exact = new Sink();
      Bzip2Decoder decoder = new Bzip2Decoder(exact, level);
      exact.decoder = decoder;
      decoder.feed(bz, 0, bz.length);
      decoder.finish();
      assertThat(exact.bytes()).isEqualTo(data);
      if (level > 1) {
        Bzip2Decoder small = new Bzip2Decoder(new Sink(), level - 1);
        assertThatThrownBy(() -> small.feed(bz, 0, bz.length)).isInstanceOf(ZipException.class)
            .hasMessage("bzip2: stream 1 at compressed bit 0 (byte 0): block size level " + level
                + " in the header: the decoder was made for at most level " + (level - 1));
      }
    }
  }

  @Test
  void manyBlocksFedInPiecesOfAnySize() throws Exception {
    byte[] data = concat(logLines(random, 300_000), randomBytes(random, 30_000), text(random, 150_000));
    byte[] bz = compress(data, 1);
    Sink whole = decode(bz, () -> bz.length);
    assertThat(whole.bytes()).isEqualTo(data);
    assertThat(whole.blocks.size()).isEqualTo(5);
    assertThat(hadoopRead(bz)).isEqualTo(data);
    for (IntSupplier pieces : new IntSupplier[] {() -> 1, () -> 7, upTo(100), upTo(20_000)}) {
      Sink sink = decode(bz, pieces);
      assertThat(sink.bytes()).isEqualTo(data);
      assertThat(sink.blocks).as("block positions and offsets").isEqualTo(whole.blocks);
    }
  }

  @Test
  void concatenatedStreamsAreOneOutput() throws Exception {
    byte[] a = logLines(random, 250_000);
    byte[] b = text(random, 40_000);
    byte[] bz = concat(compress(a, 1), codecCompress(NOTHING), codecCompress(b), compress(new byte[] {7}, 3));
    byte[] expected = concat(a, b, new byte[] {7});
    for (IntSupplier pieces : new IntSupplier[] {() -> 1, upTo(17), upTo(1 << 16)}) {
      assertThat(decode(bz, pieces).bytes()).isEqualTo(expected);
    }
    assertThat(hadoopRead(bz)).as("Hadoop's reader agrees").isEqualTo(expected);
    assertThat(hadoopSplit(bz, 0).bytes).as("and its split reader from 0").isEqualTo(expected);
    Bzip2Decoder decoder = new Bzip2Decoder(new Sink());
    decoder.feed(bz, 0, bz.length);
    decoder.finish();
    assertThat(decoder.streams()).isEqualTo(4);
    assertThat(decoder.blocks()).isEqualTo(5);
    // It ends at any stream's end: after the first, after the empty one.
    int first = compress(a, 1).length;
    for (int length : new int[] {first, first + codecCompress(NOTHING).length}) {
      Sink sink = new Sink();
      Bzip2Decoder cut = new Bzip2Decoder(sink);
      cut.feed(bz, 0, length);
      cut.finish();
      assertThat(sink.bytes()).isEqualTo(a);
    }
  }

  @Test
  void randomisedBlocksAsHadoopsDecoderReadsThem() throws Exception {
    // No compressor since bzip2 0.9.5 randomises a block, so one is made: a block's randomised bit
    // set, its output as Hadoop's decoder gives it (it XORs the same bytes with 1), and the block's
    // and the stream's CRCs set to match that output. 400 000 bytes use all 512 of the table's gaps.
    byte[] data = concat(text(random, 250_000), repeat('r', 3000), logLines(random, 150_000));
    byte[] bz = compress(data, 9);
    assertThat(bz[14] & 0x80).as("the randomised bit").isZero();
    bz[14] |= (byte) 0x80;
    byte[] expected = hadoopIgnoringCrcs(bz);
    assertThat(expected).isNotEqualTo(data);
    int crc = crc(expected);
    setBits(bz, 80, crc, 32);
    setBits(bz, endOfStream(bz) + 48, crc, 32); // one block: the combined CRC is the block's
    assertThat(decode(bz, upTo(1 << 16)).bytes()).isEqualTo(expected);
    assertThat(hadoopRead(bz)).as("Hadoop, checking the CRCs").isEqualTo(expected);
    // A hand-made randomised block: two bytes, where the first gap, 619, does not end.
    Bits w = header(1);
    block(w, crc("ab".getBytes(StandardCharsets.US_ASCII)), true, 0, new int[] {'a', 'b'}, 2, new int[] {0},
        lengths(2, 2, 2, 2, 2), new int[] {2, 2, 3}); // "ba" (the transform of "ab"), origPtr 0: MTF 1, MTF 1, EOB
    byte[] made = end(w, crc("ab".getBytes(StandardCharsets.US_ASCII))).bytes();
    assertThat(hadoopIgnoringCrcs(made)).isEqualTo("ab".getBytes(StandardCharsets.US_ASCII));
    assertThat(decode(made, () -> 1).bytes()).isEqualTo("ab".getBytes(StandardCharsets.US_ASCII));
  }

  /** The CRC the randomised and hand-made blocks are given. */
  @Test
  void theTestsCrcIsBzip2s() throws Exception {
    byte[] data = text(random, 5000);
    byte[] bz = compress(data, 9);
    assertThat((int) getBits(bz, 80, 32)).as("a one-block stream's block CRC").isEqualTo(crc(data));
    assertThat((int) getBits(bz, endOfStream(bz) + 48, 32)).as("and its combined CRC").isEqualTo(crc(data));
  }

  @Test
  void handMadeBlocksHadoopReadsToo() throws Exception {
    // One byte value, a run of n: the least a block can be. At level 1 a block holds 100 000. (Not
    // 4 or 99 999: four equal bytes with no count after them, see handMadeBlocksThatAreWrong.)
    for (int n : new int[] {1, 2, 3, 5, 6, 8, 10, 13, 100, 99_995, 99_996, 100_000}) {
      byte[] bz = runBlock(1, n, 0, 0);
      byte[] expected = hadoopIgnoringCrcs(bz);
      byte[] fixed = runBlock(1, n, crc(expected), 0);
      assertThat(hadoopRead(fixed)).as("Hadoop, run of %d", n).isEqualTo(expected);
      assertThat(decode(fixed, upTo(3)).bytes()).as("run of %d", n).isEqualTo(expected);
    }
    // More selectors than the 18 002 a block can need: read, and the first ones used (bzip2 1.0.8).
    byte[] a = {'a'};
    Bits w = header(9);
    block(w, crc(a), false, 0, new int[] {'a'}, 2, new int[20_000], lengths(2, 1, 2, 2), new int[] {0, 2});
    assertThat(decode(end(w, crc(a)).bytes(), upTo(100)).bytes()).isEqualTo(a);
    // An incomplete code whose symbols are all there is fine.
    w = header(9);
    block(w, crc(a), false, 0, new int[] {'a'}, 2, new int[] {1}, lengths(2, 2, 2, 3), new int[] {0, 2});
    assertThat(decode(end(w, crc(a)).bytes(), upTo(100)).bytes()).isEqualTo(a);
    // Codes of up to 20 bits, in tables of many symbols: every byte value in use.
    int[] used = new int[256];
    int[] symbols = new int[300];
    for (int i = 0; i < 256; i++) {
      used[i] = i;
    }
    int[] codeLengths = lengthsUpTo20();
    for (int i = 0; i < symbols.length - 1; i++) { // runs, and move-to-front indexes 1..255
      symbols[i] = random.nextBoolean() ? random.nextInt(12) : 2 + random.nextInt(255);
    }
    symbols[symbols.length - 1] = 257;
    w = header(9);
    block(w, 0, false, 17, used, 6, new int[] {0, 1, 2, 3, 4, 5, 0}, tables(6, codeLengths), symbols);
    byte[] bz = end(w, 0).bytes();
    byte[] expected = hadoopIgnoringCrcs(bz);
    assertThat(expected.length).isGreaterThan(150);
    w = header(9);
    block(w, crc(expected), false, 17, used, 6, new int[] {0, 1, 2, 3, 4, 5, 0}, tables(6, codeLengths), symbols);
    bz = end(w, crc(expected)).bytes();
    assertThat(decode(bz, () -> 1).bytes()).isEqualTo(expected);
    assertThat(hadoopRead(bz)).isEqualTo(expected);
  }

  // ---- split mode, as Hadoop's BYBLOCK reader ----

  @Test
  void splitsStartAtTheFirstBlockWhoseMagicBeginsAtOrAfterTheStartAsHadoopsDo() throws Exception {
    byte[] data = concat(logLines(random, 450_000), text(random, 100_000), randomBytes(random, 20_000));
    byte[] bz = compress(data, 1);
    Sink whole = decode(bz, upTo(1 << 16));
    assertThat(whole.bytes()).isEqualTo(data);
    assertThat(whole.blocks.size()).isGreaterThanOrEqualTo(6);
    TreeSet<Long> starts = new TreeSet<>(List.of(0L, 1L, 2L, 4L, 5L, 6L, 100L, 30_000L, bz.length - 10L,
        bz.length - 1L, (long) bz.length));
    for (Block block : whole.blocks) {
      starts.add(block.position - 1);
      starts.add(block.position);
      starts.add(block.position + 1);
    }
    for (int i = 0; i < 5; i++) {
      starts.add((long) random.nextInt(bz.length));
    }
    TreeSet<Integer> bitsWithinBytes = new TreeSet<>();
    for (Block block : whole.blocks) {
      bitsWithinBytes.add((int) (block.bit & 7));
    }
    assertThat(bitsWithinBytes).as("magics at several bits within their bytes").hasSizeGreaterThan(2);
    for (long start : starts) {
      checkSplit(bz, whole, start, 1, upTo(1 << 16));
    }
    checkSplit(bz, whole, 30_000, 9, () -> 1);
    checkSplit(bz, whole, whole.blocks.get(2).position, 1, () -> 7);
  }

  @Test
  void splitsOfConcatenatedStreams() throws Exception {
    byte[] a = logLines(random, 230_000);
    byte[] b = text(random, 150_000);
    byte[] first = compress(a, 1);
    byte[] bz = concat(first, codecCompress(NOTHING), compress(b, 1));
    Sink whole = decode(bz, upTo(1 << 16));
    assertThat(whole.bytes()).isEqualTo(concat(a, b));
    TreeSet<Long> starts = new TreeSet<>();
    for (long s = first.length - 14; s <= first.length + 20; s++) { // the end of the first stream, the empty one, the third's header
      starts.add(s);
    }
    for (Block block : whole.blocks) {
      starts.add(block.position);
      starts.add(block.position + 1);
    }
    for (long start : starts) {
      checkSplit(bz, whole, start, 9, upTo(4096));
    }
  }

  /**
   * Split mode from {@code start}: the output is the whole output from the first block whose magic's
   * first bit is in a byte at or after the start (5 for a start of 1 to 4; every block for 0), and
   * it is what Hadoop's BYBLOCK reader gives from that start; the block positions are those of the
   * whole decoding, and Hadoop's getPos() is each block's position + 1 from the read of its first
   * byte (which returns that byte alone), but for the first block: 0 when the start is 0, and the
   * position itself before the first read when it is not; and the length + 1 after the last byte.
   */
  private void checkSplit(byte[] bz, Sink whole, long start, int level, IntSupplier pieces) throws IOException {
    long threshold = start >= 1 && start <= 4 ? 5 : start;
    int first = 0;
    while (first < whole.blocks.size() && whole.blocks.get(first).position < threshold) {
      first++;
    }
    long from = first < whole.blocks.size() ? whole.blocks.get(first).offset : whole.bytes.size();
    byte[] all = whole.bytes();
    byte[] suffix = Arrays.copyOfRange(all, (int) from, all.length);

    Sink sink = new Sink();
    Bzip2Decoder decoder = Bzip2Decoder.split(sink, start, level);
    sink.decoder = decoder;
    feed(decoder, bz, (int) start, bz.length, pieces);
    decoder.finish();
    assertThat(decoder.compressedBytes()).isEqualTo(bz.length - start);
    assertThat(decoder.bitPosition()).isEqualTo(bz.length * 8L);
    assertThat(sink.bytes()).as("from %d: the output from block %d on", start, first + 1).isEqualTo(suffix);
    List<Block> expectedBlocks = new ArrayList<>();
    for (Block block : whole.blocks.subList(first, whole.blocks.size())) {
      expectedBlocks.add(new Block(block.position, block.bit, block.offset - from));
    }
    assertThat(sink.blocks).as("from %d: the blocks", start).isEqualTo(expectedBlocks);

    HadoopSplit hadoop = hadoopSplit(bz, start);
    assertThat(hadoop.bytes).as("from %d: Hadoop's split reader gives the same", start).isEqualTo(suffix);
    List<List<Long>> expected = new ArrayList<>();
    for (int k = start == 0 ? 1 : 0; k < sink.blocks.size(); k++) {
      Block block = sink.blocks.get(k);
      expected.add(List.of(block.offset, block.position + 1, 1L)); // the read of the block's first byte, alone
    }
    if (start != 0 || !sink.blocks.isEmpty()) {
      expected.add(List.of((long) suffix.length, bz.length + 1L, -1L)); // the read that returns -1
    }
    assertThat(hadoop.changes).as("from %d: Hadoop's getPos() changes (offset, getPos(), read's result)", start)
        .isEqualTo(expected);
    assertThat(hadoop.initial).as("from %d: Hadoop's getPos() before reading", start)
        .isEqualTo(start == 0 ? 0 : sink.blocks.isEmpty() ? bz.length : sink.blocks.get(0).position);
  }

  @Test
  void aSplitReaderStopsWhereItWants() throws Exception {
    byte[] data = logLines(random, 400_000);
    byte[] bz = compress(data, 1);
    Sink whole = decode(bz, upTo(1 << 16));
    Block second = whole.blocks.get(1);
    Block fourth = whole.blocks.get(3);
    // A split [second's magic, fourth's magic): it reads until a block at or after its end starts.
    Sink sink = new Sink();
    Bzip2Decoder decoder = Bzip2Decoder.split(sink, second.position, 1);
    sink.decoder = decoder;
    long end = fourth.position;
    int at = (int) second.position;
    while (at < bz.length && (sink.blocks.isEmpty() || sink.blocks.get(sink.blocks.size() - 1).position < end)) {
      int n = Math.min(1 + random.nextInt(3000), bz.length - at);
      decoder.feed(bz, at, n);
      at += n;
    }
    assertThat(sink.blocks).hasSize(3);
    assertThat(sink.blocks.get(2).position).isEqualTo(fourth.position);
    Throwable truncated = catchThrowable(decoder::finish);
    assertThat(truncated).isInstanceOf(ZipException.class).hasMessageContaining("truncated input");
    assertThat(truncated.getMessage()).containsPattern("stream 1 (after )?block [34] "); // found from the split's start
    decoder.reset(); // finish() failed: the same split again, stopped
    sink.bytes.reset();
    sink.blocks.clear();
    decoder.feed(bz, (int) second.position, (int) (fourth.position + 10 - second.position));
    decoder.stop();
    assertThat(sink.bytes()).isEqualTo(Arrays.copyOfRange(data, (int) second.offset, (int) fourth.offset));
    decoder.stop(); // again: fine
    assertThatThrownBy(() -> decoder.feed(bz, 0, 1)).isInstanceOf(IllegalStateException.class);
    // A split that finds no block magic is no output, and fine to finish.
    Bzip2Decoder none = Bzip2Decoder.split(new Sink(), bz.length - 5);
    none.feed(bz, bz.length - 5, 5);
    none.finish();
    assertThat(none.decompressedBytes()).isZero();
  }

  @Test
  void aSplitsLevelBoundsItsBlocks() throws Exception {
    // A split inside a level-1 stream, told level 1, meets the next stream's 300 000-byte block (it
    // takes it for a block of its stream: the scan does not see the header before it).
    byte[] data = text(random, 300_000);
    byte[] small = compress(text(random, 1000), 1);
    byte[] bz = concat(small, compress(data, 9));
    Bzip2Decoder decoder = Bzip2Decoder.split(new Sink(), 100, 1);
    Throwable thrown = catchThrowable(() -> decoder.feed(bz, 100, bz.length - 100));
    assertThat(thrown).isInstanceOf(ZipException.class).hasMessageContaining("bzip2: stream 1 block 1 at");
    assertThat(thrown.getMessage()).containsPattern("the 100000 (bytes )?its level allows$");
    Sink nine = new Sink();
    Bzip2Decoder levelNine = Bzip2Decoder.split(nine, 100);
    levelNine.feed(bz, 100, bz.length - 100);
    levelNine.finish();
    assertThat(nine.bytes()).isEqualTo(data);
    // From 0 the header says the level.
    Sink sink = new Sink();
    Bzip2Decoder fromStart = Bzip2Decoder.split(sink, 0, 1);
    assertThatThrownBy(() -> fromStart.feed(bz, 0, bz.length)).isInstanceOf(ZipException.class)
        .hasMessageContaining("block size level 9 in the header: the decoder was made for at most level 1");
  }

  // ---- corrupt and cut short ----

  @Test
  void aFlippedBitFailsNamingItsBlock() throws Exception {
    byte[] data = concat(logLines(random, 200_000), text(random, 120_000));
    byte[] bz = compress(data, 1);
    Sink whole = decode(bz, upTo(1 << 16));
    int blocks = whole.blocks.size();
    assertThat(blocks).isEqualTo(4);
    long endOfStream = endOfStream(bz);
    int flips = 0;
    for (int k = 0; k < blocks; k++) {
      long from = whole.blocks.get(k).bit;
      long to = k + 1 < blocks ? whole.blocks.get(k + 1).bit : endOfStream;
      List<Long> bitsToFlip = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        bitsToFlip.add(from + random.nextInt(48)); // the magic
        bitsToFlip.add(from + 48 + random.nextInt(32)); // the block CRC
        bitsToFlip.add(from + 80 + random.nextInt(400)); // origPtr, the map, the selectors, the tables
      }
      bitsToFlip.add(from + 80); // the randomised bit
      for (int i = 0; i < 16; i++) {
        bitsToFlip.add(from + random.nextLong(to - from));
      }
      for (long bit : bitsToFlip) {
        byte[] corrupt = bz.clone();
        corrupt[(int) (bit >>> 3)] ^= (byte) (0x80 >>> (bit & 7));
        Throwable thrown = catchThrowable(() -> decode(corrupt, upTo(1 << 16)));
        assertThat(thrown).as("bit %d of block %d flipped", bit, k + 1).isInstanceOf(ZipException.class);
        assertThat(thrown.getMessage()).as("bit %d of block %d flipped", bit, k + 1)
            .startsWith("bzip2: stream 1 ").containsPattern("block " + (k + 1) + "\\b");
        flips++;
      }
    }
    assertThat(flips).isEqualTo(4 * 29);
    // The stored CRC: a mismatch, with both.
    byte[] corrupt = bz.clone();
    long crcBit = whole.blocks.get(2).bit + 48;
    corrupt[(int) (crcBit >>> 3)] ^= (byte) (0x80 >>> (crcBit & 7));
    assertThatThrownBy(() -> decode(corrupt, upTo(1 << 16))).isInstanceOf(ZipException.class)
        .hasMessageMatching("bzip2: stream 1 block 3 at compressed bit " + whole.blocks.get(2).bit + " \\(byte "
            + whole.blocks.get(2).position + "\\): block CRC mismatch: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8} over"
            + " its " + (whole.blocks.get(3).offset - whole.blocks.get(2).offset) + " decompressed bytes");
  }

  @Test
  void aWrongCombinedCrc() throws Exception {
    byte[] a = logLines(random, 150_000);
    byte[] first = compress(a, 1);
    byte[] second = compress(text(random, 1000), 9);
    byte[] corrupt = first.clone();
    long crcBit = endOfStream(corrupt) + 48 + 5;
    corrupt[(int) (crcBit >>> 3)] ^= (byte) (0x80 >>> (crcBit & 7));
    assertThatThrownBy(() -> decode(corrupt, upTo(1 << 16))).isInstanceOf(ZipException.class)
        .hasMessageContaining("bzip2: stream 1 at compressed bit " + (crcBit - 5))
        .hasMessageContaining("combined CRC mismatch at the end of the stream");
    byte[] both = concat(second, corrupt);
    assertThatThrownBy(() -> decode(both, upTo(1 << 16))).isInstanceOf(ZipException.class)
        .hasMessageContaining("bzip2: stream 2 at compressed bit " + (second.length * 8L + crcBit - 5));
    // A split that starts after the stream's first block cannot check it; one that starts at 0 does.
    Sink whole = decode(first, upTo(1 << 16));
    Sink sink = new Sink();
    Bzip2Decoder decoder = Bzip2Decoder.split(sink, whole.blocks.get(1).position, 1);
    feed(decoder, corrupt, (int) whole.blocks.get(1).position, corrupt.length, upTo(5000));
    decoder.finish();
    assertThat(sink.bytes()).isEqualTo(Arrays.copyOfRange(a, (int) whole.blocks.get(1).offset, a.length));
    Bzip2Decoder atZero = Bzip2Decoder.split(new Sink(), 0, 1);
    assertThatThrownBy(() -> atZero.feed(corrupt, 0, corrupt.length)).hasMessageContaining("combined CRC mismatch");
    // A later stream of the split, begun with its header, is checked.
    byte[] later = concat(first, corrupt);
    Bzip2Decoder split = Bzip2Decoder.split(new Sink(), 100, 1);
    assertThatThrownBy(() -> split.feed(later, 100, later.length - 100))
        .hasMessageContaining("bzip2: stream 2 at compressed bit").hasMessageContaining("combined CRC mismatch");
  }

  @Test
  void truncatedInputFailsOnFinishNamingWhere() throws Exception {
    byte[] bz = compress(concat(logLines(random, 120_000), text(random, 60_000)), 1);
    Sink whole = decode(bz, upTo(1 << 16));
    long second = whole.blocks.get(1).position;
    TreeSet<Integer> cuts = new TreeSet<>(List.of(1, 2, 3, 4, 5, 9, 10, 14, 20, bz.length - 1, bz.length - 4,
        bz.length - 6, bz.length - 10, bz.length - 11, (int) second, (int) second + 1, (int) second + 6, (int) second + 9));
    for (int i = 0; i < 30; i++) {
      cuts.add(1 + random.nextInt(bz.length - 1));
    }
    for (int cut : cuts) {
      Bzip2Decoder decoder = new Bzip2Decoder(new Sink());
      decoder.feed(bz, 0, cut);
      Throwable thrown = catchThrowable(decoder::finish);
      assertThat(thrown).as("cut at %d of %d", cut, bz.length).isInstanceOf(ZipException.class)
          .hasMessageStartingWith("bzip2: stream 1").hasMessageContaining("truncated input: the input ended");
      assertThat(thrown.getMessage()).as("cut at %d", cut).contains("at compressed bit " + decoder.bitPosition());
      // In split mode too; stop() does not check.
      Bzip2Decoder split = Bzip2Decoder.split(new Sink(), 0);
      split.feed(bz, 0, cut);
      assertThatThrownBy(split::finish).isInstanceOf(ZipException.class);
      Bzip2Decoder stopped = Bzip2Decoder.split(new Sink(), 0);
      stopped.feed(bz, 0, cut);
      stopped.stop();
    }
    Bzip2Decoder decoder = new Bzip2Decoder(new Sink());
    decoder.feed(bz, 0, 3);
    assertThatThrownBy(decoder::finish).hasMessage(
        "bzip2: stream 1 at compressed bit 8 (byte 1): truncated input: the input ended inside its header");
    decoder = new Bzip2Decoder(new Sink());
    decoder.feed(bz, 0, 6);
    assertThatThrownBy(decoder::finish).hasMessageEndingWith(
        "truncated input: the input ended before its first block or its end-of-stream marker");
    decoder = new Bzip2Decoder(new Sink());
    decoder.feed(bz, 0, (int) second + 6);
    assertThatThrownBy(decoder::finish).hasMessageContaining("bzip2: stream 1 after block 1 at compressed bit")
        .hasMessageEndingWith("truncated input: the input ended after block 1, before another block or the "
            + "end-of-stream marker");
    decoder = new Bzip2Decoder(new Sink());
    decoder.feed(bz, 0, (int) second + 20);
    assertThatThrownBy(decoder::finish).hasMessageContaining("bzip2: stream 1 block 2 at compressed bit")
        .hasMessageEndingWith("truncated input: the input ended inside block 2");
    decoder = new Bzip2Decoder(new Sink());
    decoder.feed(bz, 0, bz.length - 2);
    assertThatThrownBy(decoder::finish).hasMessageEndingWith(
        "truncated input: the input ended inside the combined CRC after its end-of-stream marker");
  }

  @Test
  void badHeadersAndTrailingGarbage() throws Exception {
    byte[] bz = compress(text(random, 5000), 6);
    String[][] cases = {
        {"XZh6", "bzip2: stream 1 at compressed bit 0 (byte 0): bad header: first byte 0x58, not 'B' of \"BZh\""},
        {"BXh6", "bzip2: stream 1 at compressed bit 0 (byte 0): bad header 0x42586836: not \"BZh\" and a level"},
        {"BZx6", "bzip2: stream 1 at compressed bit 0 (byte 0): bad header 0x425a7836: not \"BZh\" and a level"},
        {"BZh0", "bzip2: stream 1 at compressed bit 0 (byte 0): bad header: block size level byte 0x30 is not '1' to '9'"},
        {"BZh:", "bzip2: stream 1 at compressed bit 0 (byte 0): bad header: block size level byte 0x3a is not '1' to '9'"},
    };
    for (String[] c : cases) {
      byte[] bad = bz.clone();
      System.arraycopy(c[0].getBytes(StandardCharsets.US_ASCII), 0, bad, 0, 4);
      assertThatThrownBy(() -> decode(bad, () -> 1)).as(c[0]).isInstanceOf(ZipException.class).hasMessage(c[1]);
    }
    byte[] notAMagic = bz.clone();
    notAMagic[4] = 0x32;
    assertThatThrownBy(() -> decode(notAMagic, upTo(100))).hasMessage("bzip2: stream 1 at compressed bit 32 (byte 4): "
        + "bad magic 0x324159265359 where block 1 (magic 0x314159265359) or the end-of-stream marker (0x177245385090)"
        + " should start");
    byte[] garbage = concat(bz, "garbage".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> decode(garbage, upTo(100))).hasMessage("bzip2: after stream 1 at compressed bit "
        + bz.length * 8L + " (byte " + bz.length + "): trailing garbage: byte 0x67 does not start a bzip2 stream");
    byte[] almost = concat(bz, "BZh".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> decode(almost, upTo(100))).hasMessageContaining("stream 2")
        .hasMessageEndingWith("truncated input: the input ended inside its header");
    byte[] zeros = concat(bz, new byte[4]);
    assertThatThrownBy(() -> decode(zeros, upTo(100))).hasMessageContaining("trailing garbage: byte 0x00");
  }

  @Test
  void handMadeBlocksThatAreWrong() throws Exception {
    byte[] a = {'a'};
    int crc = crc(a);
    // The block "a": header bits 0-31, magic 32, CRC 80, randomised 112, origPtr 113, map 137 and
    // 153, tables 169, selectors' count 172, selectors 187, each table's lengths (5-bit start, steps).
    // {tables, selectors, table lengths, symbols, used byte values, origPtr}, the message.
    Object[][] cases = {
        {1, new int[] {0}, lengths(1, 1, 2, 2), new int[] {0, 2}, new int[] {'a'}, 0,
            "at compressed bit 169 (byte 21): 1 Huffman tables: not 2 to 6"},
        {7, new int[] {0}, lengths(7, 1, 2, 2), new int[] {0, 2}, new int[] {'a'}, 0,
            "at compressed bit 169 (byte 21): 7 Huffman tables: not 2 to 6"},
        {2, new int[0], lengths(2, 1, 2, 2), new int[] {0, 2}, new int[] {'a'}, 0,
            "at compressed bit 172 (byte 21): no selectors"},
        {2, new int[] {2}, lengths(2, 1, 2, 2), new int[] {0, 2}, new int[] {'a'}, 0,
            "at compressed bit 187 (byte 23): selector 1 of 1 is move-to-front index 2 (unary) of only 2 tables"},
        {6, new int[] {0, 0, 6}, lengths(6, 1, 2, 2), new int[] {0, 2}, new int[] {'a'}, 0,
            "at compressed bit 189 (byte 23): selector 3 of 3 is move-to-front index 6 (unary) of only 6 tables"},
        {2, new int[] {0}, lengths(2, 0, 2, 2), new int[] {0, 2}, new int[] {'a'}, 0,
            "at compressed bit 188 (byte 23): code length 0 (not 1 to 20) for symbol 0 of Huffman table 1"},
        {2, new int[] {0}, lengths(2, 20, 21, 2), new int[] {0, 2}, new int[] {'a'}, 0,
            "at compressed bit 194 (byte 24): code length 21 (not 1 to 20) for symbol 1 of Huffman table 1"},
        {2, new int[] {0}, lengths(2, 1, 1, 1), new int[] {0, 2}, new int[] {'a'}, 0,
            "at compressed bit 204 (byte 25): over-subscribed Huffman code in table 1 of 2 (its code lengths are"
                + " more than a binary tree holds)"},
        {2, new int[] {0}, lengths(2, 1, 2, 2), new int[] {0, 2}, new int[] {'a'}, 1,
            "at compressed bit 113 (byte 14): origPtr 1 is outside the block's 1 bytes"},
        {2, new int[] {0}, lengths(2, 1, 2, 2), new int[] {2}, new int[] {'a'}, 0,
            "at compressed bit 113 (byte 14): origPtr 0 is outside the block's 0 bytes"},
        {2, new int[] {0}, lengths(2, 1, 2, 2), new int[] {0, 2}, new int[0], 0,
            "at compressed bit 153 (byte 19): no byte values in use in the block's map"},
    };
    for (Object[] c : cases) {
      Bits w = header(9);
      block(w, crc, false, (Integer) c[5], (int[]) c[4], (Integer) c[0], (int[]) c[1], (int[][]) c[2], (int[]) c[3]);
      byte[] bz = end(w, crc).bytes();
      String message = "bzip2: stream 1 block 1 " + c[6];
      assertThatThrownBy(() -> decode(bz, () -> 1)).as(message).isInstanceOf(ZipException.class).hasMessage(message);
    }
    // An incomplete code, and bits that are none of its codes: '0' RUNA, '10' RUNB, '110' EOB, '111' nothing.
    Bits w = header(9);
    block(w, crc, false, 0, new int[] {'a'}, 2, new int[] {0}, lengths(2, 1, 2, 3), new int[] {0});
    w.put(0b111, 3);
    byte[] bz = end(w, crc).bytes();
    assertThatThrownBy(() -> decode(bz, () -> 1)).isInstanceOf(ZipException.class)
        .hasMessage("bzip2: stream 1 block 1 at compressed bit 213 (byte 26): bits that are no code of Huffman table 1");
    // A block of more symbols than its selectors cover: 50 each.
    int[] symbols = new int[52];
    Arrays.fill(symbols, 2);
    symbols[51] = 3;
    for (int selectors : new int[] {1, 2}) {
      Bits v = header(9);
      block(v, 0, false, 0, new int[] {'a', 'b'}, 2, new int[selectors], lengths(2, 2, 2, 2, 2), symbols);
      byte[] made = end(v, 0).bytes();
      Throwable thrown = catchThrowable(() -> decode(made, upTo(10)));
      assertThat(thrown).isInstanceOf(ZipException.class);
      assertThat(thrown.getMessage()).as("%d selectors", selectors).contains(selectors == 1
          ? "more symbols than its 1 selectors cover" : "block CRC mismatch: stored 0x00000000");
    }
    // Blocks longer than their level allows: a run of 100 001 at level 1, 100 000 then one byte more.
    assertThatThrownBy(() -> decode(runBlock(1, 100_001, 0, 0), upTo(10))).isInstanceOf(ZipException.class)
        .hasMessageContaining("stream 1 block 1 at compressed bit")
        .hasMessageEndingWith("a run that makes the block longer than the 100000 bytes its level allows");
    assertThatThrownBy(() -> decode(runBlock(1, 100_000, 0, 1), upTo(10))).isInstanceOf(ZipException.class)
        .hasMessageEndingWith("more bytes than the 100000 its level allows");
    assertThatThrownBy(() -> decode(runBlock(2, 150_000, 0, 0), upTo(10))).isInstanceOf(ZipException.class)
        .hasMessageContaining("block CRC mismatch"); // 150 000 fit level 2
    // Four equal bytes and no count after them: bzip2's decoder finds it corrupt, so does this one
    // (Hadoop's reads the block's first byte again, past its end, as the count: 97 more 'a's).
    for (int n : new int[] {4, 99_999}) {
      byte[] made = runBlock(1, n, 0, 0);
      byte[] fixed = runBlock(1, n, crc(hadoopIgnoringCrcs(made)), 0);
      assertThat(hadoopRead(fixed)).hasSize(n / 5 * 101 + 4 + 97);
      assertThatThrownBy(() -> decode(fixed, upTo(10))).isInstanceOf(ZipException.class).hasMessage(
          "bzip2: stream 1 block 1 at compressed bit 32 (byte 4): the block ends with four equal bytes and not the"
              + " count of more that must follow them");
    }
  }

  @Test
  void afterAnErrorEveryCallThrowsUntilReset() throws Exception {
    byte[] good = compress(text(random, 20_000), 9);
    byte[] bad = good.clone();
    bad[good.length / 2] ^= 0x10;
    Sink sink = new Sink();
    Bzip2Decoder decoder = new Bzip2Decoder(sink);
    Throwable first = catchThrowable(() -> decoder.feed(bad, 0, bad.length));
    assertThat(first).isInstanceOf(ZipException.class).hasMessageStartingWith("bzip2: stream 1 block 1 at compressed bit");
    assertThatThrownBy(() -> decoder.feed(good, 0, good.length)).isInstanceOf(ZipException.class)
        .hasMessage(first.getMessage() + " (failed earlier)");
    assertThatThrownBy(decoder::finish).hasMessage(first.getMessage() + " (failed earlier)");
    assertThatThrownBy(decoder::stop).hasMessage(first.getMessage() + " (failed earlier)");
    decoder.reset();
    sink.bytes.reset();
    decoder.feed(good, 0, good.length);
    decoder.finish();
    assertThat(sink.bytes()).isEqualTo(hadoopRead(good));
    // The output's own exception fails it too.
    Bzip2Decoder failing = new Bzip2Decoder((b, o, l) -> {
      throw new EOFException("the consumer is gone");
    });
    assertThatThrownBy(() -> failing.feed(good, 0, good.length)).isInstanceOf(EOFException.class);
    assertThatThrownBy(failing::finish).hasMessageContaining("the consumer is gone").hasMessageEndingWith("(failed earlier)");
  }

  @Test
  void resetReadsAnotherInputWithTheSameArrays() throws Exception {
    byte[] a = logLines(random, 250_000);
    byte[] b = randomBytes(random, 50_000);
    byte[] bzA = compress(a, 1);
    byte[] bzB = codecCompress(b);
    Sink sink = new Sink();
    Bzip2Decoder decoder = new Bzip2Decoder(sink);
    sink.decoder = decoder;
    for (int round = 0; round < 3; round++) {
      for (byte[][] pair : new byte[][][] {{bzA, a}, {bzB, b}}) {
        decoder.reset();
        sink.bytes.reset();
        sink.blocks.clear();
        feed(decoder, pair[0], 0, pair[0].length, upTo(30_000));
        decoder.finish();
        assertThat(sink.bytes()).isEqualTo(pair[1]);
        assertThat(decoder.compressedBytes()).isEqualTo(pair[0].length);
        assertThat(decoder.decompressedBytes()).isEqualTo(pair[1].length);
        assertThat(decoder.streams()).isEqualTo(1);
      }
      decoder.reset(); // halfway through, then reset
      sink.bytes.reset();
      sink.blocks.clear();
      decoder.feed(bzA, 0, bzA.length / 2);
    }
    // In split mode reset() starts again from the same start.
    Sink whole = decode(bzA, upTo(1 << 16));
    long start = whole.blocks.get(1).position;
    Sink splitSink = new Sink();
    Bzip2Decoder split = Bzip2Decoder.split(splitSink, start, 1);
    for (int round = 0; round < 2; round++) {
      split.reset();
      splitSink.bytes.reset();
      split.feed(bzA, (int) start, bzA.length - (int) start);
      split.finish();
      assertThat(splitSink.bytes()).isEqualTo(Arrays.copyOfRange(a, (int) whole.blocks.get(1).offset, a.length));
    }
    assertThatThrownBy(() -> {
      Bzip2Decoder[] self = new Bzip2Decoder[1];
      self[0] = new Bzip2Decoder((bytes, o, l) -> self[0].reset());
      self[0].feed(bzB, 0, bzB.length);
    }).isInstanceOf(IllegalStateException.class);
  }

  // ---- helpers ----

  /** A block's start as the output is told it: its position, its magic's bit, its decompressed offset. */
  private record Block(long position, long bit, long offset) {
  }

  /** Collects the output and the blocks, checking the pieces and, given the decoder, its counters. */
  private static final class Sink implements Bzip2Decoder.Output {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final List<Block> blocks = new ArrayList<>();
    Bzip2Decoder decoder;

    @Override
    public void write(byte[] b, int offset, int length) throws IOException {
      assertThat(length).as("a piece's length").isBetween(1, 32768);
      bytes.write(b, offset, length);
      if (decoder != null) {
        assertThat(decoder.decompressedBytes()).as("bytes output before this piece").isEqualTo(bytes.size() - length);
      }
      if (bytes.size() > 50_000_000) {
        throw new IOException("bzip2: a corrupted stream's output is too long for the test");
      }
    }

    @Override
    public void block(long position) {
      long bit = decoder == null ? position * 8 : decoder.blockBitPosition();
      if (decoder != null) {
        assertThat(bit >>> 3).as("the magic's bit is in the position's byte").isEqualTo(position);
        assertThat(decoder.decompressedBytes()).as("all of the previous block is out").isEqualTo(bytes.size());
      }
      blocks.add(new Block(position, bit, bytes.size()));
    }

    byte[] bytes() {
      return bytes.toByteArray();
    }
  }

  /** Decodes whole streams fed in pieces, checking the counters and that the input ended at a stream's end. */
  private Sink decode(byte[] bz, IntSupplier pieces) throws IOException {
    Sink sink = new Sink();
    Bzip2Decoder decoder = new Bzip2Decoder(sink);
    sink.decoder = decoder;
    feed(decoder, bz, 0, bz.length, pieces);
    decoder.finish();
    assertThat(decoder.compressedBytes()).isEqualTo(bz.length);
    assertThat(decoder.decompressedBytes()).isEqualTo(sink.bytes.size());
    assertThat(decoder.bitPosition()).isEqualTo(bz.length * 8L);
    assertThat(decoder.blocks()).isEqualTo(sink.blocks.size());
    return sink;
  }

  /** Feeds bz[from, to) in pieces of the given sizes, each from one array scribbled over after the feed. */
  private void feed(Bzip2Decoder decoder, byte[] bz, int from, int to, IntSupplier pieces) throws IOException {
    byte[] scratch = new byte[to - from + 8];
    for (int at = from; at < to; ) {
      int n = Math.min(pieces.getAsInt(), to - at);
      int offset = random.nextInt(8);
      System.arraycopy(bz, at, scratch, offset, n);
      decoder.feed(scratch, offset, n);
      Arrays.fill(scratch, offset, offset + n, (byte) 0x31);
      at += n;
    }
  }

  private IntSupplier upTo(int max) {
    return () -> 1 + random.nextInt(max);
  }

  /** Hadoop's compressor at a level: "BZ", as its codec writes, then CBZip2OutputStream's "h" and level. */
  private static byte[] compress(byte[] data, int level) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write('B');
    out.write('Z');
    try (OutputStream bz = new CBZip2OutputStream(out, level)) {
      bz.write(data);
    }
    return out.toByteArray();
  }

  /** Hadoop's BZip2Codec, as a job writes .bz2 output (level 9). */
  private static byte[] codecCompress(byte[] data) throws IOException {
    BZip2Codec codec = new BZip2Codec();
    codec.setConf(new Configuration());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CompressionOutputStream bz = codec.createOutputStream(out)) {
      bz.write(data);
    }
    return out.toByteArray();
  }

  /** Hadoop's BZip2Codec reading the whole file (CONTINUOUS mode, concatenated streams as one). */
  private static byte[] hadoopRead(byte[] bz) throws IOException {
    BZip2Codec codec = new BZip2Codec();
    codec.setConf(new Configuration());
    try (InputStream in = codec.createInputStream(new ByteArrayInputStream(bz))) {
      return in.readAllBytes();
    }
  }

  /** Hadoop's decoder of one stream, with the CRC checks turned off: what it makes of a block. */
  private static byte[] hadoopIgnoringCrcs(byte[] bz) throws IOException {
    try (InputStream in = new CBZip2InputStream(new ByteArrayInputStream(bz, 2, bz.length - 2), READ_MODE.CONTINUOUS) {
      @Override
      protected void reportCRCError() {
      }
    }) {
      // Not readAllBytes(): a read of 0 bytes makes CBZip2InputStream skip to the next block magic.
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer, 0, buffer.length)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    }
  }

  /** What Hadoop's BYBLOCK reader gives from a start to the file's end, and its getPos() as it goes. */
  private record HadoopSplit(byte[] bytes, long initial, List<List<Long>> changes) {
  }

  /**
   * Reads with {@code BZip2Codec.createInputStream(in, null, start, length, BYBLOCK)}, as
   * LineRecordReader does, recording getPos() once made and, whenever a read changes it, the
   * decompressed offset of that read's first byte, the new getPos() and the read's result.
   */
  private static HadoopSplit hadoopSplit(byte[] bz, long start) throws IOException {
    BZip2Codec codec = new BZip2Codec();
    codec.setConf(new Configuration());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<List<Long>> changes = new ArrayList<>();
    try (SplitCompressionInputStream in = codec.createInputStream(new SeekableBytes(bz), null, start, bz.length,
        READ_MODE.BYBLOCK)) {
      long initial = in.getPos();
      long last = initial;
      byte[] buffer = new byte[8192];
      for (int reads = 0; ; reads++) {
        assertThat(reads).as("Hadoop's reads").isLessThan(10_000_000);
        int n = in.read(buffer, 0, buffer.length);
        long pos = in.getPos();
        if (pos != last) {
          changes.add(List.of((long) out.size(), pos, (long) n));
          last = pos;
        }
        if (n < 0) {
          break;
        }
        out.write(buffer, 0, n);
      }
      return new HadoopSplit(out.toByteArray(), initial, changes);
    }
  }

  /** A file in memory as Hadoop's file systems give one: seekable, with positioned reads. */
  private static final class SeekableBytes extends ByteArrayInputStream implements Seekable, PositionedReadable {
    SeekableBytes(byte[] bytes) {
      super(bytes);
    }

    @Override
    public void seek(long position) {
      pos = (int) position;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public boolean seekToNewSource(long target) {
      return false;
    }

    @Override
    public int read(long position, byte[] b, int offset, int length) {
      if (position >= count) {
        return -1;
      }
      int n = (int) Math.min(length, count - position);
      System.arraycopy(buf, (int) position, b, offset, n);
      return n;
    }

    @Override
    public void readFully(long position, byte[] b, int offset, int length) throws IOException {
      if (read(position, b, offset, length) < length) {
        throw new EOFException();
      }
    }

    @Override
    public void readFully(long position, byte[] b) throws IOException {
      readFully(position, b, 0, b.length);
    }
  }

  /** The bit where the last stream's end-of-stream marker starts: 80 bits and up to 7 of padding before the end. */
  private static long endOfStream(byte[] bz) {
    long total = bz.length * 8L;
    for (long p = total - 80; p > total - 88; p--) {
      if (getBits(bz, p, 48) == 0x177245385090L) {
        return p;
      }
    }
    throw new AssertionError("no end-of-stream marker");
  }

  private static long getBits(byte[] b, long bit, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      long at = bit + i;
      v = v << 1 | ((b[(int) (at >>> 3)] >>> (7 - (at & 7))) & 1);
    }
    return v;
  }

  private static void setBits(byte[] b, long bit, long value, int n) {
    for (int i = 0; i < n; i++) {
      long at = bit + i;
      int mask = 0x80 >>> (at & 7);
      if (((value >>> (n - 1 - i)) & 1) != 0) {
        b[(int) (at >>> 3)] |= (byte) mask;
      } else {
        b[(int) (at >>> 3)] &= (byte) ~mask;
      }
    }
  }

  /** bzip2's CRC-32 (most significant bit first), written here from its definition. */
  private static int crc(byte[] data) {
    int crc = -1;
    for (byte b : data) {
      crc ^= (b & 0xFF) << 24;
      for (int k = 0; k < 8; k++) {
        crc = crc < 0 ? crc << 1 ^ 0x04C11DB7 : crc << 1;
      }
    }
    return ~crc;
  }

  // Hand-made streams, written most significant bit first.

  private static final class Bits {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private int acc;
    private int n;

    Bits put(long value, int count) {
      for (int i = count - 1; i >= 0; i--) {
        acc = acc << 1 | (int) ((value >>> i) & 1);
        if (++n == 8) {
          out.write(acc);
          acc = 0;
          n = 0;
        }
      }
      return this;
    }

    byte[] bytes() {
      if (n > 0) {
        put(0, 8 - n);
      }
      return out.toByteArray();
    }
  }

  private static Bits header(int level) {
    return new Bits().put('B', 8).put('Z', 8).put('h', 8).put('0' + level, 8);
  }

  /** The end-of-stream marker and the combined CRC (the block's, for one block). */
  private static Bits end(Bits w, int combined) {
    return w.put(0x177245385090L, 48).put(combined & 0xFFFFFFFFL, 32);
  }

  /**
   * Writes a block: its magic, CRC, randomised bit, origPtr, the map of {@code used}, the tables'
   * count, the selectors (move-to-front values, unary), each table's lengths (5-bit start, steps) and
   * the symbols in the first table's code (the tests give every table the same lengths, so that the
   * selectors do not matter).
   */
  private static void block(Bits w, int crc, boolean randomised, int origPtr, int[] used, int tables, int[] selectors,
      int[][] lengths, int[] symbols) {
    w.put(0x314159265359L, 48).put(crc & 0xFFFFFFFFL, 32).put(randomised ? 1 : 0, 1).put(origPtr, 24);
    boolean[] inUse = new boolean[256];
    for (int b : used) {
      inUse[b] = true;
    }
    int ranges = 0;
    for (int r = 0; r < 16; r++) {
      for (int j = 0; j < 16; j++) {
        if (inUse[r * 16 + j]) {
          ranges |= 0x8000 >>> r;
        }
      }
    }
    w.put(ranges, 16);
    for (int r = 0; r < 16; r++) {
      if ((ranges & (0x8000 >>> r)) != 0) {
        int bits = 0;
        for (int j = 0; j < 16; j++) {
          bits |= inUse[r * 16 + j] ? 0x8000 >>> j : 0;
        }
        w.put(bits, 16);
      }
    }
    w.put(tables, 3).put(selectors.length, 15);
    for (int s : selectors) {
      w.put((1L << (s + 1)) - 2, s + 1); // s ones and a zero
    }
    for (int t = 0; t < lengths.length; t++) {
      int current = lengths[t][0];
      w.put(current, 5);
      for (int length : lengths[t]) {
        while (current != length) {
          w.put(current < length ? 0b10 : 0b11, 2);
          current += current < length ? 1 : -1;
        }
        w.put(0, 1);
      }
    }
    int[] code = canonical(lengths[0]);
    for (int s : symbols) {
      w.put(code[s], lengths[0][s]);
    }
  }

  /** bzip2's canonical codes: in order of length, and of symbol within a length. */
  private static int[] canonical(int[] lengths) {
    int[] code = new int[lengths.length];
    int next = 0;
    for (int len = 1; len <= 32; len++) {
      for (int s = 0; s < lengths.length; s++) {
        if (lengths[s] == len) {
          code[s] = next++;
        }
      }
      next <<= 1;
    }
    return code;
  }

  /** {@code tables} tables of these lengths. */
  private static int[][] lengths(int tables, int... lengths) {
    return tables(tables, lengths);
  }

  private static int[][] tables(int tables, int[] lengths) {
    int[][] all = new int[tables][];
    Arrays.fill(all, lengths);
    return all;
  }

  /**
   * Code lengths for 258 symbols of 1 to 20 bits: 1, 2, ..., 12 bits for symbols 0 to 11 leave 2^-12
   * of the tree, 256 codes of 20 bits, of which symbols 12 to 257 take 246 (an incomplete code).
   */
  private static int[] lengthsUpTo20() {
    int[] lengths = new int[258];
    for (int s = 0; s < 258; s++) {
      lengths[s] = s < 12 ? s + 1 : 20;
    }
    return lengths;
  }

  /**
   * One stream at a level, of one block: a run of n 'a's (RUNA/RUNB digits), then {@code extra}
   * move-to-front index 1 symbols ('b', 'a', 'b', ...), then the end of the block.
   */
  private static byte[] runBlock(int level, int n, int crc, int extra) {
    List<Integer> symbols = new ArrayList<>();
    for (int left = n; left > 0; ) { // bijective base 2: RUNA is 1, RUNB 2, times 2^position
      if ((left & 1) == 1) {
        symbols.add(0);
        left = (left - 1) / 2;
      } else {
        symbols.add(1);
        left = (left - 2) / 2;
      }
    }
    for (int i = 0; i < extra; i++) {
      symbols.add(2); // move-to-front index 1: 'b', then 'a', ...
    }
    symbols.add(3);
    int[] s = symbols.stream().mapToInt(Integer::intValue).toArray();
    Bits w = header(level);
    block(w, crc, false, 0, new int[] {'a', 'b'}, 2, new int[(s.length + 49) / 50], lengths(2, 2, 2, 2, 2), s);
    return end(w, crc).bytes();
  }

  // Data.

  private static byte[] repeat(int b, int n) {
    byte[] bytes = new byte[n];
    Arrays.fill(bytes, (byte) b);
    return bytes;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }

  private static byte[] randomBytes(Random random, int n) {
    byte[] bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }

  private static final String[] WORDS = {"the", "device", "map", "reduce", "block", "stream", "of", "and", "a",
      "bzip2", "Burrows", "Wheeler", "to", "in", "split", "record", "key", "value", "compressed", "Hadoop"};

  private static byte[] text(Random random, int n) {
    StringBuilder sb = new StringBuilder(n + 20);
    while (sb.length() < n) {
      sb.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(12) == 0 ? ".\n" : " ");
    }
    return sb.substring(0, n).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] logLines(Random random, int n) {
    StringBuilder sb = new StringBuilder(n + 200);
    long time = 1_700_000_000_000L;
    while (sb.length() < n) {
      time += random.nextInt(5000);
      sb.append(time).append(" host-").append(random.nextInt(40)).append(" GET /objects/")
          .append(Long.toHexString(random.nextLong() & 0xFFFFFFFFFL)).append(' ').append(200 + random.nextInt(4) * 100)
          .append(' ').append(random.nextInt(100_000)).append('\n');
    }
    return sb.substring(0, n).getBytes(StandardCharsets.US_ASCII);
  }
}
