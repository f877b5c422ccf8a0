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

  /**
   * Scans ranges of the items object in memory as the tasklet does, checking that no item meets a query
   * twice, but in the last round's scan of every item, and no page is read twice in a round.
   */
  private static final class MemoryScanner implements BucketRounds.Scanner {
    private final ItemObject items;
    private final List<long[]> queries;
    private final int top;
    private final int pageBytes;
    private final Set<String> met = new HashSet<>();
    int scans;
    long pages;
    int lastRounds;

    MemoryScanner(ItemObject items, List<long[]> queries, int top, int pageBytes) {
      this.items = items;
      this.queries = queries;
      this.top = top;
      this.pageBytes = pageBytes;
    }

    @Override
    public List<List<Neighbour>> scan(List<BucketRounds.Range> ranges) {
      scans++;
      HammingSearch search = new HammingSearch(items.bits(), top, queries.toArray(new long[0][]));
      int record = items.recordBytes();
      BucketDirectory d = items.directory();
      long previousLastPage = -1;
      boolean everyItem = ranges.size() == 1 && ranges.get(0).segments().size() == 1
          && ranges.get(0).firstBucket() == 0 && ranges.get(0).endBucket() == items.directory().buckets();
      lastRounds += everyItem ? 1 : 0;
      for (BucketRounds.Range r : ranges) {
        long firstPage = (long) d.start(r.firstBucket()) * record / pageBytes;
        long lastPage = ((long) d.end(r.endBucket() - 1) * record - 1) / pageBytes;
        assertTrue(firstPage > previousLastPage, "ranges ascending, apart, and on pages of their own");
        previousLastPage = lastPage;
        pages += lastPage - firstPage + 1;
        int next = r.firstBucket();
        for (BucketRounds.Segment s : r.segments()) {
          assertEquals(next, s.firstBucket(), "segments one after the other");
          next = s.endBucket();
          int first = d.start(s.firstBucket());
          int end = d.end(s.endBucket() - 1);
          for (int i = first; i < end; i++) {
            long id = ByteBuffer.wrap(items.records()).getLong(i * record);
            for (int q : s.queries()) {
              assertTrue(met.add(q + "/" + id) || everyItem, "query " + q + " meets item " + id + " twice");
            }
          }
          search.scan(ByteBuffer.wrap(items.records(), first * record, (end - first) * record), s.queries());
        }
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
          MemoryScanner scanner = new MemoryScanner(items, data.queryCodes(), top, pageBytes);
          BucketRounds.Outcome o = new BucketRounds(items.directory(), data.queryCodes(), top, items.recordBytes(),
              pageBytes).search(scanner);
          String what = bits + " bits, prefix " + prefixBits + ", pages of " + pageBytes;
          assertEquals(bruteForce(items, data.queryCodes(), top), o.neighbours(), what);
          assertEquals(scanner.scans, o.rounds(), what);
          if (scanner.lastRounds == 0) {
            assertEquals(scanner.met.size(), o.comparisons(), what);
          }
          assertTrue(scanner.lastRounds <= 1, what);
          long objectPages = ((long) items.records().length - 1) / pageBytes + 1;
          assertTrue(scanner.pages <= 2 * objectPages, what + ": " + scanner.pages + " pages of " + objectPages);
          if (prefixBits >= 12) { // clustered codes: most buckets are far from a query
            assertTrue(o.comparisons() < 20_000L * 12 / 2, what + ": " + o.comparisons() + " comparisons");
          }
        }
      }
    }
  }

  /**
   * Overlapping clusters: many rounds would read pages again, and the search reads at most about twice the
   * object's pages (its last round reads every bucket still unread), still exact.
   */
  @Test
  void overlappingClustersStayExactAndReadAtMostAboutTwiceTheObject() throws Exception {
    SearchData data = SearchData.generate(new SearchData.Parameters(20_000, 16, 64, 16, 30, 16, 5));
    ItemObject items = ItemObject.of(data, Layout.CLUSTERED, 20);
    MemoryScanner scanner = new MemoryScanner(items, data.queryCodes(), 10, 4096);
    BucketRounds.Outcome o = new BucketRounds(items.directory(), data.queryCodes(), 10, items.recordBytes(), 4096)
        .search(scanner);
    assertEquals(bruteForce(items, data.queryCodes(), 10), o.neighbours());
    long objectPages = ((long) items.records().length - 1) / 4096 + 1;
    assertTrue(scanner.pages <= 2 * objectPages, scanner.pages + " pages of " + objectPages);
    assertTrue(o.comparisons() <= 2 * 20_000L * 16, o.comparisons() + " comparisons");
    assertEquals(1, scanner.lastRounds, "overlapping clusters end in a scan of every item");
  }

  /** Items all at the same distance from a query: the T kept are those with the smallest ids, as the brute force's. */
  @Test
  void tiesAreBrokenByIdAcrossRounds() throws Exception {
    SearchData data = SearchData.generate(new SearchData.Parameters(3_000, 4, 8, 5, 2, 11)); // 8-bit codes: many ties
    ItemObject items = ItemObject.of(data, Layout.CLUSTERED, 4);
    MemoryScanner scanner = new MemoryScanner(items, data.queryCodes(), 50, 64);
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
