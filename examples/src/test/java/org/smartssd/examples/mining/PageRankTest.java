package org.smartssd.examples.mining;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** PageRank on the host and in a real device against the direct computation; the graph readers and generator. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PageRankTest {
  @TempDir static Path dir;
  MiningFixture fixture;

  @BeforeAll
  void start() throws Exception {
    fixture = new MiningFixture(dir);
  }

  @AfterAll
  void stop() throws Exception {
    fixture.close();
  }

  @Test
  void everyIterationOnTheHostAndInTheDeviceIsTheDirectComputations() throws Exception {
    // 40,000 nodes: the ranks and out-degrees are files on the device, read by the tasks in their setup; the device
    // runs every split (the fixture runs with fallback never, and checks that every iteration's ranks file is there).
    Graph graph = Graph.generate(40_000, 2, 11);
    PageRank pageRank = new PageRank(graph, 0.85, 3);
    assertTrue(pageRank.description().contains("dangling"), pageRank.description());
    List<MiningRun.Iteration> device = fixture.runBothModes(pageRank, "pagerank", 3);
    assertEquals(3, device.size());
    // What the configuration carried before (the previous ranks and the out-degrees, varints in Base64), in every
    // split's tasklet: now a tasklet carries their paths, a few kilobytes, whatever the graph's size.
    long carried = Base64.getEncoder().encode(Varints.encode(pageRank.direct().get(0))).length
        + Base64.getEncoder().encode(Varints.encode(graph.outDegrees())).length;
    for (MiningRun.Iteration it : device.subList(1, device.size())) {
      long perSplit = it.taskletInstallBytes() / it.statistics().deviceExecutions();
      System.out.printf("pagerank %,d nodes, device iteration %d: tasklet frames %,d bytes a split (the configuration "
          + "carried %,d bytes of ranks and out-degrees before); %,d bytes across the host interface, %,d to the device,"
          + " state file %,d%n", graph.nodes(), it.iteration(), perSplit, carried, it.statistics().hostInterfaceBytes(),
          it.statistics().hostBytesIn(), it.stateBytes());
      assertTrue(perSplit < 8_000 && perSplit * 20 < carried, perSplit + " bytes of tasklet a split, " + carried
          + " of ranks and out-degrees");
      // To the device: the tasklets, the results' read requests and the new ranks file, written once.
      assertTrue(it.statistics().hostBytesIn() < it.stateBytes() + 3 * 8_000 + 20_000, it.toString());
    }
    long[] last = pageRank.direct().get(2);
    long sum = 0;
    for (long r : last) {
      sum += r;
    }
    // Rounding down in fixed point drops at most a unit an edge and a node an iteration: the ranks still sum to 1.
    assertEquals(1.0, sum / (double) RankVector.ONE, 1e-6);
    assertTrue(device.get(0).statistics().hostBytesOut() < pageRank.bytes(), device.get(0).statistics().toString());
    // A lane groups tens of thousands of distinct node ids for the combiner: the work a record stays that of
    // any job (counted, the same on any machine), not the 50,000 ops a record of a table that probes for most
    // of itself.
    long opsPerEdge = device.get(0).statistics().device().countedOps() / pageRank.records();
    assertTrue(opsPerEdge < 5_000, opsPerEdge + " counted ops an edge in the device");
  }

  @Test
  void theGeneratedGraphIsDeterministicBySeedAndItsInDegreesAreSkewed() {
    Graph a = Graph.generate(20_000, 8, 5);
    Graph b = Graph.generate(20_000, 8, 5);
    assertArrayEquals(a.sources(), b.sources());
    assertArrayEquals(a.targets(), b.targets());
    assertFalse(java.util.Arrays.equals(a.targets(), Graph.generate(20_000, 8, 6).targets()));
    assertEquals(8, a.edges() / 20_000.0, 0.5);
    int[] in = new int[a.nodes()];
    for (int t : a.targets()) {
      in[t]++;
    }
    int max = java.util.Arrays.stream(in).max().orElseThrow();
    assertTrue(max > 100 * 8, "preferential attachment: a hub with " + max + " in-links");
    long dangling = java.util.Arrays.stream(a.outDegrees()).filter(d -> d == 0).count();
    assertEquals(20_000 / 9.0, dangling, 300, "about 1 / (mean + 1) of the nodes have no out-link");
  }

  /** A graph-tool file made to the format's description, as graph-tool writes it. */
  static byte[] graphTool(boolean directed, int n, int[][] adjacency, String stats) {
    ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {(byte) 0xe2, (byte) 0x9b, (byte) 0xbe, 0x20, 0x67, 0x74, 1, 0});
    byte[] comment = ("graph-tool binary file (test) " + stats + ", 0 graph props").getBytes(StandardCharsets.UTF_8);
    b.putLong(comment.length).put(comment).put((byte) (directed ? 1 : 0)).putLong(n);
    for (int[] neighbours : adjacency) {
      b.putLong(neighbours.length);
      for (int u : neighbours) {
        b.put((byte) u); // fewer than 256 vertices: a byte each
      }
    }
    b.putLong(0); // property maps: none (the reader stops before them)
    return java.util.Arrays.copyOf(b.array(), b.position());
  }

  @Test
  void graphToolFilesAreReadAsTheFormatSays() throws IOException {
    byte[] directed = graphTool(true, 4, new int[][] {{1, 2}, {2}, {0}, {}}, "stats: 4 vertices, 4 edges, directed");
    Path file = dir.resolve("small.gt.gz");
    try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(directed);
    }
    Graph g = GraphFiles.read(file);
    assertEquals(4, g.nodes());
    assertArrayEquals(new int[] {0, 0, 1, 2}, g.sources());
    assertArrayEquals(new int[] {1, 2, 2, 0}, g.targets());
    assertArrayEquals(new long[] {2, 1, 1, 0}, g.outDegrees());

    // Undirected: each edge both ways, a self-loop once.
    Graph u = GraphFiles.readGraphTool(new ByteArrayInputStream(graphTool(false, 3, new int[][] {{}, {0, 1}, {1}},
        "stats: 3 vertices, 3 edges, undirected")), "u.gt");
    assertArrayEquals(new int[] {1, 0, 1, 2, 1}, u.sources());
    assertArrayEquals(new int[] {0, 1, 1, 1, 2}, u.targets());

    IOException lying = assertThrows(IOException.class, () -> GraphFiles.readGraphTool(new ByteArrayInputStream(
        graphTool(true, 4, new int[][] {{1}, {}, {}, {}}, "stats: 4 vertices, 9 edges")), "lying.gt"));
    assertTrue(lying.getMessage().contains("9 edges") && lying.getMessage().contains("lying.gt"), lying.getMessage());
    byte[] cut = java.util.Arrays.copyOf(directed, directed.length - 12);
    IOException truncated = assertThrows(IOException.class, () -> GraphFiles.readGraphTool(new ByteArrayInputStream(
        cut), "cut.gt"));
    assertTrue(truncated.getMessage().contains("truncated"), truncated.getMessage());
    IOException notGt = assertThrows(IOException.class, () -> GraphFiles.readGraphTool(new ByteArrayInputStream(
        "1 2\n".getBytes(StandardCharsets.UTF_8)), "text.gt"));
    assertTrue(notGt.getMessage().contains("not a graph-tool"), notGt.getMessage());
  }

  @Test
  void edgeListsAreRenumberedInOrder() throws IOException {
    Path file = dir.resolve("edges.txt");
    Files.writeString(file, "# FromNodeId\tToNodeId\n10\t30\n30 10\n\n20\t10\n");
    Graph g = GraphFiles.read(file);
    assertEquals(3, g.nodes());
    assertArrayEquals(new int[] {0, 2, 1}, g.sources());
    assertArrayEquals(new int[] {2, 0, 0}, g.targets());
    Files.writeString(file, "1 x\n");
    IOException bad = assertThrows(IOException.class, () -> GraphFiles.read(file));
    assertTrue(bad.getMessage().contains("line 1"), bad.getMessage());
  }

  @Test
  void theRankFilesAreReadExactlyAndBadOnesAreNamed() throws IOException {
    Path degrees = Files.write(dir.resolve("out-degrees"), RankVector.outDegreesFile(new long[] {1, 2, 3, 0, 5,
        1 << 20}));
    Path ranks = Files.writeString(dir.resolve("ranks"), "5\t" + Long.MAX_VALUE / 10 + "\n0\t0\n2\t"
        + RankVector.ONE + "\n");
    Configuration conf = new Configuration(false);
    conf.set(RankVector.OUT_DEGREES_PATH, degrees.toUri().toString());
    conf.set(RankVector.RANKS_PATH, ranks.toUri().toString());
    conf.setLong(RankVector.RANK_DEFAULT, 77);
    RankVector v = RankVector.read(conf, null);
    assertEquals(6, v.nodes());
    assertArrayEquals(new long[] {0, 77, RankVector.ONE, 77, 77, Long.MAX_VALUE / 10},
        java.util.stream.IntStream.range(0, 6).mapToLong(v::rank).toArray());
    assertEquals(1 << 20, v.outDegree(5));
    assertEquals(0, v.outDegree(3));
    Path dangling = Files.write(dir.resolve("dangling"), RankVector.danglingFile(new long[] {0, 3, 0, 0, 1, 0}));
    conf.set(RankVector.DANGLING_PATH, dangling.toUri().toString());
    assertArrayEquals(new int[] {0, 2, 3, 5}, RankVector.dangling(conf));
    Files.write(dangling, new byte[] {2, 1, 0});
    assertTrue(assertThrows(IOException.class, () -> RankVector.dangling(conf)).getMessage().contains("id 3 of 3"));
    // Without a ranks file (the first iteration) every node has the default.
    conf.unset(RankVector.RANKS_PATH);
    assertEquals(77, RankVector.read(conf, null).rank(4));

    conf.set(RankVector.RANKS_PATH, ranks.toUri().toString());
    Files.writeString(ranks, "0\t1\n6\t5\n");
    IOException outside = assertThrows(IOException.class, () -> RankVector.read(conf, null));
    assertTrue(outside.getMessage().contains(RankVector.RANKS_PATH) && outside.getMessage().contains("at byte 4")
        && outside.getMessage().contains("'6\t5'"), outside.getMessage());
    Files.writeString(ranks, "0\t1\n0\t2\n");
    assertTrue(assertThrows(IOException.class, () -> RankVector.read(conf, null)).getMessage().contains("met once"));
    Files.writeString(ranks, "0\t12x\n");
    assertTrue(assertThrows(IOException.class, () -> RankVector.read(conf, null)).getMessage().contains("whole number"));
    Files.writeString(ranks, "0\t12");
    assertTrue(assertThrows(IOException.class, () -> RankVector.read(conf, null)).getMessage().contains("ending the line"));
    Files.write(degrees, new byte[] {1, (byte) 0x85});
    IOException cut = assertThrows(IOException.class, () -> RankVector.read(conf, null));
    assertTrue(cut.getMessage().contains(RankVector.OUT_DEGREES_PATH) && cut.getMessage().contains("ends inside"),
        cut.getMessage());
    conf.unset(RankVector.RANK_DEFAULT);
    Files.write(degrees, RankVector.outDegreesFile(new long[] {1}));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RankVector.read(conf, null)).getMessage()
        .contains(RankVector.RANK_DEFAULT));
    conf.setInt(RankVector.DAMPING_PPM, 2_000_000);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RankVector.dampingPpm(conf)).getMessage()
        .contains(RankVector.DAMPING_PPM));
  }

  /**
   * Over two devices, each iteration's ranks file is copied to both, and each device's splits read their own
   * device's copy in the device (with fallback never, a copy on the other device would fail the job).
   */
  @Test
  void overTwoDevicesEachReadsItsOwnCopy() throws Exception {
    try (MiningFixture two = new MiningFixture(dir.resolve("two"), 2)) {
      Graph graph = Graph.generate(6_000, 4, 3);
      PageRank pageRank = new PageRank(graph, 0.85, 3);
      MiningFixture.Runs runs = two.runs(pageRank, "pagerank", 2);
      for (MiningRun.Iteration it : runs.device().iterations()) {
        assertEquals(2, it.statistics().deviceExecutions());
        assertEquals(2, it.statistics().devices().size(), it.toString());
      }
    }
  }
}
