package org.smartssd.devicemapper;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.GzipCodec;
import org.smartssd.devicemapper.tasklet.GzipInflater;

/**
 * Hadoop's {@code GzipCodec}, whose decompression is done in Java by the inflater the device runs
 * ({@link GzipInflater}) instead of by zlib. Its work is then code a counting host counts, as the
 * device counts it, so that host and device modes are modelled from the same count of the same
 * work: zlib's work, native, is not seen by the counting agent (a call into it counts as moving its
 * bytes). Compression is {@code GzipCodec}'s own. Registered for {@code .gz} by naming it in {@code
 * io.compression.codecs} (a codec named there takes an extension from the built-in one); the log
 * analysis does so unless told otherwise.
 */
public class JavaGzipCodec extends GzipCodec {

  @Override
  public CompressionInputStream createInputStream(InputStream in) throws IOException {
    return new JavaInflaterStream(in, false);
  }

  @Override
  public CompressionInputStream createInputStream(InputStream in, Decompressor decompressor) throws IOException {
    return new JavaInflaterStream(in, false);
  }

  /** None: the stream decompresses by itself ({@code CodecPool} takes a null decompressor). */
  @Override
  public Decompressor createDecompressor() {
    return null;
  }

  @Override
  public Class<? extends Decompressor> getDecompressorType() {
    return null;
  }
}
