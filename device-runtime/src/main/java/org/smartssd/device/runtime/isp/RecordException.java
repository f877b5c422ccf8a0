package org.smartssd.device.runtime.isp;

/**
 * The input cannot be cut into the records the tasklet asked for: a partial fixed-length record, or
 * a delimited record longer than the device allows. The message names the object and the offset.
 */
public final class RecordException extends Exception {

  public RecordException(String message) {
    super(message);
  }
}
