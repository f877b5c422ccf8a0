package org.smartssd.examples.activeflash;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

/**
 * The data a producer writes for Active Flash's analyses: generated, labelled so (the source's medical data
 * are not public), seeded, the same on every run.
 */
final class Signals {
  private Signals() {}

  /**
   * A physiological-like series as text, a line a sample, {@code "index,value"}: two sines (periods of 400
   * and 70 samples, amplitudes 100 and 30) and Gaussian noise (deviation 5), the value with 3 decimals.
   * At least {@code bytes} bytes, whole lines.
   *
   * @param first the index of the first sample (a checkpoint continues the series)
   */
  static byte[] series(long first, int bytes, long seed) {
    Random r = new Random(seed);
    byte[] out = new byte[bytes + 64];
    int n = 0;
    for (long i = first; n < bytes; i++) {
      if (n + 48 > out.length) {
        out = java.util.Arrays.copyOf(out, out.length * 2);
      }
      double v = 100 * Math.sin(2 * Math.PI * i / 400) + 30 * Math.sin(2 * Math.PI * i / 70) + 5 * r.nextGaussian();
      n = decimal(out, n, i);
      out[n++] = ',';
      long milli = Math.round(v * 1000);
      if (milli < 0) {
        out[n++] = '-';
        milli = -milli;
      }
      n = decimal(out, n, milli / 1000);
      out[n++] = '.';
      long frac = milli % 1000;
      out[n++] = (byte) ('0' + frac / 100);
      out[n++] = (byte) ('0' + frac / 10 % 10);
      out[n++] = (byte) ('0' + frac % 10);
      out[n++] = '\n';
    }
    return java.util.Arrays.copyOf(out, n);
  }

  private static int decimal(byte[] out, int at, long value) {
    String s = Long.toString(value);
    for (int k = 0; k < s.length(); k++) {
      out[at + k] = (byte) s.charAt(k);
    }
    return at + s.length();
  }

  /**
   * An electrocardiogram of {@code bytes / 2} signed 16-bit little-endian samples at {@code rate} Hz: beats at
   * 75 a minute varying by 8 over 30 s and by 2 at random, each a P, Q, R, S and T wave (Gaussians of
   * amplitudes 60, -80, 1000, -150 and 200 units at -200, -30, 0, 30 and 300 ms from the R peak), over a
   * baseline wander (40 units at 0.25 Hz) and Gaussian noise (deviation 8).
   *
   * @param beats where the R peaks are (sample indices), filled if not null
   */
  static byte[] ecg(int bytes, int rate, long seed, java.util.List<Long> beats) {
    Random r = new Random(seed);
    int samples = bytes / 2;
    float[] v = new float[samples];
    double[][] waves = {{60, -0.2, 0.025}, {-80, -0.03, 0.008}, {1000, 0, 0.01}, {-150, 0.03, 0.01},
        {200, 0.3, 0.05}};
    double t = 0.3 + r.nextDouble() * 0.5;
    while (t * rate < samples) {
      long peak = Math.round(t * rate);
      if (beats != null) {
        beats.add(peak);
      }
      int from = (int) Math.max(0, Math.floor((t - 0.35) * rate));
      int to = (int) Math.min(samples - 1L, Math.ceil((t + 0.5) * rate));
      for (int i = from; i <= to; i++) {
        double s = i / (double) rate - t;
        double sum = 0;
        for (double[] w : waves) {
          double d = (s - w[1]) / w[2];
          sum += w[0] * Math.exp(-0.5 * d * d);
        }
        v[i] += (float) sum;
      }
      double bpm = 75 + 8 * Math.sin(2 * Math.PI * t / 30) + 2 * r.nextGaussian();
      t += 60 / Math.max(40, bpm);
    }
    ByteBuffer b = ByteBuffer.allocate(samples * 2).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < samples; i++) {
      double x = v[i] + 40 * Math.sin(2 * Math.PI * 0.25 * i / rate) + 8 * r.nextGaussian();
      b.putShort((short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(x))));
    }
    return b.array();
  }
}
