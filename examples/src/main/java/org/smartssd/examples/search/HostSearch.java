package org.smartssd.examples.search;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.tasklet.builtin.HammingSearch;
import org.smartssd.device.tasklet.builtin.Neighbour;

/**
 * The search on the host, by brute force: every item record read through objfs, as any program
 * reads a file, and compared with every query by the same code the device's lanes run
 * ({@link HammingSearch}), so that the host's counted work is priced on the same terms.
 */
final class HostSearch {
  /** Bytes read at a time: about 1 MiB of whole records (a choice: large reads, as a scan makes them). */
  static final int READ_BYTES = 1 << 20;

  private HostSearch() {}

  /** Every query's top T over the items at {@code items}. */
  static List<List<Neighbour>> bruteForce(Configuration conf, Path items, int bits, int top, List<long[]> queries)
      throws IOException {
    HammingSearch search = new HammingSearch(bits, top, queries.toArray(new long[0][]));
    int record = HammingSearch.recordBytes(bits);
    byte[] buffer = new byte[Math.max(1, READ_BYTES / record) * record];
    FileSystem fs = items.getFileSystem(conf);
    try (InputStream in = fs.open(items)) {
      int filled;
      while ((filled = in.readNBytes(buffer, 0, buffer.length)) > 0) {
        if (filled % record != 0) {
          throw new IOException(items + " ends in the middle of a record: its length is not a multiple of " + record
              + " bytes");
        }
        search.scan(ByteBuffer.wrap(buffer, 0, filled));
      }
    }
    return search.lists().sorted();
  }
}
