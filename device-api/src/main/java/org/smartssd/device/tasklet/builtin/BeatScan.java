package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Heartbeat detection in an electrocardiogram (Active Flash's heartbeat detection on medical data, binary),
 * after Pan and Tompkins (IEEE Trans. Biomed. Eng. 32(3), 1985) in integer arithmetic: a five-point
 * derivative, squared, summed over a moving window of 150 ms; a beat is where that sum first rises above
 * a threshold, no sooner than 200 ms (the refractory period) after the beat before it; the window's sum
 * peaks within the next 150 ms, and the beat is placed at the largest sample of the 150 ms up to that
 * peak (the R wave). The threshold follows the signal: a quarter of the
 * way from the noise level to the signal level, each an exponential average (weight 1/8) of the
 * window's peaks, beats for the signal, the rest for the noise; the first two seconds set both (the
 * signal level half the largest sum in them, the noise level an eighth of it) and are then searched for
 * beats too (a recording shorter than that, at its end).
 *
 * <p>The samples are signed 16-bit little-endian; bytes come in any pieces ({@link #accept}). Each beat is
 * its sample index (u64, little-endian, from 0). The same class runs in the device's lanes and on the host.
 */
public final class BeatScan extends SeriesScan {
  public static final int RECORD_BYTES = 8;

  private final int window;
  private final int refractory;
  private final int learning;
  /** The last four samples, newest at index 0. */
  private final int[] recent = new int[4];
  private final long[] squares;
  /** The last 2 windows and a sample of raw samples, by index modulo its length. */
  private final int[] raw;
  /** The first two seconds' sums and samples, searched once the levels are learned. */
  private final long[] learnSums;
  private final int[] learnRaw;
  private long sum;
  private int carry = -1;
  private long signalLevel;
  private long noiseLevel;
  private long learnedPeak;
  private boolean learned;
  private long lastBeat = Long.MIN_VALUE / 2;
  /** A beat being placed: the sample where the sum crossed the threshold, and the largest sum since. */
  private long candidateFrom = -1;
  private long candidateAt;
  private long candidatePeak;
  /** The largest sum since the last noise peak was taken (for the noise level). */
  private long noisePeak;
  private long noisePeakFrom;

  /** @param rate samples a second (at least 20, so that every window holds a sample) */
  public BeatScan(int rate) {
    if (rate < 20) {
      throw new IllegalArgumentException("the sampling rate must be at least 20 Hz, not " + rate);
    }
    this.window = Math.max(1, rate * 150 / 1000);
    this.refractory = Math.max(1, rate / 5);
    this.learning = 2 * rate;
    this.squares = new long[window];
    this.raw = new int[2 * window + 1];
    this.learnSums = new long[learning];
    this.learnRaw = new int[learning];
  }

  /** Takes the next bytes of the recording. */
  @Override
  public void accept(ByteBuffer data) {
    int i = data.position();
    int end = data.limit();
    if (carry >= 0 && i < end) {
      sample((short) ((carry & 0xFF) | (data.get(i) << 8)));
      carry = -1;
      i++;
    }
    for (; i + 1 < end; i += 2) {
      sample((short) ((data.get(i) & 0xFF) | (data.get(i + 1) << 8)));
    }
    if (i < end) {
      carry = data.get(i) & 0xFF;
    }
  }

  /** The recording ended: a beat still being placed is placed. */
  @Override
  public void finish() {
    if (!learned) {
      learn();
    }
    if (candidateFrom >= 0) {
      beat();
    }
  }

  private void sample(int x) {
    // Five-point derivative: (2x[n] + x[n-1] - x[n-3] - 2x[n-4]) / 8, in eighths.
    long d = 2L * x + recent[0] - recent[2] - 2L * recent[3];
    recent[3] = recent[2];
    recent[2] = recent[1];
    recent[1] = recent[0];
    recent[0] = x;
    long square = d * d;
    raw[(int) (samples % raw.length)] = x;
    int slot = (int) (samples % window);
    sum += square - squares[slot];
    squares[slot] = square;
    long n = samples++;
    if (!learned) {
      learnSums[(int) n] = sum;
      learnRaw[(int) n] = x;
      learnedPeak = Math.max(learnedPeak, sum);
      if (samples == learning) {
        learn();
      }
      return;
    }
    detect(n, sum);
  }

  /** Sets the levels from the first samples, then searches them for beats. */
  private void learn() {
    learned = true;
    signalLevel = learnedPeak / 2;
    noiseLevel = learnedPeak / 8;
    noisePeakFrom = 0;
    for (int j = 0; j < samples; j++) {
      detect(j, learnSums[j]);
    }
  }

  private int rawAt(long j) {
    return j < learning ? learnRaw[(int) j] : raw[(int) (j % raw.length)];
  }

  private void detect(long n, long sum) {
    if (candidateFrom >= 0) {
      if (sum > candidatePeak) {
        candidatePeak = sum;
        candidateAt = n;
      }
      if (n - candidateFrom >= window) {
        beat();
      }
      return;
    }
    long threshold = noiseLevel + (signalLevel - noiseLevel) / 4;
    if (sum > threshold && n - lastBeat >= refractory) {
      candidateFrom = n;
      candidateAt = n;
      candidatePeak = sum;
      return;
    }
    // Below the threshold: the largest sum of each refractory period is a noise peak.
    noisePeak = Math.max(noisePeak, sum);
    if (n - noisePeakFrom >= refractory) {
      noiseLevel += (noisePeak - noiseLevel) / 8;
      noisePeak = 0;
      noisePeakFrom = n;
    }
  }

  private void beat() {
    long at = candidateAt;
    for (long j = Math.max(0, candidateAt - window); j < candidateAt; j++) {
      if (rawAt(j) > rawAt(at)) {
        at = j;
      }
    }
    signalLevel += (candidatePeak - signalLevel) / 8;
    lastBeat = candidateAt;
    candidateFrom = -1;
    noisePeak = 0;
    noisePeakFrom = candidateAt;
    record(RECORD_BYTES).putLong(Math.max(0, at));
  }

  /** Decodes beat records. */
  public static long[] decode(ByteBuffer records) {
    ByteBuffer b = records.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    if (b.remaining() % RECORD_BYTES != 0) {
      throw new IllegalArgumentException("beat records come in " + RECORD_BYTES + " bytes, not " + b.remaining());
    }
    long[] beats = new long[b.remaining() / RECORD_BYTES];
    for (int i = 0; i < beats.length; i++) {
      beats[i] = b.getLong();
    }
    return beats;
  }
}
