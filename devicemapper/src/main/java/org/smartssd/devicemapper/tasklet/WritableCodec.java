package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;

/**
 * How the lane's buffer keeps the map output's keys or values of one class: in Hadoop's serialized form,
 * byte for byte what the class's {@code io.serializations} serializer writes (so that the pairs the host
 * gets, and the job's raw comparators, see Hadoop's bytes). For Hadoop's own {@code Text}, {@code
 * LongWritable}, {@code IntWritable} and {@code NullWritable} (the class exactly, which the buffer's checks
 * make sure of), whose serialized form is fixed by Hadoop, the buffer reads and writes that form itself,
 * and keeps a {@code LongWritable}'s or {@code IntWritable}'s value as a number ({@link #numeric}); any
 * other class goes through its Hadoop serializer and deserializer.
 */
abstract class WritableCodec {
  /** Big-endian views of a byte array: Hadoop's {@code DataOutput} order. */
  static final VarHandle LONGS_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  static final VarHandle INTS_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /** The codec of a map output class; {@code null} when the configuration has no serialization for it. */
  @SuppressWarnings("unchecked")
  static WritableCodec of(Class<?> type, SerializationFactory serializations) throws IOException {
    if (type == Text.class) {
      return new TextCodec();
    }
    if (type == LongWritable.class) {
      return new LongCodec();
    }
    if (type == IntWritable.class) {
      return new IntCodec();
    }
    if (type == NullWritable.class) {
      return new NullCodec();
    }
    Serializer<Object> serializer = (Serializer<Object>) serializations.getSerializer(type);
    Deserializer<Object> deserializer = (Deserializer<Object>) serializations.getDeserializer(type);
    if (serializer == null || deserializer == null) {
      return null;
    }
    return new General(serializer, deserializer);
  }

  /** Appends the object's serialized form. */
  abstract void write(Object w, ByteArena out) throws IOException;

  /**
   * Reads a serialized form into {@code into} (a new object when null, or when the class's deserializer
   * makes one) and returns it.
   */
  abstract Object read(byte[] b, int offset, int length, Object into) throws IOException;

  /** Where the bytes that tell two serialized forms apart begin (after a {@code Text}'s length). */
  int contentStart(byte[] serialized, int offset) {
    return offset;
  }

  /** Whether the buffer keeps this class's objects as numbers ({@link #toLong}, {@link #fromLong}). */
  boolean numeric() {
    return false;
  }

  /** The serialized bytes of a numeric object (0 for {@code NullWritable}). */
  int width() {
    throw new UnsupportedOperationException();
  }

  long toLong(Object w) {
    throw new UnsupportedOperationException();
  }

  Object fromLong(long v, Object into) {
    throw new UnsupportedOperationException();
  }

  /** Writes a number's serialized form ({@link #width} bytes) at {@code b[offset]}. */
  void writeLong(long v, byte[] b, int offset) {
    throw new UnsupportedOperationException();
  }

  /** The number of a serialized form. */
  long readLong(byte[] b, int offset, int length) throws IOException {
    throw new UnsupportedOperationException();
  }

  /** Hadoop's {@code Text}: a vint length ({@code WritableUtils.writeVInt}), then the UTF-8 bytes. */
  static final class TextCodec extends WritableCodec {
    @Override
    void write(Object w, ByteArena out) {
      Text t = (Text) w;
      int length = t.getLength();
      out.vint(length);
      out.append(t.getBytes(), 0, length);
    }

    @Override
    Object read(byte[] b, int offset, int length, Object into) {
      Text t = into == null ? new Text() : (Text) into;
      int size = ByteArena.vintSize(b[offset]);
      t.set(b, offset + size, length - size);
      return t;
    }

    @Override
    int contentStart(byte[] serialized, int offset) {
      return offset + ByteArena.vintSize(serialized[offset]);
    }
  }

  /** Hadoop's {@code LongWritable}: 8 bytes, big-endian. */
  static final class LongCodec extends WritableCodec {
    @Override
    void write(Object w, ByteArena out) {
      out.ensure(8);
      writeLong(((LongWritable) w).get(), out.data, out.length);
      out.length += 8;
    }

