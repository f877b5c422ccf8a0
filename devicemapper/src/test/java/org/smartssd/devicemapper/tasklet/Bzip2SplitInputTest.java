package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.bzip2.CBZip2OutputStream;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthRecordReader;
import org.apache.hadoop.mapreduce.lib.input.KeyValueLineRecordReader;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.tasklet.DataChunk;

/**
 * A split of a bzip2 text file read in the device gives exactly the records Hadoop 3.5.0's own
 * LineRecordReader gives for the same split of the same file (keys, values, the first line skipped,
 * the records read past the split's end), for line ends of every kind placed where Hadoop's reader
 * decides things (at block ends, at the ends of its buffer's reads), and split boundaries on a dense
 * grid and around every block's magic; the compressed bytes come in random pieces. The oracle is
 * Hadoop's reader over a local file, with buffers (io.file.buffer.size) of 4096 (the default), 17
 * and 1 byte: the records are the same for each, and the device's reader takes no buffer size.
 */
class Bzip2SplitInputTest {
  private static final int MAX_RECORD = 1 << 20;
  private static final int[] BUFFERS = {4096, 17, 1};
  private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\t";

  @TempDir java.nio.file.Path dir;
  private final Random random = new Random(0x177245385090L);
  private int files;

  /** A record as a reader gives it: the key (an offset, or key/value text) and the value's bytes as Latin-1. */
  private record Rec(String key, String value) {
    @Override
    public String toString() {
      return key + "=" + value.replace("\r", "\\r").replace("\n", "\\n");
    }
  }

  // ---- the comparisons ----

  @Test
  void shortLinesOfEveryEndAsHadoopReadsThem() throws Exception {
    byte[] text = text(450_000, 0.15, 0.15, 0);
    check(withBom(text), DEFAULT);
  }

