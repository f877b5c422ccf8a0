package org.smartssd.jni;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** Whether the native tests can run: they fail when the build made the library, and skip when it did not (-DskipNative). */
final class NativeTests {
  private NativeTests() {}

  static void assumeLibrary() {
    Optional<String> why = NativeLibrary.unavailable();
    if (why.isPresent() && Boolean.getBoolean("smartssd.native.required")) {
      fail("libsmartssd was built but does not load: " + why.get());
    }
    assumeTrue(why.isEmpty(), () -> "libsmartssd is not available: " + why.orElse(""));
    String expected = System.getProperty("smartssd.native.expect-origin");
    if (expected != null && !expected.equals(NativeLibrary.origin())) {
      fail("libsmartssd was to load from " + expected + " (the instrumented build), but loaded from "
          + NativeLibrary.origin());
    }
  }
}
