package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Calls a job's mapper record by record, inside the device. {@code Mapper}'s only public entry
 * point is {@code run(Context)}, which pulls every record of a split in one call; a tasklet is
 * pushed its records chunk by chunk. So the host generates, for each job, a small subclass of the
 * job's mapper implementing this interface (see {@link MapperShims}), whose methods call the
 * mapper's own protected {@code setup}, {@code map} and {@code cleanup}: the mapper runs
 * unchanged, its setup and cleanup once per lane.
 */
public interface MapperDriver {

  @SuppressWarnings("rawtypes")
  void runSetup(Mapper.Context context) throws IOException, InterruptedException;

  @SuppressWarnings("rawtypes")
  void runMap(Object key, Object value, Mapper.Context context) throws IOException, InterruptedException;

  @SuppressWarnings("rawtypes")
  void runCleanup(Mapper.Context context) throws IOException, InterruptedException;
}
