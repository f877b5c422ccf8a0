package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileRecordReader;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.tasklet.DataChunk;

/**
 * SequenceFile splits taken apart as the device's owner lane takes them, against Hadoop's own
 * SequenceFileRecordReader over the same splits of the same files.
 */
class SequenceInputTest {
  private static final int MAX_RECORD = 1 << 16;
  @TempDir java.nio.file.Path dir;

  /** Uncompressed: Text keys, IntWritable values, of random sizes; sync marks every {@code syncInterval} bytes. */
  private Path write(String name, int records, int syncInterval, Random random) throws IOException {
    Path path = new Path(dir.resolve(name).toUri());
    try (SequenceFile.Writer w = SequenceFile.createWriter(new Configuration(), SequenceFile.Writer.file(path),
        SequenceFile.Writer.keyClass(Text.class), SequenceFile.Writer.valueClass(IntWritable.class),
        SequenceFile.Writer.syncInterval(syncInterval),
        SequenceFile.Writer.compression(SequenceFile.CompressionType.NONE))) {
      for (int i = 0; i < records; i++) {
        w.append(new Text("key-" + i + "-" + "k".repeat(random.nextInt(random.nextInt(10) == 0 ? 3000 : 60))),
            new IntWritable(i));
      }
    }
    return path;
  }

  private static final Configuration CONF = new Configuration();

  private static List<String> hadoop(Path file, long start, long length) throws Exception {
    Configuration conf = CONF;
    List<String> out = new ArrayList<>();
    try (SequenceFileRecordReader<Text, IntWritable> reader = new SequenceFileRecordReader<>()) {
      reader.initialize(new FileSplit(file, start, length, new String[0]),
          new TaskAttemptContextImpl(conf, new TaskAttemptID("t", 1, TaskType.MAP, 0, 0)));
      while (reader.nextKeyValue()) {
        out.add(reader.getCurrentKey() + "=" + reader.getCurrentValue());
      }
    }
    return out;
  }

  /** The split's records as the device reads them: its bytes and readPast more, in random chunks. */
  private static List<String> device(Path file, long start, long length, Random random) throws Exception {
    byte[] bytes = Files.readAllBytes(java.nio.file.Path.of(file.toUri()));
    byte[] sync = new byte[16];
    long headerEnd;
    try (SequenceFile.Reader r = new SequenceFile.Reader(new Configuration(), SequenceFile.Reader.file(file))) {
      headerEnd = r.getPosition();
    }
    System.arraycopy(bytes, (int) headerEnd - 16, sync, 0, 16);
    List<String> out = new ArrayList<>();
    Text key = new Text();
    IntWritable value = new IntWritable();
    DataInputBuffer in = new DataInputBuffer();
    SequenceInput input = new SequenceInput(file.toString(), start, start + length, headerEnd, sync, bytes.length,
        MAX_RECORD, (b, ko, kl, vo, vl) -> {
          in.reset(b, ko, kl);
          key.readFields(in);
          in.reset(b, vo, vl);
          value.readFields(in);
          out.add(key + "=" + value);
        });
    long end = length == 0 ? start : Math.min(bytes.length, start + length + SequenceInput.readPast(MAX_RECORD));
    for (long at = start; at < end; ) {
      int n = (int) Math.min(end - at, 1 + random.nextInt(9000));
      input.feed(new DataChunk(file.toString(), at, ByteBuffer.wrap(bytes, (int) at, n).slice()));
      at += n;
    }
    input.finish();
    return out;
  }

  @Test
  void everySplitHoldsTheRecordsHadoopsReaderGivesIt() throws Exception {
    Random random = new Random(11);
    for (int syncInterval : new int[] {100, 2000, SequenceFile.SYNC_INTERVAL}) {
      Path file = write("s" + syncInterval + ".seq", 3000, syncInterval, random);
      long fileLength = Files.size(java.nio.file.Path.of(file.toUri()));
      List<String> all = new ArrayList<>();
      long[] splitSizes = syncInterval == 100 ? new long[] {fileLength, 50_000, 7_777, 1_001}
          : new long[] {fileLength, 50_000, 7_777};
      for (long splitSize : splitSizes) {
        List<String> whole = new ArrayList<>();
        for (long start = 0; start < fileLength; start += splitSize) {
          long length = Math.min(splitSize, fileLength - start);
          List<String> expected = hadoop(file, start, length);
          assertThat(device(file, start, length, random)).as("sync every %d bytes, split [%d, +%d)", syncInterval,
              start, length).isEqualTo(expected);
          whole.addAll(expected);
        }
        assertThat(whole).hasSize(3000);
        if (all.isEmpty()) {
          all = whole;
        }
        assertThat(whole).isEqualTo(all);
      }
    }
  }

  @Test
  void aDamagedSyncMarkOrATruncatedFileFailsNamingIt() throws Exception {
    Path file = write("bad.seq", 2000, 500, new Random(3));
    java.nio.file.Path local = java.nio.file.Path.of(file.toUri());
    byte[] bytes = Files.readAllBytes(local);
    long headerEnd;
    try (SequenceFile.Reader r = new SequenceFile.Reader(new Configuration(), SequenceFile.Reader.file(file))) {
      headerEnd = r.getPosition();
    }
    // The first sync escape after the header: damage its mark.
    int escape = -1;
    try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
      in.skipBytes((int) headerEnd);
      for (int at = (int) headerEnd; at < bytes.length; ) {
        int recordLength = in.readInt();
        if (recordLength == -1) {
          escape = at;
          break;
        }
        in.skipBytes(4 + recordLength);
        at += 8 + recordLength;
      }
    }
    assertThat(escape).isPositive();
    int mark = escape;
    bytes[mark + 10] ^= 0x55;
    Files.write(local, bytes);
    assertThatThrownBy(() -> device(file, 0, bytes.length, new Random(1))).hasMessageContaining("File is corrupt!")
        .hasMessageContaining("byte " + (mark + 4));

    Files.write(local, java.util.Arrays.copyOf(bytes, mark - 3));
    assertThatThrownBy(() -> device(file, 0, mark - 3, new Random(1))).hasMessageContaining("the file ends inside");
  }
}
