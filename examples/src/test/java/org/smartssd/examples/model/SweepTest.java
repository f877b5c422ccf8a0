package org.smartssd.examples.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.smartssd.examples.loganalysis.Mode;
import org.smartssd.model.Prediction;

class SweepTest {

  @Test
  void theGridIsEveryCombinationTheFirstKeySlowest() {
    Map<String, List<String>> vary = new LinkedHashMap<>();
    vary.put("a", List.of("1", "2"));
    vary.put("b", List.of("x", "y", "z"));
    List<Map<String, String>> grid = Sweep.grid(vary);
    assertEquals(6, grid.size());
    assertEquals(Map.of("a", "1", "b", "x"), grid.get(0));
    assertEquals(Map.of("a", "1", "b", "z"), grid.get(2));
    assertEquals(Map.of("a", "2", "b", "x"), grid.get(3));
  }

  @Test
  void pearsonIsOneForALineAndUndefinedWhenTheModelHardlyVaries() {
    assertEquals(1.0, Sweep.pearson(new double[] {1, 2, 3}, new double[] {10, 20, 30}, Sweep.MIN_SPREAD), 1e-12);
    assertEquals(-1.0, Sweep.pearson(new double[] {1, 2, 3}, new double[] {3, 2, 1}, Sweep.MIN_SPREAD), 1e-12);
    assertTrue(Double.isNaN(Sweep.pearson(new double[] {1, 1.01, 0.99}, new double[] {5, 5, 5}, 0)));
    // Varying by 0.5% of their mean, the model's times are under the least spread: noise, not signal.
    double[] flat = {1.000, 1.005, 1.002};
    assertTrue(Double.isNaN(Sweep.pearson(new double[] {1.003, 1.001, 1.004}, flat, Sweep.MIN_SPREAD)));
    // (Without the threshold, this noise correlates the wrong way: r = -0.74.)
    assertEquals(-0.737, Sweep.pearson(new double[] {1.003, 1.001, 1.004}, flat, 0), 0.001);
  }

  @Test
  void agreementIsPerModeWithTheWorstRelativeError() {
    List<Sweep.Row> rows = List.of(row(Mode.DEVICE, 1.0, 1.1), row(Mode.DEVICE, 2.0, 1.9), row(Mode.DEVICE, 4.0, 4.0),
        row(Mode.HOST_NORMAL, 1.0, 1.0));
    Map<Mode, Sweep.Agreement> a = Sweep.agreement(rows);
    assertEquals(3, a.get(Mode.DEVICE).points());
    assertEquals(0.1, a.get(Mode.DEVICE).worstRelativeError(), 1e-9);
    assertTrue(a.get(Mode.DEVICE).pearson() > 0.99);
    assertEquals(1, a.get(Mode.HOST_NORMAL).points());
    assertTrue(Double.isNaN(a.get(Mode.HOST_NORMAL).pearson()));
  }

  private static Sweep.Row row(Mode mode, double simulated, double analytic) {
    org.smartssd.model.Mode m = WorkloadSampler.modelMode(mode);
    double n = analytic * 1e9;
    return new Sweep.Row(Map.of(), mode, simulated, new Prediction(m, 0, n, 0, 0, 0, 0, 0, 0, n), null);
  }
}
