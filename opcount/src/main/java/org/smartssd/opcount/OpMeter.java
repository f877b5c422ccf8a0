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
  /** Data reads inside library calls, by their callees' calibrated reads a call ({@link LibraryReads}). */
  public long reads;
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

  // ---- attribution to call paths (ProfileTree) ----

  /** The node this thread's work goes to while it is profiled, else null. */
  private ProfileNode node;
  /** The tree it profiles into, or null. */
  private ProfileTree tree;
  /** The counts already handed to a node. */
  private long givenOps;
  private long givenMemory;
  private long givenCalls;
  private long givenBulk;
  private long givenReads;
  /** Whether every thread profiles into a tree of its own ({@link #profileEveryThread}). */
  private static volatile boolean everyThread;
  /** The trees of ended threads that profiled into their own ({@link #profileEveryThread}). */
  private static final ProfileTree RETIRED_TREE = new ProfileTree(ProfileTree.DEFAULT_MAX_DEPTH,
      ProfileTree.EVERY_THREAD_MAX_NODES);

  /**
   * Called by instrumented code as a method is entered: the work counted since the last call of these
   * goes to the node it was done in, and the thread's work goes to {@code method}'s node under it from
   * now on.
   *
   * @return the node to go back to when the method returns (null when the thread is not profiled)
   */
  public static ProfileNode enter(OpMeter m, int method) {
    ProfileNode n = m.node;
    if (n == null) {
      if (!everyThread || !m.inTotal) {
        return null;
      }
      n = m.ownTree();
    }
    m.give(n);
    m.node = n.child(method);
    return n;
  }

  /** Called by instrumented code as a method returns: its work to its node, then back to its caller's. */
  public static void leave(OpMeter m, ProfileNode caller) {
    ProfileNode n = m.node;
    if (n == null) {
      return;
    }
    m.give(n);
    m.node = caller != null ? caller : m.tree.root();
  }

  /**
   * Called by instrumented code at an exception handler: the work counted since the last call of these
   * (in the method that threw, whose node is the thread's) goes there, and the thread's work to the
   * handler's method again.
   */
  public static void resume(OpMeter m, ProfileNode caller, int method) {
    ProfileNode n = m.node;
    if (n == null) {
      return;
    }
    m.give(n);
    m.node = (caller != null && caller.tree == m.tree ? caller : m.tree.root()).child(method);
  }

  private void give(ProfileNode n) {
    n.add(ops - givenOps, memory - givenMemory, calls - givenCalls, bulk - givenBulk, reads - givenReads);
    givenOps = ops;
    givenMemory = memory;
    givenCalls = calls;
    givenBulk = bulk;
    givenReads = reads;
  }

  /**
   * The calling thread's work from now on goes to {@code into}, by call path, until {@link #stopProfile}:
   * a device lane's, for the execution that asked for a profile. Called by the meter's own thread.
   */
  public void startProfile(ProfileTree into) {
    java.util.Objects.requireNonNull(into, "into");
    tree = into;
    node = into.root();
    givenOps = ops;
    givenMemory = memory;
    givenCalls = calls;
    givenBulk = bulk;
    givenReads = reads;
  }

  /**
   * Gives the work counted since the last method boundary to the node it was done in, and goes back to
   * the tree's root: between two calls into counted code, so that one that ended by an exception thrown
   * out of counted code leaves nothing behind. Called by the meter's own thread.
   */
  public void rebaseProfile() {
    if (node != null) {
      give(node);
      node = tree.root();
    }
  }

  /** Ends {@link #startProfile}: the rest of the work to its node; the tree is whole. Called by the meter's own thread. */
  public void stopProfile() {
    if (node != null) {
      give(node);
    }
    node = null;
    tree = null;
  }

  /** This meter's own tree (every thread profiling, {@link #profileEveryThread}), made at its first use. */
  private ProfileNode ownTree() {
    ownedTree = new ProfileTree(ProfileTree.DEFAULT_MAX_DEPTH, ProfileTree.EVERY_THREAD_MAX_NODES);
    startProfile(ownedTree);
    return node;
  }

  /**
   * Every thread whose work is in {@link #total()} profiles into a tree of its own from its next counted
   * method on (the host's side, whose threads the job makes): {@link #everyThreadProfile()} adds them up.
   * A method already running when this is called has its work from then on in its tree's root.
   */
  public static void profileEveryThread() {
    everyThread = true;
  }

  /**
   * Ends {@link #profileEveryThread} for threads that have no tree yet; those that have one keep filling
   * it, and {@link #everyThreadProfile()} keeps adding them up.
   */
  public static void stopProfilingNewThreads() {
    everyThread = false;
  }

  /**
   * What the threads profiling into their own trees ({@link #profileEveryThread}) counted so far, live or
   * ended, as one tree. A live thread's latest work may not be seen yet; an ended thread's is.
   */
  public static ProfileTree everyThreadProfile() {
    ProfileTree sum;
    synchronized (RETIRED_LOCK) {
      fold();
      sum = RETIRED_TREE.copy();
    }
    for (OpMeter m : LIVE) {
      ProfileTree t = m.ownedTree;
      if (m.inTotal && t != null) {
        sum.add(t);
        m.addPending(sum);
      }
    }
    return sum;
  }

  /**
   * A copy of the calling thread's own tree ({@link #profileEveryThread}) as it stands, its latest work
   * included; empty if it has none. Called by the meter's own thread.
   */
  private ProfileTree ownProfile() {
    if (node != null && tree == ownedTree) {
      give(node);
    }
    return ownedTree == null ? new ProfileTree(ProfileTree.DEFAULT_MAX_DEPTH, ProfileTree.EVERY_THREAD_MAX_NODES)
        : ownedTree.copy();
  }

  /** Counted work and the same work by call path, taken at one instant. */
  public record Snapshot(OpCounts counts, ProfileTree profile) {}

  /**
   * {@link #total()} and {@link #everyThreadProfile()} at one instant: called from counted code, both see
   * the same work of the calling thread (a call between two counted methods' snapshots would count in
   * one and not the other).
   */
  public static Snapshot everyThreadSnapshot() {
    return new Snapshot(total(), everyThreadProfile());
  }

  /** This thread's {@link #counts()} and {@link #ownProfile()} at one instant. Called by the meter's own thread. */
  public Snapshot ownSnapshot() {
    return new Snapshot(counts(), ownProfile());
  }


  /** Adds what this (live) meter counted since its last method boundary to {@code sum}, at its node's path. */
  private void addPending(ProfileTree sum) {
    ProfileNode at = node;
    if (at == null || at.tree != ownedTree) {
      return;
    }
    OpCounts pending = new OpCounts(ops - givenOps, memory - givenMemory, calls - givenCalls, bulk - givenBulk,
        reads - givenReads);
    if (pending.isZero() || pending.ops() < 0) {
      return;
    }
    sum.addAt(at, pending);
  }

  /** The tree this meter made for itself ({@link #profileEveryThread}), kept when the profile is stopped. */
  private ProfileTree ownedTree;

  /**
   * Called by instrumented code before a call whose target is known only as it runs (through a platform
   * interface, or an {@code Object} method a class may override): a library call, with its calibrated
   * reads, unless {@code receiver}'s class is counted and declares the method ({@link CountedClasses}).
   */
  public static void dynamicCall(Object receiver, OpMeter m, int site, int reads) {
    if (CountedClasses.libraryCall(receiver, site)) {
      m.calls++;
      m.reads += reads;
    }
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
    return new OpCounts(ops, memory, calls, bulk, reads);
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
          if (m.ownedTree != null) {
            if (m.node != null && m.tree == m.ownedTree) {
              m.give(m.node); // what it did after its last method boundary (an exception thrown out of it)
            }
            RETIRED_TREE.add(m.ownedTree);
          }
        }
        it.remove();
      }
    }
  }
}