    @Override
    Object read(byte[] b, int offset, int length, Object into) throws IOException {
      return fromLong(readLong(b, offset, length), into);
    }

    @Override
    boolean numeric() {
      return true;
    }

    @Override
    int width() {
      return 8;
    }

    @Override
    long toLong(Object w) {
      return ((LongWritable) w).get();
    }

    @Override
    Object fromLong(long v, Object into) {
      LongWritable l = into == null ? new LongWritable() : (LongWritable) into;
      l.set(v);
      return l;
    }

    @Override
    void writeLong(long v, byte[] b, int offset) {
      LONGS_BE.set(b, offset, v);
    }

    @Override
    long readLong(byte[] b, int offset, int length) throws IOException {
      if (length != 8) {
        throw new IOException("a serialized LongWritable is 8 bytes, not " + length);
      }
      return (long) LONGS_BE.get(b, offset);
    }
  }

  /** Hadoop's {@code IntWritable}: 4 bytes, big-endian. */
  static final class IntCodec extends WritableCodec {
    @Override
    void write(Object w, ByteArena out) {
      out.ensure(4);
      writeLong(((IntWritable) w).get(), out.data, out.length);
      out.length += 4;
    }

    @Override
    Object read(byte[] b, int offset, int length, Object into) throws IOException {
      return fromLong(readLong(b, offset, length), into);
    }

    @Override
    boolean numeric() {
      return true;
    }

    @Override
    int width() {
      return 4;
    }

    @Override
    long toLong(Object w) {
      return ((IntWritable) w).get();
    }

    @Override
    Object fromLong(long v, Object into) {
      IntWritable i = into == null ? new IntWritable() : (IntWritable) into;
      i.set((int) v);
      return i;
    }

    @Override
    void writeLong(long v, byte[] b, int offset) {
      INTS_BE.set(b, offset, (int) v);
    }

    @Override
    long readLong(byte[] b, int offset, int length) throws IOException {
      if (length != 4) {
        throw new IOException("a serialized IntWritable is 4 bytes, not " + length);
      }
      return (int) INTS_BE.get(b, offset);
    }
  }

  /** Hadoop's {@code NullWritable}: no bytes, one instance. */
  static final class NullCodec extends WritableCodec {
    @Override
    void write(Object w, ByteArena out) {}

    @Override
    Object read(byte[] b, int offset, int length, Object into) throws IOException {
      if (length != 0) {
        throw new IOException("a serialized NullWritable is 0 bytes, not " + length);
      }
      return NullWritable.get();
    }

    @Override
    boolean numeric() {
      return true;
    }

    @Override
    int width() {
      return 0;
    }

    @Override
    long toLong(Object w) {
      return 0;
    }

    @Override
    Object fromLong(long v, Object into) {
      return NullWritable.get();
    }

    @Override
    void writeLong(long v, byte[] b, int offset) {}

    @Override
    long readLong(byte[] b, int offset, int length) throws IOException {
      if (length != 0) {
        throw new IOException("a serialized NullWritable is 0 bytes, not " + length);
      }
      return 0;
    }
  }

  /** Any other class: its Hadoop serializer and deserializer ({@code io.serializations}). */
  static final class General extends WritableCodec {
    private final Serializer<Object> serializer;
    private final Deserializer<Object> deserializer;
    private final DataOutputBuffer scratch = new DataOutputBuffer();
    private final DataInputBuffer in = new DataInputBuffer();

    General(Serializer<Object> serializer, Deserializer<Object> deserializer) throws IOException {
      this.serializer = serializer;
      this.deserializer = deserializer;
      serializer.open(scratch);
      deserializer.open(in);
    }

    @Override
    void write(Object w, ByteArena out) throws IOException {
      scratch.reset();
      serializer.serialize(w);
      out.append(scratch.getData(), 0, scratch.getLength());
    }

    @Override
    Object read(byte[] b, int offset, int length, Object into) throws IOException {
      in.reset(b, offset, length);
      return deserializer.deserialize(into);
    }
  }
}
