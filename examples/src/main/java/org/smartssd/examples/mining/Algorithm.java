package org.smartssd.examples.mining;

import java.util.Locale;
import org.smartssd.examples.loganalysis.Workload;

/** The iSSD's three data-mining workloads (its Table 3 and 4). */
public enum Algorithm implements Workload {
  /** Clustering: one job an iteration, the centroids a file on the devices that the next job reads. */
  KMEANS("kmeans"),
  /** Web page ranking over an edge list: one job an iteration, the ranks a file on the devices that the next job reads. */
  PAGERANK("pagerank"),
  /** Frequent itemsets: one job a pass, the pass's candidate itemsets in the job's configuration. */
  APRIORI("apriori");

  private final String optionName;

  Algorithm(String optionName) {
    this.optionName = optionName;
  }

  @Override
  public String optionName() {
    return optionName;
  }

  public static Algorithm parse(String text) {
    for (Algorithm a : values()) {
      if (a.optionName.equals(text.toLowerCase(Locale.ROOT)) || a.name().equalsIgnoreCase(text)) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown algorithm '" + text + "': kmeans, pagerank or apriori");
  }

  @Override
  public String toString() {
    return optionName;
  }
}
