package org.smartssd.device.runtime.isp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

class TaskletLoaderTest {

  private static final String HEADER = "import org.smartssd.device.tasklet.*;\nimport java.nio.charset.StandardCharsets;\n";

  /** The four events, doing nothing: what a test tasklet does not care about. */
  private static final String QUIET = """
        public void onExecute(ExecutionInfo execution) {}
        public void onDataAvailable(DataChunk chunk, ResultSink results) {}
        public void onRead(ResultSink results, boolean last) throws InterruptedException {}
      """;

  private static Map<String, byte[]> compiled;
  private static Map<String, byte[]> secondVersion;

  private final TaskletLoader loader = new TaskletLoader(
      Map.of(CountingBuiltIn.class.getName(), CountingBuiltIn.class), List.of(), TaskletLoaderTest.class.getClassLoader());

  @BeforeAll
  static void compileTasklets(@TempDir Path dir) throws IOException {
    Map<String, String> sources = new TreeMap<>();
    sources.put("t.good.GoodTasklet", "package t.good;\n" + HEADER + """
        import java.io.InputStream;
        public class GoodTasklet implements Tasklet {
          static final long BIG = 1234567890123L;
          static final double E = 2.718281828459045;
          private String greeting;
          private String message;
          private long count = 9_876_543_210L;
          public void onCreate(TaskletContext context) throws Exception {
            greeting = Helper.shout(context.parameters().get("greeting")) + "/" + context.lane();
            count += context.lanes() * BIG;
            try (InputStream in = new java.io.ByteArrayInputStream(context.parameters().getOrDefault("message", "")
                .getBytes(StandardCharsets.UTF_8))) {
              message = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
          }
          public RecordFormat recordFormat() { return RecordFormat.fixedLength(20); }
          public void onExecute(ExecutionInfo execution) {}
          public void onDataAvailable(DataChunk chunk, ResultSink results) {}
          public void onRead(ResultSink results, boolean last) throws InterruptedException {
            results.emit((greeting + " " + message + " " + (count > 0 && E > 2.5)).getBytes(StandardCharsets.UTF_8));
          }
        }
        """);
    sources.put("t.good.Helper", """
        package t.good;
        final class Helper {
          static String shout(String s) { return s.toUpperCase(); }
        }
        """);
    sources.put("t.lambda.LambdaTasklet", "package t.lambda;\n" + HEADER + """
        import java.util.*;
        import java.util.stream.Collectors;
        public class LambdaTasklet implements Tasklet {
          private static final ThreadLocal<StringBuilder> BUFFER = ThreadLocal.withInitial(StringBuilder::new);
          private record Pair(String key, int value) {}
          private final Map<String, Integer> counts = new HashMap<>();
          public void onCreate(TaskletContext context) {
            context.parameters().forEach((k, v) -> counts.merge(k, v.length(), Integer::sum));
            Runnable mark = () -> counts.put("lane" + context.lane(), context.lanes());
            mark.run();
            switch (context.taskletName()) {
              case "nothing" -> counts.clear();
              default -> counts.put("name", context.taskletName().length());
            }
            if (counts.isEmpty()) {
              throw new RuntimeException("no counts in " + this);
            }
          }
          public void onExecute(ExecutionInfo execution) {}
          public void onDataAvailable(DataChunk chunk, ResultSink results) {}
          public void onRead(ResultSink results, boolean last) throws InterruptedException {
            List<Pair> pairs = counts.entrySet().stream().map(e -> new Pair(e.getKey(), e.getValue()))
                .sorted(Comparator.comparing(Pair::key)).collect(Collectors.toList());
            StringBuilder text = BUFFER.get();
            text.setLength(0);
            for (Pair p : pairs) {
              text.append(p.key() + "=" + p.value() + ";");
            }
            results.emit(text.toString().getBytes(StandardCharsets.UTF_8));
          }
        }
        """);
    sources.put("t.merging.MergeTasklet", "package t.merging;\n" + HEADER + """
        import java.util.List;
        public class MergeTasklet implements MergingTasklet {
          public void onCreate(TaskletContext context) {}
          public void onMerge(List<TaskletResult> laneResults, ResultSink results) {}
        """ + QUIET + "}\n");
    bad(sources, "file", "new java.io.File(\"/etc/passwd\").exists();");
    bad(sources, "filearray", "Object files = new java.io.File[1][2];");
    bad(sources, "files", "java.nio.file.Files.readAllBytes(java.nio.file.Path.of(\"x\"));");
    bad(sources, "socket", "new java.net.Socket(\"localhost\", 80).close();");
    bad(sources, "exit", "System.exit(1);");
    bad(sources, "getenv", "System.getenv(\"HOME\");");
    bad(sources, "thread", "new Thread(() -> {}).start();");
    bad(sources, "executor", "java.util.concurrent.Executors.newSingleThreadExecutor();");
    bad(sources, "process", "new ProcessBuilder(\"ls\").start();");
    bad(sources, "runtime", "Runtime.getRuntime().availableProcessors();");
    bad(sources, "reflect", "Class.forName(\"java.lang.String\");");
    bad(sources, "lookup", "java.lang.invoke.MethodHandles.lookup();");
    bad(sources, "classloader", "ClassLoader.getSystemClassLoader();");
    bad(sources, "peek", "Object device = org.smartssd.device.runtime.SimulatedDevice.class;");
    bad(sources, "helper", "Sneaky.run();");
    sources.put("t.helper.Sneaky", "package t.helper;\nclass Sneaky { static void run() { System.exit(3); } }\n");
    sources.put("t.notatasklet.NotATasklet", "package t.notatasklet;\npublic class NotATasklet { public void run() {} }\n");
    sources.put("t.abstracted.AbstractTasklet", "package t.abstracted;\n" + HEADER
        + "public abstract class AbstractTasklet implements Tasklet {\n" + QUIET + "}\n");
    sources.put("t.iface.InterfaceTasklet", "package t.iface;\n" + HEADER
        + "public interface InterfaceTasklet extends Tasklet {}\n");
    sources.put("t.hidden.HiddenTasklet", "package t.hidden;\n" + HEADER
        + "class HiddenTasklet implements Tasklet {\n public void onCreate(TaskletContext c) {}\n" + QUIET + "}\n");
    sources.put("t.noctor.NoCtorTasklet", "package t.noctor;\n" + HEADER + """
        public class NoCtorTasklet implements Tasklet {
          public NoCtorTasklet(String name) {}
          public void onCreate(TaskletContext c) {}
        """ + QUIET + "}\n");
    sources.put("t.throwing.ThrowingTasklet", "package t.throwing;\n" + HEADER + """
        public class ThrowingTasklet implements Tasklet {
          public ThrowingTasklet() { throw new IllegalStateException("boom in the constructor"); }
          public void onCreate(TaskletContext c) {}
        """ + QUIET + "}\n");
    sources.put("t.staticinit.StaticInitTasklet", "package t.staticinit;\n" + HEADER + """
        public class StaticInitTasklet implements Tasklet {
          static final int VALUE = Integer.parseInt("not a number");
          public void onCreate(TaskletContext c) {}
        """ + QUIET + "}\n");
    sources.put("com.sun.mine.MineTasklet", "package com.sun.mine;\n" + HEADER + """
        public class MineTasklet implements Tasklet {
          public void onCreate(TaskletContext c) { Util.nothing(); }
        """ + QUIET + "}\n");
    sources.put("com.sun.mine.Util", "package com.sun.mine;\nclass Util { static void nothing() {} }\n");
    sources.put("t.dup.SameTasklet", sameTasklet("one"));
    // The sandbox resolves each member to the class that declares it: reached through a subclass or an
    // interface, an allowed member is allowed and a left-out one refused.
    sources.put("t.through.ThroughTasklet", "package t.through;\n" + HEADER + """
        public class ThroughTasklet implements Tasklet {
          static final class Words extends java.util.ArrayList<String> {
            int twice() { add("a"); return size() * 2; }
          }
          public void onCreate(TaskletContext c) {
            CharSequence text = new StringBuilder("ab").append('c');
            java.util.Map<String, Integer> m = new java.util.TreeMap<>();
            m.put(text.toString(), new Words().twice() + text.length());
          }
        """ + QUIET + "}\n");
    sources.put("t.reach.ReachTasklet", "package t.reach;\n" + HEADER + """
        public class ReachTasklet implements Tasklet {
          public void onCreate(TaskletContext c) {
            Integer.getInteger("user.home");
            new java.util.Scanner("words").next();
          }
        """ + QUIET + "}\n");
    sources.put("t.extend.ExtendTasklet", "package t.extend;\n" + HEADER + """
        public class ExtendTasklet implements Tasklet {
          static final class Worker extends java.util.TimerTask { public void run() {} }
          public void onCreate(TaskletContext c) {}
        """ + QUIET + "}\n");
    compiled = TaskletJars.compile(dir.resolve("main"), sources);
    secondVersion = TaskletJars.compile(dir.resolve("second"), Map.of("t.dup.SameTasklet", sameTasklet("two")));
  }

