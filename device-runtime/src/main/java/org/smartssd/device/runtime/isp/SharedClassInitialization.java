package org.smartssd.device.runtime.isp;

import java.util.concurrent.TimeUnit;
import org.smartssd.opcount.OpMeter;

/**
 * A lane told to stop (its tasklet ran past its time limit or its memory budget, or its execution was
 * cancelled) while it initializes a shared class first finishes that class's static initializer. A
 * shared class (Hadoop's, the device mapper's runtime) is defined once for the device by its library
 * loader and used by every tasklet; stopped inside its initializer, it would fail to initialize, and
 * the JVM never tries again: every later tasklet that uses it would fail with {@code
 * NoClassDefFoundError} until the device restarts. A client could do that on purpose, with a tiny time
 * limit on a fresh device's first execution; a loaded machine did it by chance. The lane stops at its
 * next check outside the initializer, and in any case {@link #MAX_DEFERRAL_NANOS} after it was told
 * (an initializer that called tasklet code gains it no more). A tasklet's own classes get no such
 * grace: a class of its own it breaks is its own.
 */
final class SharedClassInitialization {
  /** The longest a stop waits for a shared class's initializer. */
  static final long MAX_DEFERRAL_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  private SharedClassInitialization() {}

  /** Makes stops wait for shared classes' initializers, in this JVM. */
  static void install() {
    OpMeter.deferStops(SharedClassInitialization::defer);
  }

  /** Whether the calling thread, told to stop {@code nanosSinceRequest} ago, may go on for now. */
  static boolean defer(long nanosSinceRequest) {
    return nanosSinceRequest < MAX_DEFERRAL_NANOS
        && WALKER.walk(frames -> frames.anyMatch(SharedClassInitialization::sharedInitializer));
  }

  /**
   * Whether {@code thread} (another than the caller) is inside a shared class's static initializer now:
   * a frame of a {@code <clinit>} whose class no tasklet's loader defined.
   */
  static boolean initializing(Thread thread) {
    for (StackTraceElement e : thread.getStackTrace()) {
      if (e.getMethodName().equals("<clinit>")
          && (e.getClassLoaderName() == null || !e.getClassLoaderName().startsWith(TaskletClassLoader.NAME_PREFIX))) {
        return true;
      }
    }
    return false;
  }

  private static boolean sharedInitializer(StackWalker.StackFrame f) {
    return f.getMethodName().equals("<clinit>")
        && !(f.getDeclaringClass().getClassLoader() instanceof TaskletClassLoader);
  }
}
