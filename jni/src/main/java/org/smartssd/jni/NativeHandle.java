package org.smartssd.jni;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Java object that owns a native handle and frees it exactly once, on {@link #close()}, however
 * many threads close it (the pattern of RocksJava's native references). Subclasses free the handle
 * in {@link #disposeInternal}; nothing may use the handle after {@link #close()} has started.
 */
public abstract class NativeHandle implements AutoCloseable {
  /** The native pointer, as a long; never 0 for a live object. */
  protected final long nativeHandle;
  private final AtomicBoolean owned = new AtomicBoolean(true);

  protected NativeHandle(long nativeHandle) {
    if (nativeHandle == 0) {
      throw new IllegalArgumentException("a null native handle");
    }
    this.nativeHandle = nativeHandle;
  }

  /** Whether the handle is still owned (not closed). */
  public boolean isOwningHandle() {
    return owned.get();
  }

  /** Frees the native handle, once. */
  @Override
  public void close() {
    if (owned.compareAndSet(true, false)) {
      disposeInternal(nativeHandle);
    }
  }

  /** Frees the native object; called once. */
  protected abstract void disposeInternal(long handle);
}
