package org.smartssd.examples.mining;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Apriori on the host and in a real device against Eclat in memory; candidates, the generator. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AprioriTest {
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
  void everyPassOnTheHostAndInTheDeviceFindsWhatEclatFinds() throws Exception {
    int[][] transactions = AprioriData.generate(3_000, 8, 300, 200, 4, 3);
    Apriori apriori = new Apriori(transactions, 0.02, 10, "generated");
    List<Apriori.State> direct = apriori.direct();
    assertTrue(direct.size() >= 3, "at least three passes: " + apriori.summary(direct.get(direct.size() - 1)));
    List<MiningRun.Iteration> device = fixture.runBothModes(apriori, "apriori", 2);
    assertEquals(direct.size(), device.size());
  }

  @Test
  void eclatFindsWhatCountingEverySubsetFinds() {
    int[][] transactions = AprioriData.generate(400, 5, 30, 20, 3, 9);
    Apriori apriori = new Apriori(transactions, 0.05, 10, "generated");
    List<Apriori.State> direct = apriori.direct();
    List<String> expected = new ArrayList<>();
    // Brute force: every itemset that some transaction contains, counted over all transactions.
    java.util.Map<String, Long> counts = new java.util.TreeMap<>();
    for (int[] t : transactions) {
      for (int mask = 1; mask < 1 << t.length; mask++) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.length; i++) {
          if ((mask & 1 << i) != 0) {
            sb.append(sb.length() == 0 ? "" : " ").append(t[i]);
          }
        }
        counts.merge(sb.toString(), 1L, Long::sum);
      }
    }
    counts.forEach((k, v) -> {
      if (v >= apriori.minSupport()) {
        expected.add(k + "\t" + v);
      }
    });
    List<String> found = new ArrayList<>(apriori.lines(direct.get(direct.size() - 1)));
    java.util.Collections.sort(found);
    java.util.Collections.sort(expected);
    assertEquals(expected, found);
  }

  @Test
  void candidatesAreJoinedAndPrunedAsAprioriGenDoes() throws Exception {
    List<int[]> l2 = List.of(new int[] {1, 2}, new int[] {1, 3}, new int[] {1, 4}, new int[] {2, 3}, new int[] {3, 4});
    int[][] c3 = Apriori.candidates(l2);
    // {1,2,3}: all subsets frequent; {1,2,4}: {2,4} is not; {1,3,4}: all subsets frequent.
    assertEquals(2, c3.length);
    assertArrayEquals(new int[] {1, 2, 3}, c3[0]);
    assertArrayEquals(new int[] {1, 3, 4}, c3[1]);

    Configuration conf = new Configuration(false);
    conf.setInt(Candidates.PASS, 3);
    conf.set(Candidates.CANDIDATES, Candidates.encode(c3));
    Candidates read = Candidates.of(conf);
    List<Integer> found = new ArrayList<>();
    int[] transaction = {0, 1, 3, 4, 9};
    read.contained(transaction, transaction.length, found::add);
    assertEquals(List.of(1), found);
    found.clear();
    int[] all = {1, 2, 3, 4};
    read.contained(all, all.length, found::add);
    assertEquals(List.of(0, 1), found);

    conf.set(Candidates.CANDIDATES, Candidates.encode(new int[][] {{1, 3, 4}, {1, 2, 3}}));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Candidates.of(conf)).getMessage()
        .contains(Candidates.CANDIDATES));
    conf.setLong(Candidates.MIN_SUPPORT, 0);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Candidates.minSupport(conf)).getMessage()
        .contains(Candidates.MIN_SUPPORT));
  }

  @Test
  void theGeneratorIsDeterministicBySeedWithTheMeanSizeAsked() {
    int[][] a = AprioriData.generate(5_000, 8, 4);
    assertTrue(Arrays.deepEquals(a, AprioriData.generate(5_000, 8, 4)));
    assertFalse(Arrays.deepEquals(a, AprioriData.generate(5_000, 8, 5)));
    double mean = Arrays.stream(a).mapToInt(t -> t.length).average().orElseThrow();
    assertEquals(8, mean, 1.0, "about 8 items a transaction (iSSD Table 4)");
    for (int[] t : a) {
      for (int i = 1; i < t.length; i++) {
        assertTrue(t[i] > t[i - 1], "distinct and ascending");
      }
    }
  }
}
