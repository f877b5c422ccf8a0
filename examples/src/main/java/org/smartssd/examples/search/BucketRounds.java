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
 * execution over ranges, ascending) compares each bucket's items with the queries that asked for it
 * and no other; the host merges what each query found into the lists it keeps. So each query ends
 * with exactly the brute force's top T, each item compared with it at most once.
 *
 * <p>A range is a run of buckets read together, in segments of buckets that meet the same queries
 * (a segment may meet none: buckets between two asked for, which lie on the pages those share, so
 * that no page is read twice in a round). Rounds read some pages again; so that the search never
 * reads much more than a scan would, a round that would bring the pages read past the object's pages
 * is replaced by the last: one scan of every item for the queries not done, which meets items they
 * met before again (the host keeps an item once). So a search reads at most about twice the object's
 * pages, and compares at most twice as many items as a brute force.
 */
public final class BucketRounds {
  /** Buckets {@code firstBucket} to {@code endBucket} (exclusive) and the queries their items meet. */
  public record Segment(int firstBucket, int endBucket, int[] queries) {}

  /** Buckets read together, in segments one after the other. */
  public record Range(List<Segment> segments) {
    public Range {
      segments = List.copyOf(segments);
    }

    public int firstBucket() {
      return segments.get(0).firstBucket();
    }

    public int endBucket() {
      return segments.get(segments.size() - 1).endBucket();
    }
  }

  /**
   * Compares the items of ranges (ascending, apart) with their segments' queries.
   *
   * @return each query's best T among the items it met (an empty list for a query no segment names)
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
   * @param pageBytes the device's page size: buckets on a page are read together
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
    int buckets = directory.buckets();
    int levels = directory.prefixBits() + 1;
    // Each query's buckets by lower bound (a counting sort): those of bound L are
    // order[q][levelStart[q][L]] to order[q][levelStart[q][L + 1] - 1].
    int[][] order = new int[queries][buckets];
    int[][] levelStart = new int[queries][levels + 1];
    for (int q = 0; q < queries; q++) {
      for (int b = 0; b < buckets; b++) {
        levelStart[q][bound(q, b) + 1]++;
      }
      for (int l = 0; l < levels; l++) {
        levelStart[q][l + 1] += levelStart[q][l];
      }
      int[] next = Arrays.copyOf(levelStart[q], levels);
      for (int b = 0; b < buckets; b++) {
        order[q][next[bound(q, b)]++] = b;
      }
    }
    TopLists lists = new TopLists(queries, top);
    int[] level = new int[queries]; // each query's first bound not yet read; levels once done
    long objectPages = buckets == 0 ? 0 : lastPage(directory.end(buckets - 1)) + 1;
    long pagesRead = 0;
    int rounds = 0;
    long itemsRead = 0;
    long comparisons = 0;
    while (true) {
      for (int q = 0; q < queries; q++) {
        while (level[q] < levels && levelStart[q][level[q]] == levelStart[q][level[q] + 1]) {
          level[q]++; // no bucket of that bound
        }
        if (level[q] < levels && lists.worst(q) < level[q]) {
          level[q] = levels; // done: no unread item can come before its T-th
        }
      }
      List<Range> ranges = ranges(askers(order, levelStart, level));
      if (ranges.isEmpty()) {
        break;
      }
      boolean last = pagesRead + pages(ranges) > objectPages;
      if (last) {
        ranges = List.of(new Range(List.of(new Segment(0, buckets, notDone(level, levels)))));
      }
      for (int q = 0; q < queries; q++) {
        level[q] = last ? levels : Math.min(levels, level[q] + 1);
      }
      for (Range r : ranges) {
        for (Segment s : r.segments()) {
          comparisons += items(s.firstBucket(), s.endBucket()) * s.queries().length;
        }
        itemsRead += items(r.firstBucket(), r.endBucket());
      }
      pagesRead += pages(ranges);
      List<List<Neighbour>> found = scanner.scan(ranges);
      for (int q = 0; q < queries; q++) {
        for (Neighbour n : found.get(q)) {
          // The last round meets items again: one kept already is not kept twice.
          if (!last || !lists.contains(q, n.distance(), n.id())) {
            lists.offer(q, n.distance(), n.id());
          }
        }
      }
      rounds++;
    }
    return new Outcome(lists.sorted(), rounds, itemsRead, comparisons);
  }

  /** Bucket {@code b}'s lower bound for query {@code q}: the Hamming distance of their prefixes. */
  private int bound(int q, int b) {
    return Integer.bitCount(directory.prefix(b) ^ prefixes[q]);
  }

  /** The queries not done, ascending. */
  private static int[] notDone(int[] level, int levels) {
    return java.util.stream.IntStream.range(0, level.length).filter(q -> level[q] < levels).toArray();
  }

  /** Each bucket's askers this round (null for none): for each query not done, its buckets of its next bound. */
  private int[][] askers(int[][] order, int[][] levelStart, int[] level) {
    int buckets = directory.buckets();
    int levels = directory.prefixBits() + 1;
    int[][] askers = new int[buckets][];
    int[] count = new int[buckets];
    for (int q = 0; q < level.length; q++) {
      if (level[q] >= levels) {
        continue;
      }
      for (int i = levelStart[q][level[q]]; i < levelStart[q][level[q] + 1]; i++) {
        int b = order[q][i];
        if (askers[b] == null) {
          askers[b] = new int[4];
        } else if (count[b] == askers[b].length) {
          askers[b] = Arrays.copyOf(askers[b], 2 * count[b]);
        }
        askers[b][count[b]++] = q;
      }
    }
    for (int b = 0; b < buckets; b++) {
      if (askers[b] != null) {
        askers[b] = Arrays.copyOf(askers[b], count[b]); // ascending: queries were asked in order
      }
    }
    return askers;
  }

  /**
   * The asked-for buckets as ranges: a bucket joins the range before it when it begins on the page where
   * that range ends, the buckets between meeting no query; next buckets with the same askers are one
   * segment.
   */
  private List<Range> ranges(int[][] askers) {
    List<Range> out = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    int first = -1;
    int end = -1;
    int[] queries = null;
    for (int b = 0; b < askers.length; b++) {
      if (askers[b] == null) {
        continue;
      }
      if (queries != null && b == end && Arrays.equals(queries, askers[b])) {
        end = b + 1;
        continue;
      }
      if (queries != null) {
        segments.add(new Segment(first, end, queries));
        if (firstPage(directory.start(b)) > lastPage(directory.end(end - 1))) {
          out.add(new Range(segments));
          segments = new ArrayList<>();
        } else if (b > end) {
          segments.add(new Segment(end, b, new int[0]));
        }
      }
      first = b;
      end = b + 1;
      queries = askers[b];
    }
    if (queries != null) {
      segments.add(new Segment(first, end, queries));
      out.add(new Range(segments));
    }
    return out;
  }

  /** The items of buckets {@code firstBucket} to {@code endBucket} (exclusive). */
  private long items(int firstBucket, int endBucket) {
    return directory.end(endBucket - 1) - (long) directory.start(firstBucket);
  }

  /** The pages the ranges cover. */
  private long pages(List<Range> ranges) {
    long pages = 0;
    for (Range r : ranges) {
      pages += lastPage(directory.end(r.endBucket() - 1)) - firstPage(directory.start(r.firstBucket())) + 1;
    }
    return pages;
  }

  /** The page holding record {@code record}'s first byte. */
  private long firstPage(long record) {
    return record * recordBytes / pageBytes;
  }

  /** The page holding the last byte before record {@code end}. */
  private long lastPage(long end) {
    return (end * recordBytes - 1) / pageBytes;
  }
}
