package org.smartssd.examples.mining;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** k-means on the host and in a real device, iteration by iteration, against the direct computation, bit for bit. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KMeansTest {
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
  void everyIterationOnTheHostAndInTheDeviceIsTheDirectComputationsBitForBit() throws Exception {
    // 5 dimensions: 20-byte records, which straddle the device's 4 KiB pages; two files, so two splits.
    float[] points = KMeansData.generate(6_001, 5, 4, 7);
    KMeans kmeans = new KMeans(points, 5, 4, 7, 6, 0, "generated");
    // The fixture also checks that every split ran in the device (fallback never), that each iteration's centroids
    // file is on the device, and that the assignments file on the device holds each point's cluster.
    MiningFixture.Runs runs = fixture.runs(kmeans, "kmeans", 2);
    List<MiningRun.Iteration> device = runs.device().iterations();
    assertTrue(device.size() >= 2, "the centroids moved at least once: " + device.size());
    // Partial sums only: far fewer bytes than the points cross the host interface.
    assertTrue(device.get(0).statistics().hostBytesOut() < kmeans.bytes() / 4, device.get(0).statistics().toString());
    // The state file is k lines; what goes in, with it, once the tasklet's code is on the device, is a few
    // kilobytes a split.
    for (MiningRun.Iteration it : device) {
      assertTrue(it.stateBytes() > 4 * 10 && it.stateBytes() < 4 * 200, it.toString());
      if (it.iteration() > 1) {
        assertTrue(it.statistics().hostBytesIn() < kmeans.bytes() / 4, it.toString());
      }
    }
    assertEquals(1, runs.device().after().size());
    // A map task's file each, as the job's TextOutputFormat names them: one a split (a part file each).
    org.apache.hadoop.fs.Path assignments = runs.device().after().get(0).output();
    assertEquals(2, assignments.getFileSystem(fixture.conf).listStatus(assignments,
        p -> p.getName().startsWith("part-m-")).length);
  }

  @Test
  void theSumsDoNotDependOnTheOrderTheyAreAddedIn() {
    float[] points = KMeansData.generate(1000, 3, 2, 1);
    PartialSum forward = new PartialSum(3);
    PartialSum backward = new PartialSum(3);
    PartialSum one = new PartialSum();
    for (int p = 0; p < 1000; p++) {
      one.setPoint(new float[] {points[3 * p], points[3 * p + 1], points[3 * p + 2]});
      forward.add(one);
      int q = 999 - p;
      one.setPoint(new float[] {points[3 * q], points[3 * q + 1], points[3 * q + 2]});
      backward.add(one);
    }
    java.math.BigDecimal exact = java.math.BigDecimal.ZERO;
    for (int p = 0; p < 1000; p++) {
      exact = exact.add(new java.math.BigDecimal(points[3 * p]));
    }
    assertEquals(forward.toString(), backward.toString());
    assertEquals(forward.mean(0), backward.mean(0));
    // Each coordinate is on the 2^-16 grid: the fixed-point sum is the exact sum, in any order.
    assertEquals(exact.multiply(java.math.BigDecimal.valueOf(65536)).longValueExact(), forward.sum(0));
  }

  @Test
  void theGeneratorIsDeterministicBySeed() {
    float[] a = KMeansData.generate(500, 8, 3, 42);
    assertArrayEquals(a, KMeansData.generate(500, 8, 3, 42));
    assertFalse(java.util.Arrays.equals(a, KMeansData.generate(500, 8, 3, 43)));
    for (float x : a) {
      assertEquals(x, Math.round(x * PartialSum.SCALE) / PartialSum.SCALE, 0.0, "on the fixed-point grid");
    }
    KMeans one = new KMeans(a, 8, 3, 42, 5, 0, "generated");
    KMeans two = new KMeans(a, 8, 3, 42, 5, 0, "generated");
    assertEquals(one.lines(one.initial()), two.lines(two.initial()));
    assertNotEquals(one.lines(one.initial()), new KMeans(a, 8, 3, 43, 5, 0, "generated").lines(
        new KMeans(a, 8, 3, 43, 5, 0, "generated").initial()));
  }

  @Test
  void theCentroidsFileIsReadExactlyAndBadOnesAreNamed() throws Exception {
    double[][] c = {{0.1, -3.0e-300, Double.MIN_VALUE}, {Math.PI, 1.0 / 3, -0.0}};
    Path file = dir.resolve("centroids.txt");
    Files.write(file, Centroids.file(c, new long[] {7, 0}));
    Configuration conf = new Configuration(false);
    conf.setInt(Centroids.DIMENSIONS, 3);
    conf.set(Centroids.CENTROIDS_PATH, file.toUri().toString());
    Centroids read = Centroids.read(conf, null);
    assertEquals(2, read.k());
    for (int j = 0; j < 2; j++) {
      for (int i = 0; i < 3; i++) {
        assertEquals(Double.doubleToRawLongBits(c[j][i]), Double.doubleToRawLongBits(read.centroid(j)[i]));
      }
    }
    assertEquals(7, read.count(0));
    assertEquals(0, read.nearest(new float[] {0, 0, 0}));
    assertEquals(1, read.nearest(new float[] {3, 0, 0}));

    Files.writeString(file, "0\t1\t1.0 2.0 3.0\n0\t1\t1.0 2.0 3.0\n");
    IOException twice = assertThrows(IOException.class, () -> Centroids.read(conf, null));
    assertTrue(twice.getMessage().contains(Centroids.CENTROIDS_PATH) && twice.getMessage().contains("centroids.txt")
        && twice.getMessage().contains("each once"), twice.getMessage());
    Files.writeString(file, "0\t1\t1.0 x 3.0\n");
    assertTrue(assertThrows(IOException.class, () -> Centroids.read(conf, null)).getMessage().contains("1.0 x 3.0"));
    IOException missing = assertThrows(IOException.class, () -> Centroids.read(conf(dir.resolve("none.txt")), null));
    assertTrue(missing.getMessage().contains(Centroids.CENTROIDS_PATH) && missing.getMessage().contains("none.txt"),
        missing.getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Centroids.read(new Configuration(false), null))
        .getMessage().contains(Centroids.CENTROIDS_PATH));
    conf.setInt(Centroids.DIMENSIONS, 0);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Centroids.read(conf, null)).getMessage()
        .contains(Centroids.DIMENSIONS));
  }

  private static Configuration conf(Path centroids) {
    Configuration conf = new Configuration(false);
    conf.setInt(Centroids.DIMENSIONS, 3);
    conf.set(Centroids.CENTROIDS_PATH, centroids.toUri().toString());
    return conf;
  }

  @Test
  void aTaskReadsTheCopyOnItsSplitsDevice() {
    Configuration conf = new Configuration(false);
    conf.set(Centroids.CENTROIDS_PATH, "objfs://a:1/m/c, objfs://b:2/m/c");
    assertEquals(new org.apache.hadoop.fs.Path("objfs://b:2/m/c"), SideFile.choose(conf, Centroids.CENTROIDS_PATH,
        new org.apache.hadoop.fs.Path("objfs://b:2/m/part-1")));
    assertEquals(new org.apache.hadoop.fs.Path("objfs://a:1/m/c"), SideFile.choose(conf, Centroids.CENTROIDS_PATH,
        new org.apache.hadoop.fs.Path("objfs://c:3/m/part-1")));
    assertEquals(new org.apache.hadoop.fs.Path("objfs://a:1/m/c"), SideFile.choose(conf, Centroids.CENTROIDS_PATH,
        null));
  }

  /**
   * A cluster no point joins keeps its centroid, with 0 points: the reducer writes it from the centroids it
   * read, so that its output is the whole next state.
   */
  @Test
  void aClusterNoPointJoinsKeepsItsCentroidInTheReducersOutput() throws Exception {
    float[] points = KMeansData.generate(2_000, 2, 2, 3);
    KMeans kmeans = new KMeans(points, 2, 3, 3, 1, 0, "generated");
    List<org.apache.hadoop.fs.Path> inputs = fixture.inputs("kmeans-far", 1);
    kmeans.load(fixture.conf, inputs);
    org.apache.hadoop.fs.Path start = new org.apache.hadoop.fs.Path(inputs.get(0).getParent(), "far/start");
    double[][] c = {{-20.0, 0.0}, {1000.0, 1000.0}, {20.0, 0.0}}; // no generated point is near the second
    try (java.io.OutputStream out = start.getFileSystem(fixture.conf).create(start, true)) {
      out.write(Centroids.file(c, new long[3]));
    }
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(inputs.get(0).getParent(), "far/out");
    org.apache.hadoop.mapreduce.Job job = kmeans.job(fixture.conf, new IterativeMining.Step<>(1, null, inputs, output,
        List.of(start), java.util.Map.of(), null));
    assertTrue(job.waitForCompletion(false));
    List<String> lines = org.smartssd.examples.loganalysis.LogAnalysis.readOutput(
        output.getFileSystem(fixture.conf), output);
    assertEquals(3, lines.size(), lines.toString());
    assertEquals("1\t0\t1000.0 1000.0", lines.get(1));
    assertTrue(lines.get(0).startsWith("0\t") && lines.get(2).startsWith("2\t"), lines.toString());
    long points0 = Long.parseLong(lines.get(0).split("\t")[1]);
    long points2 = Long.parseLong(lines.get(2).split("\t")[1]);
    assertEquals(2_000, points0 + points2);
  }
}
