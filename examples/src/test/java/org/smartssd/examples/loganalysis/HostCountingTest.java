package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.smartssd.opcount.Instrumenter;
import org.smartssd.opcount.Scopes;

class HostCountingTest {

  /** Hadoop is counted, but not its file system statistics, whose work follows the JVM's history. */
  @Test
  void hadoopIsCountedButNotItsFileSystemStatistics() {
    Instrumenter.Scope scope = HostCounting.counted(Scopes.packages(HostCounting.PACKAGES));
    assertTrue(scope.counted("org/apache/hadoop/fs/FileSystem"));
    assertTrue(scope.counted("org/apache/hadoop/mapred/MapTask$NewTrackingRecordReader"));
    assertTrue(scope.counted("org/smartssd/examples/loganalysis/RegionMapper"));
    assertFalse(scope.counted("org/apache/hadoop/fs/FileSystem$Statistics"));
    assertFalse(scope.counted("org/apache/hadoop/fs/FileSystem$Statistics$StatisticsData"));
    assertFalse(scope.counted("org/apache/hadoop/fs/FileSystem$Statistics$1"));
    assertFalse(scope.counted("java/lang/String"));
  }
}
