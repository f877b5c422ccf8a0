package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
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
import org.smartssd.device.tasklet.RecordBoundaries;

/**
 * The device presents records exactly as Hadoop's own readers do: the same bytes cut as the device
 * cuts them (whole records, several to a chunk) give the same (key, value) sequence as
 * LineRecordReader and FixedLengthRecordReader over the same file.
 */
class InputRecordsTest {
  @TempDir java.nio.file.Path dir;
  private final Random random = new Random(5);

  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  /** The search for a delimiter, eight bytes at a time, finds the first as a byte-by-byte search does. */
  @Test
  void aDelimiterIsFoundFirstWhereverItIsAndWhateverIsAroundIt() {
    InputRecords records = InputRecords.lines();
    byte[] alphabet = {0, 1, 0x7F, (byte) 0x80, (byte) 0x81, (byte) 0xFF, (byte) 0xFE, '\n', '\r', (byte) ('\n' ^ 0x80),
        (byte) ('\n' - 1), (byte) ('\n' + 1)};
    for (int round = 0; round < 20_000; round++) {
      byte[] b = new byte[random.nextInt(40)];
      for (int i = 0; i < b.length; i++) {
        b[i] = alphabet[random.nextInt(round % 2 == 0 ? alphabet.length : 7)];
      }
      records.buffer = b;
      int from = b.length == 0 ? 0 : random.nextInt(b.length);
      int to = from + random.nextInt(b.length - from + 1);
      for (byte d : new byte[] {'\n', '\r', 0, (byte) 0x80, (byte) 0xFF}) {
        int expected = -1;
        for (int i = from; i < to; i++) {
          if (b[i] == d) {
            expected = i;
            break;
          }
        }
        assertThat(records.indexOf(d, from, to)).as("%s in [%d, %d) of %s", d, from, to, HexFormat.of().formatHex(b))
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void linesAsLineRecordReaderReadsThem() throws Exception {
    for (int round = 0; round < 300; round++) {
      byte[] text = text(round % 3 == 0, random.nextInt(400));
      List<String> expected = hadoop(new LineRecordReader(), text, new Configuration());
      List<String> actual = device(InputRecords.lines(), text, (byte) '\n');
      assertThat(actual).as("round %d: %s", round, HexFormat.of().formatHex(text)).isEqualTo(expected);
    }
  }

  @Test
  void customDelimitedRecordsAsLineRecordReaderReadsThem() throws Exception {
    for (int round = 0; round < 200; round++) {
      byte[] text = text(round % 3 == 0, random.nextInt(300));
      List<String> expected = hadoop(new LineRecordReader(new byte[] {' '}), text, new Configuration());
      List<String> actual = device(InputRecords.delimited((byte) ' '), text, (byte) ' ');
      assertThat(actual).as("round %d: %s", round, HexFormat.of().formatHex(text)).isEqualTo(expected);
    }
  }

  @Test
  void keyValueLinesAsKeyValueLineRecordReaderReadsThem() throws Exception {
    for (String separator : new String[] {" ", "a", "\t"}) {
      Configuration conf = new Configuration();
      conf.set(KeyValueLineRecordReader.KEY_VALUE_SEPARATOR, separator);
      for (int round = 0; round < 100; round++) {
        byte[] text = text(round % 3 == 0, random.nextInt(300));
        List<String> expected = hadoop(new KeyValueLineRecordReader(conf), text, conf);
        List<String> actual = device(InputRecords.keyValue((byte) separator.charAt(0)), text, (byte) '\n');
        assertThat(actual).as("separator '%s', round %d: %s", separator, round, HexFormat.of().formatHex(text))
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void edgeCases() throws Exception {
    for (String s : new String[] {"", "\n", "\r", "\r\n", "\n\n", "\r\r", "a", "a\r", "a\r\n", "\r\nb", "a\rb\r\nc\n",
        "\uFEFF", "\uFEFF\n", "\uFEFFa", "\uFEFF\r\n\r", "x\uFEFF\n\uFEFF"}) {
      byte[] text = s.getBytes(StandardCharsets.UTF_8);
      Configuration conf = new Configuration();
      assertThat(device(InputRecords.lines(), text, (byte) '\n')).as("'%s'", s.replace("\r", "\\r")
          .replace("\n", "\\n")).isEqualTo(hadoop(new LineRecordReader(), text, conf));
    }
  }

  @Test
  void fixedLengthRecordsAsFixedLengthRecordReaderReadsThem() throws Exception {
    byte[] data = new byte[20 * 777];
    random.nextBytes(data);
    Configuration conf = new Configuration();
    FixedLengthInputFormat.setRecordLength(conf, 20);
    List<String> expected = hadoop(new FixedLengthRecordReader(20), data, conf);
    List<String> actual = new ArrayList<>();
    InputRecords records = InputRecords.fixedLength(20);
    int offset = 0;
    while (offset < data.length) {
      int n = 20 * (1 + random.nextInt(50));
      n = Math.min(n, data.length - offset);
      records.reset(new DataChunk("/f", offset, ByteBuffer.wrap(data, offset, n).slice().asReadOnlyBuffer()));
      while (records.next()) {
        actual.add(entry(records.key(), records.value()));
      }
      offset += n;
    }
    assertThat(actual).hasSize(777).isEqualTo(expected);
  }

  /** Random bytes of a few letters, spaces, '\r', '\n' and a multi-byte character, with a BOM at the start or not. */
  private byte[] text(boolean bom, int length) {
    byte[][] pieces = {{'a'}, {'b'}, {' '}, {'\r'}, {'\n'}, {'\r', '\n'}, "é".getBytes(StandardCharsets.UTF_8), BOM};
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    if (bom) {
      out.writeBytes(BOM);
    }
    while (out.size() < length) {
      out.writeBytes(pieces[random.nextInt(pieces.length)]);
    }
    return out.toByteArray();
  }

  /** The records as the device delivers them: cut after each delimiter, several whole records a chunk. */
  private List<String> device(InputRecords records, byte[] text, byte delimiter) throws IOException {
    List<int[]> cuts = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length; i++) {
      if (text[i] == delimiter) {
        cuts.add(new int[] {start, i + 1});
        start = i + 1;
      }
    }
    if (start < text.length) {
      cuts.add(new int[] {start, text.length});
    }
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < cuts.size()) {
      int j = Math.min(cuts.size(), i + 1 + random.nextInt(4));
      int from = cuts.get(i)[0];
      int to = cuts.get(j - 1)[1];
      // As the device gives them, with the records' ends it found; or without, so that they are looked for.
      int[] ends = new int[j - i];
      for (int k = i; k < j; k++) {
        ends[k - i] = cuts.get(k)[1];
      }
      RecordBoundaries boundaries = random.nextBoolean() ? RecordBoundaries.of(ends, 0, ends.length, from) : null;
      records.reset(new DataChunk("/f", from, ByteBuffer.wrap(text, from, to - from).slice().asReadOnlyBuffer(),
          boundaries));
      while (records.next()) {
        out.add(entry(records.key(), records.value()));
      }
      i = j;
    }
    return out;
  }

  private List<String> hadoop(RecordReader<?, ?> reader, byte[] bytes, Configuration conf) throws Exception {
    java.nio.file.Path file = Files.write(dir.resolve("f" + random.nextInt(1 << 30)), bytes);
    FileSplit split = new FileSplit(new Path(file.toUri()), 0, bytes.length, new String[0]);
    List<String> out = new ArrayList<>();
    try (reader) {
      reader.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID("t", 1, TaskType.MAP, 0, 0)));
      while (reader.nextKeyValue()) {
        out.add(entry(reader.getCurrentKey(), reader.getCurrentValue()));
      }
    }
    return out;
  }

  private static String entry(Object key, Object value) throws IOException {
    return text(key) + ":" + text(value);
  }

  private static String text(Object writable) throws IOException {
    if (writable instanceof org.apache.hadoop.io.LongWritable l) {
      return Long.toString(l.get());
    }
    if (writable instanceof Text t) {
      return HexFormat.of().formatHex(t.copyBytes());
    }
    if (writable instanceof BytesWritable b) {
      return HexFormat.of().formatHex(b.copyBytes());
    }
    throw new IOException("unexpected " + writable);
  }
}
