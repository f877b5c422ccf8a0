package org.smartssd.device.runtime.isp;

import java.util.Map;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.builtin.AccessProbe;
import org.smartssd.device.tasklet.builtin.Compression;
import org.smartssd.device.tasklet.builtin.FieldFilter;
import org.smartssd.device.tasklet.builtin.GroupedSum;
import org.smartssd.device.tasklet.builtin.HammingTopT;
import org.smartssd.device.tasklet.builtin.HeartbeatDetection;
import org.smartssd.device.tasklet.builtin.LocalExtrema;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/** The tasklets every device has, installable by class name with an empty jar. */
public final class BuiltInTasklets {
  public static final Map<String, Class<? extends Tasklet>> ALL = Map.of(
      RecordCounter.class.getName(), RecordCounter.class,
      FieldFilter.class.getName(), FieldFilter.class,
      GroupedSum.class.getName(), GroupedSum.class,
      AccessProbe.class.getName(), AccessProbe.class,
      HammingTopT.class.getName(), HammingTopT.class,
      LocalExtrema.class.getName(), LocalExtrema.class,
      HeartbeatDetection.class.getName(), HeartbeatDetection.class,
      Compression.class.getName(), Compression.class);

  private BuiltInTasklets() {}
}
