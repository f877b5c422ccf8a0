package org.smartssd.devicemapper.tasklet;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.smartssd.device.tasklet.ResultSink;

/**
 * A lane's part of a map-only job's output, as {@code TextOutputFormat} writes it (Hadoop's own
 * {@code LineRecordWriter}: key, separator, value, newline; a null or {@code NullWritable} key or value
 * left out with the separator), gathered in the lane's memory and written to the execution's output
 * object on flash a batch of whole lines at a time. Counts the records as the map task's output records.
 */
final class TextLines {
  /** A byte array stream whose bytes can be handed over without a copy. */
  private static final class Buffer extends ByteArrayOutputStream {
    ByteBuffer view() {
      return ByteBuffer.wrap(buf, 0, count);
    }
  }

  /** Reaches Hadoop's line writer, a protected member of its output format. */
  private static final class Format extends TextOutputFormat<Object, Object> {
    static RecordWriter<Object, Object> lines(DataOutputStream out, String separator) {
      return new LineRecordWriter<>(out, separator);
    }
  }

  private final Buffer buffer = new Buffer();
  private final RecordWriter<Object, Object> lines;
  private final Counter records;

  TextLines(String separator, Counter records) {
    this.lines = Format.lines(new DataOutputStream(buffer), separator);
    this.records = records;
  }

  void write(Object key, Object value) throws IOException, InterruptedException {
    lines.write(key, value);
    records.increment(1);
  }

  /** Bytes of lines not on flash yet. */
  int waiting() {
    return buffer.size();
  }

  /** Writes the lines gathered so far to the output object (one write: they stay together). */
  void flushTo(ResultSink results) throws IOException, InterruptedException {
    if (buffer.size() == 0) {
      return;
    }
    results.flash().write(buffer.view());
    buffer.reset();
  }
}
