package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.smartssd.examples.wc98.FileType;
import org.smartssd.examples.wc98.Region;
import org.smartssd.examples.wc98.TraceStatistics;
import org.smartssd.examples.wc98.Wc98Record;

class AnalysisResultTest {
  @Test
  void regionsAreSortedByNameWithTheirCounts() {
    List<Wc98Record> records = new ArrayList<>();
    records.add(Traces.record(Region.SANTA_CLARA, FileType.HTML, 0));
    records.add(Traces.record(Region.PARIS, FileType.IMAGE, 1));
    records.add(Traces.record(Region.PARIS, FileType.IMAGE, 2));
    records.add(Traces.record(Region.HERNDON, FileType.AUDIO, 3));
    AnalysisResult r = AnalysisResult.compute(Scenario.REGIONS, records);
    // PLANO has no request, so no line.
    assertEquals("HERNDON\t1\nPARIS\t2\nSANTA_CLARA\t1\n", r.text());
    assertEquals(4, r.total());
  }

  @Test
  void topTypesRankByCountThenTypeCodeAndStopAtFive() {
    AnalysisResult r = AnalysisResult.compute(Scenario.TOP_TYPES, Traces.handMade());
    List<String> santaClara = r.lines().stream().filter(l -> l.startsWith("SANTA_CLARA\t")).toList();
    // IMAGE 6; then HTML(0), AUDIO(2), VIDEO(3), JAVA(4), FORMATTED(5) all 3: ties by type code, FORMATTED is 6th.
    assertEquals(List.of("SANTA_CLARA\t1\tIMAGE\t6", "SANTA_CLARA\t2\tHTML\t3", "SANTA_CLARA\t3\tAUDIO\t3",
        "SANTA_CLARA\t4\tVIDEO\t3", "SANTA_CLARA\t5\tJAVA\t3"), santaClara);
    List<String> paris = r.lines().stream().filter(l -> l.startsWith("PARIS\t")).toList();
    // DIRECTORY (10) and OTHER (12) tie at 8: DIRECTORY first; then the types seen once, by code.
    assertEquals(List.of("PARIS\t1\tDIRECTORY\t8", "PARIS\t2\tOTHER\t8", "PARIS\t3\tHTML\t1", "PARIS\t4\tIMAGE\t1",
        "PARIS\t5\tAUDIO\t1"), paris);
    // Sorted by region name, then rank.
    List<String> regions = r.lines().stream().map(l -> l.substring(0, l.indexOf('\t'))).distinct().toList();
    assertEquals(List.of("HERNDON", "PARIS", "PLANO", "SANTA_CLARA"), regions);
    assertEquals(20, r.lines().size());
  }

  @Test
  void aRegionWithFewerThanFiveTypesListsWhatItHas() {
    List<Wc98Record> records = List.of(Traces.record(Region.PLANO, FileType.VIDEO, 0),
        Traces.record(Region.PLANO, FileType.VIDEO, 1), Traces.record(Region.PLANO, FileType.ICL, 2));
    assertEquals("PLANO\t1\tVIDEO\t2\nPLANO\t2\tICL\t1\n", AnalysisResult.compute(Scenario.TOP_TYPES, records).text());
  }

  @Test
  void anEmptyTracePrintsNothing() {
    for (Scenario s : Scenario.values()) {
      AnalysisResult r = AnalysisResult.compute(s, List.of());
      assertEquals("", r.text());
      assertEquals(AnalysisResult.empty(s), r);
      assertEquals(r, AnalysisResult.fromJobOutput(s, List.of()));
    }
  }

  @Test
  void theJobOutputGivesTheSameResultAsADirectCount() throws Exception {
    List<Wc98Record> records = Traces.generated(20_000);
    TraceStatistics statistics = new TraceStatistics();
    for (Wc98Record r : records) {
      statistics.accept(r);
    }
    for (Scenario s : Scenario.values()) {
      AnalysisResult direct = AnalysisResult.compute(s, records);
      assertEquals(direct, AnalysisResult.fromStatistics(s, statistics));
      assertEquals(20_000, direct.total());
    }
    List<String> jobLines = new ArrayList<>();
    for (Region r : Region.values()) {
      for (FileType t : FileType.values()) {
        if (statistics.count(r, t) > 0) {
          jobLines.add(r.name() + "\t" + t.name() + "\t" + statistics.count(r, t));
        }
      }
    }
    assertEquals(AnalysisResult.compute(Scenario.TOP_TYPES, records),
        AnalysisResult.fromJobOutput(Scenario.TOP_TYPES, jobLines));
  }

  @Test
  void anUnexpectedJobLineIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AnalysisResult.fromJobOutput(Scenario.REGIONS, List.of("MARS\t3")));
    assertTrue(e.getMessage().contains("MARS"), e.getMessage());
  }
}
