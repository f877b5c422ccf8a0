package org.smartssd.opcount;

import java.io.IOException;
import java.io.InputStream;

/**
 * Defines the classes of a scope itself, counting their work, from the class files its parent sees;
 * every other class, and every resource, comes from the parent. So a library (Hadoop's classes, say)
 * runs counted in this loader while the parent keeps its own, uncounted copy for other uses.
 *
 * <p>The parent must see {@link OpMeter}, which the counted classes call.
 */
public class CountingClassLoader extends ClassLoader {

  static {
    registerAsParallelCapable();
  }

  private final Instrumenter.Scope scope;
  private final Instrumenter instrumenter;

  /**
   * @param scope the classes this loader defines, counted; a call to any other class is a library call
   */
  public CountingClassLoader(String name, ClassLoader parent, Instrumenter.Scope scope) {
    super(name, parent);
    this.scope = scope;
    this.instrumenter = new Instrumenter(scope);
    try {
      if (parent.loadClass(OpMeter.class.getName()) != OpMeter.class) {
        throw new IllegalArgumentException("the parent class loader has another copy of " + OpMeter.class.getName());
      }
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("the parent class loader does not see " + OpMeter.class.getName(), e);
    }
  }

  /** The scope of the classes this loader counts. */
  public Instrumenter.Scope scope() {
    return scope;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    String internal = name.replace('.', '/');
    if (!scope.counted(internal)) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        c = defineCounted(name, internal);
      }
      if (resolve) {
        resolveClass(c);
      }
      return c;
    }
  }

  private Class<?> defineCounted(String name, String internal) throws ClassNotFoundException {
    byte[] original;
    try (InputStream in = getParent().getResourceAsStream(internal + ".class")) {
      if (in == null) {
        throw new ClassNotFoundException(name);
      }
      original = in.readAllBytes();
    } catch (IOException e) {
      throw new ClassNotFoundException(name + ": its class file cannot be read: " + e, e);
    }
    byte[] counted;
    try {
      counted = instrumenter.instrument(original);
    } catch (IllegalArgumentException e) {
      throw new ClassNotFoundException(name + ": " + e.getMessage(), e);
    }
    return defineClass(name, counted, 0, counted.length);
  }
}
