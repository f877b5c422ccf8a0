package org.smartssd.device.runtime.isp;

import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.smartssd.device.tasklet.MergingTasklet;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.opcount.CountingClassLoader;
import org.smartssd.opcount.Instrumenter;
import org.smartssd.opcount.Scopes;

/**
 * Installs tasklet code: a class from a jar's bytes, or a tasklet built into the device; refuses,
 * with a clear message, what is not a tasklet or reaches for what a device does not have.
 *
 * <p>Before any class of a jar is defined, every class it would define is read and checked: against
 * {@link TaskletPolicy}'s deny list (files, network, processes, threads, reflection, class loading,
 * JDK internals, named anywhere), for references to device classes outside the shared packages, and
 * by the sandbox ({@link TaskletSandbox}): every member it uses of code not its own must be on the
 * device's allow list where it is declared, whatever library it goes through. The entry class may
 * also be a runtime the device shares (the device mapper's {@code MapReduceTasklet}), which is the
 * device's code and runs the jar's classes.
 *
 * <p>Each load gets its own class loader, so tasklets never see each other's classes. It sees the
 * jar's classes and files, the Java platform's classes, and the device's classes only in the shared
 * packages. A jar's copies of platform or shared classes are ignored (the platform's and the
 * device's are used), and are not checked since they never run.
 *
 * <p>When counting (the {@code counted} compute model), the work of tasklet code is counted as it
 * runs: the jar's classes are instrumented as they are defined, and the shared packages' classes
 * (Hadoop's, say) and the built-in tasklets are defined, instrumented, by one {@link
 * CountingClassLoader} of the device's, so that the libraries a tasklet goes through count too. The
 * tasklet API itself, and the Java platform, are not counted: a call into them is a library call.
 */
public final class TaskletLoader {

  /** The tasklet API: always shared, so that a tasklet's {@code Tasklet} is the engine's. */
  public static final String TASKLET_API_PACKAGE = "org.smartssd.device.tasklet.";

  private static final int SUPPORTED_CLASS_VERSION = Runtime.version().feature() + 44;
  private static final int CLASSES_LISTED = 5;
  private static final int PROBLEMS_LISTED = 3;

  /** The built-in tasklets' package: counted, unlike the rest of the API. */
  private static final String BUILT_IN_PACKAGE = "org/smartssd/device/tasklet/builtin/";
  /** What instrumented code calls: tasklet loaders see it when counting (tasklet code may not name it). */
  private static final String METER_PACKAGE = "org.smartssd.opcount.";

  private final SortedMap<String, Class<? extends Tasklet>> builtIns;
  private final List<String> sharedPackages;
  private final ClassLoader deviceLoader;
  /** Where tasklet loaders get shared classes: the device's loader, or the counting one. */
  private final ClassLoader sharedLoader;
  /** The counted library classes (shared packages, built-ins), or null when not counting. */
  private final Instrumenter.Scope libraryScope;
  private final ClassLoader platformLoader = ClassLoader.getPlatformClassLoader();
  /** What tasklet code may use of the classes that are not its own. */
  private final TaskletSandbox sandbox;
  /** Calls in tasklet code sent to the device's own replacements, rewritten before the check. */
  private final CallRedirects redirects;

  /**
   * @param builtIns class name to class of the tasklets built into the device, installable without
   *     a jar
   * @param sharedPackages package prefixes of {@code deviceLoader} visible to tasklet code, such as
   *     {@code "org.apache.hadoop."}; {@value #TASKLET_API_PACKAGE} is always added
   * @param deviceLoader the device's class loader, which must see the engine's {@link Tasklet}
   */
  public TaskletLoader(Map<String, Class<? extends Tasklet>> builtIns, List<String> sharedPackages,
      ClassLoader deviceLoader) {
    this(builtIns, sharedPackages, deviceLoader, false);
  }

  /**
   * @param counting whether tasklet code, the shared packages' code it uses and the built-in
   *     tasklets count their work (see the class comment)
   */
  public TaskletLoader(Map<String, Class<? extends Tasklet>> builtIns, List<String> sharedPackages,
      ClassLoader deviceLoader, boolean counting) {
    this.builtIns = new TreeMap<>(builtIns);
    Set<String> prefixes = new LinkedHashSet<>();
    prefixes.add(TASKLET_API_PACKAGE);
    for (String prefix : sharedPackages) {
      prefixes.add(prefix.endsWith(".") ? prefix : prefix + ".");
    }
    this.sharedPackages = List.copyOf(prefixes);
    this.deviceLoader = Objects.requireNonNull(deviceLoader, "deviceLoader");
    Class<?> api;
    try {
      api = deviceLoader.loadClass(Tasklet.class.getName());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("the device class loader does not see " + Tasklet.class.getName(), e);
    }
    if (api != Tasklet.class) {
      throw new IllegalArgumentException("the device class loader has another copy of " + Tasklet.class.getName());
    }
    this.sandbox = new TaskletSandbox(AllowList.load(), TaskletSandbox.classFilesOf(
        name -> shared(name.replace('/', '.')) ? deviceLoader : platformLoader));
    this.redirects = CallRedirects.load(name -> shared(name) && deviceLoader.getResource(internal(name) + ".class") != null);
    if (counting) {
      List<String> libraries = new ArrayList<>();
      for (String prefix : this.sharedPackages) {
        if (!prefix.equals(TASKLET_API_PACKAGE)) {
          libraries.add(internal(prefix));
        }
      }
      libraries.add(BUILT_IN_PACKAGE);
      this.libraryScope = Scopes.packages(libraries);
      this.sharedLoader = new CountingClassLoader("tasklet-libraries", deviceLoader, libraryScope);
    } else {
      this.libraryScope = null;
      this.sharedLoader = deviceLoader;
    }
  }

