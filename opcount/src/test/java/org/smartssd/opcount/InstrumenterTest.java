package org.smartssd.opcount;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.smartssd.opcount.fixtures.Kernels;

class InstrumenterTest {
  private static final String FIXTURES = "org/smartssd/opcount/fixtures/";

  @Test
  void aLoopCountsItsInstructionsAndHeapAccessesPerIteration() throws Exception {
    Method sum = instrumented(Kernels.class).getMethod("sum", int[].class);
    OpCounts none = counted(() -> sum.invoke(null, (Object) new int[0]));
    OpCounts hundred = counted(() -> sum.invoke(null, (Object) new int[100]));
    OpCounts perIteration = hundred.minus(none);
    // javac's loop: iload, aload, arraylength, if_icmpge / iload, aload, iload, iaload, iadd, istore, iinc, goto
    assertThat(perIteration.ops()).isEqualTo(100 * 12);
    assertThat(perIteration.memoryAccesses()).isEqualTo(100 * 2); // arraylength, iaload
    assertThat(perIteration.libraryCalls()).isZero();
    assertThat(perIteration.bulkBytes()).isZero();
    assertThat(none.ops()).isPositive();
  }

  @Test
  void theSameInputCountsTheSameEveryTime() throws Exception {
    Class<?> k = instrumented(Kernels.class);
    Object instance = k.getConstructor(long.class).newInstance(5L);
    Method mixed = k.getMethod("mixed", long.class, double.class, int.class);
    OpCounts first = counted(() -> mixed.invoke(k.getConstructor(long.class).newInstance(5L), 3L, 2.5, 1000));
    for (int i = 0; i < 5; i++) {
      assertThat(counted(() -> mixed.invoke(k.getConstructor(long.class).newInstance(5L), 3L, 2.5, 1000)))
          .isEqualTo(first);
    }
    assertThat(first.libraryCalls()).isPositive(); // ArrayList, Long.valueOf, string concatenation, ...
    assertThat(mixed.invoke(instance, 3L, 2.5, 1000)).isEqualTo(new Kernels(5L).mixed(3L, 2.5, 1000));
  }

  @Test
  void objectsMadeAcrossBlocksStillVerify() throws Exception {
    Method either = instrumented(Kernels.class).getMethod("either", boolean.class, String.class);
    assertThat(either.invoke(null, true, "x").toString()).isEqualTo(Kernels.either(true, "x").toString());
    assertThat(either.invoke(null, false, "x").toString()).isEqualTo(Kernels.either(false, "x").toString());
  }

  @Test
  void bulkCopiesAndArrayAllocationsCountTheirBytes() throws Exception {
    Method copy = instrumented(Kernels.class).getMethod("copy", byte[].class, int.class);
    byte[] src = new byte[5000];
    OpCounts c = counted(() -> copy.invoke(null, src, 1000));
    assertThat(c.bulkBytes()).isEqualTo(1000 + 1000); // zeroing the new array, then the copy
    assertThat(c.libraryCalls()).isEqualTo(1); // System.arraycopy
  }

  @Test
  void rangesCountTheirLengthNotWhereTheyEnd() throws Exception {
    Method ranges = instrumented(Kernels.class).getMethod("ranges", byte[].class, byte[].class,
        java.io.ByteArrayOutputStream.class);
    OpCounts c = counted(() -> ranges.invoke(null, new byte[5000], new byte[5000], new java.io.ByteArrayOutputStream()));
    assertThat(c.bulkBytes()).isEqualTo(10 + 10);
    assertThat(c.libraryCalls()).isEqualTo(2);
  }

  @Test
  void aClassIsCountedOnceHoweverOftenItIsInstrumented() throws Exception {
    Instrumenter instrumenter = new Instrumenter(name -> name.startsWith(FIXTURES));
    byte[] once = instrumenter.instrument(bytes(Kernels.class));
    assertThat(instrumenter.instrument(once)).isSameAs(once);
    assertThat(Instrumenter.counts(once)).isTrue();
    assertThat(Instrumenter.counts(bytes(Kernels.class))).isFalse();
  }

