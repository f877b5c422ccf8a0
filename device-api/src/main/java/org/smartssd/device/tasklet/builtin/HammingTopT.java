package org.smartssd.device.tasklet.builtin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.TaskletContext;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Similarity search by Hamming distance, the Cognitive SSD's in-storage top-T retrieval over binary
 * codes, as a scan: every item record is compared with every query, and the T items nearest each
 * query come back. Records are {@link HammingSearch}'s (a u64 id, then the code's u64 words).
 *
 * <p>Parameters: {@code bits} (1 to {@value HammingSearch#MAX_BITS}), {@code top} (T), {@code queries}
 * (the query codes in their text form, separated by commas; queries x T at most
 * {@value HammingSearch#MAX_KEPT}). Several queries an execution are what make a scan pay: one read of
 * the items answers them all.
 *
 * <p>Execution option {@code range-queries}: which queries each input range's records meet, so that a
 * host can send each part of the items only to the queries that need it (a search over buckets of
 * similar codes, nearest first). For each range, in the order given, separated by semicolons: the
 * query indices separated by commas ({@code 0,2;1;1,2}); or its segments separated by slashes, each
 * {@code N:QUERIES}, its next N records meeting those queries (none after the colon: they meet none),
 * the segments adding up to the range's records ({@code 3:0,2/10:/4:1}: a range of 17 records whose
 * middle ten are read but compared with nothing, as when a page holds records of two parts). With it
 * the ranges must be of one object, in ascending order and apart. Without it every record meets
 * every query.
 *
 * <p>Each lane keeps a bounded top T per query in the order (distance, id) and emits it when its data
 * ends ({@link TopLists}'s encoding); the merge on the controller core, or the host, merges the lanes'
 * lists ({@link #neighbours}). The result is exact: the same lists whichever lanes held which records.
 */
public final class HammingTopT implements MergingTasklet {
  public static final String BITS = "bits";
  public static final String TOP = "top";
  public static final String QUERIES = "queries";
  public static final String RANGE_QUERIES = "range-queries";

  private TaskletContext context;
  private HammingSearch search;
  /**
   * With {@link #RANGE_QUERIES}: each segment's first byte, end (exclusive) and queries, in the order of
   * the ranges; a range without counts is one segment.
   */
  private long[] segmentStarts;
  private long[] segmentEnds;
  private int[][] segmentQueries;

  /** The parameters of a search for these query codes. */
  public static Map<String, String> parameters(int bits, int top, List<long[]> codes) {
    StringBuilder queries = new StringBuilder();
    for (long[] code : codes) {
      if (queries.length() > 0) {
        queries.append(',');
      }
      queries.append(HammingSearch.formatCode(code, bits));
    }
    Map<String, String> p = new LinkedHashMap<>();
    p.put(BITS, Integer.toString(bits));
    p.put(TOP, Integer.toString(top));
    p.put(QUERIES, queries.toString());
    return p;
  }

  /** The {@link #RANGE_QUERIES} option for ranges given in this order, each with its queries. */
  public static String rangeQueries(List<int[]> queriesOfEachRange) {
    StringBuilder sb = new StringBuilder();
    for (int r = 0; r < queriesOfEachRange.size(); r++) {
      int[] queries = queriesOfEachRange.get(r);
      sb.append(r == 0 ? "" : ";");
      for (int i = 0; i < queries.length; i++) {
        sb.append(i == 0 ? "" : ",").append(queries[i]);
      }
    }
    return sb.toString();
  }

  /**
   * The {@link #RANGE_QUERIES} text of one range in segments: {@code records[i]} records meeting
   * {@code queries[i]}, for each i.
   */
  public static String segments(int[] records, List<int[]> queries) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < records.length; i++) {
      sb.append(i == 0 ? "" : "/").append(records[i]).append(':');
      int[] q = queries.get(i);
      for (int k = 0; k < q.length; k++) {
        sb.append(k == 0 ? "" : ",").append(q[k]);
      }
    }
    return sb.toString();
  }

  @Override
  public void onCreate(TaskletContext context) {
    this.context = context;
    Parameters p = new Parameters("HammingTopT", context.parameters());
    int bits = (int) p.number(BITS, 1, HammingSearch.MAX_BITS);
    int top = (int) p.number(TOP, 1, HammingSearch.MAX_KEPT);
    String text = p.text(QUERIES, "");
    if (text.isBlank()) {
      throw new IllegalArgumentException("HammingTopT needs parameter " + QUERIES
          + ": query codes separated by commas");
    }
    String[] parts = text.split(",", -1);
    long[][] codes = new long[parts.length][];
    for (int q = 0; q < parts.length; q++) {
      try {
        codes[q] = HammingSearch.parseCode(parts[q].trim(), bits);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("HammingTopT: parameter " + QUERIES + ", query " + q + ": "
            + e.getMessage());
      }
    }
    try {
      search = new HammingSearch(bits, top, codes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("HammingTopT: " + e.getMessage());
    }
  }

  @Override
  public RecordFormat recordFormat() {
    return RecordFormat.fixedLength(HammingSearch.recordBytes(search.bits()));
  }

  @Override
  public void onExecute(ExecutionInfo execution) {
    search.clear();
    String option = execution.options().get(RANGE_QUERIES);
    if (option == null) {
      segmentQueries = null;
    } else {
      readSegments(option, execution.inputs());
    }
    // What a lane holds as its function's state: its lists, full (the iSSD's M(f)).
    context.holding(search.lists().encodedBytes());
  }

  private void readSegments(String option, List<InputRange> inputs) {
    String[] ranges = option.split(";", -1);
    if (ranges.length != inputs.size()) {
      throw new IllegalArgumentException("HammingTopT: option " + RANGE_QUERIES + " lists " + ranges.length
          + " ranges' queries for " + inputs.size() + " input ranges");
    }
    int record = HammingSearch.recordBytes(search.bits());
    List<long[]> bounds = new ArrayList<>();
    List<int[]> queries = new ArrayList<>();
    long previousEnd = Long.MIN_VALUE;
    for (int r = 0; r < ranges.length; r++) {
      InputRange in = inputs.get(r);
      if (!in.path().equals(inputs.get(0).path())) {
        throw new IllegalArgumentException("HammingTopT: with option " + RANGE_QUERIES + " the ranges must be of one "
            + "object, not of " + inputs.get(0).path() + " and " + in.path());
      }
      long end = in.length() == InputRange.TO_END ? Long.MAX_VALUE : in.offset() + in.length();
      if (in.offset() < previousEnd) {
        throw new IllegalArgumentException("HammingTopT: with option " + RANGE_QUERIES + " the ranges must be in "
            + "ascending order and apart; range " + r + " starts at " + in.offset() + ", before range " + (r - 1)
            + " ends");
      }
      previousEnd = end;
      String[] segments = ranges[r].split("/", -1);
      if (segments.length == 1 && !segments[0].contains(":")) {
        bounds.add(new long[] {in.offset(), end});
        queries.add(queryList(segments[0], r));
        continue;
      }
      if (in.length() == InputRange.TO_END) {
        throw new IllegalArgumentException("HammingTopT: option " + RANGE_QUERIES + ", range " + r + ": a range in "
            + "segments must give its length, not run to the object's end");
      }
      long at = in.offset();
      for (String segment : segments) {
        int colon = segment.indexOf(':');
        long count = -1;
        try {
          count = colon < 0 ? -1 : Long.parseLong(segment.substring(0, colon).trim());
        } catch (NumberFormatException e) {
          // named below
        }
        if (count < 0) {
          throw new IllegalArgumentException("HammingTopT: option " + RANGE_QUERIES + ", range " + r + ": segment '"
              + segment + "' is not RECORDS:QUERIES");
        }
        bounds.add(new long[] {at, at + count * record});
        queries.add(queryList(segment.substring(colon + 1), r));
        at += count * record;
      }
      if (at != end) {
        throw new IllegalArgumentException("HammingTopT: option " + RANGE_QUERIES + ", range " + r + ": its segments "
            + "hold " + (at - in.offset()) / record + " records of " + record + " bytes, the range " + in.length()
            + " bytes");
      }
    }
    segmentStarts = new long[bounds.size()];
    segmentEnds = new long[bounds.size()];
    for (int i = 0; i < bounds.size(); i++) {
      segmentStarts[i] = bounds.get(i)[0];
      segmentEnds[i] = bounds.get(i)[1];
    }
    segmentQueries = queries.toArray(new int[0][]);
  }

  /** Query indices separated by commas, each a query's. */
  private int[] queryList(String list, int range) {
    String trimmed = list.trim();
    String[] indices = trimmed.isEmpty() ? new String[0] : trimmed.split(",");
    int[] out = new int[indices.length];
    for (int i = 0; i < indices.length; i++) {
      int q;
      try {
        q = Integer.parseInt(indices[i].trim());
      } catch (NumberFormatException e) {
        q = -1;
      }
      if (q < 0 || q >= search.queries()) {
        throw new IllegalArgumentException("HammingTopT: option " + RANGE_QUERIES + ", range " + range + ": '"
            + indices[i] + "' is not a query (0 to " + (search.queries() - 1) + ")");
      }
      out[i] = q;
    }
    return out;
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    if (segmentQueries == null) {
      search.scan(chunk.data());
      return;
    }
    int records = search.load(chunk.data());
    int record = HammingSearch.recordBytes(search.bits());
    long start = chunk.offset();
    int s = segmentAt(start);
    for (int from = 0; from < records; ) {
      long at = start + (long) from * record;
      while (s < segmentStarts.length && segmentEnds[s] <= at) {
        s++; // past it, or empty
      }
      if (s >= segmentStarts.length || at < segmentStarts[s]) {
        throw new IllegalStateException("HammingTopT: the record at " + at + " lies in no input range");
      }
      // The records that start before the segment's end (the last may straddle a range's end).
      long fit = (segmentEnds[s] - at - 1) / record + 1;
      int to = (int) Math.min(records, from + fit);
      search.compare(from, to, segmentQueries[s]);
      from = to;
    }
  }

  /** The last segment starting at or before {@code offset}. */
  private int segmentAt(long offset) {
    int lo = 0;
    int hi = segmentStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (segmentStarts[mid] <= offset) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  @Override
  public void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (last) {
      results.emit(search.lists().encode());
    }
  }

  @Override
  public void onMerge(List<TaskletResult> laneResults, ResultSink results) throws InterruptedException {
    results.emit(TopLists.merge(laneResults).encode());
  }

  /**
   * Each query's T nearest items, best first, from the execution's results (the lanes' lists, or the
   * one merged on the device).
   */
  public static List<List<Neighbour>> neighbours(List<TaskletResult> results) {
    return TopLists.merge(results).sorted();
  }
}
