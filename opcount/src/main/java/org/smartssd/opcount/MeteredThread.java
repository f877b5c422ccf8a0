package org.smartssd.opcount;

/**
 * A thread that holds its own meter, so that {@link OpMeter#current()}, which every counted method
 * calls first, is a type check and a field read for it instead of a lookup by thread id. The device's
 * lanes run on these.
 */
public class MeteredThread extends Thread {
  /** This thread's meter, set by the thread itself at its first counted call. */
  OpMeter meter;

  public MeteredThread(Runnable task, String name) {
    super(task, name);
  }
}
