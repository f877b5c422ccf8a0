package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.builtin.HammingSearch;
import org.smartssd.device.tasklet.builtin.HammingTopT;
import org.smartssd.device.tasklet.builtin.Neighbour;

/** The built-in Hamming search on a real device, over its socket: exact against a brute force. */
class HammingTopTDeviceTest {
  private static final ByteBuffer BUILT_IN = ByteBuffer.allocate(0);
  private static final int BITS = 128; // 24-byte records: they straddle the 4096-byte pages

  @TempDir Path dir;

  private record Items(long[] ids, long[][] codes, byte[] records) {}

  /** {@code n} items whose codes are near a few centres, ids shuffled. */
  private static Items items(int n, long seed) {
    Random random = new Random(seed);
    long[][] centres = new long[5][];
    for (int c = 0; c < centres.length; c++) {
      centres[c] = new long[] {random.nextLong(), random.nextLong()};
    }
    long[] ids = new long[n];
    long[][] codes = new long[n][];
    ByteBuffer b = ByteBuffer.allocate(n * HammingSearch.recordBytes(BITS));
    for (int i = 0; i < n; i++) {
      ids[i] = (i * 104_729L) % n;
      codes[i] = centres[random.nextInt(centres.length)].clone();
      for (int flips = random.nextInt(12); flips > 0; flips--) {
        int bit = random.nextInt(BITS);
        codes[i][bit / 64] ^= 1L << (63 - bit % 64);
      }
      b.putLong(ids[i]).putLong(codes[i][0]).putLong(codes[i][1]);
    }
    return new Items(ids, codes, b.array());
  }

  private static List<Neighbour> bruteForce(Items items, long[] query, int top, int firstItem, int endItem) {
    List<Neighbour> all = new ArrayList<>();
    for (int i = firstItem; i < endItem; i++) {
      all.add(new Neighbour(items.ids()[i], HammingSearch.distance(items.codes()[i], query)));
    }
    all.sort(Comparator.comparingInt(Neighbour::distance).thenComparingLong(Neighbour::id));
    return all.subList(0, Math.min(top, all.size()));
  }

  private SimulatedDevice device(String name) throws Exception {
    Map<String, String> o = TestDevices.small(dir.resolve(name));
    o.put("smartssd.device.isp.cores", "3");
    o.put("smartssd.device.flash.channels", "4");
    return TestDevices.start(o);
  }

  /**
   * Several queries in one execution, the lanes' lists merged on the host and on the controller: every
   * query's top T is the brute force's, in order; and with {@code range-queries} over two ranges, each
   * query's top T is the brute force's over the items of its ranges only.
   */
  @Test
  void everyQuerysTopTIsTheBruteForcesWhereverTheMergeRuns() throws Exception {
    int n = 6_000;
    Items items = items(n, 19);
    List<long[]> queries = List.of(items.codes()[3].clone(), items.codes()[100].clone(), new long[] {0L, 0L});
    int top = 12;
    try (SimulatedDevice device = device("search"); SocketDeviceClient c = TestDevices.connect(device)) {
      long h = c.create("/items", true, true).handle();
      c.write(h, items.records(), 0, items.records().length);
      c.closeHandle(h);
      long t = c.createObject(BUILT_IN, HammingTopT.class.getName(), HammingTopT.parameters(BITS, top, queries));
      for (String merge : List.of("host", "device")) {
        IspEngineTest.Run run = IspEngineTest.run(c, t, List.of(InputRange.whole("/items")), Map.of("merge", merge),
            ExecutionPoller.PollingPolicy.defaults());
        assertEquals(ExecutionState.DONE, run.last().state(), run.last().message());
        assertEquals(n, run.stats().records());
        List<List<Neighbour>> found = HammingTopT.neighbours(run.results());
        for (int q = 0; q < queries.size(); q++) {
          assertEquals(bruteForce(items, queries.get(q), top, 0, n), found.get(q), "merge " + merge + ", query " + q);
        }
      }

      // Items [0, 1000) for query 0 and 2, [4000, 6000) for query 1 and 2.
      int record = HammingSearch.recordBytes(BITS);
      List<InputRange> ranges = List.of(new InputRange("/items", 0, 1000L * record),
          new InputRange("/items", 4000L * record, 2000L * record));
      String option = HammingTopT.rangeQueries(List.of(new int[] {0, 2}, new int[] {1, 2}));
      IspEngineTest.Run run = IspEngineTest.run(c, t, ranges, Map.of(HammingTopT.RANGE_QUERIES, option),
          ExecutionPoller.PollingPolicy.defaults());
      assertEquals(ExecutionState.DONE, run.last().state(), run.last().message());
      List<List<Neighbour>> found = HammingTopT.neighbours(run.results());
      assertEquals(bruteForce(items, queries.get(0), top, 0, 1000), found.get(0));
      assertEquals(bruteForce(items, queries.get(1), top, 4000, 6000), found.get(1));
      List<Neighbour> both = new ArrayList<>(bruteForce(items, queries.get(2), top, 0, 1000));
      both.addAll(bruteForce(items, queries.get(2), top, 4000, 6000));
      both.sort(null);
      assertEquals(both.subList(0, top), found.get(2));

      // The same as one range in segments: its middle 3000 items read (their pages are the others') but met by none.
      String segments = HammingTopT.segments(new int[] {1000, 3000, 2000},
          List.of(new int[] {0, 2}, new int[0], new int[] {1, 2}));
      IspEngineTest.Run segmented = IspEngineTest.run(c, t, List.of(new InputRange("/items", 0, (long) n * record)),
          Map.of(HammingTopT.RANGE_QUERIES, segments), ExecutionPoller.PollingPolicy.defaults());
      assertEquals(ExecutionState.DONE, segmented.last().state(), segmented.last().message());
      assertEquals(found, HammingTopT.neighbours(segmented.results()));
    }
  }

  @Test
  void badParametersFailTheExecutionWithTheirName() throws Exception {
    try (SimulatedDevice device = device("bad"); SocketDeviceClient c = TestDevices.connect(device)) {
      long h = c.create("/items", true, true).handle();
      c.write(h, new byte[48], 0, 48);
      c.closeHandle(h);
      long t = c.createObject(BUILT_IN, HammingTopT.class.getName(),
          Map.of("bits", "64", "top", "3", "queries", "xyz"));
      IspEngineTest.Run run = IspEngineTest.run(c, t, "/items");
      assertEquals(ExecutionState.FAILED, run.last().state());
      assertTrue(run.last().message().contains("queries") && run.last().message().contains("16 hexadecimal digits"),
          run.last().message());
    }
  }
}