  /** Whether tasklet code counts its work (see the class comment). */
  public boolean counting() {
    return libraryScope != null;
  }

  /**
   * Loads {@code className} from the jar, or the built-in tasklet of that name when {@code jar} is
   * empty. Does not initialize the class: no tasklet code runs until {@link LoadedTasklet#newInstance}.
   *
   * @throws TaskletRefusedException if the jar is not a jar or lacks the class, if any of its
   *     classes reaches for what a device does not have, or if the class is not a public, concrete
   *     {@link Tasklet} with a public no-argument constructor
   */
  public LoadedTasklet load(ByteBuffer jar, String className) throws TaskletRefusedException {
    Objects.requireNonNull(jar, "jar");
    Objects.requireNonNull(className, "className");
    if (!jar.hasRemaining()) {
      return builtIn(className);
    }
    TaskletJar contents = TaskletJar.read(jar);
    SortedMap<String, byte[]> classes = contents.classes();
    if (!classes.containsKey(className) && !shared(className)) {
      throw new TaskletRefusedException("class " + className + " is not in the jar (it has: " + listed(classes)
          + "), nor in a package this device shares with tasklets (" + String.join(", ", sharedPackages) + ")");
    }
    Set<String> own = ownClasses(classes);
    boolean runtime = !own.contains(internal(className)) && shared(className);
    if (!own.contains(internal(className)) && !runtime) {
      throw new TaskletRefusedException("class " + className + " is the Java platform's, not the tasklet's: the jar's"
          + " copy would not be used");
    }
    Map<String, ClassInfo> ownInfo = new java.util.HashMap<>();
    // What is checked is what runs: the calls the device redirects are rewritten first.
    Map<String, byte[]> entries = new java.util.HashMap<>(contents.entries());
    for (String name : classes.keySet()) {
      if (own.contains(internal(name))) {
        checkVersion(name, classes.get(name));
        try {
          byte[] rewritten = redirects.rewrite(classes.get(name));
          classes.put(name, rewritten);
          entries.put(internal(name) + ".class", rewritten);
          ownInfo.put(internal(name), ClassInfo.read(rewritten));
        } catch (IllegalArgumentException e) {
          throw new TaskletRefusedException("the jar's entry " + internal(name) + ".class is not a class file: "
              + e.getMessage(), e);
        }
      }
    }
    List<String> problems = new ArrayList<>();
    for (String name : classes.keySet()) {
      if (own.contains(internal(name))) {
        problems.addAll(check(name, classes.get(name), own, ownInfo));
      }
    }
    if (!problems.isEmpty()) {
      throw new TaskletRefusedException("tasklet " + className + " refused: "
          + String.join("; ", problems.subList(0, Math.min(PROBLEMS_LISTED, problems.size())))
          + (problems.size() > PROBLEMS_LISTED ? " (and " + (problems.size() - PROBLEMS_LISTED) + " more)" : ""));
    }
    ClassLoader loader;
    if (counting()) {
      List<String> visible = new ArrayList<>(sharedPackages);
      visible.add(METER_PACKAGE);
      Instrumenter.Scope scope = name -> own.contains(name) || libraryScope.counted(name);
      loader = new TaskletClassLoader(className, entries, own, visible, sharedLoader, new Instrumenter(scope));
    } else {
      // Not counted, but stoppable: its loops' heads and handlers ask whether the engine stopped it.
      List<String> visible = new ArrayList<>(sharedPackages);
      visible.add(METER_PACKAGE);
      loader = new TaskletClassLoader(className, entries, own, visible, deviceLoader,
          new Instrumenter(own::contains, false));
    }
    Class<?> type;
    try {
      type = Class.forName(className, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new TaskletRefusedException("class " + className + " cannot be loaded: " + e, e);
    }
    return checked(className, type, loader);
  }

  /** The package prefixes of the device's classes that tasklets see. */
  public List<String> sharedPackages() {
    return sharedPackages;
  }

  private LoadedTasklet builtIn(String className) throws TaskletRefusedException {
    Class<? extends Tasklet> type = builtIns.get(className);
    if (type == null) {
      throw new TaskletRefusedException("no jar was given and " + className + " is not a built-in tasklet; the "
          + "built-ins are: " + (builtIns.isEmpty() ? "(none)" : String.join(", ", builtIns.keySet())));
    }
    if (counting() && libraryScope.counted(internal(className))) {
      try {
        Class<?> counted = Class.forName(className, false, sharedLoader);
        return checked(className, counted, counted.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        throw new TaskletRefusedException("built-in tasklet " + className + " cannot be loaded counted: " + e, e);
      }
    }
    return checked(className, type, type.getClassLoader());
  }

  /** The classes the tasklet's loader would define: not the platform's, not the device's shared ones. */
  private Set<String> ownClasses(SortedMap<String, byte[]> classes) throws TaskletRefusedException {
    Set<String> own = new HashSet<>();
    for (String name : classes.keySet()) {
      if (name.startsWith("java.")) {
        throw new TaskletRefusedException("the jar's class " + name + " is in a package of the Java platform, "
            + "to which tasklets cannot add classes");
      }
      if (!shared(name) && !platform(internal(name))) {
        own.add(internal(name));
      }
    }
    return own;
  }

  /** Refuses a class file newer than this JVM reads (before anything parses the rest of it). */
  private static void checkVersion(String name, byte[] classFile) throws TaskletRefusedException {
    if (classFile.length >= 8 && (classFile[0] & 0xFF) == 0xCA && (classFile[1] & 0xFF) == 0xFE) {
      int major = ((classFile[6] & 0xFF) << 8) | (classFile[7] & 0xFF);
      if (major > SUPPORTED_CLASS_VERSION) {
        throw new TaskletRefusedException("class " + name + " was compiled for Java " + (major - 44)
            + "; the device runs Java " + Runtime.version().feature());
      }
    }
  }

  /** The problems of one of the tasklet's own classes, read from its bytes. */
  private List<String> check(String name, byte[] classFile, Set<String> own, Map<String, ClassInfo> ownInfo)
      throws TaskletRefusedException {
    ClassReferences refs;
    try {
      refs = ClassReferences.read(classFile);
    } catch (IllegalArgumentException e) {
      throw new TaskletRefusedException("the jar's entry " + internal(name) + ".class is not a class file: "
          + e.getMessage(), e);
    }
    if (!refs.className().equals(internal(name))) {
      throw new TaskletRefusedException("the jar's entry " + internal(name) + ".class holds class "
          + refs.className().replace('/', '.'));
    }
    if (refs.majorVersion() > SUPPORTED_CLASS_VERSION) {
      throw new TaskletRefusedException("class " + name + " was compiled for Java " + (refs.majorVersion() - 44)
          + "; the device runs Java " + Runtime.version().feature());
    }
    List<String> problems = new ArrayList<>(TaskletPolicy.violations(refs, own));
    problems.addAll(sandbox.violations(refs, ownInfo));
    for (String used : refs.classes()) {
      if (!own.contains(used) && !shared(used.replace('/', '.')) && !platform(used)
          && deviceLoader.getResource(used + ".class") != null) {
        problems.add("class " + name + " refers to " + used.replace('/', '.') + ", a class of the device that "
            + "tasklets cannot use (they see the Java platform and " + String.join(", ", sharedPackages) + ")");
      }
    }
    return problems;
  }

  private static LoadedTasklet checked(String className, Class<?> type, ClassLoader code)
      throws TaskletRefusedException {
    String what = "class " + className;
    if (type.isInterface()) {
      throw new TaskletRefusedException(what + " is an interface, not a class implementing " + Tasklet.class.getName());
    }
    if (Modifier.isAbstract(type.getModifiers())) {
      throw new TaskletRefusedException(what + " is abstract");
    }
    if (!Modifier.isPublic(type.getModifiers())) {
      throw new TaskletRefusedException(what + " is not public");
    }
    if (!Tasklet.class.isAssignableFrom(type)) {
      throw new TaskletRefusedException(what + " does not implement " + Tasklet.class.getName());
    }
    try {
      type.getConstructor();
    } catch (NoSuchMethodException | SecurityException e) {
      throw new TaskletRefusedException(what + " has no public no-argument constructor");
    } catch (LinkageError e) {
      throw new TaskletRefusedException(what + " cannot be linked: " + e, e);
    }
    return new LoadedTasklet(className, type.asSubclass(Tasklet.class), MergingTasklet.class.isAssignableFrom(type),
        code);
  }

  private boolean shared(String binaryName) {
    for (String prefix : sharedPackages) {
      if (binaryName.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  private boolean platform(String internalName) {
    return platformLoader.getResource(internalName + ".class") != null;
  }

  private static String internal(String binaryName) {
    return binaryName.replace('.', '/');
  }

  private static String listed(SortedMap<String, byte[]> classes) {
    List<String> names = new ArrayList<>(classes.keySet());
    if (names.isEmpty()) {
      return "no classes";
    }
    String first = String.join(", ", names.subList(0, Math.min(CLASSES_LISTED, names.size())));
    return names.size() > CLASSES_LISTED ? first + ", ... (" + names.size() + " classes)" : first;
  }
}
