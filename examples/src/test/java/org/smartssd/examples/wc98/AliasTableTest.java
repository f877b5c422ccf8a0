package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AliasTableTest {

  @Test
  void samplesInProportionToTheWeights() {
    double[] weights = {0.5, 0, 0.25, 0.125, 0.125};
    AliasTable table = new AliasTable(weights);
    SplittableRandom random = new SplittableRandom(7);
    int n = 1_000_000;
    long[] counts = new long[weights.length];
    for (int i = 0; i < n; i++) {
      counts[table.sample(random)]++;
    }
    assertEquals(0, counts[1]);
    for (int i = 0; i < weights.length; i++) {
      double sigma = Math.sqrt(n * weights[i] * (1 - weights[i]));
      assertEquals(n * weights[i], counts[i], 5 * sigma + 1, "index " + i);
    }
  }

  @Test
  void aSingleWeightAlwaysAnswersItself() {
    AliasTable table = new AliasTable(new double[] {3});
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 1000; i++) {
      assertEquals(0, table.sample(random));
    }
  }

  @Test
  void rejectsBadWeights() {
    assertThrows(IllegalArgumentException.class, () -> new AliasTable(new double[0]));
    assertThrows(IllegalArgumentException.class, () -> new AliasTable(new double[] {0, 0}));
    assertThrows(IllegalArgumentException.class, () -> new AliasTable(new double[] {1, -1}));
    assertThrows(IllegalArgumentException.class, () -> new AliasTable(new double[] {1, Double.NaN}));
  }
}