  /** A tasklet whose onCreate does something a device does not allow, in package t.{name}. */
  private static void bad(Map<String, String> sources, String name, String statement) {
    sources.put("t." + name + ".BadTasklet", "package t." + name + ";\n" + HEADER
        + "public class BadTasklet implements Tasklet {\n  public void onCreate(TaskletContext c) throws Exception {\n    "
        + statement + "\n  }\n" + QUIET + "}\n");
  }

  private static String sameTasklet(String word) {
    return "package t.dup;\n" + HEADER + "public class SameTasklet implements Tasklet {\n"
        + "  public static final String WORD = \"" + word + "\";\n  public void onCreate(TaskletContext c) {}\n"
        + "  public void onExecute(ExecutionInfo execution) {}\n"
        + "  public void onDataAvailable(DataChunk chunk, ResultSink results) {}\n"
        + "  public void onRead(ResultSink results, boolean last) throws InterruptedException {\n"
        + "    results.emit(WORD.getBytes(StandardCharsets.UTF_8));\n  }\n}\n";
  }

  @Test
  void aGoodTaskletLoadsAndRuns() throws Exception {
    Map<String, byte[]> entries = new TreeMap<>(TaskletJars.under(compiled, "t/good/"));
    entries.put("t/good/message.txt", "from the jar".getBytes(UTF_8));
    LoadedTasklet loaded = loader.load(TaskletJars.jar(entries), "t.good.GoodTasklet");
    assertEquals("t.good.GoodTasklet", loaded.className());
    assertFalse(loaded.merging());
    assertTrue(loaded.type().getClassLoader() instanceof TaskletClassLoader, "its own class loader");

    Tasklet tasklet = loaded.newInstance();
    tasklet.onCreate(context(Map.of("greeting", "hello", "message", "from the parameters"), 2, 4));
    assertEquals(org.smartssd.device.tasklet.RecordFormat.fixedLength(20), tasklet.recordFormat());
    assertEquals(List.of("HELLO/2 from the parameters true"), results(tasklet));
  }

