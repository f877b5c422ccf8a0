package org.smartssd.devicemapper;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.compress.CompressionInputStream;
import org.apache.hadoop.io.compress.Decompressor;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.smartssd.devicemapper.tasklet.GzipInflater;

/**
 * Hadoop's {@code DefaultCodec} ({@code .deflate}, zlib streams), whose decompression is done in Java
 * by the inflater the device runs ({@link GzipInflater}), so that a counting host counts it as the
 * device does (see {@link JavaGzipCodec}). Compression is {@code DefaultCodec}'s own. Registered for
 * {@code .deflate} by naming it in {@code io.compression.codecs}.
 */
public class JavaDeflateCodec extends DefaultCodec {

  @Override
  public CompressionInputStream createInputStream(InputStream in) throws IOException {
    return new JavaInflaterStream(in, true);
  }

  @Override
  public CompressionInputStream createInputStream(InputStream in, Decompressor decompressor) throws IOException {
    return new JavaInflaterStream(in, true);
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