  @Test
  void longLinesThatSpanBlocks() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < 6; i++) {
      out.writeBytes(text(5_000, 0.1, 0.1, 0));
      out.writeBytes(letters(60_000 + random.nextInt(200_000))); // across one or two level-1 blocks
      out.writeBytes(i % 3 == 0 ? "\n".getBytes() : i % 3 == 1 ? "\r\n".getBytes() : "\r".getBytes());
    }
    out.writeBytes(letters(150_000)); // the last line has no end
    check(out.toByteArray(), DEFAULT);
  }

  /**
   * Where Hadoop's reader decides: a block ending with a CR whose LF starts the next block, with a
   * lone CR, with an LF; a block starting with a CR or an LF; a CR at the end of a read of the
   * default buffer (a block's first read is its first byte, then reads of 4096).
   */
  @Test
  void lineEndsAtBlockEndsAndAtTheEndsOfReads() throws Exception {
    byte[] text = text(1_000_000, 0.05, 0.05, 0);
    long[] offsets = blockOffsets(compress(text, 1));
    assertThat(offsets.length).isGreaterThanOrEqualTo(11); // each case twice
    for (int k = 1; k < offsets.length; k++) {
      int d = (int) offsets[k];
      switch (k % 5) {
        case 1 -> { // CR | LF
          text[d - 1] = '\r';
          text[d] = '\n';
        }
        case 2 -> { // CR | x
          text[d - 1] = '\r';
          text[d] = 'x';
        }
        case 3 -> text[d - 1] = '\n'; // a line ends with the block
        case 4 -> { // x | CR x: the next block starts with a lone CR
          text[d - 1] = 'y';
          text[d] = '\r';
          text[d + 1] = 'z';
        }
        default -> { // LF | CR LF
          text[d - 1] = '\n';
          text[d] = '\r';
          text[d + 1] = '\n';
        }
      }
      for (int n = 1; n <= 3 && d + 4096 * n + 1 < text.length; n++) { // CRs at the ends of reads of 4096
        int at = d + 4096 * n;
        text[at] = '\r';
        text[at + 1] = n == 2 ? (byte) '\n' : (byte) 'q';
      }
    }
    for (int n = 1; n <= 3; n++) { // and in the first block of a split at 0: 4096 n - 1
      text[4096 * n - 1] = '\r';
      text[4096 * n] = n == 1 ? (byte) '\n' : (byte) 'w';
    }
    byte[] bz = compress(text, 1);
    assertThat(blockOffsets(bz)).as("the block boundaries did not move").isEqualTo(offsets);
    check(text, bz, DEFAULT);
  }

  /** Two streams, as {@code cat a.bz2 b.bz2} writes them. */
  @Test
  void concatenatedStreams() throws Exception {
    byte[] a = text(180_000, 0.1, 0.1, 0);
    byte[] b = text(150_000, 0.1, 0.1, 0);
    byte[] bz = concat(compress(a, 1), compress(b, 1));
    check(concat(a, b), bz, DEFAULT);
  }

  /** A one-byte textinputformat.record.delimiter: records end at that byte alone, CRs are theirs. */
  @Test
  void aOneByteCustomDelimiter() throws Exception {
    byte[] text = text(400_000, 0.1, 0.1, 0.02);
    check(text, compress(text, 1), '|');
  }

  /** KeyValueTextInputFormat: the same lines, cut at the first tab. */
  @Test
  void keyValueLines() throws Exception {
    byte[] text = text(300_000, 0.1, 0.1, 0);
    byte[] bz = compress(text, 1);
    java.nio.file.Path file = write(bz);
    long[] positions = blockPositions(bz);
    TreeSet<Long> bounds = new TreeSet<>(List.of(0L, 3L, (long) bz.length));
    for (long p : positions) {
      bounds.add(p);
      bounds.add(p + 1);
    }
    for (int i = 1; i < 12; i++) {
      bounds.add((long) random.nextInt(bz.length));
    }
    Long[] b = bounds.toArray(new Long[0]);
    for (int i = 0; i + 1 < b.length; i++) {
      for (int buffer : new int[] {4096, 17}) {
        Configuration conf = conf(buffer);
        List<Rec> hadoop = hadoopKeyValues(file, b[i], b[i + 1], conf);
        List<Rec> device = device(bz, b[i], b[i + 1], 1, Bzip2SplitInput.DEFAULT_LINES,
            InputRecords.keyValue((byte) '\t'), MAX_RECORD);
        assertThat(device).as("key/value split [%d, %d), buffer %d", b[i], b[i + 1], buffer).isEqualTo(hadoop);
      }
    }
  }

  /** A level-9 file (blocks of 900 000 bytes) split small, as a job's output would be read. */
  @Test
  void levelNine() throws Exception {
    byte[] text = text(2_000_000, 0.1, 0.05, 0);
    byte[] bz = compress(text, 9);
    java.nio.file.Path file = write(bz);
    List<Rec> all = new ArrayList<>();
    long step = bz.length / 7;
    for (long s = 0; s < bz.length; s += step) {
      long e = Math.min(bz.length, s + step);
      List<Rec> hadoop = hadoop(file, s, e, conf(4096), null);
      assertThat(device(bz, s, e, 9, Bzip2SplitInput.DEFAULT_LINES, InputRecords.lines(), MAX_RECORD))
          .as("split [%d, %d)", s, e).isEqualTo(hadoop);
      all.addAll(hadoop);
    }
    assertThat(values(all)).isEqualTo(lines(text, DEFAULT));
  }

  // ---- fixed-length records: the whole file, as FixedLengthRecordReader reads it ----

  @Test
  void fixedLengthRecordsOfAWholeBzip2File() throws Exception {
    byte[] records = new byte[37 * 20_000];
    random.nextBytes(records);
    for (int i = 0; i < records.length; i += 3) {
      records[i] = 'a'; // something to compress
    }
    byte[] bz = concat(compress(Arrays.copyOf(records, 37 * 5000), 1),
        compress(Arrays.copyOfRange(records, 37 * 5000, records.length), 1));
    java.nio.file.Path file = write(bz);
    Configuration conf = conf(4096);
    FixedLengthInputFormat.setRecordLength(conf, 37);
    List<Rec> hadoop = new ArrayList<>();
    try (FixedLengthRecordReader reader = new FixedLengthRecordReader(37)) {
      reader.initialize(new FileSplit(new Path(file.toUri()), 0, bz.length, new String[0]), context(conf));
      while (reader.nextKeyValue()) {
        BytesWritable v = reader.getCurrentValue();
        hadoop.add(new Rec(reader.getCurrentKey().toString(), latin1(v.getBytes(), v.getLength())));
      }
    }
    assertThat(hadoop).hasSize(20_000);
    List<Rec> device = new ArrayList<>();
    InputRecords present = InputRecords.fixedLength(37);
    CompressedInput in = new CompressedInput("/f.bz2", org.smartssd.devicemapper.wire.InputSpec.Compression.BZIP2, 1,
        37, (byte) 0, MAX_RECORD, chunk -> collect(present, chunk, device));
    feed(bz, 0, bz.length, in::feed);
    in.finish();
    assertThat(device).isEqualTo(hadoop);
    assertThat(in.compressedBytes()).isEqualTo(bz.length);

    CompressedInput partial = new CompressedInput("/f.bz2", org.smartssd.devicemapper.wire.InputSpec.Compression.BZIP2,
        1, 36, (byte) 0, MAX_RECORD, chunk -> {});
    feed(bz, 0, bz.length, partial::feed);
    assertThatThrownBy(partial::finish).hasMessageContaining("Partial record(length = 20) found at the end of split.");
  }

  // ---- what the device refuses to go on with ----

  @Test
  void aRecordLongerThanTheDeviceAllowsFailsNamingIt() throws Exception {
    byte[] text = concat(text(20_000, 0.1, 0.1, 0), concat(letters(5000), "\nend\n".getBytes()));
    byte[] bz = compress(text, 1);
    assertThatThrownBy(() -> device(bz, 0, bz.length, 1, Bzip2SplitInput.DEFAULT_LINES, InputRecords.lines(),
        4000)).hasMessageContaining("/x.bz2: the record at key ").hasMessageContaining("longer than 4000 bytes");
  }

  /**
   * A split whose reader needs more than the bytes the device reads past its end (here its first
   * line, thrown away but read, runs on for more than three blocks and two records) fails, naming
   * the file, the split and the compressed byte; it never gives fewer records.
   */
  @Test
  void runningPastTheBytesReadAfterTheSplitFails() throws Exception {
    byte[] text = concat(text(30_000, 0.1, 0, 0), concat(letters(700_000), "\nthe end\n".getBytes()));
    byte[] bz = compress(text, 1);
    long[] positions = blockPositions(bz);
    long start = positions[1] - 1;
    long end = positions[1] + 1;
    int max = 1000;
    assertThat(end + Bzip2SplitInput.readPast(1, max)).isLessThan(bz.length);
    assertThatThrownBy(() -> device(bz, start, end, 1, Bzip2SplitInput.DEFAULT_LINES, InputRecords.lines(), max))
        .hasMessageContaining("/x.bz2: the split [" + start + ", " + end + ") needs more than the "
            + Bzip2SplitInput.readPast(1, max) + " bytes after its end")
        .hasMessageContaining("at compressed byte " + (end + Bzip2SplitInput.readPast(1, max)));
    // With enough read past, the same split is read as Hadoop reads it.
    assertThat(device(bz, start, end, 1, Bzip2SplitInput.DEFAULT_LINES, InputRecords.lines(), MAX_RECORD))
        .isEqualTo(hadoop(write(bz), start, end, conf(4096), null));
  }

  /** Once it has the split's records the reader decodes no more, though the device goes on reading. */
  @Test
  void theReaderStopsDecodingWhenItHasItsRecords() throws Exception {
    byte[] text = text(800_000, 0.1, 0.1, 0);
    byte[] bz = compress(text, 1);
    long[] positions = blockPositions(bz);
    assertThat(positions.length).isGreaterThan(8);
    long end = positions[2];
    List<Rec> records = new ArrayList<>();
    Bzip2SplitInput in = new Bzip2SplitInput("/x.bz2", 0, end, bz.length, 1, Bzip2SplitInput.DEFAULT_LINES,
        MAX_RECORD, chunk -> collect(InputRecords.lines(), chunk, records));
    assertThat(end + Bzip2SplitInput.readPast(1, MAX_RECORD)).as("it is given the whole file").isGreaterThan(bz.length);
    feed(bz, 0, bz.length, in::feed);
    in.finish();
    assertThat(records).isEqualTo(hadoop(write(bz), 0, end, conf(4096), null));
    assertThat(in.compressedBytes()).as("decoded: to the fourth block at most").isLessThanOrEqualTo(positions[4])
        .isGreaterThan(positions[2]);
  }

  @Test
  void damagedDataFailsNamingTheFile() throws Exception {
    byte[] text = text(250_000, 0.1, 0.1, 0);
    byte[] bz = compress(text, 1);
    long[] positions = blockPositions(bz);
    bz[(int) positions[1] + 20] ^= 0x10;
    assertThatThrownBy(() -> device(bz, 0, bz.length, 1, Bzip2SplitInput.DEFAULT_LINES, InputRecords.lines(),
        MAX_RECORD)).hasMessageStartingWith("/x.bz2: bzip2: stream 1 block 2");
  }

  @Test
  void readPastCoversThreeBlocksAndTwoRecords() {
    assertThat(Bzip2SplitInput.readPast(1, 1 << 20)).isEqualTo(3 * (125_000 + 1024) + 2 * (5 * (1 << 20) / 4));
    assertThat(Bzip2SplitInput.readPast(9, 1 << 20)).isEqualTo(3 * (1_125_000 + 1024) + 2 * (5 * (1 << 20) / 4));
    assertThat(Bzip2SplitInput.readPast(9, Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
  }

  // ---- the check: every split of a grid, every buffer size, against Hadoop ----

  private static final int DEFAULT = -1;

  private void check(byte[] text, int delimiter) throws Exception {
    check(text, compress(text, 1), delimiter);
  }

  /**
   * Every split [a, b) of consecutive bounds (and of every other bound) of a grid: 0, 1 to 5, each
   * block magic's byte and the bytes either side, about 40 evenly spaced offsets and the length; the
   * device's records equal Hadoop's; the splits of each partition give every line of the text once.
   */
  private void check(byte[] text, byte[] bz, int delimiter) throws Exception {
    java.nio.file.Path file = write(bz);
    long[] positions = blockPositions(bz);
    TreeSet<Long> bounds = new TreeSet<>();
    for (long s = 0; s <= 5; s++) {
      bounds.add(s);
    }
    for (long p : positions) {
      bounds.add(p - 1);
      bounds.add(p);
      bounds.add(p + 1);
    }
    for (int i = 1; i < 40; i++) {
      bounds.add((long) bz.length * i / 40 + random.nextInt(50));
    }
    bounds.add((long) bz.length - 1);
    bounds.add((long) bz.length);
    bounds.removeIf(b -> b < 0 || b > bz.length);
    Long[] b = bounds.toArray(new Long[0]);
    List<String> expected = lines(text, delimiter);
    byte[] delimiterBytes = delimiter == DEFAULT ? null : new byte[] {(byte) delimiter};
    int compared = 0;
    for (int buffer : BUFFERS) {
      Configuration conf = conf(buffer);
      for (int stride = 1; stride <= 2; stride++) {
        List<Rec> union = new ArrayList<>();
        for (int i = 0; i < b.length - 1; i += stride) {
          long s = b[i];
          long e = b[Math.min(i + stride, b.length - 1)];
          List<Rec> hadoop = hadoop(file, s, e, conf, delimiterBytes);
          List<Rec> device = device(bz, s, e, 1, delimiter,
              delimiter == DEFAULT ? InputRecords.lines() : InputRecords.delimited((byte) delimiter), MAX_RECORD);
          same(device, hadoop, String.format("split [%d, %d) of %d, buffer %d, blocks at %s", s, e, bz.length, buffer,
              Arrays.toString(positions)));
          union.addAll(device);
          compared++;
        }
        assertThat(values(union)).as("the lines of the splits of a partition, buffer %d, splits of %d bounds",
            buffer, stride).isEqualTo(expected);
      }
    }
    assertThat(compared).isGreaterThan(3 * 60);
  }

  /** Equal lists of records, or a failure that shows where they part (values cut to 40 bytes). */
  private static void same(List<Rec> device, List<Rec> hadoop, String what) {
    if (device.equals(hadoop)) {
      return;
    }
    int i = 0;
    while (i < device.size() && i < hadoop.size() && device.get(i).equals(hadoop.get(i))) {
      i++;
    }
    throw new AssertionError(what + ": the device gives " + device.size() + " records, Hadoop " + hadoop.size()
        + "; they part at record " + i + ": device " + around(device, i) + ", Hadoop " + around(hadoop, i));
  }

  private static String around(List<Rec> records, int i) {
    List<String> shown = new ArrayList<>();
    for (int j = Math.max(0, i - 1); j < Math.min(records.size(), i + 2); j++) {
      String s = records.get(j).toString();
      shown.add(s.length() > 60 ? s.substring(0, 60) + "..." : s);
    }
    return shown.toString();
  }

  private static List<String> values(List<Rec> records) {
    List<String> values = new ArrayList<>();
    for (Rec r : records) {
      values.add(r.value());
    }
    return values;
  }

  // ---- the two readers ----

  private List<Rec> hadoop(java.nio.file.Path file, long start, long end, Configuration conf, byte[] delimiter)
      throws IOException, InterruptedException {
    List<Rec> records = new ArrayList<>();
    try (LineRecordReader reader = new LineRecordReader(delimiter)) {
      reader.initialize(new FileSplit(new Path(file.toUri()), start, end - start, new String[0]), context(conf));
      while (reader.nextKeyValue()) {
        Text v = reader.getCurrentValue();
        records.add(new Rec(reader.getCurrentKey().toString(), latin1(v.getBytes(), v.getLength())));
      }
    }
    return records;
  }

  private List<Rec> hadoopKeyValues(java.nio.file.Path file, long start, long end, Configuration conf)
      throws IOException, InterruptedException {
    List<Rec> records = new ArrayList<>();
    try (RecordReader<Text, Text> reader = new KeyValueLineRecordReader(conf)) {
      reader.initialize(new FileSplit(new Path(file.toUri()), start, end - start, new String[0]), context(conf));
      while (reader.nextKeyValue()) {
        Text k = reader.getCurrentKey();
        Text v = reader.getCurrentValue();
        records.add(new Rec(latin1(k.getBytes(), k.getLength()), latin1(v.getBytes(), v.getLength())));
      }
    }
    return records;
  }

  /**
   * The device's reader of the split: fed the split's bytes and what the device reads past its end
   * in random pieces, its chunks presented as the tasklet presents them.
   */
  private List<Rec> device(byte[] bz, long start, long end, int level, int delimiter, InputRecords present,
      int maxRecord) throws Exception {
    List<Rec> records = new ArrayList<>();
    Bzip2SplitInput in = new Bzip2SplitInput("/x.bz2", start, end, bz.length, level, delimiter, maxRecord,
        chunk -> collect(present, chunk, records));
    long readEnd = Math.min(bz.length, end + Bzip2SplitInput.readPast(level, maxRecord));
    feed(bz, start, readEnd, in::feed);
    in.finish();
    return records;
  }

  private interface Feed {
    void feed(DataChunk chunk) throws Exception;
  }

  private void feed(byte[] bz, long from, long to, Feed feed) throws Exception {
    long at = from;
    while (at < to) {
      int n = (int) Math.min(to - at, random.nextInt(4) == 0 ? 1 + random.nextInt(16) : 1 + random.nextInt(40_000));
      feed.feed(new DataChunk("/x.bz2", at, ByteBuffer.wrap(bz, (int) at, n).slice()));
      at += n;
    }
  }

  private static void collect(InputRecords present, DataChunk chunk, List<Rec> records) {
    present.reset(chunk);
    while (present.next()) {
      Object key = present.key();
      Object value = present.value();
      String k = key instanceof Text t ? latin1(t.getBytes(), t.getLength()) : ((LongWritable) key).toString();
      String v = value instanceof Text t ? latin1(t.getBytes(), t.getLength())
          : latin1(((BytesWritable) value).getBytes(), ((BytesWritable) value).getLength());
      records.add(new Rec(k, v));
    }
  }

  // ---- files ----

  private static Configuration conf(int buffer) {
    Configuration conf = new Configuration();
    conf.setInt("io.file.buffer.size", buffer);
    return conf;
  }

  private static TaskAttemptContextImpl context(Configuration conf) {
    return new TaskAttemptContextImpl(conf, new TaskAttemptID("t", 1, TaskType.MAP, 0, 0));
  }

  private java.nio.file.Path write(byte[] bz) throws IOException {
    java.nio.file.Path file = dir.resolve("part-" + files++ + ".txt.bz2");
    Files.write(file, bz);
    return file;
  }

  /** Hadoop's compressor at a level: "BZ", as its codec writes, then CBZip2OutputStream's "h" and level. */
  static byte[] compress(byte[] data, int level) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write('B');
    out.write('Z');
    try (OutputStream bz = new CBZip2OutputStream(out, level)) {
      bz.write(data);
    }
    return out.toByteArray();
  }

  /** Each block's magic's byte, as the decoder finds them. */
  private static long[] blockPositions(byte[] bz) throws IOException {
    return blocks(bz)[0];
  }

  /** Each block's first byte's offset in the decompressed stream. */
  private static long[] blockOffsets(byte[] bz) throws IOException {
    return blocks(bz)[1];
  }

  private static long[][] blocks(byte[] bz) throws IOException {
    List<long[]> blocks = new ArrayList<>();
    Bzip2Decoder[] decoder = new Bzip2Decoder[1];
    decoder[0] = new Bzip2Decoder(new Bzip2Decoder.Output() {
      @Override
      public void write(byte[] bytes, int offset, int length) {}

      @Override
      public void block(long position) {
        blocks.add(new long[] {position, decoder[0].decompressedBytes()});
      }
    });
    decoder[0].feed(bz, 0, bz.length);
    decoder[0].finish();
    long[][] both = new long[2][blocks.size()];
    for (int i = 0; i < blocks.size(); i++) {
      both[0][i] = blocks.get(i)[0];
      both[1][i] = blocks.get(i)[1];
    }
    return both;
  }

  /**
   * Lines of letters and tabs, about {@code bytes} in all: most short, some empty, ended by LF, or
   * by CR LF or a lone CR with the given chances; with {@code pipes}' chance a '|' in a line.
   */
  private byte[] text(int bytes, double crlf, double cr, double pipes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (out.size() < bytes) {
      int length = random.nextInt(10) == 0 ? 0 : random.nextInt(20) == 0 ? random.nextInt(3000) : random.nextInt(90);
      for (int i = 0; i < length; i++) {
        out.write(random.nextDouble() < pipes ? '|' : LETTERS.charAt(random.nextInt(LETTERS.length())));
      }
      double end = random.nextDouble();
      out.writeBytes(end < crlf ? "\r\n".getBytes() : end < crlf + cr ? "\r".getBytes() : "\n".getBytes());
    }
    return out.toByteArray();
  }

  private byte[] letters(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) LETTERS.charAt(random.nextInt(LETTERS.length() - 1)); // no tab
    }
    return b;
  }

  private static byte[] withBom(byte[] text) {
    return concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, text);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static String latin1(byte[] b, int length) {
    return new String(b, 0, length, StandardCharsets.ISO_8859_1);
  }

  /** The text's lines as a reader of the whole file gives their values (a leading byte order mark left out). */
  private static List<String> lines(byte[] text, int delimiter) {
    List<String> lines = new ArrayList<>();
    int from = text.length >= 3 && (text[0] & 0xFF) == 0xEF && (text[1] & 0xFF) == 0xBB && (text[2] & 0xFF) == 0xBF
        ? 3 : 0;
    int start = from;
    for (int i = from; i < text.length; i++) {
      byte c = text[i];
      if (delimiter != DEFAULT) {
        if (c == delimiter) {
          lines.add(latin1(Arrays.copyOfRange(text, start, i), i - start));
          start = i + 1;
        }
      } else if (c == '\n' || c == '\r') {
        lines.add(latin1(Arrays.copyOfRange(text, start, i), i - start));
        if (c == '\r' && i + 1 < text.length && text[i + 1] == '\n') {
          i++;
        }
        start = i + 1;
      }
    }
    if (start < text.length) {
      lines.add(latin1(Arrays.copyOfRange(text, start, text.length), text.length - start));
    }
    return lines;
  }
}
