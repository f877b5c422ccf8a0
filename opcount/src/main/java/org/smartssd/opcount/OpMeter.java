package org.smartssd.opcount;

import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One thread's counters. Code instrumented by {@link Instrumenter} fetches its thread's meter once
 * per method call ({@link #current()}) and adds each basic block's counts to it as the block starts.
 * Only the owning thread writes a meter; others read it ({@link #counts()}, {@link #total()}).
 *
 * <p>The fields are public because instrumented code in any class loader updates them directly; the
 * device refuses tasklet code that names this package, so a tasklet cannot touch its own counts.
 */
public final class OpMeter {
  public long ops;
  public long memory;
  public long calls;
  public long bulk;
  /** Whether this thread's work is the host's, and so counted in {@link #total()}. */
  private volatile boolean inTotal = true;

  /** Every thread's meter while its thread lives; a dead thread's counts fold into {@link #retired}. */
  private static final ConcurrentLinkedQueue<Entry> LIVE = new ConcurrentLinkedQueue<>();
  private static final Object RETIRED_LOCK = new Object();
  private static OpCounts retired = OpCounts.ZERO;
  private static final int FOLD_EVERY = 256;
  private static int registrations;

  private static final ThreadLocal<OpMeter> CURRENT = ThreadLocal.withInitial(OpMeter::register);

  private record Entry(WeakReference<Thread> thread, OpMeter meter) {}

  private OpMeter() {}

  /** The calling thread's meter. */
  public static OpMeter current() {
    return CURRENT.get();
  }

  /** Called by instrumented code before a bulk library call: {@code n} bytes moved. */
  public static void addBulk(OpMeter m, int n) {
    if (n > 0) {
      m.bulk += n;
    }
  }

  /** Called by instrumented code before an array allocation of {@code n} elements of {@code size} bytes. */
  public static void addElements(OpMeter m, int n, int size) {
    if (n > 0) {
      m.bulk += (long) n * size;
    }
  }

  /**
   * Leaves this thread's work out of {@link #total()}: a device's lane in the same JVM as a host, whose
   * work the device accounts itself.
   */
  public void leaveTotal() {
    inTotal = false;
  }

  /** What this meter counted so far (exact when read by its own thread). */
  public OpCounts counts() {
    return new OpCounts(ops, memory, calls, bulk);
  }

  /**
   * What every thread counted so far, live or ended, but those that {@link #leaveTotal left}. A live
   * thread's latest additions may not be seen yet; an ended thread's are.
   */
  public static OpCounts total() {
    OpCounts sum;
    synchronized (RETIRED_LOCK) {
      fold();
      sum = retired;
    }
    for (Entry e : LIVE) {
      if (e.meter.inTotal) {
        sum = sum.plus(e.meter.counts());
      }
    }
    return sum;
  }

  private static OpMeter register() {
    OpMeter m = new OpMeter();
    LIVE.add(new Entry(new WeakReference<>(Thread.currentThread()), m));
    synchronized (RETIRED_LOCK) {
      if (++registrations % FOLD_EVERY == 0) {
        fold();
      }
    }
    return m;
  }

  /** Moves the meters of ended threads into {@link #retired}; under {@link #RETIRED_LOCK}. */
  private static void fold() {
    for (Iterator<Entry> it = LIVE.iterator(); it.hasNext(); ) {
      Entry e = it.next();
      Thread t = e.thread.get();
      if (t == null || !t.isAlive()) {
        // A thread seen ended has made all its writes visible (JLS 17.4.4).
        if (e.meter.inTotal) {
          retired = retired.plus(e.meter.counts());
        }
        it.remove();
      }
    }
  }
}