  @Test
  void aThreadThatLeavesTheTotalIsNotInIt() throws Exception {
    Method sum = instrumented(Kernels.class).getMethod("sum", int[].class);
    Thread left = new Thread(() -> {
      OpMeter.current().leaveTotal();
      try {
        sum.invoke(null, (Object) new int[1_000_000]);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    });
    OpCounts before = OpMeter.total();
    left.start();
    left.join();
    // Other tests' threads may add to the total meanwhile, but never the million iterations left out.
    assertThat(OpMeter.total().minus(before).ops()).isLessThan(1_000_000);
  }

  @Test
  void threadsOfANameLeftOutAreNotInTheTotalAndOthersAre() throws Exception {
    Method sum = instrumented(Kernels.class).getMethod("sum", int[].class);
    Runnable work = () -> {
      try {
        sum.invoke(null, (Object) new int[1_000_000]);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    };
    OpMeter.leaveOutThreadsNamed("a timer of the test");
    OpCounts before = OpMeter.total();
    Thread timer = new Thread(work, "a timer of the test");
    timer.start();
    timer.join();
    assertThat(OpMeter.total().minus(before).ops()).isLessThan(1_000_000);
    before = OpMeter.total();
    Thread worker = new Thread(work, "a worker of the test");
    worker.start();
    worker.join();
    assertThat(OpMeter.total().minus(before).ops()).isGreaterThanOrEqualTo(1_000_000);
  }

  /** A meter never keeps its thread alive: libraries (Hadoop's statistics) do work for every live thread object. */
  @Test
  void aMeterDoesNotKeepItsThreadAlive() throws Exception {
    Thread t = new Thread(() -> OpMeter.current().ops++);
    java.lang.ref.WeakReference<Thread> ref = new java.lang.ref.WeakReference<>(t);
    t.start();
    t.join();
    t = null;
    for (int i = 0; i < 50 && ref.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(ref.get()).isNull();
  }

  @Test
  void aCallIntoUncountedCodeIsALibraryCall() throws Exception {
    Method hash = instrumented(Kernels.class).getMethod("hash", String.class);
    OpCounts c = counted(() -> hash.invoke(null, "abc"));
    assertThat(c.libraryCalls()).isEqualTo(1);
    assertThat(c.ops()).isEqualTo(3); // aload, invokevirtual, ireturn
  }

  @Test
  void eachLibraryCallAddsItsCalleesCalibratedReads() throws Exception {
    Method kinds = instrumented(Kernels.class).getMethod("kinds", Object.class, String.class, Map.class);
    OpCounts c = counted(() -> kinds.invoke(null, "x", "abc", new HashMap<String, Integer>()));
    assertThat(c.libraryCalls()).isEqualTo(3);
    assertThat(c.libraryReads())
        .isEqualTo(LibraryReads.GET_CLASS + LibraryReads.STRING_ACCESSOR + LibraryReads.GENERAL);
    // What a counted method does itself reads nothing inside a library call.
    Method sum = instrumented(Kernels.class).getMethod("sum", int[].class);
    assertThat(counted(() -> sum.invoke(null, (Object) new int[100])).libraryReads()).isZero();
  }

  @Test
  void aCallThroughAPlatformInterfaceIntoCountedCodeIsNoLibraryCall() throws Exception {
    Instrumenter instrumenter = new Instrumenter(name -> name.startsWith(FIXTURES), true);
    Map<String, byte[]> classes = new HashMap<>();
    for (Class<?> c : List.of(Kernels.class, org.smartssd.opcount.fixtures.Range.class)) {
      classes.put(internal(c), instrumenter.instrument(bytes(c)));
    }
    Class<?> k = Class.forName(Kernels.class.getName(), true,
        new Defining(classes, InstrumenterTest.class.getClassLoader()));
    Method walk = k.getMethod("walk", int.class);
    OpCounts none = counted(() -> walk.invoke(null, 0));
    OpCounts ten = counted(() -> walk.invoke(null, 10));
    // Each step: hasNext and next on the counted iterator (no library call); Integer.valueOf in the counted
    // next and intValue in the loop are (general: neither is a kind of its own).
    assertThat(ten.minus(none).libraryCalls()).isEqualTo(10);
    assertThat(ten.minus(none).libraryReads()).isEqualTo(10L * LibraryReads.GENERAL);
    Method walkList = k.getMethod("walkList", List.class);
    OpCounts empty = counted(() -> walkList.invoke(null, List.of()));
    OpCounts list = counted(() -> walkList.invoke(null, java.util.Collections.nCopies(10, 1)));
    assertThat(list.minus(empty).libraryCalls()).isEqualTo(20); // the platform's hasNext and next
  }

  @Test
  void calleesAreSortedIntoTheCalibratedKinds() {
    assertThat(LibraryReads.perCall("org/apache/hadoop/io/Text", "getClass", "()Ljava/lang/Class;"))
        .isEqualTo(LibraryReads.GET_CLASS);
    assertThat(LibraryReads.perCall("java/lang/invoke/VarHandle", "get", "([BI)J")).isEqualTo(LibraryReads.VAR_HANDLE);
    assertThat(LibraryReads.perCall("java/lang/Math", "max", "(II)I")).isEqualTo(LibraryReads.ARITHMETIC);
    assertThat(LibraryReads.perCall("java/lang/Long", "bitCount", "(J)I")).isEqualTo(LibraryReads.ARITHMETIC);
    assertThat(LibraryReads.perCall("java/lang/Long", "valueOf", "(J)Ljava/lang/Long;"))
        .isEqualTo(LibraryReads.GENERAL);
    assertThat(LibraryReads.perCall("java/lang/Integer", "compare", "(II)I")).isEqualTo(LibraryReads.ARITHMETIC);
    assertThat(LibraryReads.perCall("java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V"))
        .isEqualTo(LibraryReads.BULK);
    assertThat(LibraryReads.perCall("java/lang/System", "nanoTime", "()J")).isEqualTo(LibraryReads.GENERAL);
    assertThat(LibraryReads.perCall("java/util/Arrays", "equals", "([BII[BII)Z")).isEqualTo(LibraryReads.BULK);
    assertThat(LibraryReads.perCall("java/lang/String", "charAt", "(I)C")).isEqualTo(LibraryReads.STRING_ACCESSOR);
    assertThat(LibraryReads.perCall("java/lang/String", "hashCode", "()I")).isEqualTo(LibraryReads.GENERAL);
    assertThat(LibraryReads.perCall("java/util/HashMap", "get", "(Ljava/lang/Object;)Ljava/lang/Object;"))
        .isEqualTo(LibraryReads.GENERAL);
  }

  /**
   * A large real library, instrumented whole and run: ASM itself, counting its own work while it
   * instruments a class. Every class must still verify and the result must be the same bytes.
   */
  @Test
  void anInstrumentedLibraryStillVerifiesAndWorks() throws Exception {
    Map<String, byte[]> classes = new HashMap<>();
    Instrumenter.Scope asm = name -> name.startsWith("org/objectweb/asm/");
    Instrumenter instrumenter = new Instrumenter(asm);
    for (Class<?> c : new Class<?>[] {ClassReader.class, org.objectweb.asm.tree.ClassNode.class}) {
      String jar = c.getProtectionDomain().getCodeSource().getLocation().getPath();
      try (JarFile j = new JarFile(jar)) {
        for (Enumeration<JarEntry> e = j.entries(); e.hasMoreElements(); ) {
          JarEntry entry = e.nextElement();
          if (entry.getName().endsWith(".class") && !entry.getName().contains("module-info")) {
            try (InputStream in = j.getInputStream(entry)) {
              String name = entry.getName().substring(0, entry.getName().length() - 6);
              classes.put(name, instrumenter.instrument(in.readAllBytes()));
            }
          }
        }
      }
    }
    assertThat(classes.size()).isGreaterThan(50);
    ClassLoader loader = new Defining(classes, getClass().getClassLoader());
    for (String name : classes.keySet()) {
      Class.forName(name.replace('/', '.'), true, loader); // links and verifies
    }
    // Instrument the fixture with the instrumented ASM (through reflection) and with the plain one.
    Class<?> scopeType = Class.forName(Instrumenter.Scope.class.getName(), false, loader);
    assertThat(scopeType).isSameAs(Instrumenter.Scope.class); // the scope comes from the test's loader
    byte[] fixture = bytes(Kernels.class);
    Object reader = Class.forName("org.objectweb.asm.ClassReader", true, loader).getConstructor(byte[].class)
        .newInstance((Object) fixture);
    Class<?> writerType = Class.forName("org.objectweb.asm.ClassWriter", true, loader);
    Object writer = writerType.getConstructor(int.class).newInstance(0);
    Class<?> visitorType = Class.forName("org.objectweb.asm.ClassVisitor", true, loader);
    OpCounts work = counted(() -> reader.getClass().getMethod("accept", visitorType, int.class)
        .invoke(reader, writer, 0));
    byte[] copied = (byte[]) writerType.getMethod("toByteArray").invoke(writer);
    assertThat(copied).isEqualTo(copyWithPlainAsm(fixture));
    assertThat(work.ops()).isGreaterThan(1000);
    assertThat(work.memoryAccesses()).isPositive();
  }

  private static byte[] copyWithPlainAsm(byte[] classFile) {
    org.objectweb.asm.ClassWriter w = new org.objectweb.asm.ClassWriter(0);
    new ClassReader(classFile).accept(w, 0);
    return w.toByteArray();
  }

  @FunctionalInterface
  interface Call {
    void run() throws Exception;
  }

  /** What the calling thread counted during the call. */
  static OpCounts counted(Call call) throws Exception {
    OpCounts before = OpMeter.current().counts();
    call.run();
    return OpMeter.current().counts().minus(before);
  }

  /** The class, instrumented, in a class loader of its own (the fixtures are counted, nothing else). */
  /**
   * A thread in an endless loop, or in one that catches everything and goes on, stops when told to,
   * without {@code Thread.stop} (which throws from JDK 20 on): at its loop's head, its handlers
   * rethrowing. Counted or only made stoppable alike.
   */
  @Test
  void aThreadToldToStopStopsAtItsNextLoopHeadWhateverItCatches() throws Exception {
    for (boolean counting : new boolean[] {true, false}) {
      Class<?> c = instrumented(org.smartssd.opcount.fixtures.Runaway.class, counting);
      for (String method : List.of("spin", "stubborn", "locked")) {
        Method m = c.getMethod(method);
        java.util.concurrent.atomic.AtomicReference<Throwable> ended = new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = new Thread(() -> {
          try {
            m.invoke(null);
          } catch (java.lang.reflect.InvocationTargetException e) {
            ended.set(e.getCause());
          } catch (ReflectiveOperationException e) {
            ended.set(e);
          }
        }, "runaway-" + method);
        t.setDaemon(true);
        t.start();
        Thread.sleep(200);
        assertThat(t.isAlive()).as("%s runs until told", method).isTrue();
        assertThat(OpMeter.requestStop(t)).isTrue();
        t.join(2_000);
        assertThat(t.isAlive()).as("%s (counting %s) stopped within 2 s", method, counting).isFalse();
        assertThat(ended.get()).isInstanceOf(OpMeter.Stopped.class);
        Object lock = c.getField("LOCK").get(null);
        assertThat(Thread.holdsLock(lock)).isFalse();
        synchronized (lock) {
          assertThat(Thread.holdsLock(lock)).as("the stopped thread released the monitor").isTrue();
        }
      }
    }
    assertThat(OpMeter.requestStop(new Thread(() -> { }))).as("a thread that never ran counted code").isFalse();
  }

  static Class<?> instrumented(Class<?> c) throws Exception {
    return instrumented(c, true);
  }

  static Class<?> instrumented(Class<?> c, boolean counting) throws Exception {
    Instrumenter instrumenter = new Instrumenter(name -> name.startsWith(FIXTURES), counting);
    Map<String, byte[]> classes = Map.of(internal(c), instrumenter.instrument(bytes(c)));
    return Class.forName(c.getName(), true, new Defining(classes, InstrumenterTest.class.getClassLoader()));
  }

  static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in = c.getClassLoader().getResourceAsStream(internal(c) + ".class")) {
      return in.readAllBytes();
    }
  }

  private static String internal(Class<?> c) {
    return c.getName().replace('.', '/');
  }

  /** Defines the given classes itself, child first; everything else from its parent. */
  static final class Defining extends ClassLoader {
    private final Map<String, byte[]> classes;

    Defining(Map<String, byte[]> classes, ClassLoader parent) {
      super(parent);
      this.classes = classes;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        byte[] b = classes.get(name.replace('.', '/'));
        if (b == null) {
          return super.loadClass(name, resolve);
        }
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = defineClass(name, b, 0, b.length);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
