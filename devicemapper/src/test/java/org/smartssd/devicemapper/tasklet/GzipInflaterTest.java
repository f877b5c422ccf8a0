package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The device's gzip decompressor gives exactly what the JDK's compressor was given, however the
 * compressed bytes are cut into feeds: every block type, concatenated members, every header field;
 * and it fails with an IOException (never another exception, never a hang) on whatever is wrong or
 * cut short. The same for its zlib mode (RFC 1950 streams, concatenated too), and for one instance
 * reset() between independent streams. The oracle is java.util.zip's Deflater and
 * GZIPOutputStream, and hand-made blocks.
 */
class GzipInflaterTest {
  private final Random random = new Random(1952);

  // ---- valid streams ----

  @Test
  void decompressesWhatTheJdkCompressesAtEveryLevelAndStrategy() throws Exception {
    int[][] settings = {
        {0, Deflater.DEFAULT_STRATEGY}, {1, Deflater.DEFAULT_STRATEGY}, {6, Deflater.DEFAULT_STRATEGY},
        {9, Deflater.DEFAULT_STRATEGY}, {6, Deflater.HUFFMAN_ONLY}, {6, Deflater.FILTERED}};
    TreeSet<Integer> blockTypes = new TreeSet<>();
    for (Kind kind : kinds()) {
      for (int size : new int[] {0, 1, 2, 100, 5_000, 100_000}) {
        byte[] data = kind.make.apply(size);
        for (int[] setting : settings) {
          byte[] raw = deflate(data, setting[0], setting[1]);
          blockTypes.add((raw[0] >>> 1) & 3);
          byte[] gz = member(plainHeader(), raw, data);
          int maxPiece = new int[] {1, 3, 100, 5000, 1 << 16}[random.nextInt(5)];
          if (maxPiece < 100 && gz.length > 50_000) {
            maxPiece = 1000;
          }
          assertThat(inflate(gz, maxPiece)).as("%s, %d bytes, level %d, strategy %d, feeds of up to %d",
              kind.name, size, setting[0], setting[1], maxPiece).isEqualTo(data);
        }
      }
    }
    assertThat(blockTypes).as("first blocks' types seen").containsExactly(0, 1, 2);
  }

  @Test
  void feedsOfOneByte() throws Exception {
    for (Kind kind : kinds()) {
      byte[] data = kind.make.apply(30_000);
      for (int level : new int[] {0, 1, 9}) {
        byte[] gz = member(plainHeader(), deflate(data, level, Deflater.DEFAULT_STRATEGY), data);
        assertThat(inflate(gz, 1)).as("%s at level %d", kind.name, level).isEqualTo(data);
      }
    }
  }

  @Test
  void streamsOfSomeMegabytes() throws Exception {
    for (Kind kind : kinds()) {
      byte[] data = kind.make.apply(3_000_000 + random.nextInt(1000));
      byte[] gz = gzipJdk(data);
      assertThat(inflate(gz, 1 << 16)).as(kind.name).isEqualTo(data);
    }
    byte[] data = logLines(random, 4_000_000);
    byte[] gz = member(plainHeader(), deflate(data, 1, Deflater.DEFAULT_STRATEGY), data);
    assertThat(inflate(gz, 7919)).isEqualTo(data);
  }

  @Test
  void blocksOfEveryKindInOneStream() throws Exception {
    for (int round = 0; round < 20; round++) {
      byte[] data = kinds().get(round % 5).make.apply(50_000 + random.nextInt(300_000));
      byte[] raw = deflateWithFlushes(data);
      byte[] gz = member(plainHeader(), raw, data);
      assertThat(inflate(gz, round % 4 == 0 ? 1 : 1 + random.nextInt(20_000))).as("round %d", round).isEqualTo(data);
    }
  }

  @Test
  void fixedHuffmanBlocks() throws Exception {
    for (String text : new String[] {"a", "hello hello hello hello", "abcabcabcabcabcabcabcabcabc!", "x".repeat(300)}) {
      byte[] data = text.getBytes(StandardCharsets.US_ASCII);
      for (int level : new int[] {1, 6, 9}) {
        byte[] raw = deflate(data, level, Deflater.DEFAULT_STRATEGY);
        assertThat((raw[0] >>> 1) & 3).as("block type of %s", text).isEqualTo(1);
        assertThat(inflate(member(plainHeader(), raw, data), 1)).isEqualTo(data);
      }
    }
    // Every literal, length and distance code of the fixed code, hand-made.
    Bits w = new Bits();
    List<Op> ops = new ArrayList<>();
    for (int b = 0; b < 256; b++) {
      ops.add(Op.literal(b));
    }
    for (int length = 3; length <= 258; length++) {
      ops.add(Op.match(length, 1 + random.nextInt(256)));
    }
    for (int d = 0; d < 30; d++) { // the output is 33664 bytes long by now
      ops.add(Op.match(3 + random.nextInt(20), DIST_BASE[d] + random.nextInt(1 << DIST_EXTRA[d])));
    }
    w.put(1, 1).put(1, 2);
    byte[] expected = fixedOps(w, ops);
    fixedEnd(w);
    assertThat(inflate(member(plainHeader(), w.bytes(), expected), 5)).isEqualTo(expected);
  }

  @Test
  void concatenatedMembersOneOfThemEmpty() throws Exception {
    byte[] a = logLines(random, 40_000);
    byte[] c = text(random, 70_000);
    byte[] gz = concat(gzipJdk(a), gzipJdk(new byte[0]),
        member(header(FNAME | FHCRC, null, "c.txt", null), deflate(c, 9, Deflater.FILTERED), c));
    byte[] expected = concat(a, c);
    for (int maxPiece : new int[] {1, 17, 4096, 1 << 16}) {
      assertThat(inflate(gz, maxPiece)).isEqualTo(expected);
    }
    try (InputStream jdk = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      assertThat(jdk.readAllBytes()).as("the JDK agrees").isEqualTo(expected);
    }
    GzipInflater inflater = new GzipInflater(new Sink());
    inflater.feed(gz, 0, gz.length);
    inflater.finish();
    assertThat(inflater.members()).isEqualTo(3);
  }

