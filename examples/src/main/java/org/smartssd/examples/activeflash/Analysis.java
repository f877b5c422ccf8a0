package org.smartssd.examples.activeflash;

import java.util.Locale;
import org.smartssd.device.tasklet.builtin.BeatScan;
import org.smartssd.device.tasklet.builtin.Compression;
import org.smartssd.device.tasklet.builtin.ExtremaScan;
import org.smartssd.device.tasklet.builtin.HeartbeatDetection;
import org.smartssd.device.tasklet.builtin.LocalExtrema;
import org.smartssd.device.tasklet.builtin.LzScan;
import org.smartssd.device.tasklet.builtin.SeriesScan;

/** Active Flash's kinds of analysis built here: each a built-in tasklet and the same scan on the host. */
public enum Analysis {
  /** Local extrema of a series written as text (the source's local extrema detection on medical data). */
  LOCAL_EXTREMA("local-extrema", LocalExtrema.class.getName(),
      "a physiological-like series as text, \"index,value\" a line (two sines and Gaussian noise; generated)"),
  /** Heartbeats in an electrocardiogram (the source's heartbeat detection on medical data, binary). */
  HEARTBEAT("heartbeat", HeartbeatDetection.class.getName(),
      "an electrocardiogram, 16-bit samples at 360 Hz (P, QRS and T waves at 75 beats a minute, baseline wander and"
          + " noise; generated)"),
  /** Compression in blocks, LZ77 as LZO does it (the source's data compression of scientific data). */
  COMPRESSION("compression", Compression.class.getName(),
      "a physiological-like series as text, \"index,value\" a line (two sines and Gaussian noise; generated)");

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
      case COMPRESSION -> new LzScan();
    };
  }

  /** Checkpoint {@code index} of a run: at least {@code bytes} bytes (whole lines, whole samples). */
  byte[] checkpoint(int index, int bytes, long seed) {
    long s = seed * 1_000_003L + index;
    return switch (this) {
      case LOCAL_EXTREMA, COMPRESSION -> Signals.series((long) index * (bytes / 12), bytes, s);
      case HEARTBEAT -> Signals.ecg(bytes, ECG_RATE, s, null);
    };
  }

  /** The records in a file's results: extrema, beats, or compressed blocks. */
  long records(byte[] payload) {
    return switch (this) {
      case LOCAL_EXTREMA -> payload.length / ExtremaScan.RECORD_BYTES;
      case HEARTBEAT -> payload.length / BeatScan.RECORD_BYTES;
      case COMPRESSION -> blocks(payload);
    };
  }

  private static long blocks(byte[] payload) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(payload).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long n = 0;
    while (b.remaining() >= 8) {
      b.getInt();
      int length = b.getInt();
      b.position(Math.min(b.limit(), b.position() + Math.max(0, length)));
      n++;
    }
    return n;
  }

  /**
   * What is wrong with a file's results beyond their differing from the host's, or null: compressed blocks
   * must give the file back.
   */
  String check(byte[] data, byte[] payload) {
    if (this != COMPRESSION) {
      return null;
    }
    try {
      return java.util.Arrays.equals(LzScan.decompress(java.nio.ByteBuffer.wrap(payload)), data) ? null
          : "its blocks do not decompress to its bytes";
    } catch (IllegalArgumentException e) {
      return "its blocks do not decompress: " + e.getMessage();
    }
  }

  public static Analysis parse(String name) {
    for (Analysis a : values()) {
      if (a.optionName.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("'" + name + "' is not an analysis: local-extrema, heartbeat or compression");
  }

  @Override
  public String toString() {
    return optionName;
  }
}
