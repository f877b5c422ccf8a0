package org.smartssd.opcount;

import java.util.List;

/** Ready-made {@link Instrumenter.Scope}s. */
public final class Scopes {

  /**
   * Never counted: the Java platform (its classes cannot be rewritten by a class loader, and the
   * meter itself runs on them), the meter and its bytecode library.
   */
  public static final List<String> NEVER = List.of("java/", "javax/", "jdk/", "sun/", "com/sun/",
      "org/smartssd/opcount/", "org/objectweb/asm/");

  private Scopes() {}

  /** Whether a class is one the meter can never count. */
  public static boolean never(String internalName) {
    return startsWithAny(internalName, NEVER);
  }

  /** Classes in the given packages (internal-form prefixes, {@code org/apache/hadoop/}), none of {@link #NEVER}. */
  public static Instrumenter.Scope packages(List<String> prefixes) {
    List<String> copy = List.copyOf(prefixes);
    return name -> !never(name) && startsWithAny(name, copy);
  }

  /** Every class except those in the given packages and {@link #NEVER}. */
  public static Instrumenter.Scope allExcept(List<String> prefixes) {
    List<String> copy = List.copyOf(prefixes);
    return name -> !never(name) && !startsWithAny(name, copy);
  }

  /** A dotted package prefix ({@code org.apache.hadoop.}) in internal form ({@code org/apache/hadoop/}). */
  public static String internal(String dottedPrefix) {
    return dottedPrefix.replace('.', '/');
  }

  private static boolean startsWithAny(String name, List<String> prefixes) {
    for (String p : prefixes) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }
}
