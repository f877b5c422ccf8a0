package org.smartssd.examples.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.smartssd.device.tasklet.builtin.Neighbour;
import org.smartssd.device.tasklet.builtin.TopLists;

/**
 * The clustered layout's search: exact, reading the buckets nearest each query first and stopping
 * once no unread bucket can hold a better item.
 *
 * <p>The Hamming distance of two codes' first k bits is at most that of the codes, so no item of a
 * bucket is nearer a query than the bucket's prefix is to the query's: that distance is the bucket's
 * lower bound for the query. A query is done once it keeps T items and its T-th is strictly nearer
 * than the lower bound of every unread bucket (strictly: an unread item as near, with a smaller id,
 * would come before it in the order (distance, id)), or once no bucket is left unread. Each round,
 * every query not done asks for its unread buckets of the smallest lower bound; one scan (a device
 * execution, its ranges ascending) compares each bucket's items with the queries that asked for it;
 * the host merges what each query found into the lists it keeps. So each query ends with exactly the
 * brute force's top T, having read the buckets of lower bound up to about its T-th distance only.
 *
 * <p>Buckets asked for next to each other are one range when the same queries asked for them; and
 * two ranges are joined when the second would begin on the page where the first ends (reading that
 * page twice costs a flash read; reading the few items between costs a comparison each), their items
 * then compared with the queries of both, unless a query of either has read a bucket of the other in
 * an earlier round (it would meet those items twice). A bucket compared with a query is read for that
 * query, whichever round it was asked for in, and never again for it.
 */
public final class BucketRounds {
  /**
   * Buckets {@code firstBucket} to {@code endBucket} (exclusive) and the queries their items are compared with.
   */
  public record Range(int firstBucket, int endBucket, int[] queries) {}

  /**
   * Compares the items of ranges (ascending, apart) with their queries.
   *
   * @return each query's best T among the items it met (an empty list for a query no range names)
   */
  @FunctionalInterface
  public interface Scanner {
    List<List<Neighbour>> scan(List<Range> ranges) throws IOException, InterruptedException;
  }

  /**
   * What a search found and read.
   *
   * @param neighbours each query's top T, best first
   * @param rounds scans made
   * @param itemsRead items in the ranges scanned, summed over the rounds
   * @param comparisons items compared with a query, summed (the work a brute force does with items x queries)
   */
  public record Outcome(List<List<Neighbour>> neighbours, int rounds, long itemsRead, long comparisons) {}

  private final BucketDirectory directory;
  private final int[] prefixes;
  private final int top;
  private final int recordBytes;
  private final int pageBytes;

  /**
   * @param queries the query codes
   * @param pageBytes the device's page size: ranges meeting on a page are joined
   */
  public BucketRounds(BucketDirectory directory, List<long[]> queries, int top, int recordBytes, int pageBytes) {
    this.directory = directory;
    this.top = top;
    this.recordBytes = recordBytes;
    this.pageBytes = pageBytes;
    this.prefixes = new int[queries.size()];
    for (int q = 0; q < prefixes.length; q++) {
      prefixes[q] = directory.prefixOf(queries.get(q)[0]);
    }
  }

  public Outcome search(Scanner scanner) throws IOException, InterruptedException {
    int queries = prefixes.length;
    TopLists lists = new TopLists(queries, top);
    boolean[][] read = new boolean[queries][directory.buckets()];
    boolean[] done = new boolean[queries];
    int rounds = 0;
    long itemsRead = 0;
    long comparisons = 0;
    while (true) {
      // Each bucket's askers this round, as lists of queries.
      int[][] askers = new int[directory.buckets()][];
      int[] askerCount = new int[directory.buckets()];
      boolean any = false;
      for (int q = 0; q < queries; q++) {
        if (done[q]) {
          continue;
        }
        int bound = Integer.MAX_VALUE;
        for (int b = 0; b < directory.buckets(); b++) {
          if (!read[q][b]) {
            bound = Math.min(bound, Integer.bitCount(directory.prefix(b) ^ prefixes[q]));
          }
        }
        if (bound == Integer.MAX_VALUE || lists.worst(q) < bound) {
          done[q] = true;
          continue;
        }
        for (int b = 0; b < directory.buckets(); b++) {
          if (!read[q][b] && Integer.bitCount(directory.prefix(b) ^ prefixes[q]) == bound) {
            if (askers[b] == null) {
              askers[b] = new int[4];
            } else if (askerCount[b] == askers[b].length) {
              askers[b] = Arrays.copyOf(askers[b], 2 * askerCount[b]);
            }
            askers[b][askerCount[b]++] = q;
            any = true;
          }
        }
      }
      if (!any) {
        break;
      }
      List<Range> ranges = ranges(askers, askerCount, read);
      for (Range r : ranges) {
        for (int b = r.firstBucket(); b < r.endBucket(); b++) {
          for (int q : r.queries()) {
            read[q][b] = true;
          }
        }
        long items = directory.start(r.endBucket()) - (long) directory.start(r.firstBucket());
        itemsRead += items;
        comparisons += items * r.queries().length;
      }
      List<List<Neighbour>> found = scanner.scan(ranges);
      for (int q = 0; q < queries; q++) {
        for (Neighbour n : found.get(q)) {
          lists.offer(q, n.distance(), n.id());
        }
      }
      rounds++;
    }
    return new Outcome(lists.sorted(), rounds, itemsRead, comparisons);
  }

  /**
   * The asked-for buckets as ranges: next ones with the same askers joined, and ranges meeting on a page
   * unless a query of either has read a bucket of the other before.
   */
  private List<Range> ranges(int[][] askers, int[] askerCount, boolean[][] read) {
    List<Range> out = new ArrayList<>();
    int first = -1;
    int end = -1;
    int[] queries = null;
    for (int b = 0; b < directory.buckets(); b++) {
      if (askers[b] == null) {
        continue;
      }
      int[] mine = Arrays.copyOf(askers[b], askerCount[b]); // ascending: queries were asked in order
      if (queries != null && b == end && Arrays.equals(queries, mine)) {
        end = b + 1;
      } else if (queries != null && firstPage(directory.start(b)) <= lastPage(directory.end(end - 1))
          && unread(read, union(queries, mine), first, b + 1)) {
        end = b + 1;
        queries = union(queries, mine);
      } else {
        if (queries != null) {
          out.add(new Range(first, end, queries));
        }
        first = b;
        end = b + 1;
        queries = mine;
      }
    }
    if (queries != null) {
      out.add(new Range(first, end, queries));
    }
    return out;
  }

  /** Whether none of the queries has read a bucket from {@code first} to {@code end} (exclusive) before. */
  private static boolean unread(boolean[][] read, int[] queries, int first, int end) {
    for (int q : queries) {
      for (int b = first; b < end; b++) {
        if (read[q][b]) {
          return false;
        }
      }
    }
    return true;
  }

  /** The page holding record {@code record}'s first byte. */
  private long firstPage(long record) {
    return record * recordBytes / pageBytes;
  }

  /** The page holding the last byte before record {@code end}. */
  private long lastPage(long end) {
    return (end * recordBytes - 1) / pageBytes;
  }

  /** Two ascending lists of queries as one. */
  private static int[] union(int[] a, int[] b) {
    int[] out = new int[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      int next = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
      if (i < a.length && a[i] == next) {
        i++;
      }
      if (j < b.length && b[j] == next) {
        j++;
      }
      out[n++] = next;
    }
    return Arrays.copyOf(out, n);
  }
}
