package org.smartssd.device.tasklet.builtin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Active Flash's two analyses as the device's lanes and the host run them. */
class SeriesScanTest {

  private static byte[] scan(SeriesScan scan, byte[] data, int piece) {
    for (int off = 0; off < data.length; off += piece) {
      scan.accept(ByteBuffer.wrap(data, off, Math.min(piece, data.length - off)));
    }
    scan.finish();
    return scan.take();
  }

  @Test
  void localExtremaAreStrictlyAboveOrBelowEveryNeighbourInTheWindow() {
    byte[] text = "1\n3\n2\n5\n4\n4\n6\n".getBytes(StandardCharsets.US_ASCII);
    List<ExtremaScan.Extremum> found = ExtremaScan.decode(ByteBuffer.wrap(scan(new ExtremaScan(1, -1, 100, "t"),
        text, 1000)));
    // 3 (max), 2 (min), 5 (max); 4 and 4 tie, so neither is an extremum; the last sample has no successor.
    assertEquals(List.of(new ExtremaScan.Extremum(1, 3, true), new ExtremaScan.Extremum(2, 2, false),
        new ExtremaScan.Extremum(3, 5, true)), found);
    List<ExtremaScan.Extremum> wide = ExtremaScan.decode(ByteBuffer.wrap(scan(new ExtremaScan(2, -1, 100, "t"),
        text, 1000)));
    assertEquals(List.of(new ExtremaScan.Extremum(3, 5, true)), wide, "2 has 1 two samples before it");
  }

