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
 * and keeps a {@code LongWritable}'s or {@code IntWritable}'s value as a number ({@link Numeric}); any
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

  /**
   * A class the buffer keeps as a number: its serialized form is {@link #width} bytes written by
   * {@link #writeLong}, and its objects are set from and read as numbers.
   */
  abstract static class Numeric extends WritableCodec {
    private final String name;
    private final int width;

    Numeric(String name, int width) {
      this.name = name;
      this.width = width;
    }

    /** The serialized bytes of one. */
    final int width() {
      return width;
    }

    abstract long toLong(Object w);

    abstract Object fromLong(long v, Object into);

    /** Writes a number's serialized form ({@link #width} bytes) at {@code b[offset]}. */
    abstract void writeLong(long v, byte[] b, int offset);

    /** The number of a serialized form of {@link #width} bytes at {@code b[offset]}. */
    abstract long readWidth(byte[] b, int offset);

    /** The number of a serialized form, checked to be {@link #width} bytes. */
    final long readLong(byte[] b, int offset, int length) throws IOException {
      if (length != width) {
        throw new IOException("a serialized " + name + " is " + width + " bytes, not " + length);
      }
      return readWidth(b, offset);
    }

    @Override
    final void write(Object w, ByteArena out) {
      out.ensure(width);
      writeLong(toLong(w), out.data, out.length);
      out.length += width;
    }

    @Override
    final Object read(byte[] b, int offset, int length, Object into) throws IOException {
      return fromLong(readLong(b, offset, length), into);
    }
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
  static final class LongCodec extends Numeric {
    LongCodec() {
      super("LongWritable", 8);
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
    long readWidth(byte[] b, int offset) {
      return (long) LONGS_BE.get(b, offset);
    }
  }

  /** Hadoop's {@code IntWritable}: 4 bytes, big-endian. */
  static final class IntCodec extends Numeric {
    IntCodec() {
      super("IntWritable", 4);
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
    long readWidth(byte[] b, int offset) {
      return (int) INTS_BE.get(b, offset);
    }
  }

  /** Hadoop's {@code NullWritable}: no bytes, one instance. */
  static final class NullCodec extends Numeric {
    NullCodec() {
      super("NullWritable", 0);
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
    long readWidth(byte[] b, int offset) {
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
