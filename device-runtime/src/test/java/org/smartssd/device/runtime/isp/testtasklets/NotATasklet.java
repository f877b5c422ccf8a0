package org.smartssd.device.runtime.isp.testtasklets;

/** A class that does not implement the tasklet API. */
public class NotATasklet {
  public void run() {}
}
