package org.smartssd.examples.calibration;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Loops around one kind of library call each, for {@code bench/memory-calibration}'s library part: what the
 * JIT's compiled code reads inside a call that the counting sees only as a library call
 * ({@link org.smartssd.opcount.LibraryReads}'s kinds). Each loop picks its inputs from small arrays (they stay
 * in any cache, so that the misses measured are the call's own) and folds every call's result into what it
 * returns, so that the JIT cannot drop the call. Around the call a loop does only a few counted heap
 * accesses, whose reads the calibration takes away at the counted accesses' own calibrated rate.
 */
public final class LibraryKernels {
  private LibraryKernels() {}

  /** Names of the kernels, each a {@code public static long name(int n)} making about {@code n} calls of its kind. */
  public static final List<String> NAMES = List.of("getClassCalls", "varHandleCalls", "arithmeticCalls",
      "arraycopy16", "arraycopy256", "arraysEquals16", "arraysEquals256", "stringAccessorCalls", "hashMapGetCalls",
      "builderAppendCalls", "integerValueOfCalls");

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static Object[] objects() {
    Object[] os = new Object[16];
    for (int i = 0; i < os.length; i++) {
      os[i] = i % 3 == 0 ? (Object) ("s" + i) : (Object) Long.valueOf(1000L + i);
    }
    return os;
  }

  private static String[] strings() {
    String[] ss = new String[16];
    for (int i = 0; i < ss.length; i++) {
      ss[i] = "key-" + (i * 7919);
    }
    return ss;
  }

  /** {@code Object.getClass()} compared with a class, as a map output buffer checks its pairs. */
  public static long getClassCalls(int n) {
    Object[] os = objects();
    long sum = 0;
    for (int i = 0; i < n; i++) {
      if (os[i & 15].getClass() == Long.class) {
        sum++;
      }
    }
    return sum;
  }

  /** A byte-array view {@code VarHandle}'s {@code get} of a long. */
  public static long varHandleCalls(int n) {
    byte[] b = new byte[64];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i * 37);
    }
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += (long) LONGS.get(b, i & 31);
    }
    return sum;
  }

  /** {@code Math.max} and {@code Long.bitCount}: two calls an iteration. */
  public static long arithmeticCalls(int n) {
    long sum = 0;
    for (int i = 0; i < n / 2; i++) {
      sum += Math.max(i, (int) sum) + Long.bitCount(sum ^ i);
    }
    return sum;
  }

  /** {@code System.arraycopy} of 16 bytes. */
  public static long arraycopy16(int n) {
    return arraycopy(n, 16);
  }

  /** {@code System.arraycopy} of 256 bytes: with {@link #arraycopy16}, a call's part apart from its bytes'. */
  public static long arraycopy256(int n) {
    return arraycopy(n, 256);
  }

  private static long arraycopy(int n, int length) {
    byte[] src = new byte[length + 16];
    byte[] dst = new byte[length];
    for (int i = 0; i < src.length; i++) {
      src[i] = (byte) i;
    }
    long sum = 0;
    for (int i = 0; i < n; i++) {
      System.arraycopy(src, i & 15, dst, 0, length);
      sum += dst[i & 7];
    }
    return sum;
  }

  /** {@code Arrays.equals} of two 16-byte ranges. */
  public static long arraysEquals16(int n) {
    return arraysEquals(n, 16);
  }

  /** {@code Arrays.equals} of two 256-byte ranges. */
  public static long arraysEquals256(int n) {
    return arraysEquals(n, 256);
  }

  private static long arraysEquals(int n, int length) {
    byte[] a = new byte[length + 1];
    byte[] b = new byte[length + 1];
    for (int i = 0; i < a.length; i++) {
      a[i] = (byte) i;
      b[i] = (byte) i;
    }
    long sum = 0;
    for (int i = 0; i < n; i++) {
      if (Arrays.equals(a, i & 1, length, b, i & 1, length)) {
        sum++;
      }
    }
    return sum;
  }

  /** {@code String.length} and {@code charAt}: two calls an iteration. */
  public static long stringAccessorCalls(int n) {
    String[] ss = strings();
    long sum = 0;
    for (int i = 0; i < n / 2; i++) {
      String s = ss[i & 15];
      sum += s.length() + s.charAt(i & 3);
    }
    return sum;
  }

  /** {@code HashMap.get} in a map of 16 string keys. */
  public static long hashMapGetCalls(int n) {
    String[] ss = strings();
    Map<String, Integer> map = new HashMap<>();
    for (int i = 0; i < ss.length; i += 2) {
      map.put(ss[i], i);
    }
    long sum = 0;
    for (int i = 0; i < n; i++) {
      if (map.get(ss[i & 15]) != null) {
        sum++;
      }
    }
    return sum;
  }

  /** {@code StringBuilder.setLength}, {@code append(int)} and {@code length}: three calls an iteration. */
  public static long builderAppendCalls(int n) {
    StringBuilder sb = new StringBuilder();
    long sum = 0;
    for (int i = 0; i < n / 3; i++) {
      sb.setLength(0);
      sb.append(i);
      sum += sb.length();
    }
    return sum;
  }

  /** {@code Integer.valueOf} of values past its cache (a new object each, kept: it escapes). */
  public static long integerValueOfCalls(int n) {
    Integer[] kept = new Integer[16];
    for (int i = 0; i < n; i++) {
      kept[i & 15] = Integer.valueOf(1000 + (i & 0xFFFF));
    }
    long sum = 0;
    for (Integer k : kept) {
      sum += k == null ? 0 : k;
    }
    return sum;
  }
}
