package org.smartssd.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.smartssd.examples.loganalysis.ProfileReport;
import org.smartssd.examples.loganalysis.RunStatistics;

/** What {@code --work-profile DIR} writes for a command's runs: each run's table and folded stacks, and a chart. */
final class WorkProfileOutput {
  /** The chart of the runs' owners, in the profile's directory (and {@code compare}'s report). */
  static final String CHART = "work-profile-owners.png";

  private WorkProfileOutput() {}

  /**
   * Writes every run's profile into {@code dir}, prints the tables to {@code err}, and draws the chart.
   *
   * @param runs each run's name (a file name: {@code regions-device}) and statistics, in order
   * @return the files written
   */
  static List<Path> write(PrintWriter err, Path dir, Map<String, RunStatistics> runs) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Map.Entry<String, RunStatistics> run : runs.entrySet()) {
      String title = run.getKey();
      err.print(ProfileReport.table(title, run.getValue()));
      files.addAll(ProfileReport.write(dir, run.getKey(), title, run.getValue()));
    }
    files.add(ProfileReport.chart(dir, CHART, runs));
    err.println("work profile: " + String.join(", ", files.stream().map(Path::toString).toList()));
    err.flush();
    return files;
  }
}
