package org.smartssd.devicemapper;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;

/**
 * Makes a fully configured, not yet submitted job from command-line arguments: what
 * {@link DeviceJobClient}'s command line runs in the devices. Implementations need a public
 * no-argument constructor.
 */
public interface JobFactory {

  /**
   * @param conf the configuration from the command line ({@code -D} options applied)
   * @param args the arguments after the factory's class name
   */
  Job createJob(Configuration conf, String[] args) throws Exception;
}
