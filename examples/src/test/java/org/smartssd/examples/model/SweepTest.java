package org.smartssd.examples.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  /** The iSSD's channels, each with its core: two keys on one axis take the same value at each point. */
  @Test
  void keysJoinedByCommasVaryTogether(@TempDir Path dir) throws Exception {
    Map<String, List<String>> vary = new LinkedHashMap<>();
    vary.put("smartssd.device.flash.channels,smartssd.device.isp.cores", List.of("8", "16"));
    vary.put("smartssd.device.isp.merge", List.of("host", "device"));
    List<Map<String, String>> grid = Sweep.grid(vary);
    assertEquals(4, grid.size());
    assertEquals(Map.of("smartssd.device.flash.channels", "16", "smartssd.device.isp.cores", "16",
        "smartssd.device.isp.merge", "host"), grid.get(2));
    List<String> axes = List.copyOf(vary.keySet());
    assertEquals(List.of("smartssd.device.flash.channels", "smartssd.device.isp.cores", "smartssd.device.isp.merge"),
        Sweep.keys(axes));
    List<Sweep.Row> rows = new java.util.ArrayList<>();
    for (Map<String, String> point : grid) {
      for (Mode mode : List.of(Mode.HOST_NORMAL, Mode.DEVICE)) {
        rows.add(row(point, mode, 1.0, 1.0));
      }
    }
    // The channels' chart has a series a mode and merge, not one a core count: the cores move with the channels.
    assertEquals("device, merge=host", Sweep.seriesName(Mode.DEVICE, rows.get(1), axes, axes.get(0)));
    assertEquals("host-normal, channels=8", Sweep.seriesName(Mode.HOST_NORMAL, rows.get(0), axes, axes.get(1)));
    List<Path> charts = Sweep.writeCharts(dir, axes, rows);
    assertEquals(dir.resolve("smartssd.device.flash.channels_smartssd.device.isp.cores.png"), charts.get(0));
    List<String> csv = Files.readAllLines(Sweep.writeCsv(dir, Sweep.keys(axes), rows));
    assertTrue(csv.get(0).startsWith("smartssd.device.flash.channels,smartssd.device.isp.cores,smartssd.device.isp"
        + ".merge,mode,simulated_s,analytic_s,"), csv.get(0));
    assertTrue(csv.get(3).startsWith("8,8,device,host-normal,"), csv.get(3));
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

  /** A chart a varied key, a series a mode and combination of the other keys' values. */
  @Test
  void chartsHaveASeriesForEachModeAndValueOfTheOtherKeys(@TempDir Path dir) throws Exception {
    List<String> keys = List.of("smartssd.device.flash.channels", "smartssd.device.isp.merge");
    List<Sweep.Row> rows = new java.util.ArrayList<>();
    for (String channels : List.of("2", "8")) {
      for (String merge : List.of("host", "device")) {
        for (Mode mode : Mode.JOBS) {
          rows.add(row(Map.of(keys.get(0), channels, keys.get(1), merge), mode, 1.0 / channels.length(), 1.0));
        }
      }
    }
    assertEquals("device, merge=host", Sweep.seriesName(Mode.DEVICE, rows.get(2), keys, keys.get(0)));
    assertEquals("host-normal, channels=8", Sweep.seriesName(Mode.HOST_NORMAL, rows.get(6), keys, keys.get(1)));
    List<Path> charts = Sweep.writeCharts(dir, keys, rows);
    assertEquals(List.of(dir.resolve("smartssd.device.flash.channels.png"), dir.resolve("smartssd.device.isp.merge.png")),
        charts);
    for (Path chart : charts) {
      byte[] png = Files.readAllBytes(chart);
      assertEquals((byte) 0x89, png[0]);
      assertEquals('P', png[1]);
    }
  }

  private static Sweep.Row row(Mode mode, double simulated, double analytic) {
    return row(Map.of(), mode, simulated, analytic);
  }

  private static Sweep.Row row(Map<String, String> varied, Mode mode, double simulated, double analytic) {
    org.smartssd.model.Mode m = WorkloadSampler.modelMode(mode);
    double n = analytic * 1e9;
    return new Sweep.Row(varied, mode, simulated, new Prediction(m, 0, n, 0, 0, 0, 0, 0, 0, n), null);
  }
}
