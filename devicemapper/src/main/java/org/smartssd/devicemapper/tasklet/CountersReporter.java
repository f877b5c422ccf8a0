package org.smartssd.devicemapper.tasklet;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.StatusReporter;

/**
 * A reporter whose counters are kept in hand: a lane's inside the device (what the job's code
 * counts goes to the host with the last results), or a task's in tests.
 */
public final class CountersReporter extends StatusReporter {
  private final Counters counters;

  public CountersReporter(Counters counters) {
    this.counters = counters;
  }

  @Override
  public Counter getCounter(Enum<?> name) {
    return counters.findCounter(name);
  }

  @Override
  public Counter getCounter(String group, String name) {
    return counters.findCounter(group, name);
  }

  @Override
  public void progress() {}

  @Override
  public float getProgress() {
    return 0;
  }

  @Override
  public void setStatus(String status) {}
}
