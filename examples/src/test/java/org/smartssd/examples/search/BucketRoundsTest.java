package org.smartssd.examples.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.smartssd.device.tasklet.builtin.HammingSearch;
import org.smartssd.device.tasklet.builtin.Neighbour;

/** The clustered layout's search in rounds, with the ranges scanned in memory: exact, and reading less. */
class BucketRoundsTest {

  /** Scans ranges of the items object in memory as the tasklet does, checking no item meets a query twice. */
  private static final class MemoryScanner implements BucketRounds.Scanner {
    private final ItemObject items;
    private final List<long[]> queries;
    private final int top;
    private final Set<String> met = new HashSet<>();
    int scans;

    MemoryScanner(ItemObject items, List<long[]> queries, int top) {
      this.items = items;
      this.queries = queries;
      this.top = top;
    }

    @Override
    public List<List<Neighbour>> scan(List<BucketRounds.Range> ranges) {
      scans++;
      HammingSearch search = new HammingSearch(items.bits(), top, queries.toArray(new long[0][]));
      int record = items.recordBytes();
      BucketDirectory d = items.directory();
      int previousEnd = -1;
      for (BucketRounds.Range r : ranges) {
        int first = d.start(r.firstBucket());
        int end = d.end(r.endBucket() - 1);
        assertTrue(first >= previousEnd, "ranges ascending and apart");
        previousEnd = end;
        for (int i = first; i < end; i++) {
          long id = ByteBuffer.wrap(items.records()).getLong(i * record);
          for (int q : r.queries()) {
            assertTrue(met.add(q + "/" + id), "query " + q + " meets item " + id + " twice");
          }
        }
        search.scan(ByteBuffer.wrap(items.records(), first * record, (end - first) * record), r.queries());
      }
      return search.lists().sorted();
    }
  }

  private static List<List<Neighbour>> bruteForce(ItemObject items, List<long[]> queries, int top) {
    HammingSearch search = new HammingSearch(items.bits(), top, queries.toArray(new long[0][]));
    search.scan(ByteBuffer.wrap(items.records()));
    return search.lists().sorted();
  }

  @Test
  void everyQueryGetsTheBruteForcesTopTReadingLess() throws Exception {
    for (int bits : new int[] {48, 64, 128}) {
      SearchData data = SearchData.generate(new SearchData.Parameters(20_000, 16, bits, 12, 20, bits));
      for (int prefixBits : new int[] {1, 6, 12, Math.min(bits, 32)}) {
        for (int pageBytes : new int[] {512, 8192}) {
          ItemObject items = ItemObject.of(data, Layout.CLUSTERED, prefixBits);
          int top = 7;
          MemoryScanner scanner = new MemoryScanner(items, data.queryCodes(), top);
          BucketRounds.Outcome o = new BucketRounds(items.directory(), data.queryCodes(), top, items.recordBytes(),
              pageBytes).search(scanner);
          String what = bits + " bits, prefix " + prefixBits + ", pages of " + pageBytes;
          assertEquals(bruteForce(items, data.queryCodes(), top), o.neighbours(), what);
          assertEquals(scanner.scans, o.rounds(), what);
          assertEquals(scanner.met.size(), o.comparisons(), what);
          if (prefixBits >= 12) { // clustered codes: most buckets are far from a query
            assertTrue(o.comparisons() < 20_000L * 12 / 2, what + ": " + o.comparisons() + " comparisons");
          }
        }
      }
    }
  }

  /** Items all at the same distance from a query: the T kept are those with the smallest ids, as the brute force's. */
  @Test
  void tiesAreBrokenByIdAcrossRounds() throws Exception {
    SearchData data = SearchData.generate(new SearchData.Parameters(3_000, 4, 8, 5, 2, 11)); // 8-bit codes: many ties
    ItemObject items = ItemObject.of(data, Layout.CLUSTERED, 4);
    MemoryScanner scanner = new MemoryScanner(items, data.queryCodes(), 50);
    BucketRounds.Outcome o = new BucketRounds(items.directory(), data.queryCodes(), 50, items.recordBytes(), 64)
        .search(scanner);
    assertEquals(bruteForce(items, data.queryCodes(), 50), o.neighbours());
  }

  @Test
  void theDirectoryRoundTripsAndCoversEveryItemInCodeOrder() {
    SearchData data = SearchData.generate(new SearchData.Parameters(5_000, 8, 64, 3, 10, 3));
    ItemObject items = ItemObject.of(data, Layout.CLUSTERED, 10);
    BucketDirectory d = items.directory();
    assertEquals(d, BucketDirectory.decode(d.encode()));
    assertEquals(0, d.start(0));
    assertEquals(5_000, d.end(d.buckets() - 1));
    ByteBuffer records = ByteBuffer.wrap(items.records());
    List<Long> ids = new ArrayList<>();
    for (int b = 0; b < d.buckets(); b++) {
      for (int r = d.start(b); r < d.end(b); r++) {
        assertEquals(d.prefix(b), d.prefixOf(records.getLong(r * 16 + 8)), "record " + r + " in bucket " + b);
        ids.add(records.getLong(r * 16));
      }
    }
    assertEquals(5_000, new HashSet<>(ids).size());
    ItemObject plain = ItemObject.of(data, Layout.PLAIN, 0);
    for (int i = 0; i < 5_000; i++) {
      assertEquals(i, ByteBuffer.wrap(plain.records()).getLong(i * 16), "plain: in id order");
    }
  }
}