  @Test
  void noInputIsNoOutput() throws Exception {
    Sink sink = new Sink();
    GzipInflater inflater = new GzipInflater(sink);
    inflater.finish();
    assertThat(sink.bytes.size()).isZero();
    inflater = new GzipInflater(sink);
    inflater.feed(new byte[3], 1, 0);
    inflater.finish();
    assertThat(inflater.compressedBytes()).isZero();
    assertThat(inflater.decompressedBytes()).isZero();
    assertThat(inflate(gzipJdk(new byte[0]), 1)).isEmpty();
    inflater.finish(); // again: still fine
    GzipInflater done = inflater;
    assertThatThrownBy(() -> done.feed(new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void headersWithEveryFlag() throws Exception {
    byte[] data = logLines(random, 20_000);
    byte[] raw = deflate(data, 6, Deflater.DEFAULT_STRATEGY);
    for (int flags = 0; flags < 32; flags++) {
      byte[] extra = (flags & FEXTRA) == 0 ? null : randomBytes(random, flags < 16 ? 0 : 300);
      String name = (flags & FNAME) == 0 ? null : flags < 16 ? "" : "access-log-2024-05-01.txt";
      String comment = (flags & FCOMMENT) == 0 ? null : "made by a test, with \u00e9 in it";
      byte[] gz = member(header(flags, extra, name, comment), raw, data);
      assertThat(inflate(gz, flags % 3 == 0 ? 1 : 1 + random.nextInt(200))).as("flags 0x%02x", flags).isEqualTo(data);
    }
    // Long fields are skipped across feeds, not buffered.
    String longName = "n".repeat(200_000);
    byte[] gz = member(header(FEXTRA | FNAME | FCOMMENT | FHCRC, randomBytes(random, 65_535), longName, longName),
        raw, data);
    assertThat(inflate(gz, 1)).isEqualTo(data);
    assertThat(inflate(gz, 1 << 16)).isEqualTo(data);
  }

  @Test
  void distancesOfAWholeWindowAcrossTheBuffersTurn() throws Exception {
    // 600 KB stored (the output buffer turns at 256 KiB), then matches as far back as 32768.
    Bits w = new Bits();
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (int i = 0; i < 10; i++) {
      byte[] stored = randomBytes(random, 60_000);
      storedBlock(w, false, stored);
      expected.write(stored, 0, stored.length);
      w.put(0, 1).put(1, 2);
      List<Op> ops = new ArrayList<>();
      for (int j = 0; j < 2000; j++) {
        int choice = random.nextInt(4);
        ops.add(choice == 0 ? Op.literal(random.nextInt(256))
            : choice == 1 ? Op.match(258, 32768 - random.nextInt(3))
            : choice == 2 ? Op.match(3 + random.nextInt(256), 1 + random.nextInt(32768))
            : Op.match(3 + random.nextInt(256), 1 + random.nextInt(4)));
      }
      byte[] history = expected.toByteArray();
      byte[] out = expand(history, ops);
      fixedOps(w, ops);
      fixedEnd(w);
      expected.write(out, history.length, out.length - history.length);
    }
    storedBlock(w, true, new byte[0]);
    byte[] data = expected.toByteArray();
    byte[] gz = member(plainHeader(), w.bytes(), data);
    assertThat(inflate(gz, 1 << 16)).isEqualTo(data);
    assertThat(inflate(gz, 1 + random.nextInt(300))).isEqualTo(data);
  }

  @Test
  void dynamicBlocksAtTheEdgesOfWhatIsAllowed() throws Exception {
    // Literals only, no distance code at all (HDIST 1, length 0).
    int[] lit = new int[257];
    lit['a'] = 1;
    lit['b'] = 2;
    lit[256] = 2;
    Bits w = dynamicHeader(new Bits(), true, lit, new int[] {0});
    symbols(w, lit, 'a', 'b', 'b', 'a', 256);
    assertThat(inflate(member(plainHeader(), w.bytes(), bytes("abba")), 1)).isEqualTo(bytes("abba"));
    // Only the end-of-block code, of one bit: incomplete, allowed.
    lit = new int[257];
    lit[256] = 1;
    w = dynamicHeader(new Bits(), true, lit, new int[] {1});
    symbols(w, lit, 256);
    assertThat(inflate(member(plainHeader(), w.bytes(), new byte[0]), 1)).isEmpty();
    // One distance code of one bit: incomplete, allowed.
    lit = new int[258];
    lit['a'] = 1;
    lit[256] = 2;
    lit[257] = 2;
    w = dynamicHeader(new Bits(), true, lit, new int[] {1});
    symbols(w, lit, 'a', 257);
    w.code(0, 1); // distance 1
    symbols(w, lit, 256);
    assertThat(inflate(member(plainHeader(), w.bytes(), bytes("aaaa")), 1)).isEqualTo(bytes("aaaa"));
    // The missing bit pattern of that code.
    w = dynamicHeader(new Bits(), true, lit, new int[] {1});
    symbols(w, lit, 'a', 257);
    w.code(1, 1);
    symbols(w, lit, 256);
    assertFails(member(plainHeader(), w.bytes(), bytes("aaaa")), "no distance code");
    // A length when there is no distance code.
    w = dynamicHeader(new Bits(), true, lit, new int[] {0});
    symbols(w, lit, 'a', 257);
    w.code(0, 1);
    symbols(w, lit, 256);
    assertFails(member(plainHeader(), w.bytes(), bytes("aaaa")), "no distance code");
    // Codes of up to 15 bits (subtables), every length and distance code.
    lit = completeLengths(286);
    int[] dist = completeLengths(30);
    assertThat(Arrays.stream(lit).max().getAsInt()).isEqualTo(15);
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < 33_000; i++) {
      ops.add(Op.literal(random.nextInt(256)));
    }
    for (int d = 0; d < 30; d++) {
      for (int l = 0; l < 29; l++) {
        ops.add(Op.match(LEN_BASE[l] + random.nextInt(1 << LEN_EXTRA[l]),
            DIST_BASE[d] + random.nextInt(1 << DIST_EXTRA[d])));
      }
    }
    w = dynamicHeader(new Bits(), true, lit, dist);
    huffmanOps(w, lit, dist, ops);
    symbols(w, lit, 256);
    byte[] data = expand(new byte[0], ops);
    assertThat(inflate(member(plainHeader(), w.bytes(), data), 3)).isEqualTo(data);
    assertThat(inflate(member(plainHeader(), w.bytes(), data), 1 << 16)).isEqualTo(data);
  }

  // ---- errors ----

  @Test
  void badHeaders() throws Exception {
    byte[] good = gzipJdk(bytes("some text"));
    assertThat(assertFails(with(good, 0, 0x1e), "bad header magic")).hasMessageContaining("at compressed byte 0");
    assertThat(assertFails(with(good, 1, 0x00), "bad header magic 0x1f00"))
        .hasMessageContaining("at compressed byte 0");
    assertThat(assertFails(with(good, 2, 7), "compression method 7")).hasMessageContaining("at compressed byte 2");
    for (int flag : new int[] {0x20, 0x40, 0x80}) {
      assertThat(assertFails(with(good, 3, flag), "reserved header flags"))
          .hasMessageContaining("at compressed byte 3");
    }
    byte[] data = bytes("header crc");
    byte[] gz = member(header(FHCRC | FNAME, null, "x", null), deflate(data, 6, 0), data);
    assertThat(inflate(gz, 1)).isEqualTo(data);
    assertFails(with(gz, 12, gz[12] ^ 1), "header CRC-16 mismatch"); // the CRC-16 itself
    assertFails(with(gz, 10, 'y'), "header CRC-16 mismatch"); // the name
    assertFails(with(gz, 4, 9), "header CRC-16 mismatch"); // MTIME
    assertFails(bytes("\u001f"), "truncated input");
  }

  @Test
  void badTrailers() throws Exception {
    byte[] data = logLines(random, 10_000);
    byte[] gz = gzipJdk(data);
    int n = gz.length;
    assertThat(assertFails(with(gz, n - 8, gz[n - 8] ^ 0x10), "CRC-32 mismatch at the end of member 1"))
        .hasMessageContaining("at compressed byte " + (n - 8));
    assertFails(with(gz, n - 2, gz[n - 2] ^ 1), "ISIZE mismatch at the end of member 1");
    assertFails(concat(gz, gzipJdk(data), with(gz, n - 5, gz[n - 5] ^ 1)), "CRC-32 mismatch at the end of member 3");
    assertThat(assertFails(concat(gz, bytes("x")), "trailing garbage after member 1"))
        .hasMessageContaining("at compressed byte " + n);
    assertFails(concat(gz, new byte[] {0x1f, 0}), "trailing garbage after member 1");
    assertFails(concat(gz, new byte[4]), "trailing garbage after member 1");
    assertFails(concat(gz, new byte[] {0x1f, (byte) 0x8b}), "truncated input: the stream ended inside the gzip header");
    assertFails(Arrays.copyOf(gz, n - 1), "truncated input: the stream ended inside the gzip trailer");
  }

  @Test
  void badBlocks() throws Exception {
    // A stored block's LEN and NLEN disagree.
    byte[] data = randomBytes(random, 100);
    byte[] gz = member(plainHeader(), deflate(data, 0, 0), data);
    assertThat(inflate(gz, 1)).isEqualTo(data);
    assertThat(assertFails(with(gz, 13, gz[13] ^ 4), "stored block LEN")).hasMessageContaining("at compressed byte 11");
    // Reserved block type.
    assertFails(member(plainHeader(), new Bits().put(1, 1).put(3, 2).bytes(), new byte[0]), "reserved type 3");
    // A distance one past the start of the member's output, and one just reaching it.
    Bits w = new Bits().put(1, 1).put(1, 2);
    fixedOps(w, List.of(Op.literal('a'), Op.literal('b'), Op.match(3, 3)));
    fixedEnd(w);
    assertThat(assertFails(member(plainHeader(), w.bytes(), bytes("ab")), "distance 3 too far back"))
        .hasMessageContaining("only 2 bytes");
    w = new Bits().put(1, 1).put(1, 2);
    byte[] out = fixedOps(w, List.of(Op.literal('a'), Op.literal('b'), Op.match(5, 2)));
    fixedEnd(w);
    assertThat(inflate(member(plainHeader(), w.bytes(), out), 1)).isEqualTo(bytes("abababa"));
    // A member's first match cannot reach into the member before it.
    w = new Bits().put(1, 1).put(1, 2);
    fixedOps(w, List.of(Op.match(3, 1)));
    fixedEnd(w);
    assertFails(concat(gzipJdk(bytes("abc")), member(plainHeader(), w.bytes(), bytes("ccc"))),
        "distance 1 too far back");
    // Literal/length symbols 286 and 287, distance codes 30 and 31 (fixed blocks have codes for them).
    for (int symbol : new int[] {286, 287}) {
      w = new Bits().put(1, 1).put(1, 2);
      fixedLiteral(w, 'a');
      fixedLiteral(w, symbol);
      w.code(0, 5);
      fixedEnd(w);
      assertFails(member(plainHeader(), w.bytes(), bytes("a")), "invalid literal/length symbol " + symbol);
    }
    for (int code : new int[] {30, 31}) {
      w = new Bits().put(1, 1).put(1, 2);
      fixedLiteral(w, 'a');
      fixedLiteral(w, 257);
      w.code(code, 5);
      fixedEnd(w);
      assertFails(member(plainHeader(), w.bytes(), bytes("a")), "invalid distance symbol " + code);
    }
  }

  @Test
  void badDynamicHeaders() throws Exception {
    int[] lit = new int[257];
    lit['a'] = 1;
    lit[256] = 1;
    // Too many literal/length or distance codes.
    assertFails(member(plainHeader(), new Bits().put(1, 1).put(2, 2).put(31, 5).put(0, 5).put(15, 4).bytes(),
        new byte[0]), "288 literal/length codes");
    assertFails(member(plainHeader(), new Bits().put(1, 1).put(2, 2).put(0, 5).put(30, 5).put(15, 4).bytes(),
        new byte[0]), "31 distance codes");
    // Over-subscribed and incomplete literal/length codes, and no end-of-block code.
    lit['b'] = 1;
    assertFails(dynamicOnly(lit, new int[] {1}), "over-subscribed literal/length code");
    lit['b'] = 0;
    lit[256] = 2;
    assertFails(dynamicOnly(lit, new int[] {1}), "incomplete literal/length code");
    lit['b'] = 1;
    lit['a'] = 1;
    lit[256] = 0;
    assertFails(dynamicOnly(lit, new int[] {1}), "without an end-of-block code");
    // Distance codes: over-subscribed, and incomplete with more than one bit.
    lit = new int[257];
    lit['a'] = 1;
    lit[256] = 1;
    assertFails(dynamicOnly(lit, new int[] {1, 1, 1}), "over-subscribed distance code");
    assertFails(dynamicOnly(lit, new int[] {2, 2}), "incomplete distance code");
    // Code-length codes: over-subscribed, incomplete, a repeat with nothing before it, a repeat past the end.
    int[] clen = new int[19];
    Arrays.fill(clen, 0, 16, 4);
    clen[16] = 4;
    assertFails(dynamicRaw(257, 1, clen, new int[0]), "over-subscribed code-length code");
    clen = new int[19];
    clen[0] = 1;
    assertFails(dynamicRaw(257, 1, clen, new int[0]), "incomplete code-length code");
    clen = new int[19];
    clen[16] = 1;
    clen[0] = 2;
    clen[18] = 2;
    assertFails(dynamicRaw(257, 1, clen, new int[] {16, 0}), "repeat (16) with no length before it");
    assertFails(dynamicRaw(257, 1, clen, new int[] {18, 127, 18, 127, 0}), "repeated past the 258 codes");
  }

  @Test
  void everyPrefixDecompressesAPrefixAndFailsOnlyInFinish() throws Exception {
    byte[] a = logLines(random, 3000);
    byte[] b = randomBytes(random, 500);
    byte[] c = text(random, 2000);
    byte[] memberA = gzipJdk(a);
    byte[] memberB = member(plainHeader(), deflate(b, 0, 0), b);
    byte[] memberC = member(header(FTEXT | FEXTRA | FNAME | FCOMMENT | FHCRC, randomBytes(random, 10), "c", "cc"),
        deflate(c, 1, Deflater.HUFFMAN_ONLY), c);
    byte[] gz = concat(memberA, memberB, memberC);
    byte[] expected = concat(a, b, c);
    TreeSet<Integer> ends = new TreeSet<>(List.of(0, memberA.length, memberA.length + memberB.length, gz.length));
    assertEveryPrefix(GzipInflater::new, gz, expected, ends, "gzip: truncated input");
  }

  @Test
  void corruptedStreamsGiveTheirDataOrAnIOException() {
    List<byte[]> datas = new ArrayList<>();
    List<byte[]> streams = new ArrayList<>();
    for (Kind kind : kinds()) {
      for (int level : new int[] {0, 1, 6, 9}) {
        byte[] data = kind.make.apply(random.nextInt(20_000));
        datas.add(data);
        streams.add(member(plainHeader(), deflate(data, level, level == 9 ? Deflater.FILTERED : 0), data));
        datas.add(concat(data, data));
        streams.add(concat(member(header(FEXTRA | FNAME | FCOMMENT | FHCRC, randomBytes(random, 5), "n", "c"),
            deflate(data, level, Deflater.HUFFMAN_ONLY), data), member(plainHeader(), deflateWithFlushes(data), data)));
      }
      byte[] tiny = kind.make.apply(40);
      datas.add(tiny);
      streams.add(member(plainHeader(), deflate(tiny, 6, 0), tiny));
    }
    int failures = assertCorruptionGivesDataOrAnIOException(GzipInflater::new, streams, datas, 3000, "gzip: ");
    assertThat(failures).as("failures").isGreaterThan(2000);
  }

  @Test
  void aFailedInflaterStaysFailed() throws Exception {
    byte[] good5000 = gzipJdk(logLines(random, 5000));
    byte[] gz = with(good5000, 30, good5000[30] ^ 0x55);
    GzipInflater inflater = new GzipInflater(new Sink());
    assertThatThrownBy(() -> inflater.feed(gz, 0, gz.length)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> inflater.feed(gz, 0, 1)).isInstanceOf(IOException.class).hasMessageContaining("gzip:");
    assertThatThrownBy(inflater::finish).isInstanceOf(IOException.class);
    // The output's own failure, too.
    GzipInflater failing = new GzipInflater((bytes, offset, length) -> {
      throw new IOException("disk full");
    });
    byte[] good = gzipJdk(bytes("abc"));
    assertThatThrownBy(() -> failing.feed(good, 0, good.length)).hasMessage("disk full");
    assertThatThrownBy(failing::finish).isInstanceOf(IOException.class).hasMessageContaining("disk full");
  }

  // ---- zlib (RFC 1950) ----

  @Test
  void zlibDecompressesWhatTheJdkCompressesAtEveryLevel() throws Exception {
    TreeSet<Integer> headers = new TreeSet<>();
    for (Kind kind : kinds()) {
      for (int size : new int[] {0, 1, 2, 100, 5_000, 100_000}) {
        byte[] data = kind.make.apply(size);
        for (int level : new int[] {0, 1, 6, 9}) {
          byte[] z = zlibJdk(data, level);
          headers.add((z[0] & 0xFF) << 8 | z[1] & 0xFF);
          int maxPiece = new int[] {1, 3, 100, 5000, 1 << 16}[random.nextInt(5)];
          if (maxPiece < 100 && z.length > 50_000) {
            maxPiece = 1000;
          }
          assertThat(inflate(true, z, maxPiece)).as("%s, %d bytes, level %d, feeds of up to %d",
              kind.name, size, level, maxPiece).isEqualTo(data);
        }
      }
    }
    assertThat(headers).as("the JDK's headers: FLEVEL 0, 2 and 3").contains(0x7801, 0x789c, 0x78da);
    // Streams of up to 2 MB, a kind for each level.
    List<Kind> kinds = kinds();
    int[] levels = {0, 1, 6, 9};
    for (int i = 0; i < levels.length; i++) {
      Kind kind = kinds.get(i + 1);
      byte[] data = kind.make.apply((2 << 20) - random.nextInt(1000));
      byte[] z = zlibJdk(data, levels[i]);
      assertThat(inflate(true, z, 1 << 16)).as("%s at level %d", kind.name, levels[i]).isEqualTo(data);
      assertThat(inflate(true, z, 1 + random.nextInt(5000))).as("%s at level %d", kind.name, levels[i])
          .isEqualTo(data);
    }
  }

  @Test
  void zlibFeedsOfOneByte() throws Exception {
    for (Kind kind : kinds()) {
      byte[] data = kind.make.apply(20_000);
      for (int level : new int[] {0, 1, 9}) {
        assertThat(inflate(true, zlibJdk(data, level), 1)).as("%s at level %d", kind.name, level).isEqualTo(data);
      }
    }
  }

  @Test
  void zlibHeadersOfEveryWindowSizeAndLevel() throws Exception {
    byte[] data = logLines(random, 5000);
    byte[] z = zlibJdk(data, 6);
    for (int cinfo = 0; cinfo <= 7; cinfo++) {
      for (int flevel = 0; flevel < 4; flevel++) {
        byte[] header = zlibHeader(cinfo << 4 | 8, flevel << 6);
        byte[] changed = concat(header, Arrays.copyOfRange(z, 2, z.length));
        assertThat(inflate(true, changed, 1 + random.nextInt(100))).as("CINFO %d, FLEVEL %d", cinfo, flevel)
            .isEqualTo(data);
      }
    }
  }

  @Test
  void concatenatedZlibStreamsOneOfThemEmpty() throws Exception {
    byte[] a = logLines(random, 40_000);
    byte[] c = text(random, 70_000);
    byte[] z = concat(zlibJdk(a, 6), zlibJdk(new byte[0], 1), zlibJdk(c, 9));
    byte[] expected = concat(a, c);
    for (int maxPiece : new int[] {1, 17, 4096, 1 << 16}) {
      assertThat(inflate(true, z, maxPiece)).isEqualTo(expected);
    }
    GzipInflater inflater = GzipInflater.zlib(new Sink());
    inflater.feed(z, 0, z.length);
    inflater.finish();
    assertThat(inflater.members()).isEqualTo(3);
    assertThat(inflater.decompressedBytes()).isEqualTo(expected.length);
    // A stream that needs the window of the one before it would be refused: each starts afresh.
    assertThat(inflate(true, concat(zlibJdk(a, 1), zlibJdk(a, 1)), 1 << 16)).isEqualTo(concat(a, a));
  }

  @Test
  void zlibNoInputIsNoOutput() throws Exception {
    Sink sink = new Sink();
    GzipInflater inflater = GzipInflater.zlib(sink);
    inflater.finish();
    assertThat(sink.bytes.size()).isZero();
    inflater = GzipInflater.zlib(sink);
    inflater.feed(new byte[3], 1, 0);
    inflater.finish();
    assertThat(inflater.compressedBytes()).isZero();
    assertThat(inflater.decompressedBytes()).isZero();
    assertThat(inflater.members()).isZero();
    GzipInflater done = inflater;
    assertThatThrownBy(() -> done.feed(new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("zlib: ");
    assertThat(inflate(true, zlibJdk(new byte[0], 6), 1)).isEmpty();
  }

  @Test
  void badZlibHeaders() throws Exception {
    byte[] data = bytes("some text, some text, some more text");
    byte[] z = zlibJdk(data, 6);
    assertThat(inflate(true, z, 1)).isEqualTo(data);
    byte[] rest = Arrays.copyOfRange(z, 2, z.length);
    assertThat(assertFails(true, concat(zlibHeader(0x77, 0), rest), "unsupported compression method 7"))
        .hasMessageContaining("at compressed byte 0");
    assertThat(assertFails(true, concat(zlibHeader(0x88, 0x80), rest), "window size CINFO 8"))
        .hasMessageContaining("at compressed byte 0");
    assertFails(true, concat(zlibHeader(0xF8, 0x80), rest), "window size CINFO 15");
    for (int flg = 0x9d; flg < 0x9d + 30; flg++) {
      assertThat(assertFails(true, with(z, 1, flg), "bad zlib header check"))
          .hasMessageContaining(String.format("0x78%02x", flg)).hasMessageContaining("at compressed byte 0");
    }
    // FDICT set with a good FCHECK (what zlib writes with a dictionary: 78 bb and the dictionary's Adler-32).
    byte[] dict = concat(new byte[] {0x78, (byte) 0xbb, 0, 0, 0, 1}, rest);
    assertThat(assertFails(true, dict, "a preset dictionary is not supported"))
        .hasMessageContaining("stream 1").hasMessageContaining("at compressed byte 1");
    assertThat(assertFails(true, concat(z, dict), "a preset dictionary is not supported"))
        .hasMessageContaining("stream 2").hasMessageContaining("at compressed byte " + (z.length + 1));
    // Neither wrapper is the other.
    assertFails(true, gzipJdk(data), "unsupported compression method 15");
    assertFails(false, z, "bad header magic");
    assertFails(true, bytes("x"), "truncated input: the stream ended inside the zlib header of stream 1");
  }

  @Test
  void badZlibTrailersAndTrailingGarbage() throws Exception {
    byte[] data = logLines(random, 10_000);
    byte[] z = zlibJdk(data, 6);
    int n = z.length;
    Adler32 adler = new Adler32();
    adler.update(data);
    for (int i = 0; i < 4; i++) {
      IOException e = assertFails(true, with(z, n - 4 + i, z[n - 4 + i] ^ 0x10), "Adler-32 mismatch at the end of stream 1");
      assertThat(e).hasMessageStartingWith("zlib: ").hasMessageContaining("at compressed byte " + (n - 4))
          .hasMessageContaining(String.format("computed 0x%08x", adler.getValue()));
    }
    assertFails(true, concat(z, zlibJdk(data, 1), with(z, n - 1, z[n - 1] ^ 1)), "Adler-32 mismatch at the end of stream 3");
    // Corrupted data whose Adler-32 is wrong: a stored block's byte.
    byte[] stored = zlibJdk(data, 0);
    assertFails(true, with(stored, 100, stored[100] ^ 1), "Adler-32 mismatch at the end of stream 1");
    assertThat(assertFails(true, concat(z, bytes("!")), "trailing garbage after stream 1: byte 0x21"))
        .hasMessageContaining("does not start a zlib stream").hasMessageContaining("at compressed byte " + n);
    assertFails(true, concat(z, bytes("x")), "truncated input"); // 0x78 could start one
    assertThat(assertFails(true, concat(z, new byte[] {0x78, 0}), "trailing garbage after stream 1: 0x7800"))
        .hasMessageContaining("at compressed byte " + n);
    assertFails(true, concat(z, new byte[4]), "trailing garbage after stream 1");
    assertFails(true, concat(z, zlibJdk(data, 1), bytes("\n")), "trailing garbage after stream 2");
    assertFails(true, concat(z, gzipJdk(data)), "trailing garbage after stream 1");
    assertFails(true, concat(z, new byte[] {0x78}), "truncated input: the stream ended inside the zlib header of stream 2");
    assertThat(assertFails(true, concat(z, new byte[] {0x78, (byte) 0x9c}),
        "truncated input: the stream ended inside the deflate data of stream 2"))
        .hasMessageContaining("at compressed byte " + (n + 2));
    assertFails(true, Arrays.copyOf(z, n - 1), "truncated input: the stream ended inside the zlib trailer of stream 1");
    assertFails(true, Arrays.copyOf(z, n - 4), "truncated input: the stream ended inside the zlib trailer of stream 1");
    assertFails(true, Arrays.copyOf(z, n / 2), "truncated input: the stream ended inside the deflate data of stream 1");
    // Back-references stay inside their stream.
    Bits w = new Bits().put(1, 1).put(1, 2);
    fixedOps(w, List.of(Op.match(3, 1)));
    fixedEnd(w);
    assertThat(assertFails(true, concat(zlibJdk(bytes("abc"), 6), zlibStream(w.bytes(), bytes("ccc"))),
        "distance 1 too far back")).hasMessageContaining("only 0 bytes decompressed in this stream");
  }

  @Test
  void zlibEveryPrefixDecompressesAPrefixAndFailsOnlyInFinish() throws Exception {
    byte[] a = logLines(random, 3000);
    byte[] b = randomBytes(random, 500);
    byte[] c = text(random, 2000);
    byte[] streamA = zlibJdk(a, 6);
    byte[] streamB = zlibJdk(b, 0);
    byte[] empty = zlibJdk(new byte[0], 9);
    byte[] streamC = zlibJdk(c, 1);
    byte[] z = concat(streamA, streamB, empty, streamC);
    byte[] expected = concat(a, b, c);
    int ab = streamA.length + streamB.length;
    TreeSet<Integer> ends = new TreeSet<>(List.of(0, streamA.length, ab, ab + empty.length, z.length));
    assertEveryPrefix(GzipInflater::zlib, z, expected, ends, "zlib: truncated input");
  }

  @Test
  void corruptedZlibStreamsGiveTheirDataOrAnIOException() {
    List<byte[]> datas = new ArrayList<>();
    List<byte[]> streams = new ArrayList<>();
    for (Kind kind : kinds()) {
      for (int level : new int[] {0, 1, 6, 9}) {
        byte[] data = kind.make.apply(random.nextInt(20_000));
        datas.add(data);
        streams.add(zlibJdk(data, level));
        datas.add(concat(data, data));
        streams.add(concat(zlibJdk(data, level), zlibJdk(data, 9 - level)));
      }
      byte[] tiny = kind.make.apply(40);
      datas.add(tiny);
      streams.add(zlibJdk(tiny, 6));
    }
    int failures = assertCorruptionGivesDataOrAnIOException(GzipInflater::zlib, streams, datas, 2000, "zlib: ");
    assertThat(failures).as("failures").isGreaterThan(1500);
  }

  // ---- reset() ----

  @Test
  void resetReadsAThousandSmallStreamsWithOneInstance() throws Exception {
    Sink sink = new Sink();
    GzipInflater inflater = GzipInflater.zlib(sink);
    List<Kind> kinds = kinds();
    int[] levels = {0, 1, 6, 9};
    for (int i = 0; i < 1000; i++) {
      byte[] value = kinds.get(i % kinds.size()).make.apply(random.nextInt(501));
      byte[] z = zlibJdk(value, levels[i / 5 % 4]);
      if (i % 50 == 7) { // half of another stream first, then reset without finish()
        byte[] other = zlibJdk(logLines(random, 300), 6);
        feed(inflater, other, other.length / 2, 64);
        inflater.reset();
      }
      sink.bytes.reset();
      feed(inflater, z, z.length, i % 10 == 0 ? 1 : 1 + random.nextInt(600));
      inflater.finish();
      assertThat(sink.bytes.toByteArray()).as("value %d", i).isEqualTo(value);
      assertThat(inflater.compressedBytes()).as("value %d", i).isEqualTo(z.length);
      assertThat(inflater.decompressedBytes()).as("value %d", i).isEqualTo(value.length);
      assertThat(inflater.members()).as("value %d", i).isEqualTo(1);
      inflater.reset();
      assertThat(inflater.compressedBytes()).isZero();
      assertThat(inflater.decompressedBytes()).isZero();
      assertThat(inflater.members()).isZero();
    }
    inflater.finish(); // nothing fed since the reset: no input, no output
    assertThat(sink.bytes.size()).as("the last value's bytes only").isLessThanOrEqualTo(500);
  }

  @Test
  void resetAfterAFailureOrAFinish() throws Exception {
    byte[] good = logLines(random, 5000);
    byte[] z = zlibJdk(good, 6);
    Sink sink = new Sink();
    GzipInflater inflater = GzipInflater.zlib(sink);
    byte[] bad = with(z, z.length - 2, z[z.length - 2] ^ 1);
    assertThatThrownBy(() -> inflater.feed(bad, 0, bad.length)).isInstanceOf(ZipException.class)
        .hasMessageContaining("Adler-32 mismatch");
    assertThatThrownBy(() -> inflater.feed(z, 0, z.length)).isInstanceOf(IOException.class)
        .hasMessageContaining("failed earlier");
    assertThatThrownBy(inflater::finish).isInstanceOf(IOException.class);
    inflater.reset();
    assertThat(inflater.compressedBytes()).isZero();
    assertThat(inflater.decompressedBytes()).isZero();
    sink.bytes.reset();
    feed(inflater, z, z.length, 100);
    inflater.finish();
    assertThat(sink.bytes.toByteArray()).isEqualTo(good);
    // Failed mid-block, with output not yet written out.
    byte[] midBlock = with(z, z.length / 2, z[z.length / 2] ^ 0x5a);
    inflater.reset();
    try {
      inflater.feed(midBlock, 0, midBlock.length);
      inflater.finish();
    } catch (IOException expected) {
      // the usual: corrupt data or a checksum mismatch
    }
    inflater.reset();
    sink.bytes.reset();
    feed(inflater, z, z.length, 1 + random.nextInt(1000));
    inflater.finish();
    assertThat(sink.bytes.toByteArray()).isEqualTo(good);
    // After finish(), only a reset makes it take input again.
    assertThatThrownBy(() -> inflater.feed(z, 0, 1)).isInstanceOf(IllegalStateException.class);
    inflater.reset();
    sink.bytes.reset();
    inflater.feed(z, 0, z.length);
    inflater.finish();
    assertThat(sink.bytes.toByteArray()).isEqualTo(good);
    // The output's own failure.
    boolean[] fail = {true};
    Sink after = new Sink();
    GzipInflater failing = GzipInflater.zlib((bytes, offset, length) -> {
      if (fail[0]) {
        throw new IOException("disk full");
      }
      after.write(bytes, offset, length);
    });
    assertThatThrownBy(() -> failing.feed(z, 0, z.length)).hasMessage("disk full");
    assertThatThrownBy(failing::finish).isInstanceOf(IOException.class).hasMessageContaining("disk full");
    fail[0] = false;
    failing.reset();
    failing.feed(z, 0, z.length);
    failing.finish();
    assertThat(after.bytes.toByteArray()).isEqualTo(good);
    // Not from the output during a feed.
    GzipInflater[] self = new GzipInflater[1];
    self[0] = GzipInflater.zlib((bytes, offset, length) -> self[0].reset());
    assertThatThrownBy(() -> self[0].feed(z, 0, z.length)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("reset() during a feed");
  }

  @Test
  void resetInGzipMode() throws Exception {
    byte[] a = logLines(random, 50_000);
    byte[] b = text(random, 3000);
    Sink sink = new Sink();
    GzipInflater inflater = new GzipInflater(sink);
    byte[] gzA = gzipJdk(a);
    inflater.feed(gzA, 0, gzA.length);
    inflater.finish();
    inflater.reset();
    byte[] gzB = concat(gzipJdk(b), gzipJdk(b));
    sink.bytes.reset();
    feed(inflater, gzB, gzB.length, 1 + random.nextInt(100));
    inflater.finish();
    assertThat(sink.bytes.toByteArray()).isEqualTo(concat(b, b));
    assertThat(inflater.members()).isEqualTo(2);
    assertThat(inflater.compressedBytes()).isEqualTo(gzB.length);
    // Truncated in the header, reset, then a whole member; failed, reset, then a whole member.
    inflater.reset();
    inflater.feed(gzA, 0, 5);
    assertThatThrownBy(inflater::finish).hasMessageContaining("gzip: truncated input");
    inflater.reset();
    sink.bytes.reset();
    feed(inflater, gzA, gzA.length, 1 << 16);
    inflater.finish();
    assertThat(sink.bytes.toByteArray()).isEqualTo(a);
    inflater.reset();
    byte[] bad = with(gzA, 0, 0x1e);
    assertThatThrownBy(() -> inflater.feed(bad, 0, bad.length)).hasMessageContaining("gzip: bad header magic");
    inflater.reset();
    sink.bytes.reset();
    inflater.feed(gzA, 0, gzA.length);
    inflater.finish();
    assertThat(sink.bytes.toByteArray()).isEqualTo(a);
  }

  @Test
  void afterResetNoBackReferenceReachesTheOutputBeforeIt() throws Exception {
    // Distance 1 as the very first thing: only ever valid with earlier output in the window.
    Bits w = new Bits().put(1, 1).put(1, 2);
    fixedOps(w, List.of(Op.match(3, 1)));
    fixedEnd(w);
    byte[] raw = w.bytes();
    byte[] zlibFirst = zlibStream(raw, bytes("ccc"));
    byte[] gzipFirst = member(plainHeader(), raw, bytes("ccc"));
    // With a literal first it is fine.
    w = new Bits().put(1, 1).put(1, 2);
    byte[] cccc = fixedOps(w, List.of(Op.literal('c'), Op.match(3, 1)));
    fixedEnd(w);
    byte[] zlibFine = zlibStream(w.bytes(), cccc);
    assertThat(inflate(true, zlibFine, 1)).isEqualTo(bytes("cccc"));
    for (int before : new int[] {3, 100_000, 600_000}) { // within, across and past the buffer's turn
      byte[] earlier = text(random, before);
      for (boolean zlib : new boolean[] {true, false}) {
        Sink sink = new Sink();
        GzipInflater inflater = zlib ? GzipInflater.zlib(sink) : new GzipInflater(sink);
        byte[] first = zlib ? zlibJdk(earlier, 6) : gzipJdk(earlier);
        inflater.feed(first, 0, first.length);
        inflater.finish();
        assertThat(inflater.decompressedBytes()).isEqualTo(before);
        inflater.reset();
        byte[] second = zlib ? zlibFirst : gzipFirst;
        ZipException e = org.junit.jupiter.api.Assertions.assertThrows(ZipException.class,
            () -> inflater.feed(second, 0, second.length));
        assertThat(e).hasMessageStartingWith(zlib ? "zlib: " : "gzip: ")
            .hasMessageContaining("distance 1 too far back: only 0 bytes decompressed in this "
                + (zlib ? "stream" : "member"))
            .hasMessageContaining("at compressed byte " + (zlib ? 3 : 11)); // the distance code's first bit
        // Also when the earlier stream was left half read.
        inflater.reset();
        inflater.feed(first, 0, first.length / 2);
        inflater.reset();
        assertThatThrownBy(() -> inflater.feed(second, 0, second.length)).isInstanceOf(ZipException.class)
            .hasMessageContaining("distance 1 too far back");
        if (zlib) {
          inflater.reset();
          sink.bytes.reset();
          inflater.feed(zlibFine, 0, zlibFine.length);
          inflater.finish();
          assertThat(sink.bytes.toByteArray()).isEqualTo(bytes("cccc"));
        }
      }
    }
  }

  @Test
  void resetAndSmallStreamsAllocateNothing() throws Exception {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
    long[] sum = new long[1];
    GzipInflater inflater = GzipInflater.zlib((bytes, offset, length) -> sum[0] += bytes[offset] + length);
    byte[][] streams = {zlibJdk(logLines(random, 400), 6), zlibJdk(randomBytes(random, 300), 0),
        zlibJdk(text(random, 500), 9), zlibJdk(new byte[0], 1)};
    long thread = Thread.currentThread().getId();
    long allocated = 0;
    for (int round = 0; round < 2; round++) { // the first warms up
      long before = threads.getThreadAllocatedBytes(thread);
      for (int i = 0; i < 20_000; i++) {
        byte[] z = streams[i & 3];
        inflater.reset();
        inflater.feed(z, 0, z.length);
        inflater.finish();
      }
      allocated = threads.getThreadAllocatedBytes(thread) - before;
    }
    assertThat(allocated).as("bytes allocated for 20,000 streams").isLessThan(20_000);
    assertThat(sum[0]).isNotZero();
  }

  // ---- feeding ----

  /** Collects the output, checking its pieces. */
  /**
   * Every prefix of {@code stream} decompresses to a prefix of {@code expected}, and {@code finish}
   * succeeds exactly at the offsets in {@code ends} (stream or member boundaries), failing elsewhere
   * with a message starting {@code truncated}.
   */
  private void assertEveryPrefix(java.util.function.Function<GzipInflater.Output, GzipInflater> make, byte[] stream,
      byte[] expected, java.util.Set<Integer> ends, String truncated) throws IOException {
    for (int length = 0; length <= stream.length; length++) {
      Sink sink = new Sink();
      GzipInflater inflater = make.apply(sink);
      feed(inflater, stream, length, 1 + random.nextInt(length % 7 == 0 ? 1 : 64));
      byte[] out = sink.bytes.toByteArray();
      assertThat(out).as("prefix %d", length).isEqualTo(Arrays.copyOf(expected, out.length));
      if (ends.contains(length)) {
        inflater.finish();
      } else {
        int cut = length;
        assertThatThrownBy(inflater::finish).as("prefix %d", cut)
            .isInstanceOf(IOException.class).hasMessageStartingWith(truncated);
      }
    }
  }

  /**
   * {@code rounds} random corruptions (1 to 3 bytes) of the streams, each fed in random pieces: each
   * gives its stream's data or an IOException whose message starts {@code prefix}, within 60 s.
   *
   * @return how many failed
   */
  private int assertCorruptionGivesDataOrAnIOException(java.util.function.Function<GzipInflater.Output, GzipInflater>
      make, List<byte[]> streams, List<byte[]> datas, int rounds, String prefix) {
    int[] failures = new int[1];
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      for (int round = 0; round < rounds; round++) {
        int which = random.nextInt(streams.size());
        byte[] damaged = streams.get(which).clone();
        int changes = 1 + random.nextInt(3);
        for (int i = 0; i < changes; i++) {
          int at = random.nextInt(damaged.length);
          if (random.nextBoolean()) {
            damaged[at] ^= (byte) (1 << random.nextInt(8));
          } else {
            damaged[at] = (byte) random.nextInt(256);
          }
        }
        Sink sink = new Sink();
        GzipInflater inflater = make.apply(sink);
        try {
          feed(inflater, damaged, damaged.length, 1 + random.nextInt(round % 2 == 0 ? 8 : 4096));
          inflater.finish();
          assertThat(sink.bytes.toByteArray()).as("round %d: no error, so its data", round).isEqualTo(datas.get(which));
        } catch (IOException e) {
          assertThat(e).hasMessageStartingWith(prefix);
          failures[0]++;
        }
      }
    });
    return failures[0];
  }

  private static final class Sink implements GzipInflater.Output {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public void write(byte[] b, int offset, int length) throws IOException {
      assertThat(length).as("a piece's length").isBetween(1, 32768);
      bytes.write(b, offset, length);
      if (bytes.size() > 50_000_000) {
        throw new IOException("gzip: a corrupted stream's output is too long for the test");
      }
    }
  }

  /** Decompresses gz fed in pieces of 1..maxPiece bytes, checking the counters. */
  private byte[] inflate(byte[] gz, int maxPiece) throws IOException {
    return inflate(false, gz, maxPiece);
  }

  /** The same, of gzip members or zlib streams. */
  private byte[] inflate(boolean zlib, byte[] gz, int maxPiece) throws IOException {
    Sink sink = new Sink();
    GzipInflater inflater = zlib ? GzipInflater.zlib(sink) : new GzipInflater(sink);
    feed(inflater, gz, gz.length, maxPiece);
    inflater.finish();
    assertThat(inflater.compressedBytes()).isEqualTo(gz.length);
    assertThat(inflater.decompressedBytes()).isEqualTo(sink.bytes.size());
    return sink.bytes.toByteArray();
  }

  /** Feeds gz[0, length) in random pieces, each from one reused array scribbled over after the feed. */
  private void feed(GzipInflater inflater, byte[] gz, int length, int maxPiece) throws IOException {
    byte[] scratch = new byte[Math.min(maxPiece, Math.max(length, 1)) + 8];
    for (int at = 0; at < length; ) {
      int n = 1 + random.nextInt(Math.min(maxPiece, length - at));
      int offset = random.nextInt(8);
      System.arraycopy(gz, at, scratch, offset, n);
      inflater.feed(scratch, offset, n);
      Arrays.fill(scratch, offset, offset + n, (byte) 0xA5);
      if (random.nextInt(16) == 0) {
        inflater.feed(scratch, 0, 0);
      }
      at += n;
    }
  }

  private IOException assertFails(byte[] gz, String message) {
    return assertFails(false, gz, message);
  }

  /** Fails fed a byte at a time and all at once, with this in the message, as gzip or zlib. */
  private IOException assertFails(boolean zlib, byte[] gz, String message) {
    for (int maxPiece : new int[] {1, 1 << 16}) {
      Sink sink = new Sink();
      GzipInflater inflater = zlib ? GzipInflater.zlib(sink) : new GzipInflater(sink);
      IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> {
        feed(inflater, gz, gz.length, maxPiece);
        inflater.finish();
      });
      assertThat(e).hasMessageStartingWith(zlib ? "zlib: " : "gzip: ").hasMessageContaining(message)
          .hasMessageContaining(" at compressed byte ");
      if (maxPiece > 1) {
        return e;
      }
    }
    throw new AssertionError();
  }

  // ---- the oracle: streams from the JDK, and hand-made ones ----

  private static final int FTEXT = 1;
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  static byte[] gzipJdk(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }

  /** Raw deflate data, no header or trailer. */
  static byte[] deflate(byte[] data, int level, int strategy) {
    Deflater deflater = new Deflater(level, true);
    deflater.setStrategy(strategy);
    deflater.setInput(data);
    deflater.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[1 << 16];
    while (!deflater.finished()) {
      out.write(buffer, 0, deflater.deflate(buffer));
    }
    deflater.end();
    return out.toByteArray();
  }

  /** A zlib stream (RFC 1950) from the JDK's Deflater: header, deflate data, Adler-32. */
  static byte[] zlibJdk(byte[] data, int level) {
    Deflater deflater = new Deflater(level, false);
    deflater.setInput(data);
    deflater.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[1 << 16];
    while (!deflater.finished()) {
      out.write(buffer, 0, deflater.deflate(buffer));
    }
    deflater.end();
    return out.toByteArray();
  }

  /** A zlib header of this CMF and FLG, with FLG's FCHECK bits set to make it a multiple of 31. */
  static byte[] zlibHeader(int cmf, int flg) {
    flg &= 0xE0;
    flg |= (31 - (cmf << 8 | flg) % 31) % 31;
    return new byte[] {(byte) cmf, (byte) flg};
  }

  /** A zlib stream: a plain header (78 01), the raw deflate data, and the Adler-32 of data. */
  static byte[] zlibStream(byte[] raw, byte[] data) {
    Adler32 adler = new Adler32();
    adler.update(data);
    long value = adler.getValue();
    byte[] trailer = {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    return concat(zlibHeader(0x78, 0), raw, trailer);
  }

  /** Raw deflate data in many blocks: levels and strategies changed, sync and full flushes (empty stored blocks). */
  private byte[] deflateWithFlushes(byte[] data) {
    Deflater deflater = new Deflater(6, true);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[1 << 16];
    for (int at = 0; at < data.length; ) {
      int n = Math.min(data.length - at, 1 + random.nextInt(40_000));
      deflater.setLevel(new int[] {0, 1, 6, 9}[random.nextInt(4)]);
      int[] strategies = {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY};
      deflater.setStrategy(strategies[random.nextInt(3)]);
      deflater.setInput(data, at, n);
      int flush = new int[] {Deflater.NO_FLUSH, Deflater.SYNC_FLUSH, Deflater.FULL_FLUSH}[random.nextInt(3)];
      int written;
      do {
        written = deflater.deflate(buffer, 0, buffer.length, flush);
        out.write(buffer, 0, written);
      } while (written == buffer.length || !deflater.needsInput());
      at += n;
    }
    deflater.finish();
    while (!deflater.finished()) {
      out.write(buffer, 0, deflater.deflate(buffer));
    }
    deflater.end();
    return out.toByteArray();
  }

  static byte[] plainHeader() {
    return new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
  }

  /** A header with these flags and fields (null: absent), with its CRC-16 when FHCRC is set. */
  static byte[] header(int flags, byte[] extra, String name, String comment) {
    ByteArrayOutputStream h = new ByteArrayOutputStream();
    h.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, (byte) flags, 1, 2, 3, 4, 2, 3});
    if ((flags & FEXTRA) != 0) {
      h.write(extra.length);
      h.write(extra.length >>> 8);
      h.writeBytes(extra);
    }
    if ((flags & FNAME) != 0) {
      h.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
      h.write(0);
    }
    if ((flags & FCOMMENT) != 0) {
      h.writeBytes(comment.getBytes(StandardCharsets.ISO_8859_1));
      h.write(0);
    }
    if ((flags & FHCRC) != 0) {
      CRC32 crc = new CRC32();
      crc.update(h.toByteArray());
      h.write((int) crc.getValue());
      h.write((int) crc.getValue() >>> 8);
    }
    return h.toByteArray();
  }

  /** A member: the header, the raw deflate data, and the trailer of data. */
  static byte[] member(byte[] header, byte[] raw, byte[] data) {
    CRC32 crc = new CRC32();
    crc.update(data);
    byte[] trailer = new byte[8];
    for (int i = 0; i < 4; i++) {
      trailer[i] = (byte) (crc.getValue() >>> (8 * i));
      trailer[4 + i] = (byte) (data.length >>> (8 * i));
    }
    return concat(header, raw, trailer);
  }

  /** Writes bits first bit first, as deflate packs them. */
  static final class Bits {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private long acc;
    private int n;

    /** The value's count low bits, lowest first (header fields, extra bits). */
    Bits put(int value, int count) {
      acc |= (long) (value & ((1 << count) - 1)) << n;
      n += count;
      while (n >= 8) {
        out.write((int) acc);
        acc >>>= 8;
        n -= 8;
      }
      return this;
    }

    /** A Huffman code, its highest bit first. */
    Bits code(int code, int length) {
      for (int i = length - 1; i >= 0; i--) {
        put(code >>> i, 1);
      }
      return this;
    }

    Bits align() {
      return n % 8 == 0 ? this : put(0, 8 - n % 8);
    }

    byte[] bytes() {
      align();
      return out.toByteArray();
    }
  }

  // RFC 1951 3.2.5.
  static final int[] LEN_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
      115, 131, 163, 195, 227, 258};
  static final int[] LEN_EXTRA = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5,
      0};
  static final int[] DIST_BASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
      1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  static final int[] DIST_EXTRA = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
      12, 12, 13, 13};

  static int lengthCode(int length) {
    int c = LEN_BASE.length - 1;
    while (LEN_BASE[c] > length) {
      c--;
    }
    return c;
  }

  static int distanceCode(int distance) {
    int c = DIST_BASE.length - 1;
    while (DIST_BASE[c] > distance) {
      c--;
    }
    return c;
  }

  /** A literal or a length/distance pair. */
  record Op(int literal, int length, int distance) {
    static Op literal(int b) {
      return new Op(b, 0, 0);
    }

    static Op match(int length, int distance) {
      return new Op(-1, length, distance);
    }
  }

  /** history followed by what ops make of it; null when a match reaches before the start. */
  static byte[] expand(byte[] history, List<Op> ops) {
    int size = history.length;
    for (Op op : ops) {
      size += op.literal >= 0 ? 1 : op.length;
    }
    byte[] out = Arrays.copyOf(history, size);
    int at = history.length;
    for (Op op : ops) {
      if (op.literal >= 0) {
        out[at++] = (byte) op.literal;
      } else if (op.distance > at) {
        return null;
      } else {
        for (int i = 0; i < op.length; i++, at++) {
          out[at] = out[at - op.distance];
        }
      }
    }
    return out;
  }

  static void fixedLiteral(Bits w, int symbol) {
    if (symbol < 144) {
      w.code(0x30 + symbol, 8);
    } else if (symbol < 256) {
      w.code(0x190 + symbol - 144, 9);
    } else if (symbol < 280) {
      w.code(symbol - 256, 7);
    } else {
      w.code(0xC0 + symbol - 280, 8);
    }
  }

  /** Writes ops with the fixed code; returns what they make from nothing. */
  static byte[] fixedOps(Bits w, List<Op> ops) {
    for (Op op : ops) {
      if (op.literal >= 0) {
        fixedLiteral(w, op.literal);
      } else {
        int l = lengthCode(op.length);
        fixedLiteral(w, 257 + l);
        w.put(op.length - LEN_BASE[l], LEN_EXTRA[l]);
        int d = distanceCode(op.distance);
        w.code(d, 5);
        w.put(op.distance - DIST_BASE[d], DIST_EXTRA[d]);
      }
    }
    return expand(new byte[0], ops);
  }

  /** Writes ops with the canonical codes of these lengths. */
  static void huffmanOps(Bits w, int[] lit, int[] dist, List<Op> ops) {
    int[] litCodes = canonical(lit);
    int[] distCodes = canonical(dist);
    for (Op op : ops) {
      if (op.literal >= 0) {
        w.code(litCodes[op.literal], lit[op.literal]);
      } else {
        int l = lengthCode(op.length);
        w.code(litCodes[257 + l], lit[257 + l]);
        w.put(op.length - LEN_BASE[l], LEN_EXTRA[l]);
        int d = distanceCode(op.distance);
        w.code(distCodes[d], dist[d]);
        w.put(op.distance - DIST_BASE[d], DIST_EXTRA[d]);
      }
    }
  }

  static void fixedEnd(Bits w) {
    w.code(0, 7);
  }

  static void storedBlock(Bits w, boolean last, byte[] data) {
    w.put(last ? 1 : 0, 1).put(0, 2).align();
    w.put(data.length, 16).put(~data.length, 16);
    for (byte b : data) {
      w.put(b, 8);
    }
  }

  /** Canonical Huffman codes of these lengths (RFC 1951 3.2.2). */
  static int[] canonical(int[] lengths) {
    int[] count = new int[16];
    for (int l : lengths) {
      count[l]++;
    }
    count[0] = 0;
    int[] next = new int[16];
    for (int bits = 1, code = 0; bits < 16; bits++) {
      code = (code + count[bits - 1]) << 1;
      next[bits] = code;
    }
    int[] codes = new int[lengths.length];
    for (int s = 0; s < lengths.length; s++) {
      if (lengths[s] != 0) {
        codes[s] = next[lengths[s]]++;
      }
    }
    return codes;
  }

  /** Complete code lengths for n symbols, very uneven: 1, 2, 3... bits for the first, 15 for most. */
  static int[] completeLengths(int n) {
    int[] lengths = new int[n];
    for (int s = 0; s < n; s++) {
      lengths[s] = 15;
    }
    // Kraft: raise lengths from the start until the sum is exactly 1.
    long space = 1L << 15;
    long used = (long) n;
    for (int s = 0; s < n && used < space; s++) {
      while (lengths[s] > 1 && used + (1L << (15 - lengths[s] + 1)) - (1L << (15 - lengths[s])) <= space
          && (s == 0 || lengths[s] > lengths[s - 1])) {
        used += (1L << (15 - lengths[s] + 1)) - (1L << (15 - lengths[s]));
        lengths[s]--;
      }
    }
    assertThat(used).as("a complete code").isEqualTo(space);
    return lengths;
  }

  /** A dynamic block's header whose code-length code gives each of 0..15 four bits: lengths written one by one. */
  static Bits dynamicHeader(Bits w, boolean last, int[] lit, int[] dist) {
    int[] clen = new int[19];
    Arrays.fill(clen, 0, 16, 4);
    int[] symbols = new int[lit.length + dist.length];
    for (int i = 0; i < lit.length; i++) {
      symbols[i] = lit[i];
    }
    for (int i = 0; i < dist.length; i++) {
      symbols[lit.length + i] = dist[i];
    }
    return dynamicHeader(w, last, lit.length, dist.length, clen, symbols);
  }

  private static final int[] CLEN_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

  /**
   * A dynamic block's header: the code-length code's lengths, then these code-length symbols (16, 17
   * and 18 each followed by the value of its extra bits).
   */
  static Bits dynamicHeader(Bits w, boolean last, int hlit, int hdist, int[] clen, int[] symbols) {
    w.put(last ? 1 : 0, 1).put(2, 2).put(hlit - 257, 5).put(hdist - 1, 5).put(15, 4);
    for (int i = 0; i < 19; i++) {
      w.put(clen[CLEN_ORDER[i]], 3);
    }
    int[] codes = canonical(clen);
    for (int i = 0; i < symbols.length; i++) {
      int s = symbols[i];
      w.code(codes[s], clen[s]);
      if (s >= 16) {
        w.put(symbols[++i], s == 16 ? 2 : s == 17 ? 3 : 7);
      }
    }
    return w;
  }

  static void symbols(Bits w, int[] lengths, int... symbols) {
    int[] codes = canonical(lengths);
    for (int s : symbols) {
      w.code(codes[s], lengths[s]);
    }
  }

  /** A member of one dynamic block with these lengths and only an end-of-block code after them. */
  static byte[] dynamicOnly(int[] lit, int[] dist) {
    Bits w = dynamicHeader(new Bits(), true, lit, dist);
    if (lit[256] != 0) {
      symbols(w, lit, 256);
    }
    return member(plainHeader(), w.bytes(), new byte[0]);
  }

  static byte[] dynamicRaw(int hlit, int hdist, int[] clen, int[] symbols) {
    return member(plainHeader(), dynamicHeader(new Bits(), true, hlit, hdist, clen, symbols).bytes(), new byte[0]);
  }

  // ---- data ----

  record Kind(String name, IntFunction<byte[]> make) {}

  private List<Kind> kinds() {
    return List.of(
        new Kind("random bytes", n -> randomBytes(random, n)),
        new Kind("repetitive text", n -> text(random, n)),
        new Kind("log lines", n -> logLines(random, n)),
        new Kind("long runs", n -> runs(random, n)),
        new Kind("far back-references", n -> farReferences(random, n)));
  }

  static byte[] randomBytes(Random random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  static byte[] text(Random random, int n) {
    String[] words = {"the ", "quick ", "brown ", "fox ", "jumps ", "over ", "lazy ", "dog ", "and ", "again\n"};
    StringBuilder s = new StringBuilder(n + 16);
    while (s.length() < n) {
      s.append(words[random.nextInt(words.length)]);
    }
    return Arrays.copyOf(s.toString().getBytes(StandardCharsets.US_ASCII), n);
  }

  static byte[] logLines(Random random, int n) {
    String[] levels = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    String[] messages = {"request served", "cache miss for key", "connection reset by peer", "slow query",
        "user logged in", "block report from datanode", "checkpoint done"};
    StringBuilder s = new StringBuilder(n + 200);
    long time = 1_700_000_000_000L;
    while (s.length() < n) {
      time += random.nextInt(2000);
      s.append("2024-05-01T").append(time / 3_600_000 % 24).append(':').append(time / 60_000 % 60).append(':')
          .append(time / 1000 % 60).append('.').append(time % 1000).append(' ').append(levels[random.nextInt(6)])
          .append(" [worker-").append(random.nextInt(16)).append("] ").append(messages[random.nextInt(7)])
          .append(" id=").append(random.nextInt(100_000)).append(" ip=10.0.").append(random.nextInt(256)).append('.')
          .append(random.nextInt(256)).append(" latency=").append(random.nextInt(900)).append("ms\n");
    }
    return Arrays.copyOf(s.toString().getBytes(StandardCharsets.US_ASCII), n);
  }

  static byte[] runs(Random random, int n) {
    byte[] b = new byte[n];
    for (int at = 0; at < n; ) {
      int run = Math.min(n - at, 1 + random.nextInt(random.nextBoolean() ? 10 : 5000));
      Arrays.fill(b, at, at + run, (byte) random.nextInt(4));
      at += run;
    }
    return b;
  }

  /** Random bytes, with copies from between 30000 and 32500 bytes back (zlib's farthest is 32506). */
  static byte[] farReferences(Random random, int n) {
    byte[] b = new byte[n];
    int at = Math.min(n, 33_000);
    for (int i = 0; i < at; i++) {
      b[i] = (byte) random.nextInt(256);
    }
    while (at < n) {
      if (random.nextInt(3) == 0) {
        int run = Math.min(n - at, 1 + random.nextInt(30));
        for (int i = 0; i < run; i++) {
          b[at++] = (byte) random.nextInt(256);
        }
      } else {
        int distance = 30_000 + random.nextInt(2500);
        int run = Math.min(n - at, 3 + random.nextInt(400));
        for (int i = 0; i < run; i++, at++) {
          b[at] = b[at - distance];
        }
      }
    }
    return b;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  static byte[] with(byte[] b, int at, int value) {
    byte[] copy = b.clone();
    copy[at] = (byte) value;
    return copy;
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /**
   * Not a test: throughput against GZIPInputStream on ~100 MB of log lines, run with the test class
   * path: {@code java -cp ... org.smartssd.devicemapper.tasklet.GzipInflaterTest [megabytes]}.
   */
  public static void main(String[] args) throws IOException {
    int megabytes = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    byte[] data = logLines(new Random(1), megabytes << 20);
    byte[] gz = gzipJdk(data);
    System.out.printf("%d MB of log lines, %d MB compressed%n", data.length >> 20, gz.length >> 20);
    long[] sums = new long[1];
    GzipInflater.Output sink = (b, off, len) -> sums[0] += b[off] + len;
    byte[] buffer = new byte[1 << 16];
    for (int round = 0; round < 4; round++) {
      long t0 = System.nanoTime();
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz), 1 << 16)) {
        for (int n; (n = in.read(buffer)) > 0; ) {
          sums[0] += buffer[0] + n;
        }
      }
      long t1 = System.nanoTime();
      GzipInflater inflater = new GzipInflater(sink);
      for (int at = 0; at < gz.length; at += 1 << 16) {
        inflater.feed(gz, at, Math.min(1 << 16, gz.length - at));
      }
      inflater.finish();
      long t2 = System.nanoTime();
      if (inflater.decompressedBytes() != data.length) {
        throw new AssertionError("wrong length");
      }
      double jdk = data.length / 1e6 / ((t1 - t0) / 1e9);
      double ours = data.length / 1e6 / ((t2 - t1) / 1e9);
      System.out.printf("round %d: GZIPInputStream %.0f MB/s, GzipInflater %.0f MB/s, ratio %.2f%n",
          round, jdk, ours, ours / jdk);
    }
    System.out.println(sums[0] == 42 ? "" : "done");
  }
}
