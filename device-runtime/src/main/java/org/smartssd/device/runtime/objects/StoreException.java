package org.smartssd.device.runtime.objects;

import org.smartssd.device.protocol.Status;

/** A request the object store refuses, with the status the host answers and a message naming why. */
public final class StoreException extends Exception {
  private static final long serialVersionUID = 1L;
  private final Status status;

  public StoreException(Status status, String message) {
    super(message);
    this.status = status;
  }

  public Status status() {
    return status;
  }
}
