package org.smartssd.examples.search;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.HammingTopT;
import org.smartssd.device.tasklet.builtin.Neighbour;
import org.smartssd.device.tasklet.builtin.TopLists;

/**
 * The search in the device: the built-in {@link HammingTopT} installed with every query (its code is
 * the device's own: no jar crosses the link, only the parameters), executed over the items object,
 * whole or in ranges, each execution's results polled and the lanes' lists merged on the host.
 * Closing uninstalls it.
 */
final class DeviceSearch implements AutoCloseable {
  /**
   * The longest {@code range-queries} option one execution carries: a protocol string holds at most
   * 65,535 bytes, and ranges past this go in another execution (a choice, with room for the rest).
   */
  static final int MAX_OPTION_CHARS = 60_000;

  private final DeviceClient client;
  private final String path;
  private final int recordBytes;
  private final long tasklet;
  private final org.smartssd.examples.loganalysis.DeviceExecutions executions =
      new org.smartssd.examples.loganalysis.DeviceExecutions();

  /** Installs the tasklet for these queries over the items at {@code path}. */
  DeviceSearch(DeviceClient client, String path, int bits, int top, List<long[]> queries) throws IOException {
    this.client = client;
    this.path = path;
    this.recordBytes = org.smartssd.device.tasklet.builtin.HammingSearch.recordBytes(bits);
    this.tasklet = client.createObject(ByteBuffer.allocate(0), HammingTopT.class.getName(),
        HammingTopT.parameters(bits, top, queries));
  }

  /** Every query's top T over every item: one execution, one scan. */
  List<List<Neighbour>> scanAll() throws IOException {
    return TopLists.merge(run(List.of(InputRange.whole(path)), Map.of())).sorted();
  }

  /**
   * Each query's top T over the items of the segments that name it (the ranges ascending and apart), in
   * as few executions as the option's length allows: a range whose segments are too many for one is cut
   * between two of them (the page there is then read twice).
   */
  List<List<Neighbour>> scan(List<BucketRounds.Range> ranges, BucketDirectory directory) throws IOException {
    List<TaskletResult> all = new ArrayList<>();
    List<InputRange> inputs = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    int chars = 0;
    for (BucketRounds.Range r : ranges) {
      List<BucketRounds.Segment> segments = r.segments();
      for (int from = 0; from < segments.size(); ) {
        // As many of the range's segments as one option holds, from the first not yet sent.
        StringBuilder text = new StringBuilder();
        int to = from;
        while (to < segments.size()) {
          BucketRounds.Segment s = segments.get(to);
          String one = HammingTopT.segments(new int[] {directory.end(s.endBucket() - 1) - directory.start(
              s.firstBucket())}, List.of(s.queries()));
          if (to > from && text.length() + 1 + one.length() > MAX_OPTION_CHARS) {
            break;
          }
          text.append(to > from ? "/" : "").append(one);
          to++;
        }
        if (!inputs.isEmpty() && chars + text.length() + 1 > MAX_OPTION_CHARS) {
          all.addAll(run(inputs, texts));
          inputs.clear();
          texts.clear();
          chars = 0;
        }
        long first = directory.start(segments.get(from).firstBucket());
        long end = directory.end(segments.get(to - 1).endBucket() - 1);
        inputs.add(new InputRange(path, first * recordBytes, (end - first) * recordBytes));
        texts.add(text.toString());
        chars += text.length() + 1;
        from = to;
      }
    }
    all.addAll(run(inputs, texts));
    return TopLists.merge(all).sorted();
  }

  /** One execution over ranges, each in its segments ({@link HammingTopT#segments}). */
  private List<TaskletResult> run(List<InputRange> inputs, List<String> segments) throws IOException {
    return run(inputs, Map.of(HammingTopT.RANGE_QUERIES, String.join(";", segments)));
  }

  /** One execution's results, its lanes' lists or the one merged on the device. */
  private List<TaskletResult> run(List<InputRange> inputs, Map<String, String> options) throws IOException {
    return executions.run(client, tasklet, inputs, options, "the search");
  }

  /** The profiles of the executions so far (none unless runs are profiled). */
  List<org.smartssd.device.WorkProfile> profiles() {
    return executions.profiles();
  }

  /** The statistics of every execution so far. */
  List<ExecutionStatistics> executions() {
    return executions.statistics();
  }

  @Override
  public void close() throws IOException {
    client.removeObject(tasklet);
  }
}
