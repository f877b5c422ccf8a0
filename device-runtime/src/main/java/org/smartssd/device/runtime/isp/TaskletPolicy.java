package org.smartssd.device.runtime.isp;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What tasklet code may not reach for, because a device does not offer it: files, the network,
 * processes, threads, reflection, class loading, the JVM's own controls and the JDK's internals.
 *
 * <p>This is a static check of the tasklet's own classes, not a sandbox. It reads the names each
 * class file refers to; code the tasklet reaches through allowed library classes is not inspected
 * (a parallel stream or {@code CompletableFuture.supplyAsync} runs on the JDK's common pool; a
 * shared library may open files on the tasklet's behalf). The engine's time, memory and output
 * limits, and its failing of an execution whose tasklet throws, are what contain such code.
 */
final class TaskletPolicy {

  private static final String FILES = "tasklets cannot use files";
  private static final String NETWORK = "tasklets cannot use the network";
  private static final String PROCESSES = "tasklets cannot start processes or control the device's JVM";
  private static final String THREADS = "tasklets cannot start or control threads";
  private static final String REFLECTION = "tasklets cannot use reflection";
  private static final String CLASS_LOADING = "tasklets cannot load classes";
  private static final String INTERNALS = "tasklets cannot use the JDK's internals";

  /** What a rule matches: names are internal ({@code java/io/File}). */
  private enum Target {
    /** Classes whose name starts with the rule's name (a package, or a family of classes). */
    CLASSES_STARTING,
    /** The class of that name. */
    CLASS,
    /** Fields and methods of that class; naming the class itself is allowed. */
    MEMBERS_OF,
    /** The listed methods of that class. */
    METHODS
  }

  private record Rule(Target target, String name, Set<String> methods, String reason) {}

  /** The deny list. */
  private static final List<Rule> RULES = List.of(
      // File, FileInputStream, FileOutputStream, FileReader, FileWriter, FileDescriptor, ...
      rule(Target.CLASSES_STARTING, "java/io/File", FILES),
      rule(Target.CLASS, "java/io/RandomAccessFile", FILES),
      rule(Target.CLASSES_STARTING, "java/nio/file/", FILES),
      rule(Target.CLASSES_STARTING, "java/nio/channels/", "tasklets cannot use files or sockets"),
      rule(Target.CLASSES_STARTING, "java/net/", NETWORK),
      // Process, ProcessBuilder, ProcessHandle
      rule(Target.CLASSES_STARTING, "java/lang/Process", PROCESSES),
      rule(Target.CLASS, "java/lang/Runtime", PROCESSES), // not RuntimeException
      methods("java/lang/System", "tasklets cannot stop the device", "exit"),
      methods("java/lang/System", "tasklets cannot load native code", "load", "loadLibrary"),
      methods("java/lang/System", "tasklets cannot redirect the device's standard streams", "setIn", "setOut", "setErr"),
      methods("java/lang/System", "tasklets cannot change the device's system properties",
          "setProperty", "setProperties", "clearProperty"),
      methods("java/lang/System", "tasklets cannot read the device's environment", "getenv"),
      rule(Target.CLASS, "java/lang/Thread", THREADS), // not ThreadLocal
      rule(Target.CLASS, "java/lang/ThreadGroup", THREADS),
      // Executor, Executors, ExecutorService, ExecutorCompletionService
      rule(Target.CLASSES_STARTING, "java/util/concurrent/Executor", THREADS),
      rule(Target.CLASSES_STARTING, "java/util/concurrent/ForkJoinPool", THREADS),
      rule(Target.CLASSES_STARTING, "java/util/concurrent/ThreadPoolExecutor", THREADS),
      rule(Target.CLASSES_STARTING, "java/util/concurrent/ScheduledThreadPoolExecutor", THREADS),
      rule(Target.CLASS, "java/util/Timer", THREADS),
      rule(Target.CLASSES_STARTING, "java/lang/reflect/", REFLECTION),
      methods("java/lang/Class", REFLECTION, "forName", "newInstance",
          "getDeclaredMethod", "getDeclaredMethods", "getDeclaredField", "getDeclaredFields",
          "getDeclaredConstructor", "getDeclaredConstructors", "getMethod", "getMethods",
          "getField", "getFields", "getConstructor", "getConstructors"),
      // Every lambda and string concatenation names MethodHandles and MethodHandles$Lookup (as an
      // inner class and in its bootstrap method), so only their use is denied.
      rule(Target.MEMBERS_OF, "java/lang/invoke/MethodHandles", REFLECTION),
      rule(Target.MEMBERS_OF, "java/lang/invoke/MethodHandles$Lookup", REFLECTION),
      rule(Target.CLASS, "java/lang/ClassLoader", CLASS_LOADING),
      rule(Target.CLASSES_STARTING, "sun/", INTERNALS),
      rule(Target.CLASSES_STARTING, "jdk/internal/", INTERNALS),
      rule(Target.CLASSES_STARTING, "com/sun/", INTERNALS),
      rule(Target.CLASSES_STARTING, "org/smartssd/opcount/", "tasklets cannot touch the counting of their own work"));

  private TaskletPolicy() {}

  /**
   * What the class reaches for that tasklets may not, one message each (empty: nothing).
   *
   * @param own the classes the tasklet defines itself (internal names), which it may use freely
   */
  static List<String> violations(ClassReferences refs, Set<String> own) {
    String user = refs.className().replace('/', '.');
    Set<String> found = new LinkedHashSet<>();
    for (String name : refs.classes()) {
      if (own.contains(name)) {
        continue;
      }
      for (Rule rule : RULES) {
        boolean hit = rule.target() == Target.CLASS ? name.equals(rule.name())
            : rule.target() == Target.CLASSES_STARTING && name.startsWith(rule.name());
        if (hit) {
          found.add("class " + user + " uses " + dotted(name) + ": " + rule.reason());
        }
      }
    }
    for (ClassReferences.MemberRef member : refs.members()) {
      if (own.contains(member.owner())) {
        continue;
      }
      for (Rule rule : RULES) {
        boolean hit = member.owner().equals(rule.name()) && (rule.target() == Target.MEMBERS_OF
            || rule.target() == Target.METHODS && member.method() && rule.methods().contains(member.name()));
        if (hit) {
          found.add("class " + user + (member.method() ? " calls " : " uses ") + dotted(member.owner()) + "."
              + member.name() + ": " + rule.reason());
        }
      }
    }
    return new ArrayList<>(found);
  }

  private static String dotted(String internalName) {
    return internalName.replace('/', '.');
  }

  private static Rule rule(Target target, String name, String reason) {
    return new Rule(target, name, Set.of(), reason);
  }

  private static Rule methods(String owner, String reason, String... methods) {
    return new Rule(Target.METHODS, owner, Set.of(methods), reason);
  }
}