  @Test
  void extremaDoNotDependOnHowTheBytesArePieced() {
    Random r = new Random(3);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      sb.append(i).append(", ").append(r.nextInt(2000) - 1000).append('.').append(r.nextInt(1000)).append("\r\n");
      if (i % 97 == 0) {
        sb.append('\n'); // empty lines are skipped
      }
    }
    byte[] text = sb.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] whole = scan(new ExtremaScan(4, 1, 100, "t"), text, text.length);
    assertTrue(whole.length > 100 * ExtremaScan.RECORD_BYTES);
    for (int piece : new int[] {1, 7, 4096}) {
      assertArrayEquals(whole, scan(new ExtremaScan(4, 1, 100, "t"), text, piece), "pieces of " + piece);
    }
    ExtremaScan s = new ExtremaScan(4, -1, 100, "t");
    scan(s, text, 333);
    assertEquals(5000, s.samples());
  }

  @Test
  void numbersAreParsedAsDecimalsAndAnythingElseIsNamed() {
    byte[] text = "-1.5\n+2e1\n3.25E-1\n1e2\n0.5\n".getBytes(StandardCharsets.US_ASCII);
    List<ExtremaScan.Extremum> found = ExtremaScan.decode(ByteBuffer.wrap(scan(new ExtremaScan(1, 0, 100, "t"),
        text, 3)));
    assertEquals(List.of(new ExtremaScan.Extremum(1, 20, true), new ExtremaScan.Extremum(2, 0.325, false),
        new ExtremaScan.Extremum(3, 100, true)), found);
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> scan(new ExtremaScan(1, -1, 100, "/f"), "1\n2\nx3\n".getBytes(StandardCharsets.US_ASCII), 100));
    assertTrue(bad.getMessage().contains("/f: line 3: 'x3' is not a number"), bad.getMessage());
    IllegalArgumentException column = assertThrows(IllegalArgumentException.class,
        () -> scan(new ExtremaScan(1, 2, 100, "/f"), "1 2\n".getBytes(StandardCharsets.US_ASCII), 100));
    assertTrue(column.getMessage().contains("no field 2"), column.getMessage());
    IllegalArgumentException longLine = assertThrows(IllegalArgumentException.class,
        () -> scan(new ExtremaScan(1, -1, 8, "/f"), "123456789012\n".getBytes(StandardCharsets.US_ASCII), 100));
    assertTrue(longLine.getMessage().contains("longer than 8"), longLine.getMessage());
  }

  /** Spikes 20 samples wide on a flat, noisy line, at known places. */
  private static byte[] pulses(long[] at, int samples, long seed) {
    Random r = new Random(seed);
    ByteBuffer b = ByteBuffer.allocate(2 * samples).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < samples; i++) {
      double v = r.nextGaussian() * 10;
      for (long p : at) {
        double d = (i - p) / 4.0;
        v += 1000 * Math.exp(-d * d);
      }
      b.putShort((short) Math.round(v));
    }
    return b.array();
  }

  @Test
  void beatsAreFoundWhereThePulsesAreWhateverThePieces() {
    int rate = 360;
    long[] truth = new long[40];
    for (int i = 0; i < truth.length; i++) {
      truth[i] = 100 + i * 300L + (i % 3) * 20; // about 72 a minute, a little irregular
    }
    byte[] ecg = pulses(truth, 100 + 41 * 300, 5);
    long[] found = BeatScan.decode(ByteBuffer.wrap(scan(new BeatScan(rate), ecg, ecg.length)));
    assertEquals(truth.length, found.length, java.util.Arrays.toString(found));
    for (int i = 0; i < truth.length; i++) {
      assertTrue(Math.abs(found[i] - truth[i]) <= 2, "beat " + i + " at " + found[i] + ", not "
          + truth[i]);
    }
    for (int piece : new int[] {1, 3, 4095}) {
      assertArrayEquals(BeatScan.decode(ByteBuffer.wrap(scan(new BeatScan(rate), ecg, ecg.length))),
          BeatScan.decode(ByteBuffer.wrap(scan(new BeatScan(rate), ecg, piece))), "pieces of " + piece);
    }
  }

  @Test
  void compressedBlocksGiveTheBytesBackWhateverThePiecesAndDamageIsRefused() {
    Random r = new Random(9);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; sb.length() < 300_000; i++) {
      sb.append(i).append(',').append(r.nextInt(1000)).append(".5\n");
    }
    byte[] text = sb.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] noise = new byte[100_000];
    r.nextBytes(noise);
    byte[] zeros = new byte[200_001];
    for (byte[] data : List.of(text, noise, zeros, new byte[0], new byte[] {7})) {
      byte[] packed = scan(new LzScan(), data, data.length);
      assertArrayEquals(data, LzScan.decompress(ByteBuffer.wrap(packed)), data.length + " bytes");
      for (int piece : new int[] {1, 4097}) {
        if (data.length < 150_000 || piece > 1) {
          assertArrayEquals(packed, scan(new LzScan(), data, piece), "pieces of " + piece);
        }
      }
    }
    assertTrue(scan(new LzScan(), text, text.length).length < text.length * 4 / 5, "text compresses");
    assertTrue(scan(new LzScan(), zeros, zeros.length).length < 4000, "zeros compress to almost nothing");
    byte[] packed = scan(new LzScan(), text, text.length);
    packed[20] ^= 0x55;
    packed[21] ^= 0x7f;
    byte[] damaged = packed;
    try {
      assertTrue(!java.util.Arrays.equals(text, LzScan.decompress(ByteBuffer.wrap(damaged))), "damage shows");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage().length() > 0);
    }
    assertThrows(IllegalArgumentException.class,
        () -> LzScan.decompress(ByteBuffer.wrap(java.util.Arrays.copyOf(damaged, 30))));
  }

  @Test
  void fileResultsSayWhichFileTheyAreOf() {
    byte[] r = FileResults.encode("/af/ckpt-1", true, 42, new byte[] {1, 2, 3});
    FileResults.Part p = FileResults.decode(ByteBuffer.wrap(r));
    assertEquals("/af/ckpt-1", p.path());
    assertTrue(p.last());
    assertEquals(42, p.analysed());
    assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), p.payload());
    assertThrows(IllegalArgumentException.class, () -> FileResults.decode(ByteBuffer.wrap(r, 0, r.length - 1)));
  }
}
