package org.smartssd.examples.search;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import org.smartssd.device.tasklet.builtin.HammingSearch;

/**
 * The items of a data set as the object the device holds: their {@link HammingSearch} records (a u64
 * id, then the code's words) in the layout's order, and, laid out clustered, the directory of its
 * buckets.
 *
 * @param directory the buckets of the clustered layout; null for the plain one
 */
public record ItemObject(Layout layout, int bits, byte[] records, BucketDirectory directory) {

  /**
   * Lays the items out.
   *
   * @param prefixBits the clustered layout's bucket prefix (1 to {@link BucketDirectory#MAX_PREFIX_BITS},
   *     at most the codes' bits); ignored for the plain one
   */
  public static ItemObject of(SearchData data, Layout layout, int prefixBits) {
    int n = data.items();
    int words = data.parameters().words();
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    BucketDirectory directory = null;
    if (layout == Layout.CLUSTERED) {
      if (prefixBits < 1 || prefixBits > Math.min(BucketDirectory.MAX_PREFIX_BITS, data.bits())) {
        throw new IllegalArgumentException("prefix bits must be between 1 and " + Math.min(
            BucketDirectory.MAX_PREFIX_BITS, data.bits()) + ", not " + prefixBits);
      }
      Comparator<Integer> byCode = (a, b) -> {
        for (int k = 0; k < words; k++) {
          int c = Long.compareUnsigned(data.word(a, k), data.word(b, k));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a, b);
      };
      Arrays.sort(order, byCode);
      long[] firstWords = new long[n];
      for (int i = 0; i < n; i++) {
        firstWords[i] = data.word(order[i], 0);
      }
      directory = BucketDirectory.of(prefixBits, firstWords);
    }
    ByteBuffer records = ByteBuffer.allocate(Math.multiplyExact(n, HammingSearch.recordBytes(data.bits())));
    for (int id : order) {
      records.putLong(id);
      for (int k = 0; k < words; k++) {
        records.putLong(data.word(id, k));
      }
    }
    return new ItemObject(layout, data.bits(), records.array(), directory);
  }

  public int recordBytes() {
    return HammingSearch.recordBytes(bits);
  }

  public int items() {
    return records.length / recordBytes();
  }
}
