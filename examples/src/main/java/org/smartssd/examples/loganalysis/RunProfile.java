package org.smartssd.examples.loganalysis;

import org.smartssd.device.WorkProfile;

/**
 * A measured run's counted work by call path ({@link WorkProfiling}), on the host and in the devices,
 * beside the counts it must add up to.
 *
 * @param host the host's threads' work over the run (the thread that waited for a job, only polling, left
 *     out as the host's count leaves it out), or null when the host's work is not counted (no agent)
 * @param device the devices' executions' work, added up over the executions that wrote a profile
 * @param deviceExecutions the executions the run had in the devices
 * @param deviceProfiles of them, those whose profile is in {@code device}
 */
public record RunProfile(WorkProfile host, WorkProfile device, long deviceExecutions, long deviceProfiles) {

  /** Whether every device execution's profile is here. */
  public boolean deviceComplete() {
    return deviceProfiles == deviceExecutions;
  }
}
