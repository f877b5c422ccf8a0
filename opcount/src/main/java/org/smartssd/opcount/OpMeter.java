package org.smartssd.opcount;

import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArraySet;

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
  /** Set by {@link #requestStop}: the thread's instrumented code throws {@link Stopped} at its next check. */
  private volatile boolean stopRequested;

  /** Whether this thread's work is the host's, and so counted in {@link #total()}. */
  private volatile boolean inTotal = true;
  /**
   * The thread this meter counts for, weakly: a meter must never keep its thread alive (Hadoop, for
   * one, does per-record work for every thread object that still exists).
   */
  private final WeakReference<Thread> owner;
  /**
   * The owner's id: ids are never reused while the JVM runs, so comparing it is as exact as asking
   * {@link #owner}, and cheaper; every counted method call does it ({@link #current()}).
   */
  private final long ownerId;

  /** Every thread's meter while its thread lives; a dead thread's counts fold into {@link #retired}. */
  private static final ConcurrentLinkedQueue<OpMeter> LIVE = new ConcurrentLinkedQueue<>();
  private static final Object RETIRED_LOCK = new Object();
  private static OpCounts retired = OpCounts.ZERO;
  private static final int FOLD_EVERY = 256;
  private static int registrations;

  private static final ThreadLocal<OpMeter> CURRENT = ThreadLocal.withInitial(OpMeter::register);

  /** Names of threads whose work {@link #total()} leaves out ({@link #leaveOutThreadsNamed}). */
  private static final Set<String> LEFT_OUT_NAMES = new CopyOnWriteArraySet<>();

  /**
   * Meters by thread id (modulo its length): every counted method asks for its thread's meter, and a
   * slot whose meter is its thread's answers faster than the thread-local map. Racy by design: a slot
   * holds some thread's meter or none, and its owner is checked.
   */
  private static final OpMeter[] RECENT = new OpMeter[1 << 12];

  private OpMeter(Thread owner) {
    this.owner = new WeakReference<>(owner);
    this.ownerId = owner.getId();
  }

  /** The calling thread's meter. */
  @SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19
  public static OpMeter current() {
    Thread thread = Thread.currentThread();
    if (thread instanceof MeteredThread metered) {
      OpMeter own = metered.meter;
      if (own == null) {
        own = CURRENT.get();
        metered.meter = own;
      }
      return own;
    }
    long id = thread.getId();
    int slot = (int) id & (RECENT.length - 1);
    OpMeter m = RECENT[slot];
    if (m != null && m.ownerId == id) {
      return m;
    }
    m = CURRENT.get();
    RECENT[slot] = m;
    return m;
  }

  /**
   * Thrown in a thread told to stop, by its instrumented code at a loop's head or an exception
   * handler: an {@link Error}, so that code catching exceptions lets it through, and thrown again by
   * every handler of instrumented code it reaches, so that code catching everything does too.
   */
  public static final class Stopped extends Error {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("stopped: its thread was told to stop (OpMeter.requestStop) and it had not returned", null, false, false);
    }
  }

  /**
   * Whether a thread told to stop may go on a while: asked at each check while the stop is pending,
   * with the time since it was first asked for. The stop comes at the first check it says no.
   */
  @FunctionalInterface
  public interface StopDeferral {
    boolean defer(long nanosSinceRequest);
  }

  private static volatile StopDeferral deferral;
  /** When {@link #requestStop} first told this thread to stop ({@link System#nanoTime}). */
  private volatile long stopRequestedAtNanos;

  /**
   * Lets threads told to stop finish what {@code d} says they may first (a device lets them finish a
   * shared class's static initializer: stopped inside it, the class would stay unusable for every
   * later tasklet). One for the JVM; null for none.
   */
  public static void deferStops(StopDeferral d) {
    deferral = d;
  }

  /** Called by instrumented code at a loop's head and an exception handler. */
  public static void check(OpMeter m) {
    if (m.stopRequested) {
      StopDeferral d = deferral;
      if (d == null || !d.defer(System.nanoTime() - m.stopRequestedAtNanos)) {
        throw new Stopped();
      }
    }
  }

  /**
   * Tells {@code thread} to stop: its instrumented code throws {@link Stopped} at its next loop head
   * or exception handler, for as long as it runs. Code that is not instrumented (the Java platform's)
   * runs on until it returns into instrumented code.
   *
   * @return whether the thread has run instrumented code (has a meter): only then can it be stopped so
   */
  public static boolean requestStop(Thread thread) {
    for (OpMeter m : LIVE) {
      if (m.owner.refersTo(thread)) {
        if (!m.stopRequested) {
          m.stopRequestedAtNanos = System.nanoTime();
          m.stopRequested = true;
        }
        return true;
      }
    }
    return false;
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

  /**
   * Leaves the work of threads of this name, from their first counted code on, out of {@link #total()}:
   * threads whose work follows the wall clock (a timer that reports progress every few seconds) and
   * not the job, so that the total depends on the job alone.
   */
  public static void leaveOutThreadsNamed(String name) {
    LEFT_OUT_NAMES.add(name);
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
    for (OpMeter m : LIVE) {
      if (m.inTotal) {
        sum = sum.plus(m.counts());
      }
    }
    return sum;
  }

  private static OpMeter register() {
    OpMeter m = new OpMeter(Thread.currentThread());
    if (LEFT_OUT_NAMES.contains(Thread.currentThread().getName())) {
      m.inTotal = false;
    }
    LIVE.add(m);
    synchronized (RETIRED_LOCK) {
      if (++registrations % FOLD_EVERY == 0) {
        fold();
      }
    }
    return m;
  }

  /** Moves the meters of ended threads into {@link #retired}; under {@link #RETIRED_LOCK}. */
  private static void fold() {
    for (Iterator<OpMeter> it = LIVE.iterator(); it.hasNext(); ) {
      OpMeter m = it.next();
      Thread t = m.owner.get();
      if (t == null || !t.isAlive()) {
        // A thread seen ended has made all its writes visible (JLS 17.4.4).
        if (m.inTotal) {
          retired = retired.plus(m.counts());
        }
        it.remove();
      }
    }
  }
}
