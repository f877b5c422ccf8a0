package org.smartssd.opcount;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Which classes are counted, for the calls whose target is known only when they run: a call through a
 * platform interface ({@code Iterator.next}, {@code Iterable.iterator}, {@code Comparable.compareTo}) or
 * one of {@code Object}'s overridable methods ({@code hashCode}, {@code equals}, {@code toString}) reaches
 * counted code when its receiver's class is counted and declares the method; the target's work is then
 * counted in the target, and the call is no library call ({@link Instrumenter} asks {@link #libraryCall}
 * at such a call site, as it runs).
 *
 * <p>A class is counted once {@link Instrumenter} rewrote it, by name: the same name in a class loader that
 * did not count it would be taken as counted (no loader here defines a counted and an uncounted class of
 * one name where counted code calls both). A lambda's class is counted when the class it was made in is.
 */
public final class CountedClasses {
  private static final Set<String> NAMES = ConcurrentHashMap.newKeySet();
  /** The call sites' method names and descriptors ({@code name + desc}), by id. */
  private static final List<String> SITES = new CopyOnWriteArrayList<>();
  private static final Map<String, Integer> SITE_IDS = new ConcurrentHashMap<>();

  private static final ClassValue<Boolean> COUNTED = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> c) {
      if (NAMES.contains(c.getName())) {
        return true;
      }
      return c.isHidden() && c.getNestHost() != c && NAMES.contains(c.getNestHost().getName());
    }
  };

  /** For each class, whether a counted class in its hierarchy declares a call site's method, by site id. */
  private static final ClassValue<Answers> DECLARES = new ClassValue<>() {
    @Override
    protected Answers computeValue(Class<?> c) {
      return new Answers();
    }
  };

  /**
   * One class's answers by site id: {@link #UNKNOWN}, {@link #LIBRARY} or {@link #COUNTED_CODE}. Read without a
   * lock on every such call (no boxing, no allocation); written under the lock when a site is first asked.
   */
  private static final class Answers {
    static final byte UNKNOWN = 0;
    static final byte LIBRARY = 1;
    static final byte COUNTED_CODE = 2;
    private volatile byte[] bySite = new byte[16];

    boolean library(Class<?> c, int site) {
      byte[] a = bySite;
      byte answer = site < a.length ? a[site] : UNKNOWN;
      if (answer == UNKNOWN) {
        answer = declares(c, SITES.get(site)) ? COUNTED_CODE : LIBRARY;
        synchronized (this) {
          byte[] grown = bySite.length > site ? bySite.clone() : java.util.Arrays.copyOf(bySite, 2 * site + 2);
          grown[site] = answer;
          bySite = grown;
        }
      }
      return answer == LIBRARY;
    }
  }

  private CountedClasses() {}

  /** A class {@link Instrumenter} rewrote ({@code internalName} as in a class file). */
  static void add(String internalName) {
    NAMES.add(internalName.replace('/', '.'));
  }

  /** Whether {@code c} is counted. */
  public static boolean counted(Class<?> c) {
    return COUNTED.get(c);
  }

  /** The id of a call site's method, {@code name + desc}. */
  static int site(String name, String desc) {
    return SITE_IDS.computeIfAbsent(name + desc, k -> {
      synchronized (SITES) {
        SITES.add(k);
        return SITES.size() - 1;
      }
    });
  }

  /**
   * Whether a call of site {@code site}'s method on {@code receiver} runs uncounted code: its class (or the
   * counted superclass it inherits the method from) does not declare it counted.
   */
  static boolean libraryCall(Object receiver, int site) {
    if (receiver == null) {
      return true; // the call throws
    }
    Class<?> c = receiver.getClass();
    if (!counted(c)) {
      return true;
    }
    return DECLARES.get(c).library(c, site);
  }

  private static boolean declares(Class<?> c, String nameAndDesc) {
    try {
      return declaresCounted(c, nameAndDesc);
    } catch (LinkageError | RuntimeException e) {
      return false; // a class whose methods cannot be listed: priced as a library call
    }
  }

  private static boolean declaresCounted(Class<?> c, String nameAndDesc) {
    int paren = nameAndDesc.indexOf('(');
    String name = nameAndDesc.substring(0, paren);
    String desc = nameAndDesc.substring(paren);
    for (Class<?> k = c; k != null && counted(k); k = k.getSuperclass()) {
      for (Method m : k.getDeclaredMethods()) {
        if (m.getName().equals(name) && org.objectweb.asm.Type.getMethodDescriptor(m).equals(desc)
            && !java.lang.reflect.Modifier.isAbstract(m.getModifiers())) {
          return true;
        }
      }
    }
    return false;
  }
}
