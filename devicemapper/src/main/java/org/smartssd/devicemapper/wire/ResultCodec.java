package org.smartssd.devicemapper.wire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.smartssd.device.tasklet.ResultSink;

/**
 * The result records a {@link MapReduceTasklet} hands to the host, and their decoding there. Used
 * on both sides, so it may use only the JDK, Hadoop and the tasklet API.
 *
 * <p>A result record starts with a tag byte:
 *
 * <ul>
 *   <li>{@link #PAIRS}: then (key, value) pairs to the end, each as {@code vint} key length, the
 *       key's bytes, {@code vint} value length, the value's bytes, the bytes being the job's
 *       serialization of the map output key and value classes (Hadoop's {@code Writable}
 *       serialization for Writables);
 *   <li>{@link #COUNTERS}: then {@code vint} n, and n × (group, name as Hadoop {@code Text}
 *       strings, {@code vlong} value): the counters the job's code incremented in one lane, sent
 *       once, with the lane's last results.
 * </ul>
 */
public final class ResultCodec {
  public static final byte PAIRS = 'P';
  public static final byte COUNTERS = 'C';

  private ResultCodec() {}

  /** Packs serialized pairs into result records of about {@code batchBytes} and emits them. */
  public static final class PairBatcher {
    private final DataOutputBuffer batch = new DataOutputBuffer();
    private final int batchBytes;
    private ResultSink sink;
    private int pairs;

    public PairBatcher(int batchBytes) throws IOException {
      this.batchBytes = batchBytes;
      batch.writeByte(PAIRS);
    }

    /** Where results go from now on (each tasklet event brings its own). */
    public void sink(ResultSink sink) {
      this.sink = sink;
    }

    public void add(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset, int valueLength)
        throws IOException, InterruptedException {
      WritableUtils.writeVInt(batch, keyLength);
      batch.write(key, keyOffset, keyLength);
      WritableUtils.writeVInt(batch, valueLength);
      batch.write(value, valueOffset, valueLength);
      pairs++;
      if (batch.getLength() >= batchBytes) {
        emit();
      }
    }

    /** Emits the pairs gathered so far, if any (kept while no sink is known). */
    public void flush() throws IOException, InterruptedException {
      if (pairs > 0) {
        emit();
      }
    }

    private void emit() throws IOException, InterruptedException {
      if (sink == null) {
        return;
      }
      sink.emit(ByteBuffer.wrap(batch.getData(), 0, batch.getLength()));
      batch.reset();
      batch.writeByte(PAIRS);
      pairs = 0;
    }
  }

  /** The counters record of {@code counters}' non-zero counters, or null when there are none. */
  public static byte[] counters(Counters counters) throws IOException {
    List<Counter> nonZero = new ArrayList<>();
    List<String> groups = new ArrayList<>();
    for (CounterGroup group : counters) {
      for (Counter counter : group) {
        if (counter.getValue() != 0) {
          nonZero.add(counter);
          groups.add(group.getName());
        }
      }
    }
    if (nonZero.isEmpty()) {
      return null;
    }
    DataOutputBuffer out = new DataOutputBuffer();
    out.writeByte(COUNTERS);
    WritableUtils.writeVInt(out, nonZero.size());
    for (int i = 0; i < nonZero.size(); i++) {
      Text.writeString(out, groups.get(i));
      Text.writeString(out, nonZero.get(i).getName());
      WritableUtils.writeVLong(out, nonZero.get(i).getValue());
    }
    byte[] bytes = new byte[out.getLength()];
    System.arraycopy(out.getData(), 0, bytes, 0, bytes.length);
    return bytes;
  }

  /** One counter of a counters record. */
  public record CounterValue(String group, String name, long value) {}

  /** The counters of a {@link #COUNTERS} record (tag included). */
  public static List<CounterValue> readCounters(byte[] record, int offset, int length) throws IOException {
    DataInputBuffer in = new DataInputBuffer();
    in.reset(record, offset, length);
    if (in.readByte() != COUNTERS) {
      throw new IOException("not a counters record");
    }
    int n = WritableUtils.readVInt(in);
    List<CounterValue> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(new CounterValue(Text.readString(in), Text.readString(in), WritableUtils.readVLong(in)));
    }
    return values;
  }

  /** Walks the pairs of a {@link #PAIRS} record, without copying. */
  public static final class PairCursor {
    private final byte[] data;
    private final int end;
    private int position;
    public int keyOffset;
    public int keyLength;
    public int valueOffset;
    public int valueLength;

    /** {@code data[offset, offset + length)} is the whole record, tag included. */
    public PairCursor(byte[] data, int offset, int length) throws IOException {
      if (length < 1 || data[offset] != PAIRS) {
        throw new IOException("not a pairs record");
      }
      this.data = data;
      this.position = offset + 1;
      this.end = offset + length;
    }

    /** Moves to the next pair; false at the end of the record. */
    public boolean next() throws IOException {
      if (position >= end) {
        return false;
      }
      keyLength = vint();
      keyOffset = position;
      position += keyLength;
      valueLength = vint();
      valueOffset = position;
      position += valueLength;
      if (keyLength < 0 || valueLength < 0 || position > end) {
        throw new IOException("a pairs record is truncated or corrupt");
      }
      return true;
    }

    public byte[] data() {
      return data;
    }

    private int vint() throws IOException {
      if (position >= end) {
        throw new IOException("a pairs record is truncated");
      }
      int size = WritableUtils.decodeVIntSize(data[position]);
      if (position + size > end) {
        throw new IOException("a pairs record is truncated");
      }
      int value = WritableComparator.readVInt(data, position);
      position += size;
      return value;
    }
  }
}
