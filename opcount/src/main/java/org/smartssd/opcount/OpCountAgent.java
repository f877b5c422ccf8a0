package org.smartssd.opcount;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The host side of counting: a Java agent ({@code -javaagent:smartssd-opcount.jar}) that, once
 * {@link #enable enabled}, rewrites the classes of a scope as they load, and the ones loaded already,
 * so that {@link OpMeter#total()} counts the work the host's threads do in them. Loading the agent
 * alone changes nothing: a JVM that never enables it runs its code as it is.
 */
public final class OpCountAgent {
  private static volatile Instrumentation instrumentation;
  private static volatile Instrumenter.Scope enabled;

  private OpCountAgent() {}

  /** Called by the JVM for {@code -javaagent}; only keeps the instrumentation. */
  public static void premain(String arguments, Instrumentation inst) {
    instrumentation = inst;
  }

  /** Whether the JVM was started with the agent. */
  public static boolean loaded() {
    return instrumentation != null;
  }

  /** Whether counting is on, and so {@link OpMeter#total()} follows this JVM's work in the scope. */
  public static boolean enabled() {
    return enabled != null;
  }

  /**
   * Counts the scope's classes from now on: classes loaded later are rewritten as they load, those
   * loaded already are rewritten in place (methods running now finish in their old form). Enabling
   * twice keeps the first scope.
   *
   * @throws IllegalStateException if the JVM was not started with the agent
   */
  public static synchronized void enable(Instrumenter.Scope scope) {
    Instrumentation inst = instrumentation;
    if (inst == null) {
      throw new IllegalStateException("the JVM was not started with -javaagent:<smartssd-opcount jar>: host-side"
          + " work cannot be counted");
    }
    if (enabled != null) {
      return;
    }
    enabled = scope;
    inst.addTransformer(new Transformer(new Instrumenter(scope), scope), true);
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      if (c.getClassLoader() != null && inst.isModifiableClass(c) && !c.isArray() && !c.isHidden()
          && scope.counted(c.getName().replace('.', '/'))) {
        loaded.add(c);
      }
    }
    try {
      inst.retransformClasses(loaded.toArray(new Class<?>[0]));
    } catch (UnmodifiableClassException | RuntimeException | LinkageError batchFailed) {
      for (Class<?> c : loaded) { // one by one: a class that cannot be rewritten stays as it is
        try {
          inst.retransformClasses(c);
        } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
          System.err.println("smartssd-opcount: " + c.getName() + " is not counted: " + e);
        }
      }
    }
  }

  private static final class Transformer implements ClassFileTransformer {
    private final Instrumenter instrumenter;
    private final Instrumenter.Scope scope;
    /** Whether a class loader sees this agent's meter, which instrumented code calls. */
    private final Map<ClassLoader, Boolean> seesMeter = new WeakHashMap<>();

    Transformer(Instrumenter instrumenter, Instrumenter.Scope scope) {
      this.instrumenter = instrumenter;
      this.scope = scope;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
        ProtectionDomain domain, byte[] classFile) {
      if (loader == null || className == null || !scope.counted(className) || !seesMeter(loader)) {
        return null;
      }
      try {
        return instrumenter.instrument(classFile);
      } catch (RuntimeException | LinkageError e) {
        System.err.println("smartssd-opcount: " + className.replace('/', '.') + " is not counted: " + e);
        return null;
      }
    }

    private boolean seesMeter(ClassLoader loader) {
      synchronized (seesMeter) {
        return seesMeter.computeIfAbsent(loader, l -> {
          try {
            return Class.forName(OpMeter.class.getName(), false, l) == OpMeter.class;
          } catch (ClassNotFoundException | LinkageError e) {
            return false;
          }
        });
      }
    }
  }
}
