package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.nio.file.Path;
import org.smartssd.examples.wc98.RecordSink;
import org.smartssd.examples.wc98.Wc98Reader;
import org.smartssd.examples.wc98.Wc98Record;

/** The direct computation of both scenarios: one pass over a trace file with {@link Wc98Reader}, no Hadoop. */
public final class DirectCount implements RecordSink {
  private final long[][] counts = new long[RecordFields.REGIONS][RecordFields.TYPES];

  /** Counts a trace file (plain or gzip), every record checked. */
  public static DirectCount of(Path file) throws IOException {
    DirectCount c = new DirectCount();
    try (Wc98Reader reader = Wc98Reader.open(file)) {
      reader.forEach(c);
    }
    return c;
  }

  @Override
  public void accept(Wc98Record r) {
    counts[r.region().code()][r.type().code()]++;
  }

  public AnalysisResult result(Scenario scenario) {
    return AnalysisResult.fromCounts(scenario, counts);
  }
}
