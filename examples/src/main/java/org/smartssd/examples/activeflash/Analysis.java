package org.smartssd.examples.activeflash;

import java.util.Locale;
import org.smartssd.device.tasklet.builtin.BeatScan;
import org.smartssd.device.tasklet.builtin.ExtremaScan;
import org.smartssd.device.tasklet.builtin.HeartbeatDetection;
import org.smartssd.device.tasklet.builtin.LocalExtrema;
import org.smartssd.device.tasklet.builtin.SeriesScan;

/** Active Flash's kinds of analysis built here: each a built-in tasklet and the same scan on the host. */
public enum Analysis {
  /** Local extrema of a series written as text (the source's local extrema detection on medical data). */
  LOCAL_EXTREMA("local-extrema", LocalExtrema.class.getName(),
      "a physiological-like series as text, \"index,value\" a line (two sines and Gaussian noise; generated)"),
  /** Heartbeats in an electrocardiogram (the source's heartbeat detection on medical data, binary). */
  HEARTBEAT("heartbeat", HeartbeatDetection.class.getName(),
      "an electrocardiogram, 16-bit samples at 360 Hz (P, QRS and T waves at 75 beats a minute, baseline wander and"
          + " noise; generated)");

  /** The sampling rate of the electrocardiograms (the tasklet's default, MIT-BIH's). */
  static final int ECG_RATE = HeartbeatDetection.DEFAULT_RATE;

  private final String optionName;
  private final String tasklet;
  private final String data;

  Analysis(String optionName, String tasklet, String data) {
    this.optionName = optionName;
    this.tasklet = tasklet;
    this.data = data;
  }

  public String optionName() {
    return optionName;
  }

  /** The built-in tasklet's class name. */
  public String tasklet() {
    return tasklet;
  }

  /** What the producer writes. */
  public String data() {
    return data;
  }

  /** The scan of one file, as the tasklet makes it with its default parameters. */
  SeriesScan scan(String path) {
    return switch (this) {
      case LOCAL_EXTREMA -> new ExtremaScan(LocalExtrema.DEFAULT_WINDOW, -1, 1 << 20, path);
      case HEARTBEAT -> new BeatScan(ECG_RATE);
    };
  }

  /** Checkpoint {@code index} of a run: at least {@code bytes} bytes (whole lines, whole samples). */
  byte[] checkpoint(int index, int bytes, long seed) {
    long s = seed * 1_000_003L + index;
    return switch (this) {
      case LOCAL_EXTREMA -> Signals.series((long) index * (bytes / 12), bytes, s);
      case HEARTBEAT -> Signals.ecg(bytes, ECG_RATE, s, null);
    };
  }

  /** What one record of the analysis's results is. */
  int recordBytes() {
    return this == LOCAL_EXTREMA ? ExtremaScan.RECORD_BYTES : BeatScan.RECORD_BYTES;
  }

  public static Analysis parse(String name) {
    for (Analysis a : values()) {
      if (a.optionName.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("'" + name + "' is not an analysis: local-extrema or heartbeat");
  }

  @Override
  public String toString() {
    return optionName;
  }
}
