package org.smartssd.device.runtime.isp;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What tasklet code may not reach for, because a device does not offer it: files, the network,
 * processes, threads, reflection, class loading, the JVM's own controls and the JDK's internals.
 *
 * <p>It reads the names each class file refers to, and refuses these wherever they appear. It is
 * the first line, and the source of the reasons refusals give; the sandbox proper is {@link
 * TaskletSandbox}'s allow list, which also holds what a tasklet reaches through allowed libraries.
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

  /**
   * More families, for the reason a member the allow list leaves out is given with (naming these
   * classes is not refused: a mapper names Hadoop's {@code Path}, say, and uses only its allowed
   * members).
   */
  private static final List<Rule> HINTS = List.of(
      rule(Target.CLASSES_STARTING, "org/apache/hadoop/fs/", FILES),
      rule(Target.CLASSES_STARTING, "org/apache/hadoop/net/", NETWORK),
      rule(Target.CLASSES_STARTING, "org/apache/hadoop/ipc/", NETWORK),
      rule(Target.CLASSES_STARTING, "org/apache/hadoop/util/Shell", PROCESSES),
      rule(Target.CLASS, "org/apache/hadoop/util/ExitUtil", "tasklets cannot stop the device"),
      rule(Target.CLASS, "org/apache/hadoop/util/ReflectionUtils", REFLECTION),
      rule(Target.CLASSES_STARTING, "org/apache/hadoop/util/concurrent/", THREADS),
      rule(Target.CLASSES_STARTING, "java/beans/", REFLECTION),
      rule(Target.CLASSES_STARTING, "javax/script/", "tasklets cannot run scripts"),
      rule(Target.CLASSES_STARTING, "java/util/ServiceLoader", CLASS_LOADING),
      rule(Target.CLASSES_STARTING, "java/lang/invoke/", REFLECTION),
      rule(Target.CLASSES_STARTING, "java/io/ObjectInput", "tasklets cannot deserialize objects"),
      methods("java/lang/System", "tasklets cannot write to the device's standard streams", "out", "err"),
      methods("java/lang/System", "tasklets cannot read the device's system properties", "getProperty", "getProperties"),
      methods("java/lang/Throwable", "tasklets cannot write to the device's standard streams", "printStackTrace"),
      methods("java/lang/Class", CLASS_LOADING, "getClassLoader", "getResource", "getResourceAsStream", "getModule"),
      methods("org/apache/hadoop/conf/Configuration", "tasklets cannot load classes or files through the job's "
          + "configuration, or change it", "getClass", "getClassByName", "getClassByNameOrNull", "getInstances",
          "addResource", "set", "setClass", "getLocalPath", "getFile", "getResource", "getConfResourceAsReader",
          "getConfResourceAsInputStream", "writeXml", "iterator", "getPassword", "getClassLoader", "setClassLoader"),
      methods("java/util/Arrays", THREADS, "parallelSort", "parallelPrefix", "parallelSetAll"),
      methods("java/util/Collection", THREADS, "parallelStream"),
      methods("java/util/stream/BaseStream", THREADS, "parallel"),
      methods("java/nio/ByteBuffer", "tasklets cannot allocate memory outside the heap", "allocateDirect"));

  /**
   * Classes of denied families that only name and parse (a URI: a job's paths and the distributed
   * cache's files are URIs): naming them is not refused, and the allow list says which of their members
   * tasklets may use ({@code URI.toURL}, which could open a connection, is not among them).
   */
  private static final Set<String> NAMES_ONLY = Set.of("java/net/URI", "java/net/URISyntaxException");

  private TaskletPolicy() {}

  /** Why tasklets may not use the member {@code name} of {@code owner}, if a family of the lists says. */
  static java.util.Optional<String> reason(String owner, String name) {
    for (List<Rule> rules : List.of(RULES, HINTS)) {
      for (Rule rule : rules) {
        boolean hit = switch (rule.target()) {
          case CLASS -> owner.equals(rule.name());
          case CLASSES_STARTING -> owner.startsWith(rule.name());
          case MEMBERS_OF -> owner.equals(rule.name());
          case METHODS -> owner.equals(rule.name()) && rule.methods().contains(name);
        };
        if (hit) {
          return java.util.Optional.of(rule.reason());
        }
      }
    }
    return java.util.Optional.empty();
  }

  /**
   * What the class reaches for that tasklets may not, one message each (empty: nothing).
   *
   * @param own the classes the tasklet defines itself (internal names), which it may use freely
   */
  static List<String> violations(ClassReferences refs, Set<String> own) {
    String user = refs.className().replace('/', '.');
    Set<String> found = new LinkedHashSet<>();
    for (String name : refs.classes()) {
      if (own.contains(name) || NAMES_ONLY.contains(name)) {
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
