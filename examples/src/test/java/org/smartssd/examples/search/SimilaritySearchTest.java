package org.smartssd.examples.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;

/** {@code smartssd search}'s search on a real device, over its socket: both layouts exact against the host's brute force. */
class SimilaritySearchTest {
  @TempDir Path dir;

  @Test
  void bothLayoutsFindWhatTheHostsBruteForceFinds() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir.resolve("device")))) {
      for (Layout layout : Layout.values()) {
        for (int bits : new int[] {64, 100}) {
          SimilaritySearch.Options options = new SimilaritySearch.Options(new SearchData.Parameters(6_000, 16, bits, 5,
              12, 7), 8, layout, 16, "msst13-sata", device.address(), Map.of(), Map.of());
          StringWriter log = new StringWriter();
          SimilaritySearch.Outcome o = new SimilaritySearch(options, new PrintWriter(log)).run();
          String what = layout + ", " + bits + " bits: " + o.disagreements();
          assertTrue(o.exact(), what);
          List<SimilaritySearch.SearchMode> modes = o.runs().stream().map(SimilaritySearch.ModeRun::mode).toList();
          assertEquals(layout == Layout.CLUSTERED
              ? List.of(SimilaritySearch.SearchMode.HOST, SimilaritySearch.SearchMode.DEVICE,
                  SimilaritySearch.SearchMode.DEVICE_PRUNED)
              : List.of(SimilaritySearch.SearchMode.HOST, SimilaritySearch.SearchMode.DEVICE), modes, what);
          SimilaritySearch.ModeRun host = o.runs().get(0);
          SimilaritySearch.ModeRun scan = o.runs().get(1);
          assertEquals(0, host.executions());
          assertEquals(1, scan.executions());
          assertTrue(scan.executionPagesRead() > 0, what);
          // The scan sends the queries in and the lists out; the host reads every record.
          assertTrue(scan.statistics().hostInterfaceBytes() < host.statistics().hostInterfaceBytes() / 4, what);
          for (SimilaritySearch.ModeRun r : o.runs()) {
            assertEquals(5, r.neighbours().size());
            assertTrue(r.neighbours().stream().allMatch(l -> l.size() == 8), what);
          }
          if (layout == Layout.CLUSTERED) {
            SimilaritySearch.ModeRun pruned = o.runs().get(2);
            assertTrue(pruned.comparisons() < scan.comparisons(), what + ": " + pruned.comparisons());
            assertEquals(pruned.rounds(), pruned.executions(), what);
          }
        }
      }
    }
  }
}
