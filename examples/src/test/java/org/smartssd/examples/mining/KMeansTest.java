package org.smartssd.examples.mining;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    List<MiningRun.Iteration> device = fixture.runBothModes(kmeans, "kmeans", 2);
    assertTrue(device.size() >= 2, "the centroids moved at least once: " + device.size());
    // Partial sums only: far fewer bytes than the points cross the host interface.
    assertTrue(device.get(0).statistics().hostBytesOut() < kmeans.bytes() / 4, device.get(0).statistics().toString());
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
  void theCentroidsTravelExactlyAndBadOnesAreNamed() {
    Configuration conf = new Configuration(false);
    double[][] c = {{0.1, -3.0e-300, Double.MIN_VALUE}, {Math.PI, 1.0 / 3, -0.0}};
    conf.setInt(Centroids.DIMENSIONS, 3);
    conf.set(Centroids.CENTROIDS, Centroids.encode(c));
    Centroids read = Centroids.of(conf);
    assertEquals(2, read.k());
    assertEquals(0, read.nearest(new float[] {0, 0, 0}));
    assertEquals(1, read.nearest(new float[] {3, 0, 0}));
    conf.set(Centroids.CENTROIDS, "not base64!");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Centroids.of(conf)).getMessage()
        .contains(Centroids.CENTROIDS));
    conf.setInt(Centroids.DIMENSIONS, 0);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Centroids.of(conf)).getMessage()
        .contains(Centroids.DIMENSIONS));
  }
}
