package org.smartssd.jni;

/** What the benchmarks measure that is not public: an empty JNI call. */
public final class BenchmarkAccess {
  private BenchmarkAccess() {}

  public static void noop() {
    NativeConnection.noop0();
  }
}
