package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * The best T neighbours of each of several queries, in the order (distance, then id unsigned): each
 * query's list a max-heap of at most T entries in primitive arrays, whose root is the worst kept, so
 * that a candidate worse than it costs one comparison and nothing is allocated. Not thread-safe.
 *
 * <p>Encoded (big-endian): u32 queries, u32 T, then for each query u32 n (at most T) and n entries
 * (u32 distance, u64 id), best first. Lists of disjoint sets of items merge exactly: offering every
 * entry of each into one list gives the top T of their union.
 */
public final class TopLists {
  /** Bytes of an encoded entry: a u32 distance and a u64 id. */
  public static final int ENTRY_BYTES = 12;

  private final int queries;
  private final int top;
  private final int[] distances;
  private final long[] ids;
  private final int[] sizes;

  public TopLists(int queries, int top) {
    if (queries < 1 || top < 1) {
      throw new IllegalArgumentException("top lists need a query and a length of 1 or more, not " + queries
          + " queries of " + top);
    }
    this.queries = queries;
    this.top = top;
    this.distances = new int[Math.multiplyExact(queries, top)];
    this.ids = new long[distances.length];
    this.sizes = new int[queries];
  }

  public int queries() {
    return queries;
  }

  public int top() {
    return top;
  }

  /** Whether (d1, id1) comes before (d2, id2): a smaller distance, or the same and a smaller id (unsigned). */
  static boolean before(int d1, long id1, int d2, long id2) {
    return d1 < d2 || (d1 == d2 && id1 + Long.MIN_VALUE < id2 + Long.MIN_VALUE);
  }

  /**
   * The distance a candidate must not exceed to be kept for query {@code q}: that of the worst kept
   * once the list holds T; {@link Integer#MAX_VALUE} before.
   */
  public int worst(int q) {
    return sizes[q] < top ? Integer.MAX_VALUE : distances[q * top];
  }

  /** How many query {@code q} keeps (at most T). */
  public int size(int q) {
    return sizes[q];
  }

  /**
   * Keeps (distance, id) for query {@code q} if it is among the best T so far.
   *
   * @return {@link #worst(int)} after the offer
   */
  public int offer(int q, int distance, long id) {
    int base = q * top;
    int[] d = distances;
    long[] key = ids;
    int n = sizes[q];
    if (n < top) {
      int i = n; // sift up from the new leaf
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (!before(d[base + parent], key[base + parent], distance, id)) {
          break;
        }
        d[base + i] = d[base + parent];
        key[base + i] = key[base + parent];
        i = parent;
      }
      d[base + i] = distance;
      key[base + i] = id;
      sizes[q] = ++n;
      return n < top ? Integer.MAX_VALUE : d[base];
    }
    if (!before(distance, id, d[base], key[base])) {
      return d[base];
    }
    int i = 0; // the root goes; sift the newcomer down
    while (true) {
      int child = 2 * i + 1;
      if (child >= n) {
        break;
      }
      if (child + 1 < n && before(d[base + child], key[base + child], d[base + child + 1], key[base + child + 1])) {
        child++;
      }
      if (!before(distance, id, d[base + child], key[base + child])) {
        break;
      }
      d[base + i] = d[base + child];
      key[base + i] = key[base + child];
      i = child;
    }
    d[base + i] = distance;
    key[base + i] = id;
    return d[base];
  }

  /** Whether query {@code q} keeps (distance, id). */
  public boolean contains(int q, int distance, long id) {
    int base = q * top;
    for (int i = 0; i < sizes[q]; i++) {
      if (ids[base + i] == id && distances[base + i] == distance) {
        return true;
      }
    }
    return false;
  }

  /** Forgets every list. */
  public void clear() {
    Arrays.fill(sizes, 0);
  }

  /** Query {@code q}'s neighbours, best first. */
  public List<Neighbour> sorted(int q) {
    int base = q * top;
    List<Neighbour> out = new ArrayList<>(sizes[q]);
    for (int i = 0; i < sizes[q]; i++) {
      out.add(new Neighbour(ids[base + i], distances[base + i]));
    }
    out.sort(null);
    return out;
  }

  /** Every query's neighbours, best first, a list a query. */
  public List<List<Neighbour>> sorted() {
    List<List<Neighbour>> out = new ArrayList<>(queries);
    for (int q = 0; q < queries; q++) {
      out.add(sorted(q));
    }
    return out;
  }

  /** Bytes of the encoded lists when full. */
  public long encodedBytes() {
    return 8 + (long) queries * 4 + (long) queries * top * ENTRY_BYTES;
  }

  /** The lists, encoded (see the class comment). */
  public ByteBuffer encode() {
    int entries = 0;
    for (int q = 0; q < queries; q++) {
      entries += sizes[q];
    }
    ByteBuffer out = ByteBuffer.allocate(8 + queries * 4 + entries * ENTRY_BYTES);
    out.putInt(queries).putInt(top);
    for (int q = 0; q < queries; q++) {
      List<Neighbour> list = sorted(q);
      out.putInt(list.size());
      for (Neighbour n : list) {
        out.putInt(n.distance()).putLong(n.id());
      }
    }
    return out.flip();
  }

  /**
   * Offers every entry of encoded lists (of as many queries, and no longer than T).
   *
   * @throws IllegalArgumentException if they are not such lists
   */
  public void addEncoded(ByteBuffer encoded) {
    ByteBuffer b = encoded.duplicate();
    if (b.remaining() < 8) {
      throw new IllegalArgumentException("top lists of " + b.remaining() + " bytes: too short for their header");
    }
    int q = b.getInt();
    int t = b.getInt();
    if (q != queries || t > top) {
      throw new IllegalArgumentException("top lists of " + q + " queries, " + t + " long, merged into lists of "
          + queries + " queries, " + top + " long");
    }
    for (int i = 0; i < queries; i++) {
      int n = b.remaining() >= 4 ? b.getInt() : -1;
      if (n < 0 || n > t || b.remaining() < (long) n * ENTRY_BYTES) {
        throw new IllegalArgumentException("top lists cut short or malformed at query " + i);
      }
      for (int k = 0; k < n; k++) {
        offer(i, b.getInt(), b.getLong());
      }
    }
    if (b.hasRemaining()) {
      throw new IllegalArgumentException("top lists followed by " + b.remaining() + " more bytes");
    }
  }

  /**
   * The lists of several results (lanes' lists, or one merged on the device) merged into one: the
   * top T of all of them, T and the queries taken from the first.
   *
   * @throws IllegalArgumentException if there is no result, or they are not lists of the same shape
   */
  public static TopLists merge(List<TaskletResult> results) {
    if (results.isEmpty()) {
      throw new IllegalArgumentException("no top lists to merge");
    }
    ByteBuffer first = results.get(0).data();
    if (first.remaining() < 8) {
      throw new IllegalArgumentException("top lists of " + first.remaining() + " bytes: too short for their header");
    }
    TopLists merged = new TopLists(first.getInt(first.position()), first.getInt(first.position() + 4));
    for (TaskletResult r : results) {
      merged.addEncoded(r.data());
    }
    return merged;
  }
}
