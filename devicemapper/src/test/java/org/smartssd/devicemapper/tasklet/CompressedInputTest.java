package org.smartssd.devicemapper.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.smartssd.device.tasklet.DataChunk;

/** A gzip split taken apart as the device's owner lane takes it: in chunks, whole records out. */
class CompressedInputTest {

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.toByteArray();
  }

  /** Feeds {@code compressed} in random pieces from offset 0, then finishes. */
  private static void run(CompressedInput in, byte[] compressed, Random random) throws Exception {
    int at = 0;
    while (at < compressed.length) {
      int n = Math.min(compressed.length - at, 1 + random.nextInt(5000));
      in.feed(new DataChunk("/f.gz", at, ByteBuffer.wrap(compressed, at, n).slice()));
      at += n;
    }
    in.finish();
  }

  /** Collects the chunks handed on, as (offset, bytes). */
  private static CompressedInput collecting(int recordLength, byte delimiter, int max, List<Object[]> chunks) {
    return new CompressedInput("/f.gz", recordLength, delimiter, max, chunk -> {
      byte[] b = new byte[chunk.data().remaining()];
      chunk.data().duplicate().get(b);
      chunks.add(new Object[] {chunk.offset(), b});
    });
  }

  @Test
  void textComesOutAsWholeLinesAtTheirDecompressedOffsets() throws Exception {
    Random random = new Random(3);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      text.append("line ").append(i).append(' ').append("x".repeat(random.nextInt(40)))
          .append(i % 7 == 0 ? "\r\n" : "\n");
    }
    text.append("last line without an end");
    byte[] plain = text.toString().getBytes(StandardCharsets.UTF_8);
    List<Object[]> chunks = new ArrayList<>();
    CompressedInput in = collecting(0, (byte) '\n', 1 << 20, chunks);
    run(in, gzip(plain), random);

    assertThat(chunks.size()).isGreaterThan(1);
    long expected = 0;
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < chunks.size(); i++) {
      long offset = (long) chunks.get(i)[0];
      byte[] b = (byte[]) chunks.get(i)[1];
      assertThat(offset).as("chunk %d", i).isEqualTo(expected);
      if (i < chunks.size() - 1) {
        assertThat(b[b.length - 1]).as("a chunk ends with a whole line").isEqualTo((byte) '\n');
      }
      all.writeBytes(b);
      expected += b.length;
    }
    assertThat(all.toByteArray()).isEqualTo(plain);
    assertThat(in.decompressedBytes()).isEqualTo(plain.length);
  }

  @Test
  void fixedLengthRecordsComeOutWholeAndALeftOverIsHadoopsError() throws Exception {
    byte[] plain = new byte[20 * 10_001];
    new Random(5).nextBytes(plain);
    List<Object[]> chunks = new ArrayList<>();
    run(collecting(20, (byte) 0, 1 << 20, chunks), gzip(plain), new Random(6));
    long total = 0;
    for (Object[] c : chunks) {
      assertThat((long) c[0]).isEqualTo(total);
      assertThat(((byte[]) c[1]).length % 20).isZero();
      total += ((byte[]) c[1]).length;
    }
    assertThat(total).isEqualTo(plain.length);

    byte[] ragged = java.util.Arrays.copyOf(plain, plain.length - 7);
    assertThatThrownBy(() -> run(collecting(20, (byte) 0, 1 << 20, new ArrayList<>()), gzip(ragged), new Random(7)))
        .isInstanceOf(IOException.class).hasMessageContaining("Partial record(length = 13)");
  }

  @Test
  void aLineLongerThanTheDeviceAllowsFailsAndTheJobsOwnExceptionComesOutAsItIs() throws Exception {
    byte[] longLine = ("short\n" + "y".repeat(5000) + "\nshort\n").getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> run(collecting(0, (byte) '\n', 4096, new ArrayList<>()), gzip(longLine), new Random(1)))
        .isInstanceOf(IOException.class).hasMessageContaining("longer than 4096 bytes")
        .hasMessageContaining("smartssd.device.isp.max-record-bytes");

    IllegalStateException thrown = new IllegalStateException("the mapper's own");
    CompressedInput failing = new CompressedInput("/f.gz", 0, (byte) '\n', 1 << 20, chunk -> {
      throw thrown;
    });
    assertThatThrownBy(() -> run(failing, gzip("a\nb\n".getBytes(StandardCharsets.UTF_8)), new Random(2)))
        .isSameAs(thrown);
  }

  @Test
  void chunksOutOfOrderAreRefused() throws Exception {
    byte[] gz = gzip("a\nb\n".getBytes(StandardCharsets.UTF_8));
    CompressedInput in = collecting(0, (byte) '\n', 1 << 20, new ArrayList<>());
    in.feed(new DataChunk("/f.gz", 0, ByteBuffer.wrap(gz, 0, 5).slice()));
    assertThatThrownBy(() -> in.feed(new DataChunk("/f.gz", 6, ByteBuffer.wrap(gz, 6, 3).slice())))
        .hasMessageContaining("came where 5 was next");
  }
}
