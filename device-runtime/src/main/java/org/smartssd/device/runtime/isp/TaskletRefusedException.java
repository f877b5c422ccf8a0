package org.smartssd.device.runtime.isp;

/** A tasklet's code cannot be installed: not found, not a tasklet, or reaching for what a device lacks. */
public final class TaskletRefusedException extends Exception {

  public TaskletRefusedException(String message) {
    super(message);
  }

  public TaskletRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
