package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Test;

/** The host's Java gzip and zlib codecs read what Hadoop's GzipCodec and DefaultCodec read, and refuse what they refuse. */
class JavaGzipCodecTest {

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.toByteArray();
  }

  private static byte[] readAll(CompressionCodec codec, byte[] compressed) throws IOException {
    try (InputStream in = codec.createInputStream(new ByteArrayInputStream(compressed))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[777];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    }
  }

  @Test
  void namedInTheConfigurationItTakesGzFilesAndReadsWhatGzipCodecReads() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(CommonConfigurationKeys.IO_COMPRESSION_CODECS_KEY, JavaGzipCodec.class.getName());
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(new Path("/logs/wc_day46_1.gz"));
    assertThat(codec).isInstanceOf(JavaGzipCodec.class).isInstanceOf(GzipCodec.class);

    byte[] text = new byte[3_000_000];
    Random random = new Random(9);
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) (random.nextInt(100) < 90 ? 'a' + random.nextInt(4) : '\n');
    }
    ByteArrayOutputStream twoMembers = new ByteArrayOutputStream();
    twoMembers.writeBytes(gzip(java.util.Arrays.copyOf(text, 1_000_000)));
    twoMembers.writeBytes(gzip(java.util.Arrays.copyOfRange(text, 1_000_000, text.length)));
    GzipCodec hadoops = ReflectionUtils.newInstance(GzipCodec.class, new Configuration(false));
    assertThat(readAll(codec, twoMembers.toByteArray())).isEqualTo(readAll(hadoops, twoMembers.toByteArray()))
        .isEqualTo(text);
  }

  @Test
  void theDeflateCodecReadsWhatDefaultCodecWrites() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(CommonConfigurationKeys.IO_COMPRESSION_CODECS_KEY, JavaDeflateCodec.class.getName());
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(new Path("/logs/day.deflate"));
    assertThat(codec).isInstanceOf(JavaDeflateCodec.class);
    byte[] text = new byte[500_000];
    new Random(4).nextBytes(text);
    org.apache.hadoop.io.compress.DefaultCodec hadoops =
        ReflectionUtils.newInstance(org.apache.hadoop.io.compress.DefaultCodec.class, new Configuration(false));
    ByteArrayOutputStream zlib = new ByteArrayOutputStream();
    try (java.io.OutputStream out = hadoops.createOutputStream(zlib)) {
      out.write(text);
    }
    assertThat(readAll(codec, zlib.toByteArray())).isEqualTo(readAll(hadoops, zlib.toByteArray())).isEqualTo(text);
  }

  @Test
  void anEmptyOrTruncatedFileFailsAsWithGzipCodec() throws IOException {
    JavaGzipCodec codec = ReflectionUtils.newInstance(JavaGzipCodec.class, new Configuration(false));
    assertThatThrownBy(() -> readAll(codec, new byte[0])).isInstanceOf(EOFException.class)
        .hasMessage("Unexpected end of input stream");
    byte[] gz = gzip("some lines\nof text\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> readAll(codec, java.util.Arrays.copyOf(gz, gz.length - 3)))
        .isInstanceOf(IOException.class).hasMessageContaining("truncated");
  }
}
