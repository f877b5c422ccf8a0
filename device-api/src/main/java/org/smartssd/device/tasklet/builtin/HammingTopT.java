package org.smartssd.device.tasklet.builtin;

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
 * <p>Execution option {@code range-queries}: for each input range, in the order given, the queries
 * its records are compared with, as indices separated by commas, ranges separated by semicolons
 * ({@code 0,2;1;1,2}), so that a host can send each range only to the queries that need it (a search
 * over buckets of similar codes, nearest first). With it the ranges must be of one object, in
 * ascending order and apart. Without it every record meets every query.
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
  /** With {@link #RANGE_QUERIES}: each range's first byte, end (exclusive) and queries, in range order. */
  private long[] rangeStarts;
  private long[] rangeEnds;
  private int[][] rangeQueries;

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

  @Override
  public void onCreate(TaskletContext context) {
    this.context = context;
    Parameters p = new Parameters("HammingTopT", context.parameters());
    int bits = (int) p.number(BITS, 1, HammingSearch.MAX_BITS);
    int top = (int) p.number(TOP, 1, HammingSearch.MAX_KEPT);
    String text = p.text(QUERIES, "");
    if (text.isBlank()) {
      throw new IllegalArgumentException("HammingTopT needs parameter " + QUERIES + ": query codes separated by commas");
    }
    String[] parts = text.split(",", -1);
    long[][] codes = new long[parts.length][];
    for (int q = 0; q < parts.length; q++) {
      try {
        codes[q] = HammingSearch.parseCode(parts[q].trim(), bits);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("HammingTopT: parameter " + QUERIES + ", query " + q + ": " + e.getMessage());
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
      rangeQueries = null;
    } else {
      readRangeQueries(option, execution.inputs());
    }
    // What a lane holds as its function's state: its lists, full (the iSSD's M(f)).
    context.holding(search.lists().encodedBytes());
  }

  private void readRangeQueries(String option, List<InputRange> inputs) {
    String[] ranges = option.split(";", -1);
    if (ranges.length != inputs.size()) {
      throw new IllegalArgumentException("HammingTopT: option " + RANGE_QUERIES + " lists " + ranges.length
          + " ranges' queries for " + inputs.size() + " input ranges");
    }
    rangeStarts = new long[ranges.length];
    rangeEnds = new long[ranges.length];
    rangeQueries = new int[ranges.length][];
    for (int r = 0; r < ranges.length; r++) {
      InputRange in = inputs.get(r);
      if (!in.path().equals(inputs.get(0).path())) {
        throw new IllegalArgumentException("HammingTopT: with option " + RANGE_QUERIES + " the ranges must be of one "
            + "object, not of " + inputs.get(0).path() + " and " + in.path());
      }
      rangeStarts[r] = in.offset();
      rangeEnds[r] = in.length() == InputRange.TO_END ? Long.MAX_VALUE : in.offset() + in.length();
      if (r > 0 && rangeStarts[r] < rangeEnds[r - 1]) {
        throw new IllegalArgumentException("HammingTopT: with option " + RANGE_QUERIES + " the ranges must be in "
            + "ascending order and apart; range " + r + " starts at " + rangeStarts[r] + ", before range " + (r - 1)
            + " ends");
      }
      String list = ranges[r].trim();
      String[] indices = list.isEmpty() ? new String[0] : list.split(",");
      rangeQueries[r] = new int[indices.length];
      for (int i = 0; i < indices.length; i++) {
        int q;
        try {
          q = Integer.parseInt(indices[i].trim());
        } catch (NumberFormatException e) {
          q = -1;
        }
        if (q < 0 || q >= search.queries()) {
          throw new IllegalArgumentException("HammingTopT: option " + RANGE_QUERIES + ", range " + r + ": '"
              + indices[i] + "' is not a query (0 to " + (search.queries() - 1) + ")");
        }
        rangeQueries[r][i] = q;
      }
    }
  }

  @Override
  public void onDataAvailable(DataChunk chunk, ResultSink results) {
    if (rangeQueries == null) {
      search.scan(chunk.data());
    } else {
      search.scan(chunk.data(), queriesAt(chunk.offset()));
    }
  }

  /** The queries of the range holding the record at {@code offset}: every record of a chunk starts in one range. */
  private int[] queriesAt(long offset) {
    int lo = 0;
    int hi = rangeStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (rangeStarts[mid] <= offset) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    if (offset < rangeStarts[lo] || offset >= rangeEnds[lo]) {
      throw new IllegalStateException("HammingTopT: records at " + offset + " lie in no input range");
    }
    return rangeQueries[lo];
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
