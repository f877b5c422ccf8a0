package org.smartssd.examples.calibration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.util.IndexedSortable;
import org.apache.hadoop.util.QuickSort;

/**
 * The work {@link HostCalibration} times on this machine and counts: kernels with different mixes of
 * plain instructions, heap accesses, library calls and bulk copies, several of them through Hadoop's
 * own code (serialization, comparison, sorting), as the jobs the model prices do. Each takes a size
 * and returns a value that depends on all its work, so that the JIT cannot drop any of it.
 */
public final class CalibrationKernels {
  private CalibrationKernels() {}

  /** Names of the kernels, each a {@code public static long name(int n)}. */
  public static final List<String> NAMES = List.of("arithmetic", "arrayScan", "objectGraph", "hashGrouping",
      "strings", "bulkCopy", "hadoopSerialization", "hadoopSort");

  /** The kernels the host's costs are fitted on: code like the code the host model prices. */
  public static final List<String> FITTED = List.of("objectGraph", "hashGrouping", "strings", "bulkCopy",
      "hadoopSerialization", "hadoopSort");

  /** Plain instructions on locals. */
  public static long arithmetic(int n) {
    long x = 1;
    for (int i = 0; i < n; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      x ^= x >>> 17;
    }
    return x;
  }

  /** Array loads in order, 64 KiB of ints: a heap access per element, from the cache. */
  public static long arrayScan(int n) {
    int[] a = new int[16384];
    for (int i = 0; i < a.length; i++) {
      a[i] = i * 31;
    }
    long sum = 0;
    for (int r = 0; r < n / a.length + 1; r++) {
      for (int i = 0; i < a.length; i++) {
        sum += a[i] ^ r;
      }
    }
    return sum;
  }

  /** Fields of small objects reached through references. */
  public static long objectGraph(int n) {
    Node head = null;
    for (int i = 0; i < 4096; i++) {
      head = new Node(i, head);
    }
    long sum = 0;
    for (int r = 0; r < n / 4096 + 1; r++) {
      for (Node p = head; p != null; p = p.next) {
        sum += p.value + r;
        p.value++;
      }
    }
    return sum;
  }

  private static final class Node {
    long value;
    final Node next;

    Node(long value, Node next) {
      this.value = value;
      this.next = next;
    }
  }

  /** Counting by key in a {@code HashMap}: library calls (hashing, boxing, the map's own code). */
  public static long hashGrouping(int n) {
    Map<Integer, long[]> groups = new HashMap<>();
    for (int i = 0; i < n; i++) {
      groups.computeIfAbsent((i * 7919) % 1024, k -> new long[1])[0] += i;
    }
    long sum = 0;
    for (long[] v : groups.values()) {
      sum += v[0];
    }
    return sum;
  }

  /** Building and hashing strings. */
  public static long strings(int n) {
    long sum = 0;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.setLength(0);
      sb.append("region-").append(i % 97).append('/').append(i);
      sum += sb.toString().hashCode();
    }
    return sum;
  }

  /** Bulk copies of 64 KiB blocks. */
  public static long bulkCopy(int n) {
    byte[] src = new byte[65536];
    byte[] dst = new byte[65536];
    for (int i = 0; i < src.length; i++) {
      src[i] = (byte) i;
    }
    long sum = 0;
    for (int r = 0; r < n / 64 + 1; r++) {
      System.arraycopy(src, r % 1024, dst, 0, src.length - 1024);
      sum += dst[r % dst.length];
    }
    return sum;
  }

  /** Hadoop's serialization of (Text, LongWritable) pairs, and reading them back: the map output path. */
  public static long hadoopSerialization(int n) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    DataInputBuffer in = new DataInputBuffer();
    Text key = new Text();
    LongWritable value = new LongWritable();
    Text[] keys = {new Text("SANTA_CLARA"), new Text("PLANO"), new Text("HERNDON"), new Text("PARIS")};
    long sum = 0;
    for (int i = 0; i < n; i++) {
      if (i % 1024 == 0) {
        in.reset(out.getData(), out.getLength());
        while (in.getPosition() < in.getLength()) {
          key.readFields(in);
          value.readFields(in);
          sum += key.getLength() + value.get();
        }
        out.reset();
      }
      keys[i & 3].write(out);
      value.set(i);
      value.write(out);
    }
    return sum + out.getLength();
  }

  /** Hadoop's QuickSort over serialized keys compared with Hadoop's byte comparator: the spill's sort. */
  public static long hadoopSort(int n) {
    int count = Math.max(16, n / 64);
    byte[][] keys = new byte[count][];
    long x = 12345;
    for (int i = 0; i < count; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      keys[i] = Long.toString(x >>> 20, 36).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
    List<byte[]> sorted = new ArrayList<>(List.of(keys));
    new QuickSort().sort(new IndexedSortable() {
      @Override
      public int compare(int i, int j) {
        byte[] a = sorted.get(i);
        byte[] b = sorted.get(j);
        return WritableComparator.compareBytes(a, 0, a.length, b, 0, b.length);
      }

      @Override
      public void swap(int i, int j) {
        byte[] t = sorted.get(i);
        sorted.set(i, sorted.get(j));
        sorted.set(j, t);
      }
    }, 0, count);
    return sorted.get(0).length + sorted.get(count - 1)[0];
  }
}