  @Test
  void lambdasRecordsAndStringConcatenationAreAllowed() throws Exception {
    Tasklet tasklet = load("lambda", "t.lambda.LambdaTasklet").newInstance();
    tasklet.onCreate(context(Map.of("k", "four"), 1, 3));
    assertEquals(List.of("k=4;lane1=3;name=22;"), results(tasklet));
  }

  @Test
  void aMergingTaskletIsMarkedSo() throws Exception {
    LoadedTasklet loaded = load("merging", "t.merging.MergeTasklet");
    assertTrue(loaded.merging());
    assertTrue(loaded.newInstance() instanceof MergingTasklet);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "file        | class t.file.BadTasklet uses java.io.File: tasklets cannot use files",
      "filearray   | class t.filearray.BadTasklet uses java.io.File: tasklets cannot use files",
      "files       | class t.files.BadTasklet uses java.nio.file.Files: tasklets cannot use files",
      "socket      | class t.socket.BadTasklet uses java.net.Socket: tasklets cannot use the network",
      "exit        | class t.exit.BadTasklet calls java.lang.System.exit: tasklets cannot stop the device",
      "getenv      | class t.getenv.BadTasklet calls java.lang.System.getenv: tasklets cannot read the device's environment",
      "thread      | class t.thread.BadTasklet uses java.lang.Thread: tasklets cannot start or control threads",
      "executor    | class t.executor.BadTasklet uses java.util.concurrent.Executors: tasklets cannot start or control threads",
      "process     | class t.process.BadTasklet uses java.lang.ProcessBuilder: tasklets cannot start processes",
      "runtime     | class t.runtime.BadTasklet uses java.lang.Runtime: tasklets cannot start processes",
      "reflect     | class t.reflect.BadTasklet calls java.lang.Class.forName: tasklets cannot use reflection",
      "lookup      | class t.lookup.BadTasklet calls java.lang.invoke.MethodHandles.lookup: tasklets cannot use reflection",
      "classloader | class t.classloader.BadTasklet uses java.lang.ClassLoader: tasklets cannot load classes",
      "peek        | class t.peek.BadTasklet refers to org.smartssd.device.runtime.SimulatedDevice, a class of the device that tasklets cannot use",
      "helper      | class t.helper.Sneaky calls java.lang.System.exit: tasklets cannot stop the device",
  })
  void codeReachingForWhatADeviceLacksIsRefused(String name, String expected) {
    String className = "t." + name + ".BadTasklet";
    TaskletRefusedException e = refused("t/" + name + "/", className);
    assertTrue(e.getMessage().startsWith("tasklet " + className + " refused: "), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void aTaskletsOwnClassesAreItsOwnWhateverTheirPackage() throws Exception {
    // com/sun/ is denied as the JDK's internals, not as the tasklet's own package.
    LoadedTasklet loaded = loader.load(jarOf("com/sun/mine/"), "com.sun.mine.MineTasklet");
    loaded.newInstance().onCreate(context(Map.of(), 0, 1));
  }

  @Test
  void aClassThatIsNotATaskletIsRefused() {
    assertEquals("class t.notatasklet.NotATasklet does not implement org.smartssd.device.tasklet.Tasklet",
        refused("t/notatasklet/", "t.notatasklet.NotATasklet").getMessage());
    assertEquals("class t.abstracted.AbstractTasklet is abstract",
        refused("t/abstracted/", "t.abstracted.AbstractTasklet").getMessage());
    assertEquals("class t.iface.InterfaceTasklet is an interface, not a class implementing "
        + "org.smartssd.device.tasklet.Tasklet", refused("t/iface/", "t.iface.InterfaceTasklet").getMessage());
    assertEquals("class t.hidden.HiddenTasklet is not public",
        refused("t/hidden/", "t.hidden.HiddenTasklet").getMessage());
    assertEquals("class t.noctor.NoCtorTasklet has no public no-argument constructor",
        refused("t/noctor/", "t.noctor.NoCtorTasklet").getMessage());
  }

  @Test
  void aThrowingConstructorIsRefusedAtInstantiationWithItsCause() throws Exception {
    LoadedTasklet loaded = load("throwing", "t.throwing.ThrowingTasklet");
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class, loaded::newInstance);
    assertTrue(e.getMessage().contains("the constructor of tasklet t.throwing.ThrowingTasklet threw"), e.getMessage());
    assertTrue(e.getCause() instanceof IllegalStateException);
    assertEquals("boom in the constructor", e.getCause().getMessage());
  }

  @Test
  void aThrowingStaticInitializerIsRefusedAtInstantiation() throws Exception {
    LoadedTasklet loaded = load("staticinit", "t.staticinit.StaticInitTasklet");
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class, loaded::newInstance);
    assertTrue(e.getMessage().contains("static initializer of tasklet t.staticinit.StaticInitTasklet"), e.getMessage());
    assertTrue(e.getCause() instanceof NumberFormatException, String.valueOf(e.getCause()));
  }

  @Test
  void aClassNotInTheJarIsRefusedWithWhatTheJarHas() {
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class,
        () -> loader.load(TaskletJars.jar(TaskletJars.under(compiled, "t/good/")), "t.good.Missing"));
    assertEquals("class t.good.Missing is not in the jar (it has: t.good.GoodTasklet, t.good.Helper), nor in a package"
        + " this device shares with tasklets (org.smartssd.device.tasklet.)", e.getMessage());
  }

  @Test
  void bytesThatAreNotAJarAreRefused() {
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class,
        () -> loader.load(ByteBuffer.wrap("hello, device".getBytes(UTF_8)), "t.good.GoodTasklet"));
    assertTrue(e.getMessage().startsWith("the tasklet's code is not a jar"), e.getMessage());

    ByteBuffer jar = TaskletJars.jar(TaskletJars.under(compiled, "t/good/"));
    ByteBuffer truncated = ByteBuffer.wrap(Arrays.copyOf(jar.array(), jar.remaining() / 2));
    e = assertThrows(TaskletRefusedException.class, () -> loader.load(truncated, "t.good.GoodTasklet"));
    assertTrue(e.getMessage().contains("jar"), e.getMessage());
  }

  @Test
  void anEntryThatIsNotItsClassIsRefused() {
    byte[] good = compiled.get("t/good/GoodTasklet.class");
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class,
        () -> loader.load(TaskletJars.jar(Map.of("t/good/Other.class", good)), "t.good.Other"));
    assertEquals("the jar's entry t/good/Other.class holds class t.good.GoodTasklet", e.getMessage());

    e = assertThrows(TaskletRefusedException.class,
        () -> loader.load(TaskletJars.jar(Map.of("t/x/Broken.class", "not a class".getBytes(UTF_8))), "t.x.Broken"));
    assertTrue(e.getMessage().startsWith("the jar's entry t/x/Broken.class is not a class file"), e.getMessage());

    byte[] future = good.clone();
    future[6] = 0;
    future[7] = 99; // major version 99
    e = assertThrows(TaskletRefusedException.class, () -> loader.load(
        TaskletJars.jar(Map.of("t/good/GoodTasklet.class", future)), "t.good.GoodTasklet"));
    assertEquals("class t.good.GoodTasklet was compiled for Java 55; the device runs Java "
        + Runtime.version().feature(), e.getMessage());
  }

  @Test
  void aJarCannotAddToJavaPackages() {
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class, () -> loader.load(
        TaskletJars.jar(Map.of("java/lang/Evil.class", compiled.get("t/good/GoodTasklet.class"))), "java.lang.Evil"));
    assertTrue(e.getMessage().contains("java.lang.Evil is in a package of the Java platform"), e.getMessage());
  }

  @Test
  void aJarsCopyOfASharedClassIsIgnoredNotRun() throws Exception {
    // A copy of the tasklet API inside the jar (as in a fat jar) must not replace the device's.
    Map<String, byte[]> entries = new TreeMap<>(TaskletJars.under(compiled, "t/dup/"));
    entries.put("org/smartssd/device/tasklet/Tasklet.class", compiled.get("t/exit/BadTasklet.class"));
    LoadedTasklet loaded = loader.load(TaskletJars.jar(entries), "t.dup.SameTasklet");
    assertTrue(Tasklet.class.isAssignableFrom(loaded.type()));
    assertThrows(TaskletRefusedException.class,
        () -> loader.load(TaskletJars.jar(entries), "org.smartssd.device.tasklet.Tasklet"));
  }

  @Test
  void twoJarsWithTheSameClassNameLoadSideBySide() throws Exception {
    LoadedTasklet one = load("dup", "t.dup.SameTasklet");
    LoadedTasklet two = loader.load(TaskletJars.jar(TaskletJars.under(secondVersion, "t/dup/")), "t.dup.SameTasklet");
    assertEquals(one.type().getName(), two.type().getName());
    assertNotEquals(one.type(), two.type());
    assertNotEquals(one.type().getClassLoader(), two.type().getClassLoader());
    assertEquals(List.of("one"), results(one.newInstance()));
    assertEquals(List.of("two"), results(two.newInstance()));
    LoadedTasklet again = load("dup", "t.dup.SameTasklet");
    assertNotEquals(one.type(), again.type(), "each load has its own class loader");
  }

  @Test
  void aTaskletsLoaderSeesOnlyItsJarThePlatformAndTheSharedPackages() throws Exception {
    Map<String, byte[]> entries = new TreeMap<>(TaskletJars.under(compiled, "t/good/"));
    entries.put("t/good/message.txt", "hi".getBytes(UTF_8));
    ClassLoader tasklets = load(entries, "t.good.GoodTasklet").type().getClassLoader();
    assertSame(Tasklet.class, tasklets.loadClass(Tasklet.class.getName()), "the device's tasklet API");
    assertSame(String.class, tasklets.loadClass("java.lang.String"));
    assertSame(java.sql.Connection.class, tasklets.loadClass("java.sql.Connection"), "platform modules");
    ClassNotFoundException e = assertThrows(ClassNotFoundException.class,
        () -> tasklets.loadClass("org.smartssd.device.runtime.SimulatedDevice"));
    assertTrue(e.getMessage().contains("not in the tasklet's jar"), e.getMessage());
    assertThrows(ClassNotFoundException.class, () -> tasklets.loadClass(TaskletLoaderTest.class.getName()));
    assertThrows(ClassNotFoundException.class, () -> tasklets.loadClass("t.lambda.LambdaTasklet"),
        "another tasklet's class");
    try (InputStream in = tasklets.getResourceAsStream("t/good/message.txt")) {
      assertEquals("hi", new String(in.readAllBytes(), UTF_8));
    }
    URL url = tasklets.getResource("t/good/message.txt");
    try (InputStream in = url.openStream()) {
      assertEquals("hi", new String(in.readAllBytes(), UTF_8));
    }
    assertEquals(null, tasklets.getResource("org/smartssd/device/runtime/SimulatedDevice.class"));
  }

  @Test
  void sharedPackagesAreTheDevicesChoice() throws Exception {
    TaskletLoader sharing = new TaskletLoader(Map.of(), List.of("org.smartssd.device.runtime"),
        TaskletLoaderTest.class.getClassLoader());
    assertEquals(List.of("org.smartssd.device.tasklet.", "org.smartssd.device.runtime."), sharing.sharedPackages());
    LoadedTasklet loaded = sharing.load(jarOf("t/peek/"), "t.peek.BadTasklet");
    assertSame(org.smartssd.device.runtime.SimulatedDevice.class,
        loaded.type().getClassLoader().loadClass("org.smartssd.device.runtime.SimulatedDevice"));
  }

  @Test
  void builtInsLoadWithAnEmptyJar() throws Exception {
    LoadedTasklet loaded = loader.load(ByteBuffer.allocate(0), CountingBuiltIn.class.getName());
    assertSame(CountingBuiltIn.class, loaded.type());
    assertTrue(loaded.newInstance() instanceof CountingBuiltIn);

    TaskletRefusedException e = assertThrows(TaskletRefusedException.class,
        () -> loader.load(ByteBuffer.allocate(0), "org.example.Nope"));
    assertEquals("no jar was given and org.example.Nope is not a built-in tasklet; the built-ins are: "
        + CountingBuiltIn.class.getName(), e.getMessage());
  }

  @Test
  void aJarUnpackingToTooMuchIsRefused() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry("zeros.bin"));
      byte[] zeros = new byte[1 << 20];
      for (long written = 0; written <= TaskletJar.MAX_UNPACKED_BYTES; written += zeros.length) {
        zip.write(zeros);
      }
      zip.closeEntry();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class,
        () -> loader.load(ByteBuffer.wrap(bytes.toByteArray()), "t.Anything"));
    assertTrue(e.getMessage().contains("unpacks to more than"), e.getMessage());
  }

  @Test
  void theDeviceLoaderMustShareTheEnginesTaskletApi() {
    ClassLoader blind = new ClassLoader(null) {};
    assertThrows(IllegalArgumentException.class, () -> new TaskletLoader(Map.of(), List.of(), blind));
  }

  @Test
  void theSandboxChecksEachMemberWhereItIsDeclared() throws Exception {
    assertEquals("t.through.ThroughTasklet", load("through", "t.through.ThroughTasklet").className(),
        "ArrayList's, StringBuilder's and Map's members, reached through a subclass and interfaces");
    TaskletRefusedException e = refused("t/reach/", "t.reach.ReachTasklet");
    assertTrue(e.getMessage().contains("class t.reach.ReachTasklet calls java.lang.Integer.getInteger: not among what"
        + " tasklets may use (the device's allow list)"), e.getMessage());
    assertTrue(e.getMessage().contains("calls java.util.Scanner.<init> (a constructor)"), e.getMessage());
    e = refused("t/extend/", "t.extend.ExtendTasklet");
    assertEquals("tasklet t.extend.ExtendTasklet refused: class t.extend.ExtendTasklet$Worker extends"
        + " java.util.TimerTask: tasklet classes may not extend it; class t.extend.ExtendTasklet$Worker calls"
        + " java.util.TimerTask.<init> (a constructor): not among what tasklets may use (the device's allow list)",
        e.getMessage());
  }

  /** A jar whose entry name is not UTF-8 was answered INTERNAL, with a stack trace in the device's log. */
  @Test
  void aJarWhoseEntryNameIsNotUtf8IsRefusedAsMalformed() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(bytes,
        java.nio.charset.StandardCharsets.ISO_8859_1)) {
      out.putNextEntry(new java.util.zip.ZipEntry("t/caf\u00e9.class"));
      out.write(new byte[] {1, 2, 3});
      out.closeEntry();
    }
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class,
        () -> loader.load(java.nio.ByteBuffer.wrap(bytes.toByteArray()), "t.Anything"));
    assertTrue(e.getMessage().startsWith("the tasklet's jar is malformed: "), e.getMessage());
  }

  @Test
  void theAllowListRefusesALineThatBothAllowsAndLeavesOut() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> AllowList.parse(
        new java.io.BufferedReader(new java.io.StringReader("java.lang.String length -intern\n"))));
    assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> AllowList.parse(
        new java.io.BufferedReader(new java.io.StringReader("java.lang.String\njava.lang.String\n"))));
  }

  private LoadedTasklet load(String name, String className) throws TaskletRefusedException {
    return loader.load(jarOf("t/" + name + "/"), className);
  }

  private LoadedTasklet load(Map<String, byte[]> entries, String className) throws TaskletRefusedException {
    return loader.load(TaskletJars.jar(entries), className);
  }

  private TaskletRefusedException refused(String folder, String className) {
    return assertThrows(TaskletRefusedException.class, () -> loader.load(jarOf(folder), className));
  }

  private static ByteBuffer jarOf(String folder) {
    return TaskletJars.jar(TaskletJars.under(compiled, folder));
  }

  private static List<String> results(Tasklet tasklet) throws Exception {
    List<String> out = new ArrayList<>();
    ResultSink sink = result -> {
      byte[] bytes = new byte[result.remaining()];
      result.get(bytes);
      out.add(new String(bytes, UTF_8));
    };
    tasklet.onRead(sink, true);
    return out;
  }

  private static TaskletContext context(Map<String, String> parameters, int lane, int lanes) {
    return new TaskletContext() {
      @Override
      public Map<String, String> parameters() {
        return new HashMap<>(parameters);
      }

      @Override
      public String taskletName() {
        return "t.lambda.LambdaTasklet";
      }

      @Override
      public int lane() {
        return lane;
      }

      @Override
      public int lanes() {
        return lanes;
      }

      @Override
      public int maxRecordBytes() {
        return 1 << 20;
      }
    };
  }

  /** A tasklet built into the device. */
  public static final class CountingBuiltIn implements Tasklet {
    @Override
    public void onCreate(TaskletContext context) {}

    @Override
    public void onExecute(ExecutionInfo execution) {}

    @Override
    public void onDataAvailable(DataChunk chunk, ResultSink results) {}

    @Override
    public void onRead(ResultSink results, boolean last) {}
  }
}
